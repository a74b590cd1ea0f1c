package counting

import (
	"fmt"

	"icepost/rules"
)

// Diagram describes a Counting position: no board (no cells), the total
// as a note, whose turn it is. A game without a board describes itself
// this way; the renderer draws its notes where a board would be.
func (s state) Diagram(int) rules.Diagram {
	o := s.Outcome()
	return rules.Diagram{
		Game:   "Counting",
		Seats:  make([]rules.SeatInfo, s.seats),
		Notes:  []string{fmt.Sprintf("Total %d of %d", s.total, Goal)},
		ToMove: s.ToMove(),
		Over:   o.Over,
		Winner: o.Winner,
	}
}

// LastMove describes m: it names no cell.
func (s state) LastMove(m rules.Move) rules.LastMove {
	return rules.LastMove{Seat: s.toMove, Token: s.FormatMove(m)}
}
