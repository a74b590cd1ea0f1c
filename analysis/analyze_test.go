package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// A kind is a game with its seat count and options: every one the games
// allow (each board of IceFrogs, each seat count of Pikemen).
type kind struct {
	name string
	game rules.Game
	opt  rules.Options
}

func kinds() []kind {
	var out []kind
	for _, g := range games.All() {
		boards := []string{""}
		for _, o := range g.Info().Options {
			if o.Name == rules.OptionBoard {
				boards = o.Choices
			}
		}
		for _, seats := range g.Info().Seats {
			for _, b := range boards {
				name := fmt.Sprintf("%s/%d seats", g.Name(), seats)
				if b != "" {
					name += "/" + b
				}
				out = append(out, kind{name, g, rules.Options{Seats: seats, Board: b}})
			}
		}
	}
	return out
}

// find plays random games of k from its start, with a seed, until fn,
// given each position and the one before it (nil at the start), returns
// a position and a move to play there.
func find(t *testing.T, k kind, fn func(prev, s rules.State) (rules.State, rules.Move, bool)) (rules.State, rules.Move) {
	t.Helper()
	s, m, ok := findIn(t, k, fn)
	if !ok {
		t.Fatalf("%s: no position found in 200 random games", k.name)
	}
	return s, m
}

// findIn is find, reporting false when no position is found.
func findIn(t *testing.T, k kind, fn func(prev, s rules.State) (rules.State, rules.Move, bool)) (rules.State, rules.Move, bool) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		s, err := k.game.Start(k.opt)
		if err != nil {
			t.Fatal(err)
		}
		var prev rules.State
		for ply := 0; ply < 400 && !s.Outcome().Over; ply++ {
			if at, m, ok := fn(prev, s); ok {
				return at, m, true
			}
			ms := s.Moves(nil)
			prev = s
			if s, err = s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	return nil, rules.Move{}, false
}

// recordFrom is the record of one move m played from s (its Setup tag),
// as read back from its text.
func recordFrom(t *testing.T, s rules.State, m rules.Move) *notation.Record {
	t.Helper()
	g := notation.NewGame(s, nil)
	g.Record.SetTag("Setup", s.Code())
	if err := g.Play(m, ""); err != nil {
		t.Fatal(err)
	}
	return parseOne(t, g.Record.String())
}

// analyse runs Analyze and Annotate at level 1 and checks that the
// result validates, and reads back and formats as it was written.
func analyse(t *testing.T, rec *notation.Record, seed uint64) *Report {
	t.Helper()
	r, err := Analyze(context.Background(), rec, Options{Level: 1, Seed: seed, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := Annotate(rec, r); err != nil {
		t.Fatal(err)
	}
	text := rec.String()
	back := parseOne(t, text)
	if err := notation.Validate(back); err != nil {
		t.Fatalf("the analysed record does not validate: %v\n%s", err, text)
	}
	if again := back.String(); again != text {
		t.Fatalf("the analysed record does not round-trip:\n%s\nthen\n%s", text, again)
	}
	read, ok, err := Read(back)
	if !ok || err != nil {
		t.Fatalf("Read: %v, %v\n%s", ok, err, text)
	}
	if len(read.Moves) != len(r.Moves) || read.Level != 1 {
		t.Fatalf("Read gave %+v for %+v", read, r)
	}
	return r
}

// In every kind of game, a move that misses a win in one is a blunder,
// with the winning move as the better one (here one that loses the win,
// not only puts it off a turn: TestWinPutOff has those).
func TestMissedWinInOne(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			var win rules.Move
			s, m := find(t, k, func(_, s rules.State) (rules.State, rules.Move, bool) {
				w, ok := winInOne(s, s.ToMove())
				if !ok {
					return nil, rules.Move{}, false
				}
				win = w
				for _, m := range s.Moves(nil) {
					if next, _ := s.Play(m); !wins(next, s.ToMove()) && !keepsWin(next, s.ToMove()) {
						return s, m, true
					}
				}
				return nil, rules.Move{}, false
			})
			rec := recordFrom(t, s, m)
			r := analyse(t, rec, 1)
			a := r.Moves[0]
			if a.Mark != Blunder || a.Better != s.FormatMove(win) || a.Seat != s.ToMove() {
				t.Errorf("%s instead of the win %s: %+v\n%s", s.FormatMove(m), s.FormatMove(win), a, rec)
			}
			if !strings.Contains(oneLine(rec.String()), s.FormatMove(win)+" {[%eval 1.00] [%wins 1] [%engine]})") {
				t.Errorf("the win is not the variation:\n%s", rec)
			}
			if !MissedWin(s, a) {
				t.Errorf("MissedWin is false for %+v", a)
			}
		})
	}
}

