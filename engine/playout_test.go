package engine

import (
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
)

// TestPlayoutTakesWin: where the game can tell a winning move without
// playing it (IceFrogs), a playout's ply plays the win even when it is
// not among the moves it draws: here one move of many wins.
func TestPlayoutTakesWin(t *testing.T) {
	// Seat 1's small on h1 steps onto i1, seat 2's start space; its
	// other moves are entries from a1 and the small's other steps.
	s, err := icefrogs.ParsePosition("IceFrogs star 2 ./../......./....../1S1M1L../....../......./1S./. 344/555 1")
	if err != nil {
		t.Fatal(err)
	}
	moves := s.Moves(nil)
	wins := 0
	for _, m := range moves {
		if next, _ := s.Play(m); next.Outcome().Winner == 1 {
			wins++
		}
	}
	if wins != 1 || len(moves) < 4*samples {
		t.Fatalf("the position has %d winning moves of %d: not the test's case", wins, len(moves))
	}
	for seed := range uint64(50) {
		tr := &tree{rng: rand.New(rand.NewPCG(seed, 1))}
		cur := rules.NewMutable(s)
		tr.trial = rules.NewMutable(s)
		tr.pg, _ = cur.(progresser)
		tr.wf, _ = cur.(winFinder)
		tr.step(cur, cur.Moves(nil))
		if o := cur.Outcome(); !o.Over || o.Winner != 1 {
			t.Fatalf("seed %d: the playout's ply did not take the win (now %s)", seed, cur.Code())
		}
	}
}
