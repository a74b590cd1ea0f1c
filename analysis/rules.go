package analysis

import (
	"icepost/rules"
)

// lets reports whether the seat to move in s can win at once.
func lets(s rules.State) bool {
	if s.Outcome().Over || s.ToMove() == 0 {
		return false
	}
	_, ok := winInOne(s, s.ToMove())
	return ok
}

// safeMoves returns the moves of s after which the next seat cannot win
// at once (none when every move lets it).
func safeMoves(s rules.State) []rules.Move {
	var out []rules.Move
	for _, m := range s.Moves(nil) {
		if next, err := s.Play(m); err == nil && !lets(next) {
			out = append(out, m)
		}
	}
	return out
}

// keepBudget bounds the positions keepsWin looks at: two seats of
// Pikemen, the most moves, need about 120 replies times 120 moves; with
// three and four seats it gives up (a few tenths of a second).
const keepBudget = 20_000

// keepsWin reports whether seat, having just moved into s, wins at once
// on its next turn whatever the other seats play in between: a missed
// win in one that only puts the win off a turn. It says false when it
// cannot tell within keepBudget positions (three and four seats).
func keepsWin(s rules.State, seat int) bool {
	budget := keepBudget
	var keeps func(s rules.State) bool
	keeps = func(s rules.State) bool {
		if o := s.Outcome(); o.Over {
			return o.Winner == seat
		}
		ms := s.Moves(nil)
		if budget -= len(ms); budget < 0 {
			return false
		}
		if s.ToMove() == seat {
			_, ok := winInOne(s, seat)
			return ok
		}
		for _, m := range ms {
			next, err := s.Play(m)
			if err != nil || !keeps(next) {
				return false
			}
		}
		return true
	}
	return keeps(s)
}

// winInOne returns a legal move of s that wins it for seat at once.
func winInOne(s rules.State, seat int) (rules.Move, bool) {
	for _, m := range s.Moves(nil) {
		next, err := s.Play(m)
		if err == nil && wins(next, seat) {
			return m, true
		}
	}
	return rules.Move{}, false
}

// wins reports whether s is over with seat the winner.
func wins(s rules.State, seat int) bool {
	o := s.Outcome()
	return o.Over && o.Winner == seat
}

// MissedWin reports whether m, the analysis of a move played in s, is a
// win in one missed: its better move, played in s, wins the game for
// the mover at once. Such a move is always a blunder, even when the win
// was only put off a turn (After 1), which the estimates alone would not
// say; the displays say it in words.
func MissedWin(s rules.State, m Move) bool {
	if m.Mark != Blunder || m.Better == "" || s.ToMove() != m.Seat {
		return false
	}
	next, _, err := rules.Play(s, m.Better)
	return err == nil && wins(next, m.Seat)
}
