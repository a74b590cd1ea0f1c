package puzzle

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/solve"
)

// randomGames plays random games of every game of two seats (each board)
// and returns them replayed from their records, with tags as an
// archive's game has them (a player with an address).
func randomGames(t *testing.T, each int) []*notation.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(41, 1))
	var out []*notation.Game
	for _, g := range games.All() {
		boards := []string{""}
		for _, o := range g.Info().Options {
			if o.Name == rules.OptionBoard {
				boards = o.Choices
			}
		}
		for _, b := range boards {
			opt := rules.Options{Seats: 2, Board: b}
			if g.Name() == "Pikemen" {
				// Random games reach 12 points after hundreds of plies;
				// a target of 4 keeps them short, with wins to miss.
				opt.Target = 4
			}
			start, err := g.Start(opt)
			if err != nil {
				t.Fatal(err)
			}
			for range each {
				tags := []notation.Tag{{Name: "Event", Value: "Club night"}, {Name: "Date", Value: "2026.11.28"},
					{Name: "Player1", Value: "Ada <ada@example.org>"}, {Name: "Player2", Value: "Bob"}}
				rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 60))
				if err != nil {
					t.Fatal(err)
				}
				back, errs := notation.Parse("random", []byte(rec.String()))
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				rg, err := notation.Replay(back[0])
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, rg)
			}
		}
	}
	return out
}

// gamePuzzles is a game and its puzzles.
type gamePuzzles struct {
	g  *notation.Game
	ps []Puzzle
}

var (
	foundOnce sync.Once
	foundAll  []gamePuzzles
	foundErr  error
)

// found is the puzzles of randomGames (three games of each kind, one
// with -short), found once for the tests that read them.
func found(t *testing.T) []gamePuzzles {
	t.Helper()
	each := 3
	if testing.Short() || raceEnabled {
		each = 1
	}
	foundOnce.Do(func() {
		for _, g := range randomGames(t, each) {
			ps, err := Find(context.Background(), g, Options{})
			if err != nil {
				foundErr = err
				return
			}
			foundAll = append(foundAll, gamePuzzles{g, ps})
		}
	})
	if foundErr != nil {
		t.Fatal(foundErr)
	}
	return foundAll
}

// Random games miss wins often: each puzzle Find gives is a proved win
// missed, its record validates with the position as Setup and the
// solution as the main line, names no address, and its solution solves
// it; the move played is wrong. Every kind of game gives some.
func TestFind(t *testing.T) {
	ctx := context.Background()
	byGame := map[string]int{}
	for _, f := range found(t) {
		g, ps := f.g, f.ps
		for _, p := range ps {
			if byGame[p.Game]++; byGame[p.Game] > 12 {
				continue // enough of this game checked
			}
			s := g.States[p.Ply-1]
			if s.Code() != p.Setup || s.ToMove() != p.Seat {
				t.Fatalf("%+v is not the position before ply %d", p, p.Ply)
			}
			r, err := solve.Win(ctx, s, solve.MaxMoves, 0)
			if err != nil || r.In != p.In {
				t.Fatalf("%s: Win says %+v, the puzzle in %d (%v)", p.Setup, r, p.In, err)
			}
			// And by the definition alone (minutes for Pikemen's wins
			// in 3): a win in In, none shorter, and none as short after
			// the move played.
			if p.Game != "Pikemen" || p.In < 3 {
				next, _, _ := rules.Play(s, p.Played)
				if !brute(s, p.Seat, p.In) || brute(s, p.Seat, p.In-1) || brute(next, p.Seat, p.In-1) {
					t.Fatalf("%s: the brute force does not agree with a win in %d missed by %s", p.Setup, p.In, p.Played)
				}
			}
			if g.Token(p.Ply) != p.Played {
				t.Fatalf("played %s, the game %s", p.Played, g.Token(p.Ply))
			}
			rec, err := p.Record(7)
			if err != nil {
				t.Fatal(err)
			}
			text := rec.String()
			if strings.Contains(text, "ada@example.org") {
				t.Fatalf("the record names an address:\n%s", text)
			}
			back, errs := notation.Parse("puzzle", []byte(text))
			if len(errs) > 0 {
				t.Fatalf("%v\n%s", errs, text)
			}
			if err := notation.Validate(back[0]); err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			for _, want := range []string{`[Setup "` + p.Setup + `"]`, `[Puzzle "wins in `, `[PuzzleGame "7"]`, `[Player1 "Ada"]`, `[Event "Club night"]`} {
				if !strings.Contains(text, want) {
					t.Fatalf("no %s in\n%s", want, text)
				}
			}
			mine := ownMoves(t, p)
			a, err := Play(ctx, p, mine, 0)
			if err != nil || !a.Solved {
				t.Fatalf("%s: the solution %v: %+v, %v", p.Setup, p.Solution, a, err)
			}
			a, err = Play(ctx, p, []string{p.Played}, 0)
			if err != nil || a.Solved || a.Wrong != p.Played || len(a.Plies) != 0 {
				t.Fatalf("%s: the move played %s: %+v, %v", p.Setup, p.Played, a, err)
			}
		}
	}
	t.Logf("puzzles by game: %v", byGame)
	for _, g := range games.All() {
		if byGame[g.Name()] == 0 {
			t.Errorf("no puzzle of %s in random games", g.Name())
		}
	}
}

