package icesickle_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"icepost/puzzle/puzzletest"
	"icepost/rules"
	"icepost/rules/icesickle"
)

// The reference (reference_test.go) as puzzletest.Position.

func (r *refState) Moves() []string            { return r.legal() }
func (r *refState) After(tok string) *refState { return r.after(tok) }
func (r *refState) ToMove() int                { return r.toMove }
func (r *refState) Winner() int                { return r.winner() }

// TestPuzzlesByReference: the puzzles package puzzle finds in random
// IceSickle games are confirmed by the reference, as puzzletest.Run
// says; the seat to move comes from the reference after every move, as
// the same seat can move twice across the change of round.
func TestPuzzlesByReference(t *testing.T) {
	// Puzzles come only from the end of round 2's jumping, where few
	// pieces are left: the reference confirms one in a few milliseconds
	// (a win in three in 15 ms at most, on 2026-11-29), and most of the
	// time goes to puzzle.Find's searches (0.1 s a game). The caps keep
	// the ordinary run to a few seconds should a game give many puzzles,
	// or a slow one among the placements; ICEPOST_REFERENCE_ALL=1
	// confirms every puzzle of ten times the games (264 on 2026-11-29,
	// 40 of them won by the defence's forced last jump: 24 s).
	games, checked := 20, []int{1: 8, 2: 8, 3: 6}
	if testing.Short() || raceEnabled {
		games, checked = 5, []int{1: 2, 2: 2, 3: 1}
	}
	if os.Getenv("ICEPOST_REFERENCE_ALL") != "" {
		games, checked = 200, []int{1: 1 << 30, 2: 1 << 30, 3: 1 << 30}
	}
	start, err := icesickle.Game.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	puzzletest.Run(t, puzzletest.Check[*refState]{
		Start: start, Ref: newRef,
		Games: games, Plies: 1000, Rand: rand.New(rand.NewPCG(41, 7)),
		Checked: checked,
	})
}
