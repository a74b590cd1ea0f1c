package icelady

import (
	"math/rand/v2"
	"testing"
)

// TestOwned checks the eight-cells-at-a-time scan against a plain one on
// random boards of every kind of cell.
func TestOwned(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		var cells [64]uint8
		for i := range cells {
			if rng.IntN(3) > 0 {
				cells[i] = cell(uint8(rng.IntN(2)+1), uint8(rng.IntN(7)+1))
			}
		}
		for me := uint8(1); me <= 2; me++ {
			var want uint64
			for sq, c := range cells {
				if c != 0 && ownerOf(c) == me {
					want |= 1 << sq
				}
			}
			if got := owned(&cells, me); got != want {
				t.Fatalf("seat %d: owned %016x, want %016x", me, got, want)
			}
		}
	}
}

// TestHasMove checks the quick test for a legal move, which ends the game
// when it fails, against the move list, at every ply of random games
// (which end when a side has no move); and the occupancy a position keeps
// as moves are played against a scan of its cells.
func TestHasMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ends := 0
	for range 300 {
		p := Start()
		for range 400 {
			if want := [2]uint64{owned(&p.cells, 1), owned(&p.cells, 2)}; p.occ != want {
				t.Fatalf("%s: occupancy %016x, want %016x", p.Code(), p.occ, want)
			}
			moves := p.AppendMoves(nil)
			if got := p.hasMove(); got != (len(moves) > 0) {
				t.Fatalf("%s: hasMove %v with %d moves", p.Code(), got, len(moves))
			}
			if len(moves) == 0 {
				ends++
				break
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
	if ends == 0 {
		t.Fatal("no game ended: the test never saw a position without a move")
	}
}
