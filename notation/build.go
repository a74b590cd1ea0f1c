package notation

import (
	"fmt"
	"math/rand/v2"

	"icepost/rules"
)

// FromMoves makes the record of a game played from start: the tags given
// and those NewGame sets, the moves as canonical tokens, and the Result,
// Termination and Score tags as the position after them says ("*" while
// the game is not over).
func FromMoves(tags []Tag, start rules.State, moves []rules.Move) (*Record, error) {
	g := NewGame(start, tags)
	for i, m := range moves {
		if err := g.Play(m, ""); err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
	}
	return g.Record, nil
}

// RandomGame plays uniformly random legal moves from start until the game
// ends or maxPlies have been played, and returns the moves.
func RandomGame(start rules.State, rng *rand.Rand, maxPlies int) []rules.Move {
	var moves []rules.Move
	var buf []rules.Move
	s := start
	for len(moves) < maxPlies {
		buf = s.Moves(buf)
		if len(buf) == 0 {
			break
		}
		m := buf[rng.IntN(len(buf))]
		next, err := s.Play(m)
		if err != nil {
			panic("notation: a legal move did not play: " + err.Error())
		}
		moves = append(moves, m)
		s = next
	}
	return moves
}
