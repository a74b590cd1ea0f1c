package pikemen

import (
	"fmt"
	"strings"

	"icepost/rules"
)

// Board draws the position for people. Each cell shows the owner's seat,
// the size and the orientation: "1L NE" is seat 1's large lying down and
// pointing NE, "2S U" is seat 2's small standing upright. In a 2-seat game
// viewer 2 sees the board turned 180 degrees; other viewers see seat 1's
// view.
func (p Position) Board(viewer int) string {
	flip := p.seats == 2 && viewer == 2
	files := []int{0, 1, 2, 3, 4, 5, 6, 7}
	ranks := []int{7, 6, 5, 4, 3, 2, 1, 0}
	if flip {
		files = []int{7, 6, 5, 4, 3, 2, 1, 0}
		ranks = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	var b strings.Builder
	header := "    "
	for _, f := range files {
		header += "   " + string(rune('a'+f)) + "  "
	}
	header = strings.TrimRight(header, " ") + "\n"
	border := "   +" + strings.Repeat("-", 6*8+1) + "+\n"
	b.WriteString(header)
	b.WriteString(border)
	for _, r := range ranks {
		fmt.Fprintf(&b, " %d |", r+1)
		for _, f := range files {
			sq := r*8 + f
			if p.cell[sq] == 0 {
				b.WriteString("   .  ")
				continue
			}
			fmt.Fprintf(&b, " %d%s %-2s", p.owner(sq), rules.SizeLetter(p.size(sq)), p.orient[sq])
		}
		fmt.Fprintf(&b, " | %d\n", r+1)
	}
	b.WriteString(border)
	b.WriteString(header)
	b.WriteString("\n")
	b.WriteString("1L NE = seat 1's large, lying down and pointing NE: it charges that way.\n")
	b.WriteString("2M U  = seat 2's medium, standing upright: it cannot charge until a\n")
	b.WriteString("        turn lays it down pointing some way (like c7:SE).\n")
	b.WriteString("S small (1 point), M medium (2), L large (3).\n")
	if flip {
		b.WriteString("On this board, turned for you, N points down the page (to rank 8),\n")
		b.WriteString("S up, E to the left (to file h) and W to the right.\n")
	} else {
		b.WriteString("N points up the page (to rank 8), S down, E to the right (to file h).\n")
	}
	b.WriteString("\nScores:")
	for i := range int(p.seats) {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, " seat %d %d", i+1, p.scores[i])
	}
	fmt.Fprintf(&b, " (%d wins)\n", p.target)
	for i := range int(p.seats) {
		if p.count[i] == 0 {
			fmt.Fprintf(&b, "Seat %d has no pieces left.\n", i+1)
		}
	}
	switch {
	case !p.over:
		fmt.Fprintf(&b, "Seat %d to move\n", p.toMove)
	case p.winner == 0:
		b.WriteString("Game over: draw\n")
	default:
		fmt.Fprintf(&b, "Game over: seat %d wins\n", p.winner)
	}
	return b.String()
}
