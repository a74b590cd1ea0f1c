package icefrogs

import (
	"fmt"
	"strings"
)

// Board draws the board as rows of hexagonal cells, row letters on both
// sides. An empty cell shows its name (c3); a cell with pieces shows its
// stack top first (2M1S: seat 2's medium on seat 1's small). All cells are
// as wide as the highest stack needs. Below come the start spaces, the
// supplies and whose turn it is. In a 2-seat game viewer 2 sees the board
// turned half round, with seat 2's start at the bottom.
func (p Position) Board(viewer int) string {
	g := p.geo()
	turned := p.seats == 2 && viewer == 2
	w := 2
	for c := range uint8(maxCells) {
		w = max(w, 2*p.height(c))
	}
	u := (w + 2) / 2 // characters per doubled x unit
	span := int(g.xmax-g.xmin)*u + w
	var b strings.Builder
	line := make([]byte, span)
	for i := range g.rows {
		r := g.rows - 1 - i
		if turned {
			r = i
		}
		for k := range line {
			line[k] = ' '
		}
		for c := g.rowFirst[r]; c < g.rowFirst[r+1]; c++ {
			x := g.x[c] - g.xmin
			if turned {
				x = g.xmax - g.x[c]
			}
			text := p.stack(c)
			if text == "" {
				text = g.names[c]
			}
			at := int(x)*u + (w-len(text))/2
			copy(line[at:], text)
		}
		fmt.Fprintf(&b, "%c  %s  %c\n", 'a'+r, line, 'a'+r)
	}
	b.WriteString("\nAn empty cell shows its name; a stack shows its pieces top first,\nas seat and size: 2M1S is seat 2's medium on seat 1's small.\n")
	for s := range int(p.seats) {
		sup := p.supply[s]
		fmt.Fprintf(&b, "Seat %d: start %s, supply %d S, %d M, %d L\n", s+1, g.names[g.start(int(p.seats), s+1)], sup[0], sup[1], sup[2])
	}
	switch {
	case p.toMove != 0:
		fmt.Fprintf(&b, "Seat %d to move\n", p.toMove)
	case p.winner != 0:
		fmt.Fprintf(&b, "Game over: seat %d wins\n", p.winner)
	default:
		b.WriteString("Game over: draw\n")
	}
	return b.String()
}
