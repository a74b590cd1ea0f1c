package icelady_test

import (
	"math/rand/v2"
	"testing"

	"icepost/puzzle/puzzletest"
	"icepost/rules/icelady"
)

// The reference (ref_test.go) as puzzletest.Position. RULES.md's end: a
// player with no legal move on their turn, no pieces included, loses.

func (p refPos) Moves() []string         { return p.refMoves() }
func (p refPos) After(tok string) refPos { return p.refPlay(tok) }

func (p refPos) ToMove() int {
	if len(p.refMoves()) == 0 {
		return 0
	}
	return p.turn
}

func (p refPos) Winner() int {
	if len(p.refMoves()) == 0 {
		return 3 - p.turn
	}
	return 0
}

// TestPuzzlesByReference: every puzzle package puzzle finds in random Ice
// Lady games is confirmed by the reference, as puzzletest.Run says.
func TestPuzzlesByReference(t *testing.T) {
	games := 40
	if testing.Short() || raceEnabled {
		games = 10
	}
	all := 1 << 30
	puzzletest.Run(t, puzzletest.Check[refPos]{
		Start: icelady.Start(), Ref: func() refPos { return refParse(icelady.Start().Code()) },
		Games: games, Plies: 80, Rand: rand.New(rand.NewPCG(41, 3)),
		Checked: []int{1: all, 2: all, 3: all},
	})
}
