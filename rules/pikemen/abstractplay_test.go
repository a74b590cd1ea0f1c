package pikemen

import (
	"errors"
	"math/rand/v2"
	"testing"

	"icepost/rules"
)

// Every legal move of random two-seat games, written in Abstract Play's
// notation, reads back as itself; and the site's spelling is what its
// engine's moves() lists: a turn always with its orientation, a charge
// with one only when it changes.
func TestAbstractPlayMoves(t *testing.T) {
	ap := Game.AbstractPlay()
	rng := rand.New(rand.NewPCG(42, 1))
	for game := range 20 {
		s, err := Game.Start(rules.Options{Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 200 && !s.Outcome().Over; ply++ {
			moves := s.Moves(nil)
			for _, m := range moves {
				tok := ap.FormatMove(s, m)
				got, err := ap.ParseMove(s, tok)
				if err != nil || got != m {
					t.Fatalf("game %d ply %d: %s (%s) reads back as %v, %v", game, ply, tok, s.FormatMove(m), got, err)
				}
				o := Orientation(m.Arg)
				p := s.(Position)
				switch {
				case m.Kind == KindReorient && tok != squareName(int(m.Path[0]))+"("+o.String()+")":
					t.Fatalf("turn %s", tok)
				case m.Kind != KindReorient && (o == p.orient[m.Path[0]]) != (len(tok) == 5):
					t.Fatalf("charge %s: the orientation is written only when it changes", tok)
				}
			}
			if s, err = s.Play(moves[rng.IntN(len(moves))]); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The site's notation only: icepost's own spelling, partial moves and
// junk are refused as syntax, with the site's forms named; a legal shape
// that the board refuses says why.
func TestAbstractPlayRefuses(t *testing.T) {
	ap := Game.AbstractPlay()
	s, _ := Game.Start(rules.Options{Seats: 2})
	for _, tok := range []string{"h1:NW", "h1", "h1()", "g4-e6()", "g4-e6(Q)", "g4e6", "resign", "", "h1(NW) ", "h1(NWW)"} {
		_, err := ap.ParseMove(s, tok)
		if err == nil {
			t.Errorf("%q: accepted", tok)
			continue
		}
		if !errors.Is(err, rules.ErrSyntax) {
			t.Errorf("%q: %v, want a syntax error", tok, err)
		}
	}
	if _, err := ap.ParseMove(s, "H1(nw)"); err != nil {
		t.Errorf("any case, as the site's engine reads it: %v", err)
	}
	if _, err := ap.ParseMove(s, "g4-e6(NW)"); err == nil || errors.Is(err, rules.ErrSyntax) {
		t.Errorf("an upright piece's charge: %v, want the board's reason", err)
	}
}
