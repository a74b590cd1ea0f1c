package render

import (
	"fmt"
	"strings"

	"icepost/rules"
)

var sizeWords = [4]string{"", "small", "medium", "large"}

var directionWords = [9]string{"upright", "pointing N", "pointing NE", "pointing E", "pointing SE", "pointing S", "pointing SW", "pointing W", "pointing NW"}

// Describe says the picture of d in words, for alt text and the SVG's
// title: the view, each seat's pieces by cell, the stacks, the supplies,
// the last move and whose turn it is.
func Describe(d rules.Diagram, opts ...Option) string {
	o := collect(opts).settle(&d)
	var b strings.Builder
	b.WriteString(d.Game)
	if len(d.Cells) > 0 {
		if d.Turned {
			b.WriteString(", the board turned round (seen from the far side)")
		}
	}
	b.WriteString(". ")
	byOwner := make([][]string, len(d.Seats)+1)
	stacked := make([]int, len(d.Seats)+1) // pieces in stacks, by owner
	owned := false                         // whether pieces belong to seats
	for _, c := range d.Cells {
		for _, p := range c.Pieces {
			owned = owned || p.Owner > 0
			if len(c.Pieces) > 1 && p.Owner >= 0 && p.Owner < len(stacked) {
				stacked[p.Owner]++
			}
		}
	}
	var stacks []string
	for _, c := range d.Cells {
		switch len(c.Pieces) {
		case 0:
		case 1:
			p := c.Pieces[0]
			w := sizeWords[p.Size]
			if d.Pointing {
				w += " " + directionWords[p.Points]
			}
			if p.Owner >= 0 && p.Owner < len(byOwner) {
				byOwner[p.Owner] = append(byOwner[p.Owner], c.Name+" "+w)
			}
		default:
			var parts []string
			for i := len(c.Pieces) - 1; i >= 0; i-- {
				p := c.Pieces[i]
				who := "neutral"
				if p.Owner > 0 {
					who = o.seatName(p.Owner) + "'s"
				}
				parts = append(parts, who+" "+sizeWords[p.Size])
			}
			stacks = append(stacks, c.Name+" "+strings.Join(parts, " on "))
		}
	}
	for i, s := range d.Seats {
		seat := i + 1
		fmt.Fprintf(&b, "%s (%s", o.seatName(seat), ColourName(seat))
		if s.Side != "" {
			b.WriteString(", " + s.Side)
		}
		if s.HasScore {
			fmt.Fprintf(&b, ", %d points", s.Score)
		}
		b.WriteString(")")
		switch {
		case len(byOwner[seat]) > 0:
			b.WriteString(": " + strings.Join(byOwner[seat], ", "))
		case !owned || len(d.Cells) == 0:
		case stacked[seat] > 0:
			b.WriteString(": pieces in stacks only")
		default:
			b.WriteString(": no pieces on the board")
		}
		b.WriteString(". ")
	}
	if len(byOwner[0]) > 0 {
		b.WriteString("Pieces: " + strings.Join(byOwner[0], ", ") + ". ")
	}
	if len(stacks) > 0 {
		b.WriteString("Stacks, top first: " + strings.Join(stacks, "; ") + ". ")
	}
	for _, s := range d.Supplies {
		who := "Shared"
		if s.Owner > 0 {
			who = o.seatName(s.Owner) + "'s"
		}
		fmt.Fprintf(&b, "%s %s: %d small, %d medium, %d large. ", who, s.Label, s.Count[0], s.Count[1], s.Count[2])
	}
	for _, n := range d.Notes {
		b.WriteString(n + ". ")
	}
	if d.Last != nil {
		b.WriteString(lastMoveText(&d, o) + ". ")
	}
	b.WriteString(statusText(&d, o) + ".")
	return b.String()
}

// DescribeCell says in words what stands on the cell called name, top
// first, for a label on the cell's handle (Cells): "c3, Bob's medium
// pointing N", "c5, Bob's medium on Alice's large", "e4, empty". It is ""
// when the diagram has no such cell.
func DescribeCell(d rules.Diagram, name string, opts ...Option) string {
	o := collect(opts)
	for _, c := range d.Cells {
		if c.Name != name {
			continue
		}
		if len(c.Pieces) == 0 {
			return c.Name + ", empty"
		}
		var parts []string
		for i := len(c.Pieces) - 1; i >= 0; i-- {
			p := c.Pieces[i]
			who := "neutral"
			if p.Owner > 0 {
				who = o.possessive(p.Owner)
			}
			w := who + " " + sizeWords[p.Size]
			if d.Pointing {
				w += " " + directionWords[p.Points]
			}
			parts = append(parts, w)
		}
		return c.Name + ", " + strings.Join(parts, " on ")
	}
	return ""
}