// A missed win in one that only puts the win off a turn (the mover wins
// at once on its next turn whatever the others play) is still a blunder,
// with the win as the better move (issue 32: "always"), but the mover's
// result is 1 before and after. In every kind of game.
//
// keepsWin looks at keepBudget positions at most. With two seats that
// is always enough, and random games soon give such a move. With three
// and four it is enough only when the other seats have few replies
// (docs/engine.md, "Analysis"), which random games seldom reach: none in
// a minute of random Pikemen games with three or four seats. Those kinds
// start from a position set up for it (putOffSetups).
func TestWinPutOff(t *testing.T) {
	for name := range putOffSetups {
		if !slices.ContainsFunc(kinds(), func(k kind) bool { return k.name == name }) {
			t.Errorf("putOffSetups names %q, no kind of game", name)
		}
	}
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			var s rules.State
			var m rules.Move
			if su, ok := putOffSetups[k.name]; ok {
				s, m = setUp(t, k, su.code, su.move)
			} else {
				s, m = findPutOff(t, k)
			}
			mover := s.ToMove()
			if _, ok := winInOne(s, mover); !ok {
				t.Fatalf("the seat to move has no win in one:\n%s", s.Code())
			}
			if next, err := s.Play(m); err != nil || wins(next, mover) || !keepsWin(next, mover) {
				t.Fatalf("%s does not put the win off a turn (%v):\n%s", s.FormatMove(m), err, s.Code())
			}
			rec := recordFrom(t, s, m)
			a := analyse(t, rec, 1).Moves[0]
			if a.Mark != Blunder || a.Before != 1 || a.After != 1 || a.Better == "" || a.Seat != mover || !MissedWin(s, a) {
				t.Errorf("%s puts the win off a turn: %+v\n%s", a.Token, a, rec)
			}
		})
	}
}

// putOffSetups are positions, by kind of game, where the seat to move
// has a win in one and a move that puts it off a turn, which keepsWin
// can tell: for the kinds with three and four seats, where random games
// seldom give one.
var putOffSetups = map[string]struct{ code, move string }{
	// Set up: seat 1, at 11 points of 12, has its large on a1 pointing N
	// at seat 2's small on a3 (a1xa3 wins). The others have one small
	// each, standing upright: none can charge before seat 1's next turn,
	// and each has only its eight reorients to play. a1-a2 still points
	// at a3.
	"Pikemen/3 seats": {"Pikemen 3 12 7S3U/8/8/8/8/S2U7/8/L1N7 11:0:0 1", "a1-a2"},
	"Pikemen/4 seats": {"Pikemen 4 12 7S3U/8/7S4U/8/8/S2U7/8/L1N7 11:0:0:0 1", "a1-a2"},
	// Found in random games: seed 11 and seed 10 of rand.NewPCG(seed, 99),
	// plies 28 and 22.
	"IceFrogs/3 seats/star": {"IceFrogs star 3 ./1L./..2L1S.../....../2L1M.../2M2M..../..2M.(3S3S3S3L)3M./../. 444/523/244 2", "f2-d3-b2"},
	"IceFrogs/3 seats/hex":  {"IceFrogs hex 3 .2L1L./.(1M1M).../..(1L1L1L).../..2L.3S3M./....../.(2M2M).../..2L. 531/532/445 2", "d3-b3-a3"},
}

// setUp reads a position of k and a move in it.
func setUp(t *testing.T, k kind, code, move string) (rules.State, rules.Move) {
	t.Helper()
	s, err := k.game.ParsePosition(code)
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Options(); o.Seats != k.opt.Seats || o.Board != k.opt.Board {
		t.Fatalf("the position is of %d seats, board %q; the kind has %d, %q", o.Seats, o.Board, k.opt.Seats, k.opt.Board)
	}
	m, err := s.ParseMove(move)
	if err != nil {
		t.Fatal(err)
	}
	return s, m
}

