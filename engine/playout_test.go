package engine

import (
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/icefrogs"
	"icepost/rules/pikemen"
)

// TestPlayoutTakesWin: where the game can tell a winning move without
// playing it (IceFrogs), a playout's ply plays the win even when it is
// not among the moves it draws: here one move of many wins.
func TestPlayoutTakesWin(t *testing.T) {
	s := oneWin(t)
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

// oneWin is an IceFrogs position where seat 1 has one winning move among
// many: its small on h1 steps onto i1, seat 2's start space; its other
// moves are the pieces' on row e, entries from a1 and the small's other
// steps.
func oneWin(t *testing.T) rules.State {
	t.Helper()
	s, err := icefrogs.ParsePosition("IceFrogs star 2 ./../......./....../1S1M1L../....../......./1S./. 344/555 1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTreeWinOnly: in the tree, a position where the seat to move wins at
// once (and its game can tell) gets that move as its only child; in a
// game that cannot tell, every move is a child to try.
func TestTreeWinOnly(t *testing.T) {
	tr := &tree{rng: rand.New(rand.NewPCG(1, 1))}
	n := tr.newNode(oneWin(t), nil, rules.Move{}, 0)
	if len(n.untried) != 1 {
		t.Fatalf("%d moves to try, want the win alone", len(n.untried))
	}
	if next, _ := n.state.Play(n.untried[0]); next.Outcome().Winner != 1 {
		t.Fatalf("the move to try, %s, does not win", n.state.FormatMove(n.untried[0]))
	}
	// Counting has no winFinder: a position with a winning move keeps
	// all its moves.
	s, err := counting.Game.ParsePosition("Counting 2 9 1 2")
	if err != nil {
		t.Fatal(err)
	}
	tr = &tree{rng: rand.New(rand.NewPCG(1, 1))}
	if n := tr.newNode(s, nil, rules.Move{}, 0); len(n.untried) != len(s.Moves(nil)) {
		t.Fatalf("%d moves to try of %d", len(n.untried), len(s.Moves(nil)))
	}
}

// TestStepIndexed: a playout's ply drawn by index (a game that offers
// IndexMoves and MoveAt: Pikemen) plays the very move the ply drawn from
// the list of moves plays, from the same seed, ply after ply, in games
// of every seat count.
func TestStepIndexed(t *testing.T) {
	for seats := 2; seats <= 4; seats++ {
		s, err := pikemen.Game.Start(rules.Options{Seats: seats})
		if err != nil {
			t.Fatal(err)
		}
		for seed := range uint64(20) {
			byList := &tree{rng: rand.New(rand.NewPCG(seed, 1)), trial: rules.NewMutable(s)}
			byIndex := &tree{rng: rand.New(rand.NewPCG(seed, 1)), trial: rules.NewMutable(s)}
			a, b := rules.NewMutable(s), rules.NewMutable(s)
			ix, ok := b.(moveIndexer)
			if !ok {
				t.Fatal("Pikemen's Mutable does not list its moves by index")
			}
			for ply := 0; ply < 300 && !a.Outcome().Over; ply++ {
				byList.step(a, a.Moves(nil))
				byIndex.stepIndexed(b, ix, ix.IndexMoves())
				if a.Code() != b.Code() {
					t.Fatalf("%d seats, seed %d, ply %d: by list %s, by index %s", seats, seed, ply, a.Code(), b.Code())
				}
			}
		}
	}
}
