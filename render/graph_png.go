package render

import (
	"image/color"
	"io"
	"math"
)

// The PNG's size: as wide as a board picture, so that a mail shows both
// at the same scale, its words at least 14 CSS pixels on a phone.
const (
	graphPNGW      = 560.0
	graphPNGPlotH  = 200.0 // two seats' plot
	graphPNGPanelH = 90.0  // each seat's plot with three or four
	graphPNGFont   = 16.0  // the axes' words, as a board's coordinates
	graphPNGLeft   = 26.0  // room for 1, ½ and 0 left of the plot
)

// PNG writes the graph as a picture for a mail: the title, the plot, the
// players in their colours and what the marks mean, as the SVG but with
// the words a page would give around it. With three or four seats it
// draws one plot a seat, one under the other, each under its player's
// name (a mail has no switch, and three or four lines in one plot cross
// where the players are close): each player finds their own line, and
// every plot has the same moves at the same places.
func (g EvalGraph) PNG(w io.Writer) error {
	if err := g.check(); err != nil {
		return err
	}
	return writePNG(w, g.scene(), 1)
}

// pngTop is where the PNG's first plot (or first seat's name) begins,
// under the title.
func pngTop() float64 { return pad + textSizeFor(graphPNGW) + 4 + 12 }

// pngPlots are the PNG's plots: one with two seats, one a seat (in the
// order of the seats) with more.
func (g *EvalGraph) pngPlots() []plot {
	x := pad + graphPNGLeft
	w := graphPNGW - x - pad
	if g.Seats == 2 {
		return []plot{{x: x, y: pngTop() + 8, w: w, h: graphPNGPlotH, k: 1.5, under: 22}}
	}
	ts := textSizeFor(graphPNGW)
	var out []plot
	y := pngTop()
	for range g.Seats {
		p := plot{x: x, y: y + ts + 8 + 8, w: w, h: graphPNGPanelH, k: 1.5, under: 22}
		out = append(out, p)
		y = p.y + p.h + 8 + 10
	}
	return out
}

// scene lays out the PNG.
func (g *EvalGraph) scene() *scene {
	sc := &scene{W: graphPNGW}
	ts := textSizeFor(sc.W)
	sc.ts = ts
	sc.text(pt{pad, pad + ts + 4}, fit(g.title(), ts+4, true, sc.W-2*pad), ts+4, anchorStart, true, ink)
	stroke := func(l graphPath) {
		var segs [][]pt
		for i := 0; i+1 < len(l.pts); i++ {
			a, z := l.pts[i], l.pts[i+1]
			if l.dashed {
				segs = append(segs, dashes(a, z, l.width, 9, 6)...)
				continue
			}
			if z.sub(a).len() > 1e-9 {
				segs = append(segs, segment(a, z, l.width))
			}
			if i > 0 {
				segs = append(segs, disc(a, l.width/2, 10))
			}
		}
		if len(segs) > 0 {
			sc.poly(l.ink, none, 0, segs...)
		}
	}
	plots := g.pngPlots()
	var y float64
	for i, p := range plots {
		only := 0
		if g.Seats > 2 {
			only = i + 1
			mid := p.y - 16 - ts/2
			sc.poly(alpha(SeatColour(only), 0x80), SeatColour(only), 2, []pt{{pad, mid - 0.3*ts}, {pad + 1.2*ts, mid - 0.3*ts}, {pad + 1.2*ts, mid + 0.3*ts}, {pad, mid + 0.3*ts}})
			sc.text(pt{pad + 1.6*ts, mid + 0.36*ts}, fit(g.name(only), ts, false, sc.W-2*pad-1.6*ts), ts, anchorStart, false, ink)
		}
		gs := g.shapes(p, only, graphPNGFont)
		if i < len(plots)-1 {
			// The move numbers under the last plot only; the ticks under each.
			labels := gs.labels[:0]
			for _, l := range gs.labels {
				if l.anchor != anchorMiddle {
					labels = append(labels, l)
				}
			}
			gs.labels = labels
		}
		sc.poly(graphBack, graphRule, 1, []pt{{p.x, p.y - 8}, {p.x + p.w, p.y - 8}, {p.x + p.w, p.y + p.h + 8}, {p.x, p.y + p.h + 8}})
		for _, l := range gs.grid {
			stroke(l)
		}
		for _, ss := range gs.seats {
			for _, a := range ss.areas {
				if g.Seats > 2 {
					a.fill = alpha(a.fill, 0x40)
				}
				sc.poly(a.fill, none, 0, clonePts(a.poly))
			}
		}
		for _, l := range gs.rules {
			stroke(l)
		}
		for _, ss := range gs.seats {
			if ss.line != nil {
				stroke(*ss.line)
			}
		}
		if gs.current != nil {
			stroke(*gs.current)
		}
		for _, ss := range gs.seats {
			for _, m := range ss.marks {
				sc.poly(markFill[m.mark], currentInk, 1.2, markShape(m.c, m.mark, p.k))
			}
		}
		if gs.ring != nil {
			sc.circle(*gs.ring, 7*p.k, none, currentInk, 2.5)
		}
		for _, l := range gs.labels {
			sc.text(pt{l.at.X, l.at.Y + 0.35*graphPNGFont}, l.text, graphPNGFont, l.anchor, false, softInk)
		}
		y = p.y + p.h + 8 + 14
		if len(g.Points) > 0 {
			y += graphPNGFont
		}
	}
	// Who is who: with two seats, which side of the middle is whose.
	if g.Seats == 2 {
		y = g.key(sc, y, []keyItem{
			{swatch: SeatColour(1), text: g.name(1) + " ahead (above)"},
			{swatch: SeatColour(2), text: g.name(2) + " ahead (below)"},
		})
	}
	var items []keyItem
	for m := 1; m <= 3; m++ {
		items = append(items, keyItem{mark: m, text: markSymbols[m] + " " + markNames[m]})
	}
	if g.Seats > 2 {
		items = append(items, keyItem{dashed: true, text: "an even share"})
	}
	y = g.key(sc, y, items)
	sc.H = math.Ceil(y + pad - 10)
	bg := shape{kind: kindPoly, polys: [][]pt{{{0, 0}, {sc.W, 0}, {sc.W, sc.H}, {0, sc.H}}}, fill: white}
	sc.shapes = append([]shape{bg}, sc.shapes...)
	return sc
}

