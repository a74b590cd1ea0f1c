package solve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/games"
)

// kind is a game of two seats on one board.
type kind struct {
	name string
	game rules.Game
	opt  rules.Options
}

// kinds are every game of two seats, each board.
func kinds() []kind {
	var out []kind
	for _, g := range games.All() {
		boards := []string{""}
		for _, o := range g.Info().Options {
			if o.Name == rules.OptionBoard {
				boards = o.Choices
			}
		}
		for _, b := range boards {
			name := g.Name()
			if b != "" {
				name += "/" + b
			}
			out = append(out, kind{name, g, rules.Options{Seats: 2, Board: b}})
		}
	}
	return out
}

// brute reports whether seat wins from s within k own moves, by the
// definition and nothing else: every move of the seat tried, every reply
// of the other, on States (no Mutable, no order, no FirstWin).
func brute(s rules.State, seat, k int) bool {
	if o := s.Outcome(); o.Over {
		return o.Winner == seat
	}
	if k == 0 {
		return false // the seat has made its moves; the game goes on
	}
	ms := s.Moves(nil)
	if s.ToMove() == seat {
		for _, m := range ms {
			next, err := s.Play(m)
			if err != nil {
				panic(err)
			}
			if brute(next, seat, k-1) {
				return true
			}
		}
		return false
	}
	if len(ms) == 0 {
		return false
	}
	for _, m := range ms {
		next, err := s.Play(m)
		if err != nil {
			panic(err)
		}
		if !brute(next, seat, k) {
			return false
		}
	}
	return true
}

// bruteIn is the fewest own moves (1..n) of a forced win by brute, 0 for
// none.
func bruteIn(s rules.State, n int) int {
	for k := 1; k <= n; k++ {
		if brute(s, s.ToMove(), k) {
			return k
		}
	}
	return 0
}

// checkLine fails unless r's line is a forced win of r.In moves from s:
// legal, ending with the mover the winner, the mover moving In times,
// each position after the mover's i-th move won within In-i by brute
// (each defence in it lasts as long as any: the line is as long as
// the proof says).
func checkLine(t *testing.T, s rules.State, r Result) {
	t.Helper()
	mover := s.ToMove()
	cur := s
	own := 0
	lastMover := 0
	for i, m := range r.Line {
		if cur.Outcome().Over {
			t.Fatalf("%s: the line goes on after the game's end at %d: %v", s.Code(), i, tokens(s, r.Line))
		}
		if lastMover = cur.ToMove(); lastMover == mover {
			own++
		}
		next, err := cur.Play(m)
		if err != nil {
			t.Fatalf("%s: the line's move %d is illegal: %v", s.Code(), i, err)
		}
		cur = next
	}
	// The line ends with the mover's In-th move, or with the
	// opponent's reply that ends the game before it.
	last := len(r.Line) > 0 && lastMover == mover
	if !wins(cur, mover) || (last && own != r.In) || (!last && own != r.In-1) {
		t.Fatalf("%s: the line %v ends %v after %d own moves; In is %d", s.Code(), tokens(s, r.Line), cur.Outcome(), own, r.In)
	}
}

// checkDefences fails unless each reply in r's line holds out as long as
// any other reply there, by the brute force: no reply leaves the mover
// needing more own moves than the one in the line.
func checkDefences(t *testing.T, s rules.State, r Result) {
	t.Helper()
	mover := s.ToMove()
	cur := s
	for i, m := range r.Line {
		if cur.ToMove() != mover {
			need := func(next rules.State) int {
				for d := 0; d <= MaxMoves; d++ {
					if brute(next, mover, d) {
						return d
					}
				}
				return MaxMoves + 1
			}
			chosen, _ := cur.Play(m)
			got := need(chosen)
			for _, o := range cur.Moves(nil) {
				next, _ := cur.Play(o)
				if d := need(next); d > got {
					t.Fatalf("%s: the line %v defends with %s (won in %d more), but %s holds out %d", s.Code(), tokens(s, r.Line), cur.FormatMove(m), got, cur.FormatMove(o), d)
				}
			}
		}
		next, err := cur.Play(m)
		if err != nil {
			t.Fatalf("line move %d: %v", i, err)
		}
		cur = next
	}
}

