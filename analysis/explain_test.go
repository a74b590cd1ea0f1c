package analysis

import (
	"math/rand/v2"
	"slices"
	"testing"

	"icepost/rules"
)

// pikemenAfter is the position of two-seat Pikemen after tokens.
func pikemenAfter(t *testing.T, tokens ...string) rules.State {
	t.Helper()
	var k kind
	for _, c := range kinds() {
		if c.name == "Pikemen/2 seats" {
			k = c
		}
	}
	if k.game == nil {
		t.Fatal("no two-seat Pikemen")
	}
	s, err := k.game.Start(k.opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range tokens {
		if s, _, err = rules.Play(s, tok); err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
	}
	return s
}

// A known game: 1. h4:NE d8:SW 2. f2:NW b6:N 3. f2xb6:U. Seat 2's b6:N
// turns its medium on b6 to where seat 1's f2 charges; a4:N leaves
// nothing to take. Seat 1 took it, or (d1:N) did not.
func TestExplainGaveAway(t *testing.T) {
	s := pikemenAfter(t, "h4:NE", "d8:SW", "f2:NW")
	m := Move{Ply: 4, Seat: 2, Token: "b6:N", Mark: Mistake, Better: "a4:N"}
	medium := Capture{Owner: 2, Size: rules.Medium, Cell: "b6"}

	e := Explain(s, m, "f2xb6:U")
	if e.Exposed == nil || *e.Exposed != medium || e.Taker != 1 || !e.Took || e.Lets != "" || e.BetterTakes != nil {
		t.Errorf("taken: %+v (exposed %v)", e, e.Exposed)
	}
	e = Explain(s, m, "d1:N")
	if e.Exposed == nil || *e.Exposed != medium || e.Took {
		t.Errorf("not taken: %+v", e)
	}
	e = Explain(s, m, "")
	if e.Exposed == nil || e.Took {
		t.Errorf("no reply: %+v", e)
	}
	// Without a better move, or with the move itself as the better one,
	// nothing is said: nothing to compare with.
	for _, better := range []string{"", "b6:N"} {
		m.Better = better
		if e := Explain(s, m, "f2xb6:U"); e != (Explanation{}) {
			t.Errorf("better %q: %+v", better, e)
		}
	}
	// The better move that turns the medium another way where it can be
	// taken as well gives nothing away.
	m.Better = "b6:NE"
	if e := Explain(s, m, "f2xb6:U"); e.Exposed != nil {
		t.Errorf("better b6:NE, which leaves the medium to be taken too: %+v", e)
	}
	// Not the mover's turn, or no position: nothing.
	if e := Explain(pikemenAfter(t, "h4:NE"), m, ""); e != (Explanation{}) {
		t.Errorf("seat 1 to move: %+v", e)
	}
	if e := Explain(nil, m, ""); e != (Explanation{}) {
		t.Errorf("no position: %+v", e)
	}
}

// Seat 1 did not take the medium on b6: the engine's move did.
func TestExplainBetterTakes(t *testing.T) {
	s := pikemenAfter(t, "h4:NE", "d8:SW", "f2:NW", "b6:N")
	e := Explain(s, Move{Ply: 5, Seat: 1, Token: "d1:N", Mark: Blunder, Better: "f2xb6:U"}, "b6:U")
	if e.BetterTakes == nil || *e.BetterTakes != (Capture{Owner: 2, Size: rules.Medium, Cell: "b6"}) || e.Exposed != nil {
		t.Errorf("%+v (better takes %v)", e, e.BetterTakes)
	}
}

// In every kind of game, a move that lets the next seat win at once
// says so, with the winning move.
func TestExplainLets(t *testing.T) {
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			var win rules.Move
			var next int
			s, m := find(t, k, func(_, s rules.State) (rules.State, rules.Move, bool) {
				for _, m := range s.Moves(nil) {
					after, err := s.Play(m)
					if err != nil || after.Outcome().Over || after.ToMove() == s.ToMove() {
						continue
					}
					if w, ok := winInOne(after, after.ToMove()); ok {
						win, next = w, after.ToMove()
						return s, m, true
					}
				}
				return nil, rules.Move{}, false
			})
			after, _ := s.Play(m)
			e := Explain(s, Move{Seat: s.ToMove(), Token: s.FormatMove(m), Mark: Mistake}, "")
			if e.Lets != after.FormatMove(win) || e.LetsSeat != next {
				t.Errorf("%s lets seat %d win with %s: %+v", s.FormatMove(m), next, after.FormatMove(win), e)
			}
		})
	}
}

// Whatever the game and the moves, what Explain says is what the
// positions hold: a piece given away is the mover's, on a cell of the
// board, and one of the next seat's moves takes it; a piece the better
// move takes is another seat's.
func TestExplainSaysOnlyWhatIsThere(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range kinds() {
		t.Run(k.name, func(t *testing.T) {
			said := 0
			for range 20 {
				s, err := k.game.Start(k.opt)
				if err != nil {
					t.Fatal(err)
				}
				for ply := 0; ply < 60 && !s.Outcome().Over; ply++ {
					ms := s.Moves(nil)
					m, b := ms[rng.IntN(len(ms))], ms[rng.IntN(len(ms))]
					e := Explain(s, Move{Seat: s.ToMove(), Token: s.FormatMove(m), Mark: Mistake, Better: s.FormatMove(b)}, "")
					if e.Exposed != nil {
						said++
						after, _ := s.Play(m)
						if e.Exposed.Owner != s.ToMove() || e.Taker != after.ToMove() || !slices.Contains(takeable(after, s.ToMove()), *e.Exposed) {
							t.Errorf("%s: %+v, exposed %+v", s.FormatMove(m), e, *e.Exposed)
						}
					}
					if c := e.BetterTakes; c != nil && (c.Owner == 0 || c.Owner == s.ToMove()) {
						t.Errorf("%s, better %s: takes %+v", s.FormatMove(m), s.FormatMove(b), *c)
					}
					s, _ = s.Play(m)
				}
			}
			t.Logf("%d pieces given away", said)
		})
	}
}
