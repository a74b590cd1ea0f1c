package icesickle_test

import (
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"icepost/notation"
	"icepost/puzzle"
	"icepost/rules"
	"icepost/rules/icesickle"
)

// refWins reports whether the seat to move in r forces a win within n of
// its own moves, by the reference's moves and ending alone
// (reference_test.go, written from RULES.md apart from the package): a
// brute force that shares nothing with package solve. A win is the game
// over with the mover ahead; a draw is not one.
func refWins(r *refState, n int) bool {
	mover := r.toMove
	if n == 0 || mover == 0 {
		return false
	}
	for _, tok := range r.legal() {
		if refForces(r.after(tok), mover, n-1) {
			return true
		}
	}
	return false
}

// refForces reports whether mover wins from r, just after a move, with n
// more of its own moves: at once when the game is over with mover ahead;
// else by a move of its own when it is to move again (the same seat can
// move twice in a row across the change of round, so whose turn it is
// comes from the reference, never from alternating); else whatever the
// other seat replies. A reply that ends the game after the mover's last
// move counts as one move more, as solve.Win counts it: with no own
// moves left, the mover has not won yet.
func refForces(r *refState, mover, n int) bool {
	switch {
	case r.toMove == 0:
		return r.winner() == mover
	case n == 0:
		return false
	case r.toMove == mover:
		return refWins(r, n)
	}
	for _, tok := range r.legal() {
		if !refForces(r.after(tok), mover, n) {
			return false
		}
	}
	return true
}

// TestPuzzlesByReference: the puzzles package puzzle finds in random
// IceSickle games are confirmed by the reference: the seat to move is the
// puzzle's, it forces a win in the puzzle's number of moves and not
// fewer, its first move does, the move played in the game does not, and
// the solution's line is legal move after move and ends the game with
// the puzzle's seat ahead.
func TestPuzzlesByReference(t *testing.T) {
	ctx := context.Background()
	// Puzzles come only from the end of round 2's jumping, where few
	// pieces are left: the reference confirms one in a few milliseconds
	// (a win in three in 15 ms at most, on 2026-11-29), and most of the
	// time goes to puzzle.Find's searches (0.1 s a game). The caps keep
	// the ordinary run to a few seconds should a game give many puzzles,
	// or a slow one among the placements; ICEPOST_REFERENCE_ALL=1
	// confirms every puzzle of ten times the games (264 on 2026-11-29,
	// 40 of them won by the defence's forced last jump: 24 s).
	games, checked := 20, [...]int{1: 8, 2: 8, 3: 6}
	if testing.Short() || raceEnabled {
		games, checked = 5, [...]int{1: 2, 2: 2, 3: 1}
	}
	if os.Getenv("ICEPOST_REFERENCE_ALL") != "" {
		games, checked = 200, [...]int{1: 1 << 30, 2: 1 << 30, 3: 1 << 30}
	}
	start, err := icesickle.Game.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(41, 7))
	var byIn [len(checked)]int
	for range games {
		rec, err := notation.FromMoves(nil, start, notation.RandomGame(start, rng, 1000))
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
			if byIn[pz.In] >= checked[pz.In] {
				continue
			}
			byIn[pz.In]++
			// The reference reaches the puzzle's position by the game's
			// moves, each legal by its own rules.
			r := newRef()
			for k := 1; k < pz.Ply; k++ {
				tok := g.Token(k)
				if !slices.Contains(r.legal(), tok) {
					t.Fatalf("%s: the game's move %d, %s, is not legal by the reference", pz.Setup, k, tok)
				}
				r.play(tok)
			}
			if r.toMove != pz.Seat {
				t.Fatalf("%s: seat %d to move by the reference, the puzzle says %d", pz.Setup, r.toMove, pz.Seat)
			}
			if !refWins(r, pz.In) || pz.In > 1 && refWins(r, pz.In-1) {
				t.Fatalf("%s: the reference does not find a win in exactly %d", pz.Setup, pz.In)
			}
			if !refForces(r.after(pz.Solution[0]), pz.Seat, pz.In-1) {
				t.Errorf("%s: %s does not force the win in %d by the reference", pz.Setup, pz.Solution[0], pz.In)
			}
			if refForces(r.after(pz.Played), pz.Seat, pz.In-1) {
				t.Errorf("%s: the move played %s keeps the win by the reference", pz.Setup, pz.Played)
			}
			q := r.clone()
			for i, tok := range pz.Solution {
				if !slices.Contains(q.legal(), tok) {
					t.Fatalf("%s: the solution's move %d, %s, is not legal by the reference", pz.Setup, i+1, tok)
				}
				q.play(tok)
			}
			if q.toMove != 0 || q.winner() != pz.Seat {
				t.Errorf("%s: the solution %v does not win by the reference", pz.Setup, pz.Solution)
			}
		}
	}
	if byIn[1] == 0 || byIn[2] == 0 {
		t.Fatalf("puzzles in 1, 2, 3 moves of %d random games: %v; change the seed", games, byIn[1:])
	}
	t.Logf("puzzles in 1, 2, 3 moves confirmed: %v", byIn[1:])
}
