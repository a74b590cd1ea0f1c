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
// each mark's centre, the current move's line under the plot's middle,
// and the middle of each move's column between its point and the middle
// line (seat 1's colour where seat 1 leads, seat 2's where it trails,
// blended over the plot's background), for two seats.
func GraphProbes(g EvalGraph) []Probe {
	p := pngPlot()
	n := len(g.Points)
	mid := p.y + p.h/2
	var out []Probe
	for i, q := range g.Points {
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
			c := p.at(i, n, g.value(q))
			out = append(out, Probe{"the current move's line", c.X, p.y + p.h - 3, currentInk})
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