// findPutOff looks in random games of k for a position where the seat to
// move has a win in one, and a move that puts it off a turn. It fails
// after 200 moves that miss the win, each looked at by keepsWin.
func findPutOff(t *testing.T, k kind) (rules.State, rules.Move) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	tries := 0
	for range 100 {
		s, err := k.game.Start(k.opt)
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 400 && !s.Outcome().Over && tries < 200; ply++ {
			if _, ok := winInOne(s, s.ToMove()); ok {
				for _, m := range s.Moves(nil) {
					next, _ := s.Play(m)
					if wins(next, s.ToMove()) {
						continue
					}
					tries++
					if keepsWin(next, s.ToMove()) {
						return s, m
					}
				}
			}
			ms := s.Moves(nil)
			if s, err = s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatalf("%s: no move that puts a win in one off a turn in random games (%d tried); set a position up in putOffSetups", k.name, tries)
	return nil, rules.Move{}
}

// maxUnmarked is how many moves that let the next seat win, unmarked
// because their safe moves are lost as well, TestLetsTheNextSeatWin
// checks at three and four seats before it gives up looking for a
// marked one: each is an analysis, and random games of three and four
// seats have many.
const maxUnmarked = 6

// In every kind of game, a move that lets the next seat win at once, when
// another does not (and that one is not lost as well), is at least a
// mistake, and the better move shown is one that does not.
func TestLetsTheNextSeatWin(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			// The move before a position where the seat to move wins at
			// once let it win; look for a safe one beside it only then.
			// A safe move the estimates find lost as well (random games
			// have many lost positions) leaves the move unmarked: those
			// are checked and passed over.
			var a Move
			var rec *notation.Record
			unmarked := 0 // moves checked and passed over
			s, m, ok := findIn(t, k, func(prev, s rules.State) (rules.State, rules.Move, bool) {
				if prev == nil || !lets(s) || k.opt.Seats > 2 && unmarked >= maxUnmarked {
					return nil, rules.Move{}, false
				}
				if _, ok := winInOne(prev, prev.ToMove()); ok {
					return nil, rules.Move{}, false // missing it is a blunder anyway
				}
				if len(safeMoves(prev)) == 0 {
					return nil, rules.Move{}, false
				}
				for _, bad := range prev.Moves(nil) {
					if next, _ := prev.Play(bad); next.Code() == s.Code() {
						rec = recordFrom(t, prev, bad)
						a = analyse(t, rec, 1).Moves[0]
						if a.Mark == Good {
							if a.Before >= InaccuracyLoss || a.After != 0 || a.Better != "" {
								t.Fatalf("%s lets the next seat win, unmarked: %+v\n%s", a.Token, a, rec)
							}
							unmarked++
							return nil, rules.Move{}, false
						}
						return prev, bad, true
					}
				}
				return nil, rules.Move{}, false
			})
			if !ok && k.opt.Seats > 2 {
				// With three and four seats, random games' positions
				// where a seat can win at once are lost for the others
				// as well by the fresh playouts: every unmarked one was
				// checked above.
				t.Skipf("%s: the %d moves found that let the next seat win had their safe moves lost as well", k.name, unmarked)
			}
			if !ok {
				t.Fatalf("%s: no position found in 200 random games", k.name)
			}
			if a.Mark < Mistake || a.Better == "" || a.After != 0 {
				t.Fatalf("%s lets the next seat win: %+v\n%s", s.FormatMove(m), a, rec)
			}
			b, err := s.ParseMove(a.Better)
			if err != nil {
				t.Fatal(err)
			}
			if next, _ := s.Play(b); lets(next) {
				t.Errorf("the better move %s lets the next seat win too", a.Better)
			}
			if next, _ := s.Play(b); MissedWin(s, a) != wins(next, a.Seat) {
				t.Errorf("MissedWin says %v of a move that lets the next seat win, whose better move %s wins: %v", MissedWin(s, a), a.Better, wins(next, a.Seat))
			}
		})
	}
}

