package icefrogs

import (
	"slices"

	"icepost/rules"
)

// Diagram describes the position for a picture: the 37 hexagonal cells
// of the star or hex board in rows, the start spaces, every stack bottom
// first, and each seat's supply. In a 2-seat game viewer 2 sees the board
// turned half round, as on the text board.
func (p Position) Diagram(viewer int) rules.Diagram {
	g := p.geo()
	d := rules.Diagram{
		Game:      "IceFrogs",
		Grid:      rules.Hex,
		Cells:     make([]rules.Cell, maxCells),
		NameCells: true,
		Turned:    p.seats == 2 && viewer == 2,
		Seats:     make([]rules.SeatInfo, p.seats),
	}
	for c := range uint8(maxCells) {
		cl := &d.Cells[c]
		cl.Name = g.names[c]
		cl.X, cl.Y = int(g.x[c]), int(g.row[c])
		for t := p.top[c]; t != 0; t = p.below[t-1] {
			cl.Pieces = append(cl.Pieces, rules.Piece{Owner: int(pieceSeat(t - 1)), Size: int(pieceSize(t - 1)), Points: rules.Upright})
		}
		slices.Reverse(cl.Pieces)
	}
	for s := range int(p.seats) {
		d.Cells[g.start(int(p.seats), s+1)].Start = s + 1
		sup := p.supply[s]
		d.Supplies = append(d.Supplies, rules.Supply{Owner: s + 1, Label: "supply", Count: [3]int{int(sup[0]), int(sup[1]), int(sup[2])}})
	}
	for r := range g.rows {
		d.Rows = append(d.Rows, rules.Label{At: r, Text: string(rune('a' + r))})
	}
	d.Notes = []string{"End a move on an opponent's start space to win"}
	o := p.Outcome()
	d.ToMove, d.Over, d.Winner = int(p.toMove), o.Over, o.Winner
	return d
}

// LastMove describes m for the picture after it: the cells the piece
// went through, from its start (or, for an entry, the start space it
// came in on) to where it ended. Nothing is ever captured.
func (p Position) LastMove(m rules.Move) rules.LastMove {
	l := rules.LastMove{Seat: int(p.toMove), Token: p.FormatMove(m), Placed: m.Kind == Enter}
	for _, c := range m.Squares() {
		l.Path = append(l.Path, int(c))
	}
	return l
}
