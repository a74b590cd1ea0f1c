package icelady_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"icepost/notation"
	"icepost/puzzle"
	"icepost/rules/icelady"
)

// refWins reports whether the side to move in p forces a win within n
// of its own moves, by the reference's moves alone and RULES.md's end
// (a player with no legal move on their turn, no pieces included,
// loses): a brute force that shares nothing with package solve.
func refWins(p refPos, n int) bool {
	if n == 0 {
		return false
	}
	for _, m := range p.refMoves() {
		if refForces(p.refPlay(m), n-1) {
			return true
		}
	}
	return false
}

// refForces reports whether, in p with the other side to move, every
// reply leaves the side that just moved a forced win within n more of
// its moves; true at once when the other side has no move.
func refForces(p refPos, n int) bool {
	replies := p.refMoves()
	if len(replies) == 0 {
		return true
	}
	for _, r := range replies {
		if !refWins(p.refPlay(r), n) {
			return false
		}
	}
	return true
}

// TestPuzzlesByReference: the puzzles package puzzle finds in random Ice
// Lady games are confirmed by the reference move generator (ref_test.go,
// written from RULES.md apart from the package): the mover forces a win
// in the puzzle's number of moves and not fewer, its first move does,
// the move played in the game does not, and the solution's line is
// legal move after move.
func TestPuzzlesByReference(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 3))
	games := 40
	if testing.Short() || raceEnabled {
		games = 10
	}
	found := 0
	for range games {
		start := icelady.Start()
		rec, err := notation.FromMoves(nil, start, notation.RandomGame(start, rng, 80))
		if err != nil {
			t.Fatal(err)
		}
		g, err := notation.Replay(rec)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := puzzle.Find(ctx, g, puzzle.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pz := range ps {
			found++
			p := refParse(pz.Setup)
			if !refWins(p, pz.In) || pz.In > 1 && refWins(p, pz.In-1) {
				t.Fatalf("%s: the reference does not find a win in exactly %d", pz.Setup, pz.In)
			}
			if !refForces(p.refPlay(pz.Solution[0]), pz.In-1) {
				t.Errorf("%s: %s does not force the win in %d by the reference", pz.Setup, pz.Solution[0], pz.In)
			}
			if refForces(p.refPlay(pz.Played), pz.In-1) {
				t.Errorf("%s: the move played %s keeps the win by the reference", pz.Setup, pz.Played)
			}
			q := p
			for i, tok := range pz.Solution {
				if !slices.Contains(q.refMoves(), tok) {
					t.Fatalf("%s: the solution's move %d, %s, is not legal by the reference", pz.Setup, i+1, tok)
				}
				q = q.refPlay(tok)
			}
			if len(pz.Solution)%2 == 1 && len(q.refMoves()) != 0 {
				t.Errorf("%s: the solution %v does not end the game by the reference", pz.Setup, pz.Solution)
			}
		}
	}
	if found == 0 {
		t.Fatalf("no puzzle in %d random games: change the seed", games)
	}
	t.Logf("%d puzzles of %d random games confirmed", found, games)
}