// A record's own comments, NAGs and variations stay through an analysis,
// a second analysis with the same seed changes nothing, and the report is
// the same whether the analyses run one after the other or at once.
func TestAnalyzeKeepsTheRecordAndRepeats(t *testing.T) {
	const src = `[Game "IceSickle"]
[Player1 "Ada"]
[Player2 "Bob"]

{before the game} 1. L@c3 ! {my favourite} M@b2 ?? (M@b1 {safer}) 2. S@a1 M@d4
3. S@e5 *
`
	rec := parseOne(t, src)
	analyse(t, rec, 3)
	text := oneLine(rec.String())
	for _, want := range []string{"{before the game} 1. L@c3 $1", "{my favourite} {[%eval", "1... M@b2 $4", "(1... M@b1 {safer})"} {
		if !strings.Contains(text, want) {
			t.Errorf("the analysed record lost %q:\n%s", want, text)
		}
	}
	// The record gave M@b2 ?? already: a blunder here is not given twice.
	if strings.Contains(text, "$4 $4") {
		t.Errorf("a NAG given twice:\n%s", text)
	}
	again := parseOne(t, rec.String())
	analyse(t, again, 3)
	if got := oneLine(again.String()); got != text {
		t.Errorf("a second analysis with the same seed changed the record:\n%s\nthen\n%s", text, got)
	}
	Strip(again)
	if got := again.String(); got != parseOne(t, src).String() {
		t.Errorf("Strip after Analyze left\n%s", got)
	}

	// Two at once, each with its own Player and two workers, give what
	// one alone gives (go test -race checks they share nothing).
	// The records are read here: parseOne calls t.Fatal, which only the
	// test's goroutine may.
	reports := make([]*Report, 2)
	errs := make([]error, 2)
	recs := []*notation.Record{parseOne(t, src), parseOne(t, src)}
	var wg sync.WaitGroup
	for i := range reports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = Analyze(context.Background(), recs[i], Options{Level: 1, Seed: 9, Workers: 2})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("analysis %d at once: %v", i, err)
		}
	}
	alone, err := Analyze(context.Background(), parseOne(t, src), Options{Level: 1, Seed: 9, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, rep := range reports {
		if rep == nil || !reflect.DeepEqual(rep.Moves, alone.Moves) {
			t.Errorf("analysis %d at once gave %+v, alone %+v", i, rep, alone)
		}
	}
}

// A context that ends stops the analysis with its error.
func TestAnalyzeStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rec := parseOne(t, club)
	if _, err := Analyze(ctx, rec, Options{Level: 1}); err == nil {
		t.Error("Analyze with an ended context returned no error")
	}
}

// oneLine is a record's text with each run of spaces and line breaks
// made one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// A move that lets the next seat win is not marked for it when every
// legal move does: there was nothing better. Such positions are rarer;
// the test needs one in some kind of game.
func TestEveryMoveLetsTheNextSeatWin(t *testing.T) {
	found := 0
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, 4))
			for range 100 {
				s, _ := k.game.Start(k.opt)
				var prev rules.State
				for ply := 0; ply < 400 && !s.Outcome().Over; ply++ {
					if prev != nil && lets(s) {
						if _, ok := winInOne(prev, prev.ToMove()); !ok {
							if len(safeMoves(prev)) == 0 {
								checkHopeless(t, prev, s)
								found++
								return
							}
						}
					}
					ms := s.Moves(nil)
					prev = s
					s, _ = s.Play(ms[rng.IntN(len(ms))])
				}
			}
			t.Skip("no such position in 100 random games")
		})
	}
	if found == 0 {
		t.Error("no kind of game gave a position where every move lets the next seat win")
	}
}

// checkHopeless analyses the move from prev to s, after which the next
// seat wins whatever the move was.
func checkHopeless(t *testing.T, prev, s rules.State) {
	t.Helper()
	for _, m := range prev.Moves(nil) {
		if next, _ := prev.Play(m); next.Code() == s.Code() {
			rec := recordFrom(t, prev, m)
			a := analyse(t, rec, 1).Moves[0]
			if a.Mark != Good || a.Before != 0 || a.After != 0 {
				t.Errorf("every move lets the next seat win, and %s is %+v\n%s", a.Token, a, rec)
			}
			return
		}
	}
	t.Fatal("the move played is not found")
}
