package icelady_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icelady"
	"icepost/rules/rulestest"
)

// The perft counts from the start.
//
// depth 1, by hand: each of South's four smalls (c3..f3) steps to either
// forward diagonal, all empty (8 moves); of the mediums on c2..f2 only c2-a2
// and f2-h2 are free (forward they would pass over their own smalls, and
// sideways the middle two and the inner ends pass over their neighbours):
// 8 + 2 = 10.
//
// depth 2, by hand: after any of those moves North has the mirror of the
// same ten (no piece of either side is yet next to an enemy, and South's
// move frees no North square): 10 x 10 = 100.
//
// depth 3 and 4 (962 and 8,170): counted by the slow reference generator
// in ref_test.go (TestPerftAgainstReference checks it again each run).
var startPerft = []uint64{10, 100, 962, 8170}

func TestConformance(t *testing.T) {
	rulestest.Run(t, icelady.Game, rulestest.Case{
		Name:     "2 seats",
		Options:  rules.Options{},
		Perft:    startPerft,
		Playouts: 40,
	})
}

func TestPerftAgainstReference(t *testing.T) {
	start := refParse(icelady.Start().Code())
	for i, want := range startPerft {
		if got := start.refPerft(i + 1); got != want {
			t.Errorf("reference perft(%d) = %d, want %d", i+1, got, want)
		}
	}
	if testing.Short() || raceEnabled {
		return
	}
	// Depth 5 from the start, fast against slow. (Depth 6, 571,544, was
	// checked the same way when this was written; it takes a while.)
	for depth := 5; depth <= 5; depth++ {
		if got, want := icelady.Start().Perft(depth), start.refPerft(depth); got != want {
			t.Errorf("perft(%d) = %d, reference %d", depth, got, want)
		}
	}
}

// tokens returns p's legal moves as sorted canonical tokens.
func tokens(p icelady.Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

// TestMovesAgainstReference plays random games (biased toward long ones
// with kings and trees) and compares the full move list of every position
// with the reference generator.
func TestMovesAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	games := 300
	if testing.Short() || raceEnabled {
		games = 30
	}
	positions := 0
	for g := range games {
		p := icelady.Start()
		for ply := 0; ply < 400; ply++ {
			rp := refParse(p.Code())
			want := rp.refMoves()
			got := tokens(p)
			positions++
			if !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d %s:\n got %v\nwant %v", g, ply, p.Code(), got, want)
			}
			if len(got) == 0 {
				break
			}
			moves := p.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			next := p.Apply(m)
			if r := refParse(p.Code()).refPlay(p.FormatMove(m)); refCode(r) != next.Code() {
				t.Fatalf("after %s in %s:\n got %s\nwant %s", p.FormatMove(m), p.Code(), next.Code(), refCode(r))
			}
			p = next
		}
	}
	t.Logf("%d positions compared", positions)
}

// refCode writes a reference position as a position code.
func refCode(p refPos) string {
	s := "IceLady "
	for r := 7; r >= 0; r-- {
		run := 0
		for f := 0; f < 8; f++ {
			q := p.b[f][r]
			if q.owner == 0 {
				run++
				continue
			}
			if run > 0 {
				s += string(rune('0' + run))
				run = 0
			}
			st := ""
			for i, c := range q.stack {
				if i > 0 {
					st += "+"
				}
				if q.owner == 2 {
					c += 'a' - 'A'
				}
				st += string(c)
			}
			s += st
		}
		if run > 0 {
			s += string(rune('0' + run))
		}
		if r > 0 {
			s += "/"
		}
	}
	return s + " " + string(rune('0'+p.res[1])) + " " + string(rune('0'+p.res[2])) + " " + string(rune('0'+p.turn))
}

