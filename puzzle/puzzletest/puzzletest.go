// Package puzzletest checks the puzzles package puzzle finds in random
// games against a game's reference model: a second rules engine, written
// from RULES.md apart from the game's package, that the game's own tests
// hold (rules/<game>/ref*_test.go). The brute force and the checks are
// written here once; each game's TestPuzzlesByReference says only how its
// model starts, moves and ends. Tests alone import it.
package puzzletest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"icepost/notation"
	"icepost/puzzle"
	"icepost/rules"
)

// Position is a reference model's position, as the brute force sees it.
type Position[P any] interface {
	// Moves lists the legal moves as the game's notation spells them.
	Moves() []string
	// After returns the position after tok, one of Moves, and leaves
	// the receiver as it was.
	After(tok string) P
	// ToMove is the seat to move, 0 once the game is over.
	ToMove() int
	// Winner is the winning seat of a game over, 0 for a draw.
	Winner() int
}

// Wins reports whether the seat to move in p forces a win within n of
// its own moves, by the model's moves and ending alone: a brute force
// that shares nothing with package solve.
func Wins[P Position[P]](p P, n int) bool {
	mover := p.ToMove()
	if n == 0 || mover == 0 {
		return false
	}
	for _, tok := range p.Moves() {
		if forces(p.After(tok), mover, n-1) {
			return true
		}
	}
	return false
}

// forces reports whether mover wins from p, just after a move, within n
// more of its own moves: at once when the game is over with mover the
// winner; else by a move of its own when it is to move again (the same
// seat may move twice in a row, as across IceSickle's rounds, so whose
// turn it is comes from the model); else whatever the other seat
// replies. With no own moves left and the other seat to move, mover has
// not won yet, whatever that seat must play: solve.Win counts so too.
func forces[P Position[P]](p P, mover, n int) bool {
	switch {
	case p.ToMove() == 0:
		return p.Winner() == mover
	case n == 0:
		return false
	case p.ToMove() == mover:
		return Wins(p, n)
	}
	for _, tok := range p.Moves() {
		if !forces(p.After(tok), mover, n) {
			return false
		}
	}
	return true
}

// Check says which puzzles to confirm: those puzzle.Find finds (with
// Find) in Games random games of at most Plies plies from Start, drawn
// with Rand, up to Checked[In] of each length In (a win in three can
// take a slow model minutes).
type Check[P Position[P]] struct {
	Start   rules.State
	Ref     func() P // the model's start, Start's position
	Games   int
	Plies   int
	Rand    *rand.Rand
	Find    puzzle.Options
	Checked []int // indexed by In; a length past its end is not checked
}

// Run confirms c's puzzles by the model and returns how many of each
// length it confirmed (indexed by In). For each one, the model replays
// the game to the puzzle's position, each move legal by its rules, and
// finds: the puzzle's seat to move, forcing a win in the puzzle's number
// of moves and not fewer; its first move forcing it; the move played in
// the game not; and the solution legal move after move, ending the game
// with the puzzle's seat the winner. It fails when no puzzle in one or
// none in two was found, so that it cannot pass on nothing.
func Run[P Position[P]](t *testing.T, c Check[P]) []int {
	t.Helper()
	ctx := context.Background()
	byIn := make([]int, len(c.Checked))
	for range c.Games {
		rec, err := notation.FromMoves(nil, c.Start, notation.RandomGame(c.Start, c.Rand, c.Plies))
		if err != nil {
			t.Fatal(err)
		}
		g, err := notation.Replay(rec)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := puzzle.Find(ctx, g, c.Find)
		if err != nil {
			t.Fatal(err)
		}
		for _, pz := range ps {
			if pz.In >= len(c.Checked) || byIn[pz.In] >= c.Checked[pz.In] {
				continue
			}
			byIn[pz.In]++
			p := c.Ref()
			for k := 1; k < pz.Ply; k++ {
				tok := g.Token(k)
				if !slices.Contains(p.Moves(), tok) {
					t.Fatalf("%s: the game's move %d, %s, is not legal by the reference", pz.Setup, k, tok)
				}
				p = p.After(tok)
			}
			if p.ToMove() != pz.Seat {
				t.Fatalf("%s: seat %d to move by the reference, the puzzle says %d", pz.Setup, p.ToMove(), pz.Seat)
			}
			if !Wins(p, pz.In) || pz.In > 1 && Wins(p, pz.In-1) {
				t.Fatalf("%s: the reference does not find a win in exactly %d", pz.Setup, pz.In)
			}
			if !forces(p.After(pz.Solution[0]), pz.Seat, pz.In-1) {
				t.Errorf("%s: %s does not force the win in %d by the reference", pz.Setup, pz.Solution[0], pz.In)
			}
			if forces(p.After(pz.Played), pz.Seat, pz.In-1) {
				t.Errorf("%s: the move played %s keeps the win by the reference", pz.Setup, pz.Played)
			}
			q := p
			for i, tok := range pz.Solution {
				if !slices.Contains(q.Moves(), tok) {
					t.Fatalf("%s: the solution's move %d, %s, is not legal by the reference", pz.Setup, i+1, tok)
				}
				q = q.After(tok)
			}
			if q.ToMove() != 0 || q.Winner() != pz.Seat {
				t.Errorf("%s: the solution %v does not win by the reference", pz.Setup, pz.Solution)
			}
		}
	}
	if len(byIn) < 3 || byIn[1] == 0 || byIn[2] == 0 {
		t.Fatalf("puzzles confirmed in 1, 2, ... moves of %d random games: %v; wins in one and in two are needed: change the seed", c.Games, byIn[1:])
	}
	t.Logf("puzzles confirmed in 1, 2, ... moves: %v", byIn[1:])
	return byIn
}
