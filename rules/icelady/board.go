package icelady

import (
	"fmt"
	"strings"
)

// Board draws the position for people: each square shows its owner's seat
// and its pieces bottom first (2M, 1L+M), with coordinates on all sides,
// a legend, both reserves and whose turn it is. Viewer 2 sees the board
// turned round, North's side at the bottom.
func (p Position) Board(viewer int) string {
	files := []int{0, 1, 2, 3, 4, 5, 6, 7}
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	if viewer == 2 {
		files = []int{7, 6, 5, 4, 3, 2, 1, 0}
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	var b strings.Builder
	letters := func() {
		b.WriteString("  ")
		for _, f := range files {
			fmt.Fprintf(&b, "    %c  ", 'a'+f)
		}
		// no trailing blanks: some mailers strip them, some mark them
		trimmed := strings.TrimRight(b.String(), " ")
		b.Reset()
		b.WriteString(trimmed)
		b.WriteString("\n")
	}
	rule := "   " + strings.Repeat("+------", 8) + "+\n"
	letters()
	b.WriteString(rule)
	for _, r := range ranks {
		fmt.Fprintf(&b, "%d  |", r+1)
		for _, f := range files {
			c := p.cells[r*8+f]
			s := "."
			if c != 0 {
				s = fmt.Sprintf("%d%s", ownerOf(c), stackNames[kindOf(c)])
			}
			left := (6 - len(s)) / 2
			b.WriteString(strings.Repeat(" ", left) + s + strings.Repeat(" ", 6-left-len(s)) + "|")
		}
		fmt.Fprintf(&b, "  %d\n", r+1)
	}
	b.WriteString(rule)
	letters()
	b.WriteString("\n1 = seat 1 (South), 2 = seat 2 (North); S small, M medium, L king,\n")
	b.WriteString("L+M and the like a king tree, bottom piece first.\n")
	fmt.Fprintf(&b, "Larges in reserve for promotion: seat 1 has %d, seat 2 has %d\n", p.reserve[0], p.reserve[1])
	if o := p.Outcome(); o.Over {
		fmt.Fprintf(&b, "Game over: seat %d wins\n", o.Winner)
	} else {
		fmt.Fprintf(&b, "Seat %d to move\n", p.turn)
	}
	return b.String()
}
