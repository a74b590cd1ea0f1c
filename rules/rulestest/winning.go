package rulestest

import (
	"math/rand/v2"

	"icepost/rules"
)

// MissedWin plays random games (seeded) from start until, after at least
// minPly moves, the seat to move can win at once and has a move that does
// not: it returns the moves that led there, a winning move and one that
// does not win, for tests of what icepost says of a missed win. ok is
// false when 200 random games had no such position.
func MissedWin(start rules.State, seed uint64, minPly int) (moves []rules.Move, win, miss rules.Move, ok bool) {
	rng := rand.New(rand.NewPCG(seed, seed))
	for range 200 {
		moves = moves[:0]
		s := start
		for !s.Outcome().Over {
			var winning, other []rules.Move
			for _, m := range s.Moves(nil) {
				next, err := s.Play(m)
				if err != nil {
					continue
				}
				if o := next.Outcome(); o.Over && o.Winner == s.ToMove() {
					winning = append(winning, m)
				} else {
					other = append(other, m)
				}
			}
			if len(winning) > 0 && len(other) > 0 && len(moves) >= minPly {
				return moves, winning[0], other[0], true
			}
			ms := s.Moves(nil)
			m := ms[rng.IntN(len(ms))]
			moves = append(moves, m)
			s, _ = s.Play(m)
		}
	}
	return nil, rules.Move{}, rules.Move{}, false
}