// Any move that still forces the win is right, not only the stored
// solution's: a puzzle with two winning moves takes either.
func TestPlayTakesAnyWin(t *testing.T) {
	ctx := context.Background()
	found := false
	for _, g := range randomGames(t, 4) {
		ps, err := Find(ctx, g, Options{Moves: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			s, _ := p.Start()
			for _, m := range s.Moves(nil) {
				tok := s.FormatMove(m)
				next, _ := s.Play(m)
				if tok == p.Solution[0] || !next.Outcome().Over || next.Outcome().Winner != p.Seat {
					continue
				}
				a, err := Play(ctx, p, []string{tok}, 0)
				if err != nil || !a.Solved || a.Wrong != "" {
					t.Fatalf("%s: %s wins too: %+v, %v", p.Setup, tok, a, err)
				}
				found = true
			}
		}
	}
	if !found {
		t.Fatal("no puzzle with two winning moves in random games")
	}
}

// A wrong move before the last, a move of the defence's seat and a move
// after the win are refused as answers.
func TestPlayRefuses(t *testing.T) {
	ctx := context.Background()
	tried, after := 0, 0
	for _, f := range found(t) {
		for _, p := range f.ps {
			if tried >= 10 && after > 0 {
				return
			}
			tried++
			if _, err := Play(ctx, p, []string{p.Played, p.Solution[0]}, 0); !errors.Is(err, ErrAnswer) {
				t.Fatalf("a wrong move, then another: %v", err)
			}
			if _, err := Play(ctx, p, []string{"nonsense"}, 0); !errors.Is(err, ErrAnswer) {
				t.Fatalf("nonsense: %v", err)
			}
			if p.In == 1 {
				after++
				if _, err := Play(ctx, p, []string{p.Solution[0], p.Solution[0]}, 0); !errors.Is(err, ErrAnswer) {
					t.Fatalf("a move after the win: %v", err)
				}
			}
		}
	}
	t.Fatalf("%d puzzles, %d of them in one: too few", tried, after)
}

// brute reports whether seat wins from s within k own moves, by the
// definition and nothing else (every move and reply tried, on States).
func brute(s rules.State, seat, k int) bool {
	if o := s.Outcome(); o.Over {
		return o.Winner == seat
	}
	if k == 0 {
		return false
	}
	ms := s.Moves(nil)
	mine := s.ToMove() == seat
	if !mine && len(ms) == 0 {
		return false
	}
	for _, m := range ms {
		next, err := s.Play(m)
		if err != nil {
			panic(err)
		}
		left := k
		if mine {
			left--
		}
		if w := brute(next, seat, left); w == mine {
			return w
		}
	}
	return !mine
}

// ownMoves are the moves of the seat to move in p's solution.
func ownMoves(t *testing.T, p Puzzle) []string {
	t.Helper()
	s, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, tok := range p.Solution {
		if s.ToMove() == p.Seat {
			mine = append(mine, tok)
		}
		if s, _, err = rules.Play(s, tok); err != nil {
			t.Fatal(err)
		}
	}
	return mine
}

func TestParseMoves(t *testing.T) {
	if got := ParseMoves(" a1:NE, c3xa1  b2 "); !slices.Equal(got, []string{"a1:NE", "c3xa1", "b2"}) {
		t.Fatal(got)
	}
}
