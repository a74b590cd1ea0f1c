package notation

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"icepost/rules"
)

// FromMoves makes the record of a game played from start: the tags given
// (Game is set from start), the moves as canonical tokens, the Result tag
// and marker from the rules ("*" while the game is not over) and, for
// games with scores, the Score tag.
func FromMoves(tags []Tag, start rules.State, moves []rules.Move) (*Record, error) {
	rec := &Record{Tags: append([]Tag(nil), tags...)}
	rec.SetTag("Game", start.Game().Name())
	s := start
	for i, m := range moves {
		next, err := s.Play(m)
		if err != nil {
			return nil, fmt.Errorf("ply %d: %w", i+1, err)
		}
		rec.Main.Moves = append(rec.Main.Moves, &Move{Token: s.FormatMove(m)})
		s = next
	}
	seats := start.Options().Seats
	rec.Result = ResultString(s.Outcome(), seats)
	rec.SetTag("Result", rec.Result)
	if sc := s.Scores(); sc != nil {
		parts := make([]string, len(sc))
		for i, v := range sc {
			parts[i] = strconv.Itoa(v)
		}
		rec.SetTag("Score", strings.Join(parts, ":"))
	}
	return rec, nil
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
