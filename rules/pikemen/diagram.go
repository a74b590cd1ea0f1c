package pikemen

import (
	"fmt"

	"icepost/rules"
)

// directions maps an Orientation to the diagram's compass.
var directions = [9]rules.Direction{
	N: rules.North, NE: rules.NorthEast, E: rules.East, SE: rules.SouthEast,
	S: rules.South, SW: rules.SouthWest, W: rules.West, NW: rules.NorthWest,
	U: rules.Upright,
}

// Diagram describes the position for a picture: the 8x8 board, each
// piece with its owner, size and orientation, the scores and the target.
// In a 2-seat game viewer 2 sees the board turned, as on the text board.
func (p Position) Diagram(viewer int) rules.Diagram {
	d := rules.Diagram{
		Game:     "Pikemen",
		Grid:     rules.Square,
		Cells:    make([]rules.Cell, 64),
		Turned:   p.seats == 2 && viewer == 2,
		Pointing: true,
		Seats:    make([]rules.SeatInfo, p.seats),
		Notes:    []string{fmt.Sprintf("%d points win", p.target)},
	}
	for sq := range d.Cells {
		c := &d.Cells[sq]
		c.Name = squareName(sq)
		c.X, c.Y = sq%8, sq/8
		if p.cell[sq] != 0 {
			c.Pieces = []rules.Piece{{Owner: p.owner(sq), Size: p.size(sq), Points: directions[p.orient[sq]]}}
		}
	}
	for i := range 8 {
		d.Columns = append(d.Columns, rules.Label{At: i, Text: string(rune('a' + i))})
		d.Rows = append(d.Rows, rules.Label{At: i, Text: fmt.Sprint(i + 1)})
	}
	for i := range d.Seats {
		d.Seats[i] = rules.SeatInfo{Score: int(p.scores[i]), HasScore: true, Out: p.count[i] == 0}
	}
	d.ToMove, d.Over, d.Winner = int(p.toMove), p.over, int(p.winner)
	return d
}

// LastMove describes m for the picture after it: a reorient names the
// piece's square, a charge its start and end, and a capture the square
// taken and the piece that stood there.
func (p Position) LastMove(m rules.Move) rules.LastMove {
	l := rules.LastMove{Seat: int(p.toMove), Token: p.FormatMove(m)}
	for _, sq := range m.Squares() {
		l.Path = append(l.Path, int(sq))
	}
	if m.Kind == KindCapture {
		to := m.Path[1]
		l.Captured = []int{int(to)}
		l.Taken = []rules.Piece{{Owner: p.owner(int(to)), Size: p.size(int(to)), Points: directions[p.orient[to]]}}
	}
	return l
}
