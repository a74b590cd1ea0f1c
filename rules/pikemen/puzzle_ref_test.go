package pikemen_test

import (
	"math/rand/v2"
	"os"
	"testing"

	"icepost/puzzle"
	"icepost/puzzle/puzzletest"
	"icepost/rules"
	"icepost/rules/pikemen"
)

// TestPuzzlesByReference: the puzzles in one and two moves that package
// puzzle finds in random Pikemen games of two seats are confirmed by the
// reference (ref_test.go), as puzzletest.Run says.
func TestPuzzlesByReference(t *testing.T) {
	// The reference is slow (a map a position, some 100 moves each): the
	// test looks for wins in one and two only (a run that also looked for
	// wins in three had confirmed none in 15 minutes), and the ordinary
	// run confirms up to checked[In] of each; ICEPOST_REFERENCE_ALL=1
	// confirms every one of the games (54 in one and 37 in two on
	// 2026-11-29: 65 s).
	games, checked := 30, []int{1: 8, 2: 4}
	if testing.Short() || raceEnabled {
		games, checked = 10, []int{1: 2, 2: 1}
	}
	if os.Getenv("ICEPOST_REFERENCE_ALL") != "" {
		checked = []int{1: 1 << 30, 2: 1 << 30}
	}
	// Random games reach 12 points after hundreds of plies; a target of
	// 4 keeps them short, with wins to miss (as package puzzle's tests).
	start, err := pikemen.StartPosition(rules.Options{Target: 4})
	if err != nil {
		t.Fatal(err)
	}
	puzzletest.Run(t, puzzletest.Check[*pikemen.RefPosition]{
		Start: start, Ref: func() *pikemen.RefPosition { return pikemen.RefFrom(start) },
		Games: games, Plies: 60, Rand: rand.New(rand.NewPCG(41, 5)),
		Find: puzzle.Options{Moves: 2}, Checked: checked,
	})
}