// tokens writes a line's moves from s.
func tokens(s rules.State, line []rules.Move) []string {
	var out []string
	for _, m := range line {
		out = append(out, s.FormatMove(m))
		next, err := s.Play(m)
		if err != nil {
			break
		}
		s = next
	}
	return out
}

// positions plays random games of k and returns some of their positions
// not over, most from the games' ends, where wins are.
func positions(t *testing.T, k kind, seed uint64, count int) []rules.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 41))
	var out []rules.State
	for len(out) < count {
		s, err := k.game.Start(k.opt)
		if err != nil {
			t.Fatal(err)
		}
		var seen []rules.State
		for ply := 0; ply < 300 && !s.Outcome().Over; ply++ {
			seen = append(seen, s)
			ms := s.Moves(nil)
			if s, err = s.Play(ms[rng.IntN(len(ms))]); err != nil {
				t.Fatal(err)
			}
		}
		// The last few positions and one from anywhere.
		for i := max(0, len(seen)-6); i < len(seen) && len(out) < count; i++ {
			out = append(out, seen[i])
		}
		if len(seen) > 0 && len(out) < count {
			out = append(out, seen[rng.IntN(len(seen))])
		}
	}
	return out
}

// Win agrees with the brute force on random positions of every game of
// two seats: the same In for n = 1 and 2 (and 3 where the brute force is
// affordable), and a line that is a forced win of In moves.
func TestWinAgreesWithBruteForce(t *testing.T) {
	ctx := context.Background()
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			// Positions and the deepest n, so that the brute force
			// takes seconds: Pikemen has 100 to 200 moves a position,
			// and a win in 3 by brute force takes minutes there.
			count, deep := 60, 3
			switch k.name {
			case "Pikemen":
				count, deep = 60, 2
			case "IceFrogs/hex":
				count = 24
			}
			if testing.Short() || raceEnabled {
				count /= 4
			}
			found := make([]int, deep+1)
			for i, s := range positions(t, k, uint64(len(k.name)), count) {
				for n := 1; n <= deep; n++ {
					want := bruteIn(s, n)
					r, err := Win(ctx, s, n, 1<<40)
					if err != nil || r.Exhausted {
						t.Fatalf("position %d, n=%d: %+v, %v", i, n, r, err)
					}
					if r.In != want {
						t.Fatalf("%s: Win(n=%d) says in %d, brute force %d (line %v)", s.Code(), n, r.In, want, tokens(s, r.Line))
					}
					if r.In > 0 {
						checkLine(t, s, r)
					} else if r.Line != nil {
						t.Fatalf("%s: no win, yet a line %v", s.Code(), tokens(s, r.Line))
					}
					if n == deep {
						found[want]++
					}
				}
			}
			t.Logf("%d positions: none %d, wins in 1..%d: %v", count, found[0], deep, found[1:])
			if found[1] == 0 || found[0] == 0 {
				t.Errorf("the positions hold no win in one or no position without a win (%v): the comparison says little; change the seed", found)
			}
		})
	}
}