type keyItem struct {
	swatch color.NRGBA // a bar in this colour, or
	mark   int         // a mark's shape, or
	dashed bool        // the dashed line of an even share
	text   string
}

// key sets items in a row, wrapping to a new row where the width ends,
// and returns the y below them.
func (g *EvalGraph) key(sc *scene, y float64, items []keyItem) float64 {
	ts := sc.ts
	x := pad
	row := ts + 10
	for _, it := range items {
		tw := measure(it.text, ts, false)
		wd := 1.6*ts + tw
		if x > pad && x+wd > sc.W-pad {
			x = pad
			y += row
		}
		mid := y + ts/2
		switch {
		case it.mark > 0:
			sc.poly(markFill[it.mark], currentInk, 1.2, markShape(pt{x + 0.6*ts, mid}, it.mark, 1.5))
		case it.dashed:
			sc.poly(graphRule, none, 0, dashes(pt{x, mid}, pt{x + 1.2*ts, mid}, 1.5, 9, 6)...)
		default:
			sc.poly(alpha(it.swatch, 0x80), it.swatch, 2, []pt{{x, mid - 0.3*ts}, {x + 1.2*ts, mid - 0.3*ts}, {x + 1.2*ts, mid + 0.3*ts}, {x, mid + 0.3*ts}})
		}
		sc.text(pt{x + 1.6*ts, mid + 0.36*ts}, fit(it.text, ts, false, sc.W-pad-x-1.6*ts), ts, anchorStart, false, ink)
		x += wd + ts
	}
	return y + row
}

func clonePts(p []pt) []pt { return append([]pt(nil), p...) }

// dashes cuts the line a–z into dashes on and off long, as polygons.
func dashes(a, z pt, w, on, off float64) [][]pt {
	d := z.sub(a)
	l := d.len()
	if l < 1e-9 {
		return nil
	}
	u := d.mul(1 / l)
	var out [][]pt
	for t := 0.0; t < l; t += on + off {
		out = append(out, segment(a.add(u.mul(t)), a.add(u.mul(min(t+on, l))), w))
	}
	return out
}
