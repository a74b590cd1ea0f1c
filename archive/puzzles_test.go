package archive

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/solve"
)

// puzzleGames is a record file of random games (which miss wins often):
// Ice Lady, IceFrogs, Pikemen to 4 points, and one Pikemen game of three
// seats, which gives no puzzle.
func puzzleGames(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(41, 2))
	var b strings.Builder
	for i, v := range []struct {
		game string
		opt  rules.Options
	}{{"IceLady", rules.Options{}}, {"IceFrogs", rules.Options{Board: "hex"}}, {"Pikemen", rules.Options{Target: 4}}, {"Pikemen", rules.Options{Seats: 3, Target: 4}}} {
		g, _ := games.Lookup(v.game)
		start, err := g.Start(v.opt)
		if err != nil {
			t.Fatal(err)
		}
		tags := []notation.Tag{{Name: "Event", Value: "Puzzle night"}, {Name: "Date", Value: "2026.11.28"},
			{Name: "Player1", Value: "Ada <ada@example.org>"}, {Name: "Player2", Value: "Bob"}}
		if v.opt.Seats == 3 {
			tags = append(tags, notation.Tag{Name: "Player3", Value: "Cy"})
		}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 150+i))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(rec.String() + "\n")
	}
	return b.String()
}

// FindPuzzles stores the puzzles of the games of two seats, each a
// missed forced win that solve proves, named by the game's tags without
// addresses; a second run searches nothing again; Again keeps each
// puzzle's id and counts; a deleted game takes its puzzles along.
func TestFindPuzzles(t *testing.T) {
	ctx := context.Background()
	a, _ := openTemp(t)
	importText(t, a, puzzleGames(t))
	st, err := a.FindPuzzles(ctx, Query{}, PuzzleOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Selected != 3 || st.Searched != 3 || st.Found == 0 || st.Failed != 0 {
		t.Fatalf("%+v", st)
	}
	ps, err := a.Puzzles(ctx, PuzzleQuery{})
	if err != nil || len(ps) != st.Found {
		t.Fatalf("%d puzzles, %v; found %d", len(ps), err, st.Found)
	}
	if n, err := a.CountPuzzles(ctx, PuzzleQuery{}); n != len(ps) || err != nil {
		t.Fatalf("CountPuzzles %d, %v", n, err)
	}
	kinds := map[string]bool{}
	for _, p := range ps {
		kinds[p.Game] = true
		s, err := p.Start()
		if err != nil {
			t.Fatal(err)
		}
		r, err := solve.Win(ctx, s, solve.MaxMoves, 0)
		if err != nil || r.In != p.In {
			t.Fatalf("puzzle %d: Win %+v, %v; stored in %d", p.ID, r, err, p.In)
		}
		rec, err := p.Record()
		if err != nil {
			t.Fatal(err)
		}
		text := rec.String()
		if err := notation.Validate(rec); err != nil || strings.Contains(text, "example.org") || !strings.Contains(text, `[Event "Puzzle night"]`) || !strings.Contains(text, `[Player1 "Ada"]`) {
			t.Fatalf("puzzle %d (%v):\n%s", p.ID, err, text)
		}
		one, err := a.Puzzle(ctx, p.ID)
		if err != nil || one.Setup != p.Setup || !slices.Equal(one.Solution, p.Solution) {
			t.Fatalf("Puzzle(%d): %+v, %v", p.ID, one, err)
		}
	}
	if len(kinds) < 2 {
		t.Errorf("puzzles of %v only", kinds)
	}
	if only, err := a.Puzzles(ctx, PuzzleQuery{Game: "pikemen"}); err != nil || len(only) == 0 || slices.ContainsFunc(only, func(p *StoredPuzzle) bool { return p.Game != "Pikemen" }) {
		t.Errorf("Pikemen's: %d, %v", len(only), err)
	}

	// Tries are counted in the puzzle's row: an attempt with the first
	// move, a solve with the win.
	p := ps[0]
	mine := ownMoves(t, p)
	if _, at, err := a.Answer(ctx, p.ID, mine[:1], true, 0); err != nil || (len(mine) == 1) != at.Solved {
		t.Fatalf("the first move: %+v, %v", at, err)
	}
	if len(mine) > 1 {
		if _, at, err := a.Answer(ctx, p.ID, mine, true, 0); err != nil || !at.Solved {
			t.Fatalf("the solution: %+v, %v", at, err)
		}
	}
	if _, at, err := a.Answer(ctx, p.ID, []string{p.Played}, true, 0); err != nil || at.Wrong == "" {
		t.Fatalf("the move played: %+v, %v", at, err)
	}
	after, _ := a.Puzzle(ctx, p.ID)
	if after.Attempts != 2 || after.Solved != 1 {
		t.Fatalf("attempts %d, solved %d; want 2 and 1", after.Attempts, after.Solved)
	}

	// Searched once: not again, unless asked; asked, the ids and counts stay.
	if st, err := a.FindPuzzles(ctx, Query{}, PuzzleOptions{}); err != nil || st.Selected != 0 {
		t.Fatalf("again: %+v, %v", st, err)
	}
	if st, err := a.FindPuzzles(ctx, Query{}, PuzzleOptions{Again: true}); err != nil || st.Searched != 3 || st.Found != len(ps) {
		t.Fatalf("-again: %+v, %v", st, err)
	}
	if again, _ := a.Puzzle(ctx, p.ID); again == nil || again.Attempts != 2 || again.Setup != p.Setup {
		t.Fatalf("after searching again: %+v", again)
	}

	// NextPuzzle goes round.
	next, err := a.NextPuzzle(ctx, "", 0)
	if err != nil || next.ID != ps[0].ID {
		t.Fatalf("the first: %+v, %v", next, err)
	}
	if next, err = a.NextPuzzle(ctx, "", ps[len(ps)-1].ID); err != nil || next.ID != ps[0].ID {
		t.Fatalf("after the last: %+v, %v", next, err)
	}
	if _, err := a.NextPuzzle(ctx, "IceSickle", 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("no IceSickle puzzle: %v", err)
	}

	// A deleted game takes its puzzles along.
	if err := a.Delete(ctx, p.GameID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Puzzle(ctx, p.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the deleted game's puzzle: %v", err)
	}
}

// ownMoves are the moves of the seat to move in p's solution.
func ownMoves(t *testing.T, p *StoredPuzzle) []string {
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
