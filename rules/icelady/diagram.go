package icelady

import (
	"fmt"

	"icepost/rules"
)

// stackPieces lists each kind's pieces bottom first.
var stackPieces = [8][]int{
	small: {rules.Small},
	med:   {rules.Medium},
	king:  {rules.Large},
	treeS: {rules.Large, rules.Small},
	treeM: {rules.Large, rules.Medium},
	treeF: {rules.Large, rules.Medium, rules.Small},
}

// Diagram describes the position for a picture: the 8x8 board with each
// square's piece or king tree (bottom first), both reserves of kings, and
// whose turn it is. Viewer 2 sees the board turned, North at the bottom,
// as on the text board.
func (p Position) Diagram(viewer int) rules.Diagram {
	d := rules.Diagram{
		Game:   "IceLady",
		Grid:   rules.Square,
		Cells:  make([]rules.Cell, 64),
		Turned: viewer == 2,
		Seats:  []rules.SeatInfo{{Side: "South"}, {Side: "North"}},
		Supplies: []rules.Supply{
			{Owner: 1, Label: "kings in reserve", Count: [3]int{0, 0, int(p.reserve[0])}},
			{Owner: 2, Label: "kings in reserve", Count: [3]int{0, 0, int(p.reserve[1])}},
		},
	}
	for sq := range d.Cells {
		c := &d.Cells[sq]
		c.Name = squareName(sq)
		c.X, c.Y = sq%8, sq/8
		if v := p.cells[sq]; v != 0 {
			for _, s := range stackPieces[kindOf(v)] {
				c.Pieces = append(c.Pieces, rules.Piece{Owner: int(ownerOf(v)), Size: s, Points: rules.Upright})
			}
		}
	}
	for i := range 8 {
		d.Columns = append(d.Columns, rules.Label{At: i, Text: string(rune('a' + i))})
		d.Rows = append(d.Rows, rules.Label{At: i, Text: fmt.Sprint(i + 1)})
	}
	o := p.Outcome()
	d.ToMove, d.Over, d.Winner = p.ToMove(), o.Over, o.Winner
	return d
}

// LastMove describes m for the picture after it: the start and every
// landing square, and the square of each piece a capture took with the
// piece (a king tree loses its top piece and is still there).
func (p Position) LastMove(m rules.Move) rules.LastMove {
	l := rules.LastMove{Seat: int(p.turn), Token: p.FormatMove(m)}
	for _, sq := range m.Squares() {
		l.Path = append(l.Path, int(sq))
	}
	if m.Kind == Capture {
		cells := p.cells
		cells[m.Path[0]] = 0
		for i := 1; i < int(m.N); i++ {
			a, b := int(m.Path[i-1]), int(m.Path[i])
			step := sign(b/8-a/8)*8 + sign(b%8-a%8)
			for s := a + step; s != b; s += step {
				if c := cells[s]; c != 0 {
					l.Captured = append(l.Captured, s)
					pieces := stackPieces[kindOf(c)]
					l.Taken = append(l.Taken, rules.Piece{Owner: int(ownerOf(c)), Size: pieces[len(pieces)-1], Points: rules.Upright})
					// as Apply: a tree keeps its rest, which blocks
					if rest := afterCapture[kindOf(c)]; rest != 0 {
						cells[s] = cell(ownerOf(c), rest)
					} else {
						cells[s] = 0
					}
					break
				}
			}
		}
	}
	return l
}
