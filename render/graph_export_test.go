package render

import (
	"image/color"
	"strconv"
)

// Probe is a pixel of a picture and the colour it should have.
type Probe struct {
	What string
	X, Y float64
	Want color.NRGBA
}

// GraphProbes returns pixels of g's PNG whose colours the data decides:
// each mark's centre (in its seat's plot with three or four seats), the
// current move's line near the bottom of each plot, and for two seats
// the middle of each move's column between its point and the middle line
// (seat 1's colour where seat 1 leads, seat 2's where it trails, blended
// over the plot's background).
func GraphProbes(g EvalGraph) []Probe {
	plots := g.pngPlots()
	n := len(g.Points)
	var out []Probe
	for i, q := range g.Points {
		p := plots[0]
		if g.Seats > 2 {
			p = plots[q.Seat-1]
		}
		mid := p.y + p.h/2
		c := p.at(i, n, g.value(q))
		if q.Mark > 0 {
			out = append(out, Probe{markNames[q.Mark] + " at ply " + itoa(q.Ply), c.X, c.Y, markFill[q.Mark]})
			continue
		}
		if q.Ply == g.Current {
			continue
		}
		if g.Seats == 2 && abs(c.Y-mid) > 12 {
			seat := 1
			if c.Y > mid {
				seat = 2
			}
			want := mix(graphBack, SeatColour(seat), float64(0x59)/255)
			out = append(out, Probe{"the area at ply " + itoa(q.Ply), c.X, (c.Y + mid) / 2, want})
		}
	}
	for i, q := range g.Points {
		if q.Ply == g.Current {
			for k, p := range plots {
				// Away from the move's own point.
				c, y := p.at(i, n, g.value(q)), p.y+p.h-3
				if c.Y > p.y+p.h/2 {
					y = p.y + 3
				}
				out = append(out, Probe{"the current move's line in plot " + itoa(k+1), c.X, y, currentInk})
			}
		}
	}
	return out
}

// GraphLabels returns the words of the axes of g's SVG (with move
// numbers for at most most moves a plot's width) and the PNG's, in the
// order drawn.
func GraphLabels(g EvalGraph) (svg, png []string) {
	for _, l := range g.shapes(svgPlot(), 0, graphFont).labels {
		svg = append(svg, l.text)
	}
	for _, w := range g.scene().shapes {
		if w.kind == kindText && w.size == graphPNGFont {
			png = append(png, w.text)
		}
	}
	return svg, png
}

// TickStep is tickStep.
var TickStep = tickStep

func itoa(n int) string { return strconv.Itoa(n) }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