// Hand-made positions with a known forced win, and ones with a defence.
func TestKnownPositions(t *testing.T) {
	for _, tc := range []struct {
		why, code string
		n, in     int
		first     string // the mover's first move, when only one wins
	}{
		{
			// Seat 1 (11 of 12) has only an upright large on a1, which
			// cannot charge; seat 2 only an upright small on c3, which
			// can only lie down this turn. a1:NE aims at c3 and takes it
			// next turn whatever seat 2 does.
			"Pikemen: aim, then take", "Pikemen 2 12 8/8/8/8/8/2S2U5/8/L1U7 11:0 1", 3, 2, "a1:NE",
		},
		{
			// The same with seat 2 at 10 and its small lying on c3
			// pointing SW at b2 and a1: any turn that lays the large
			// down lets the small take it (a lying large is
			// capturable) for 13 points, and reorients are all seat 1
			// has.
			"Pikemen: the small takes first", "Pikemen 2 12 8/8/8/8/8/2S2SW5/8/L1U7 11:10 1", 3, 0, "",
		},
		// Found by a search of random positions (Pikemen: a few random
		// pieces; the others: random games) and checked here by the
		// brute force.
		{"Pikemen: three", "Pikemen 2 12 3L1W4/8/8/8/8/5M2NW2/6S2NE1/6M1N1 10:11 1", 3, 3, ""},
		{"Pikemen: three again", "Pikemen 2 12 8/8/8/8/8/8/8/M1SW3M2SW3 10:10 1", 3, 3, ""},
		{"Pikemen: two, sparse", "Pikemen 2 12 8/8/6S1S1/8/7S1S/8/4S1S3/3S2U4 10:9 1", 3, 2, ""},
		{"Pikemen: two, full board", "Pikemen 2 12 L2SW1M2EM1NES2N1S2NS1U/L2NEM2N5S2NE/5M1U2/4L2EM1S2/1M2NW6/1S1S1S1S4/3L2U3L1E/2L1NE2L2NL1UL1S 6:9 2", 2, 2, ""},
		{"IceSickle: three", "IceSickle ...../...MS/..M.L/...MS/.L..S S0M0L0 17:19 2 jump 2", 3, 3, ""},
		{"IceSickle: two", "IceSickle ...../....S/....L/..S../ML..S S0M0L0 19:21 2 jump 2", 3, 2, ""},
		{"IceLady: three", "IceLady 4L3/2mmm3/3s1s2/1s6/8/2S1SS2/2MMMM2/8 3 4 1", 3, 3, ""},
		{"IceLady: two", "IceLady 3S4/8/8/8/5S2/1L3S2/4M3/6l1 3 3 1", 3, 2, ""},
		{"IceFrogs star: two", "IceFrogs star 2 ./.1L/1M(1M1M)..2S../....1M1L/.(2S1S2S2S)1S1L./..1S(1M2M)2M./...(2S2M2M1L2L2L2L)1S(1S1L2L2L)./2M./. 000/000 1", 3, 2, ""},
		{"IceFrogs hex: two", "IceFrogs hex 2 .(1S2M).(1S1M)/1M.(2S2S)../.1S(1M1L1L).1L./..2S...2L/2S.2L(1S2M)2L(1M2M1L2L2L)/(1M1L)(2S1S)2M../.2M.. 000/000 1", 3, 2, ""},
		{"IceFrogs hex: three", "IceFrogs hex 2 ..1S(2M1M)/..(1L2L1L2L)1S./.1S(2L1L1L)1S(2M2M)1S/2S..(1M1M2L)2S(2M2L)./(2S1L)2S..1M./.(1M2M).../..2S. 000/000 2", 3, 3, ""},
	} {
		t.Run(tc.why, func(t *testing.T) {
			g, ok := games.Lookup(strings.Fields(tc.code)[0])
			if !ok {
				t.Fatalf("no game for %q", tc.code)
			}
			s, err := g.ParsePosition(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Win(context.Background(), s, tc.n, 0)
			if err != nil || r.Exhausted {
				t.Fatalf("%+v, %v", r, err)
			}
			if want := bruteIn(s, tc.n); want != tc.in {
				t.Fatalf("the brute force says in %d, the test %d: fix the position", want, tc.in)
			}
			if r.In != tc.in {
				t.Fatalf("in %d, want %d (line %v)", r.In, tc.in, tokens(s, r.Line))
			}
			if tc.in > 0 {
				checkLine(t, s, r)
				checkDefences(t, s, r)
				if tc.first != "" && s.FormatMove(r.Line[0]) != tc.first {
					t.Errorf("line %v, want it to start %s", tokens(s, r.Line), tc.first)
				}
			}
		})
	}
}

// A budget too small for the answer claims nothing.
func TestExhausted(t *testing.T) {
	g, _ := games.Lookup("Pikemen")
	s, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Win(context.Background(), s, 3, 1000)
	if err != nil || !r.Exhausted || r.In != 0 || r.Line != nil {
		t.Fatalf("%+v, %v", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err = Win(ctx, s, 3, 0)
	if !errors.Is(err, context.Canceled) || !r.Exhausted {
		t.Fatalf("with ctx ended: %+v, %v", r, err)
	}
}

// Three seats and a length out of range are refused.
func TestRefused(t *testing.T) {
	g, _ := games.Lookup("Pikemen")
	s, err := g.Start(rules.Options{Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Win(context.Background(), s, 2, 0); !errors.Is(err, ErrSeats) {
		t.Errorf("three seats: %v", err)
	}
	s2, _ := g.Start(rules.Options{})
	for _, n := range []int{0, MaxMoves + 1} {
		if _, err := Win(context.Background(), s2, n, 0); err == nil {
			t.Errorf("n=%d: no error", n)
		}
	}
}

// Random games of Pikemen seldom end in a position with a win in two or
// three: Win agrees with the brute force, n = 1 to 3, on random
// positions of a few pieces with both seats near the target, which
// hold many.
func TestWinAgreesOnSparsePikemen(t *testing.T) {
	g, ok := games.Lookup("Pikemen")
	if !ok {
		t.Fatal("no Pikemen")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	orients := []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW", "U"}
	count := 100
	if testing.Short() || raceEnabled {
		count = 60
	}
	found := make([]int, MaxMoves+1)
	for done := 0; done < count; {
		var cells [64]string
		for i := range 2 + rng.IntN(4) {
			cells[rng.IntN(64)] = fmt.Sprintf("%c%d%s", "SML"[rng.IntN(3)], 1+i%2, orients[rng.IntN(len(orients))])
		}
		var rows []string
		for r := 7; r >= 0; r-- {
			var b strings.Builder
			empty := 0
			for f := range 8 {
				c := cells[r*8+f]
				if c == "" {
					empty++
					continue
				}
				if empty > 0 {
					fmt.Fprint(&b, empty)
					empty = 0
				}
				b.WriteString(c)
			}
			if empty > 0 {
				fmt.Fprint(&b, empty)
			}
			rows = append(rows, b.String())
		}
		code := fmt.Sprintf("Pikemen 2 12 %s %d:%d %d", strings.Join(rows, "/"), 9+rng.IntN(3), 9+rng.IntN(3), 1+rng.IntN(2))
		s, err := g.ParsePosition(code)
		if err != nil || s.Outcome().Over {
			continue // a seat without pieces, say
		}
		done++
		want := bruteIn(s, MaxMoves)
		r, err := Win(context.Background(), s, MaxMoves, 1<<40)
		if err != nil || r.Exhausted {
			t.Fatalf("%s: %+v, %v", code, r, err)
		}
		if r.In != want {
			t.Fatalf("%s: Win says in %d, brute force %d (line %v)", code, r.In, want, tokens(s, r.Line))
		}
		if r.In > 0 {
			checkLine(t, s, r)
		}
		found[want]++
	}
	t.Logf("%d positions: none %d, wins in 1..%d: %v", count, found[0], MaxMoves, found[1:])
	if found[2] == 0 || found[3] == 0 {
		t.Errorf("no win in 2 or in 3 among the positions (%v): change the seed", found)
	}
}

// WinWith agrees with Win: a move is right (In > 0 within n) exactly when
// it starts a forced win within n, by the brute force; the line starts
// with it.
func TestWinWith(t *testing.T) {
	ctx := context.Background()
	right, wrong := 0, 0
	for _, k := range kinds() {
		if k.game.Name() == "Pikemen" {
			continue // TestKnownPositions's Pikemen positions below
		}
		for _, s := range positions(t, k, 3, 12) {
			r, err := Win(ctx, s, 2, 0)
			if err != nil || r.In == 0 {
				continue
			}
			for _, m := range s.Moves(nil) {
				w, err := WinWith(ctx, s, m, r.In, 0)
				if err != nil || w.Exhausted {
					t.Fatalf("%s: %+v, %v", s.Code(), w, err)
				}
				next, _ := s.Play(m)
				want := brute(next, s.ToMove(), r.In-1)
				if (w.In > 0) != want {
					t.Fatalf("%s: WinWith(%s) says in %d; the brute force %v", s.Code(), s.FormatMove(m), w.In, want)
				}
				if w.In > 0 {
					if w.Line[0] != m {
						t.Fatalf("%s: the line %v does not start with %s", s.Code(), tokens(s, w.Line), s.FormatMove(m))
					}
					checkLine(t, s, w)
					right++
				} else {
					wrong++
				}
			}
		}
	}
	if right == 0 || wrong == 0 {
		t.Fatalf("right %d, wrong %d: the test says little", right, wrong)
	}
}
