package icesickle

import (
	"fmt"

	"icepost/rules"
)

// Diagram describes the position for a picture: the 5x5 board with its
// neutral pieces, the stash still to place, both scores, the round and
// phase. Viewer 2 sees the board turned, as on the text board.
func (p Position) Diagram(viewer int) rules.Diagram {
	d := rules.Diagram{
		Game:   "IceSickle",
		Grid:   rules.Square,
		Cells:  make([]rules.Cell, size*size),
		Turned: viewer == 2,
		Seats: []rules.SeatInfo{
			{Score: int(p.score[0]), HasScore: true},
			{Score: int(p.score[1]), HasScore: true},
		},
		Supplies: []rules.Supply{{Label: "to place", Count: [3]int{int(p.stash[1]), int(p.stash[2]), int(p.stash[3])}}},
	}
	for sq := range d.Cells {
		c := &d.Cells[sq]
		c.Name = squareName(sq)
		c.X, c.Y = sq%size, sq/size
		if s := p.board[sq]; s != 0 {
			c.Pieces = []rules.Piece{{Size: int(s), Points: rules.Upright}}
		}
	}
	for i := range size {
		d.Columns = append(d.Columns, rules.Label{At: i, Text: string(rune('a' + i))})
		d.Rows = append(d.Rows, rules.Label{At: i, Text: fmt.Sprint(i + 1)})
	}
	phase := [3]string{"placing", "jumping", "finished"}[p.phase]
	d.Notes = []string{fmt.Sprintf("Round %d of 2: %s", p.round, phase)}
	o := p.Outcome()
	d.ToMove, d.Over, d.Winner = p.ToMove(), o.Over, o.Winner
	return d
}

// LastMove describes m for the picture after it: a placement names its
// square; a jump its start and landing squares and the pieces it took
// (neutral, by size).
func (p Position) LastMove(m rules.Move) rules.LastMove {
	l := rules.LastMove{Seat: p.ToMove(), Token: p.FormatMove(m)}
	switch m.Kind {
	case Place:
		l.Path = []int{int(m.Path[0])}
		l.Placed = true
	case Jump:
		from, to := int(m.Path[0]), int(m.Path[1])
		l.Path = []int{from, to}
		f0, r0 := from%size, from/size
		df, dr := sign(to%size-f0), sign(to/size-r0)
		for f, r := f0+df, r0+dr; f != to%size || r != to/size; f, r = f+df, r+dr {
			if s := p.board[r*size+f]; s != 0 {
				l.Captured = append(l.Captured, r*size+f)
				l.Taken = append(l.Taken, rules.Piece{Size: int(s), Points: rules.Upright})
			}
		}
	}
	return l
}