// randomCode makes a random legal-looking position code with many kings
// and trees, some of them on the far rows so that pieces can join them.
func randomCode(rng *rand.Rand) string {
	var r refPos
	r.turn = 1 + rng.IntN(2)
	free := rng.Perm(64)
	put := func(owner int, stack string, far bool) {
		for i, sq := range free {
			f, rk := sq%8, sq/8
			if far && rk != map[int]int{1: 7, 2: 0}[owner] {
				continue
			}
			r.b[f][rk] = refSq{owner, stack}
			free = slices.Delete(free, i, i+1)
			return
		}
	}
	for seat := 1; seat <= 2; seat++ {
		kings := rng.IntN(5)
		r.res[seat] = rng.IntN(5 - kings)
		used := 4 - r.res[seat]
		small, med, budget := 4, 4, 8-used
		for k := 0; k < kings; k++ {
			st := []string{"L", "LS", "LM", "LMS"}[rng.IntN(4)]
			if len(st)-1 > budget {
				st = "L"
			}
			small -= strings.Count(st, "S")
			med -= strings.Count(st, "M")
			budget -= len(st) - 1
			put(seat, st, rng.IntN(3) == 0)
		}
		n := rng.IntN(budget + 1)
		if kings == 0 && n == 0 {
			n = 1
		}
		for i := 0; i < n; i++ {
			switch {
			case rng.IntN(2) == 0 && small > 0:
				small--
				put(seat, "S", false)
			case med > 0:
				med--
				put(seat, "M", false)
			}
		}
	}
	return refCode(r)
}

func TestRandomPositionsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	n := 3000
	if testing.Short() || raceEnabled {
		n = 500
	}
	var moves, chains int
	for i := 0; i < n; i++ {
		code := randomCode(rng)
		p, err := icelady.ParsePosition(code)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		rp := refParse(code)
		want := rp.refMoves()
		if got := tokens(p); !slices.Equal(got, want) {
			t.Fatalf("%s:\n got %v\nwant %v", code, got, want)
		}
		seen := map[string]bool{}
		for _, m := range p.Moves(nil) {
			tok := p.FormatMove(m)
			if seen[tok] {
				t.Fatalf("%s: two legal moves share the token %s", code, tok)
			}
			seen[tok] = true
			if back, err := p.ParseMove(tok); err != nil || back != m {
				t.Fatalf("%s: ParseMove(%s) = %+v, %v", code, tok, back, err)
			}
			moves++
			if m.N > 2 {
				chains++
			}
			if got, want := p.Apply(m).Code(), refCode(rp.refPlay(tok)); got != want {
				t.Fatalf("%s after %s:\n got %s\nwant %s", code, tok, got, want)
			}
		}
	}
	t.Logf("%d positions, %d moves, %d chains compared", n, moves, chains)
}

// TestRandomTokens offers tokens near legal ones (a legal move's start with
// a random end, a legal chain with one leap too many, =K added) in random
// positions: each is either a legal move or refused with a MoveError of
// kind ErrSyntax or ErrIllegal that names a rule, never the bare fallback.
func TestRandomTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	sq := func() string { return fmt.Sprintf("%c%d", 'a'+rng.IntN(8), 1+rng.IntN(8)) }
	for range 5000 {
		code := randomCode(rng)
		p, err := icelady.ParsePosition(code)
		if err != nil {
			t.Fatal(err)
		}
		moves := p.Moves(nil)
		if len(moves) == 0 {
			continue
		}
		tok := p.FormatMove(moves[rng.IntN(len(moves))])
		switch rng.IntN(3) {
		case 0:
			tok = tok[:2] + "-" + sq()
		case 1:
			tok = tok[:2] + "x" + sq()
		case 2:
			tok = tok + "x" + sq()
		}
		if rng.IntN(4) == 0 {
			tok += "=K"
		}
		m, err := p.ParseMove(tok)
		if err == nil {
			if !rules.IsLegal(p, m) || p.FormatMove(m) != tok {
				t.Fatalf("%s: ParseMove(%s) accepted %s", code, tok, p.FormatMove(m))
			}
			continue
		}
		var me *rules.MoveError
		if !errors.As(err, &me) || !(errors.Is(err, rules.ErrIllegal) || errors.Is(err, rules.ErrSyntax)) {
			t.Fatalf("%s: ParseMove(%s) = %v", code, tok, err)
		}
		if me.Reason == "not a legal move here" {
			t.Errorf("%s: ParseMove(%s) does not say which rule it breaks", code, tok)
		}
	}
}
