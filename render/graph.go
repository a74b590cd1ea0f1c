package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
)

// EvalGraph is the graph of a game's analysis: the engine's estimate
// after each move, from 0 to 1, its marked moves and the move shown. It
// is plain data (render knows nothing of the analysis): the caller fills
// it from analysis.Report.
//
// With two seats it is one line, seat 1's estimate (1 − the value at
// seat 2's moves), filled toward the middle line in the colour of the seat
// ahead, as chess players know it from Lichess: above the middle, seat 1
// leads. With three or four seats it is one line per seat through its
// own moves, in its colour, over the line of an even share (1/seats).
type EvalGraph struct {
	Seats  int         // 2 to 4
	Names  []string    // the players, seat 1 first; "Seat 2" where missing
	Points []EvalPoint // one a move, in the order played
	// Current is the ply shown (a vertical line and a ring), 0 for none.
	Current int
	// Link gives the address of the page at a ply; with it, each move of
	// the SVG is a link (its column of the graph), named in words for
	// screen readers ("move 12, Alice, mistake, 0.41"). Nil: no links.
	Link func(ply int) string
	// Title heads the PNG ("Computer analysis, level 3"); the SVG, which
	// stands in a page that says it, uses it as its title. Default
	// "Evaluation".
	Title string
}

// EvalPoint is one move of the graph.
type EvalPoint struct {
	Ply  int // 1 for the first move
	Seat int // who played it, from 1
	// Value is the mover's estimate after the move, 0 to 1 (values
	// outside are drawn at the edge).
	Value float64
	// Mark is what the analysis said of the move: 0 none, 1 inaccuracy,
	// 2 mistake, 3 blunder.
	Mark int
}

// The marks' names and symbols, by EvalPoint.Mark.
var (
	markNames   = [4]string{"", "inaccuracy", "mistake", "blunder"}
	markSymbols = [4]string{"", "?!", "?", "??"}
)

// Colours of the marks (yellow, orange, red, as Lichess's); each mark
// also has its own shape and size (inaccuracy a small circle, mistake a
// diamond, blunder a larger square), so that they are told apart without
// colour.
var (
	markFill = [4]color.NRGBA{
		{},
		rgb(0xf0, 0xe4, 0x42), // yellow
		rgb(0xe6, 0x9f, 0x00), // orange
		rgb(0xb8, 0x1d, 0x13), // red
	}
	graphBack  = rgb(0xfa, 0xf6, 0xee)
	graphRule  = rgb(0xb9, 0xad, 0x98)
	graphLine  = rgb(0x33, 0x33, 0x33)
	currentInk = rgb(0x1c, 0x1c, 0x1c)
)

// The SVG's size in its own units; the page scales it to its width.
const (
	graphW = 480.0
	graphH = 150.0
)

// check says what is wrong with g, or nil.
func (g *EvalGraph) check() error {
	if g.Seats < 2 || g.Seats > 4 {
		return fmt.Errorf("render: an evaluation graph of %d seats: give Seats, 2 to 4", g.Seats)
	}
	for i, p := range g.Points {
		if p.Seat < 1 || p.Seat > g.Seats {
			return fmt.Errorf("render: the graph's move %d (ply %d) is by seat %d: give each point a seat from 1 to %d", i+1, p.Ply, p.Seat, g.Seats)
		}
		if p.Mark < 0 || p.Mark > 3 {
			return fmt.Errorf("render: the graph's move %d (ply %d) has mark %d: marks are 0 to 3", i+1, p.Ply, p.Mark)
		}
		if math.IsNaN(p.Value) {
			return fmt.Errorf("render: the graph's move %d (ply %d) has no value (NaN)", i+1, p.Ply)
		}
	}
	return nil
}

func (g *EvalGraph) name(seat int) string {
	if seat >= 1 && seat <= len(g.Names) && g.Names[seat-1] != "" {
		return g.Names[seat-1]
	}
	return "Seat " + strconv.Itoa(seat)
}

func (g *EvalGraph) title() string {
	if g.Title != "" {
		return g.Title
	}
	return "Evaluation"
}

// Label names a move of the graph in words, as its link's accessible
// name: "move 12, Alice, mistake, 0.41" (the mover's estimate after it).
func (g EvalGraph) Label(p EvalPoint) string {
	s := "move " + strconv.Itoa(p.Ply) + ", " + g.name(p.Seat)
	if p.Mark > 0 && p.Mark < len(markNames) {
		s += ", " + markNames[p.Mark]
	}
	return s + ", " + strconv.FormatFloat(clamp01(p.Value), 'f', 2, 64)
}

// describe is the graph in words, the SVG's desc and the PNG's
// fallback: whose estimate, how many moves, how many of each mark.
func (g *EvalGraph) describe() string {
	var b strings.Builder
	if g.Seats == 2 {
		fmt.Fprintf(&b, "%s's estimated result (0 to 1; above the middle line %s leads, below %s) after each of %d moves",
			g.name(1), g.name(1), g.name(2), len(g.Points))
	} else {
		fmt.Fprintf(&b, "Each player's estimated share of the result (0 to 1; the dashed line is an even share) after each of %d moves:", len(g.Points))
		for s := 1; s <= g.Seats; s++ {
			if s > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s", g.name(s), ColourName(s))
		}
	}
	var n [4]int
	for _, p := range g.Points {
		if p.Mark > 0 && p.Mark < 4 {
			n[p.Mark]++
		}
	}
	plurals := [4]string{"", "inaccuracies", "mistakes", "blunders"}
	var marks []string
	for m := 3; m >= 1; m-- {
		if n[m] > 0 {
			w := markNames[m]
			if n[m] > 1 {
				w = plurals[m]
			}
			marks = append(marks, fmt.Sprintf("%d %s", n[m], w))
		}
	}
	if len(marks) > 0 {
		b.WriteString("; marked: " + strings.Join(marks, ", "))
	}
	b.WriteByte('.')
	return b.String()
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

// plot is where the graph is drawn: its box and the size of its marks.
type plot struct {
	x, y, w, h float64
	k          float64 // marks and lines are k times their SVG size
}

// col is the width of one move's column.
func (p plot) col(n int) float64 { return p.w / float64(max(n, 1)) }

// at is the point of move i (of n) at value v (seat 1's, or the mover's).
func (p plot) at(i, n int, v float64) pt {
	return pt{p.x + (float64(i)+0.5)*p.col(n), p.y + (1-clamp01(v))*p.h}
}

// graphShapes is what the graph draws, for both formats.
type graphShapes struct {
	p       plot
	areas   []graphArea
	rules   []graphPath // the middle line (or even share), under the lines
	lines   []graphPath
	current *graphPath // the vertical line at the current ply
	ring    *pt        // the current move's point
	marks   []graphMark
	cols    []graphCol
}

type graphArea struct {
	poly []pt
	fill color.NRGBA
}

type graphPath struct {
	pts    []pt
	ink    color.NRGBA
	width  float64
	dashed bool
}

type graphMark struct {
	c    pt
	mark int
}

// graphCol is one move's column: the link's target area.
type graphCol struct {
	x0, x1 float64
	point  EvalPoint
}

// value is the graph's value at a point: seat 1's with two seats, the
// mover's with more.
func (g *EvalGraph) value(p EvalPoint) float64 {
	v := clamp01(p.Value)
	if g.Seats == 2 && p.Seat == 2 {
		return 1 - v
	}
	return v
}

// shapes lays the graph out in the box p.
func (g *EvalGraph) shapes(p plot) *graphShapes {
	gs := &graphShapes{p: p}
	n := len(g.Points)
	even := 1 / float64(g.Seats)
	ey := p.y + (1-even)*p.h
	gs.rules = append(gs.rules, graphPath{pts: []pt{{p.x, ey}, {p.x + p.w, ey}}, ink: graphRule, width: p.k, dashed: g.Seats > 2})
	if g.Seats == 2 && n > 0 {
		var line []pt
		for i, q := range g.Points {
			line = append(line, p.at(i, n, g.value(q)))
		}
		gs.areas = append(gs.areas, halves(line, ey, SeatColour(1), SeatColour(2))...)
		gs.lines = append(gs.lines, graphPath{pts: line, ink: graphLine, width: 1.5 * p.k})
	} else if n > 0 {
		for s := 1; s <= g.Seats; s++ {
			var line []pt
			for i, q := range g.Points {
				if q.Seat == s {
					line = append(line, p.at(i, n, g.value(q)))
				}
			}
			if len(line) > 0 {
				gs.lines = append(gs.lines, graphPath{pts: line, ink: SeatColour(s), width: 2 * p.k})
			}
		}
	}
	cw := p.col(n)
	for i, q := range g.Points {
		c := p.at(i, n, g.value(q))
		if q.Mark > 0 {
			gs.marks = append(gs.marks, graphMark{c, q.Mark})
		}
		if q.Ply == g.Current && g.Current > 0 {
			gs.current = &graphPath{pts: []pt{{c.X, p.y}, {c.X, p.y + p.h}}, ink: currentInk, width: 1.5 * p.k}
			gs.ring = &c
		}
		gs.cols = append(gs.cols, graphCol{p.x + float64(i)*cw, p.x + float64(i+1)*cw, q})
	}
	return gs
}

// halves returns the area between the line and the middle at y = mid:
// above it in colour a, below in b, split where the line crosses.
func halves(line []pt, mid float64, a, b color.NRGBA) []graphArea {
	// The line with its crossings of the middle added.
	var full []pt
	for i, q := range line {
		if i > 0 {
			o := line[i-1]
			if (o.Y-mid)*(q.Y-mid) < 0 {
				t := (mid - o.Y) / (q.Y - o.Y)
				full = append(full, pt{o.X + t*(q.X-o.X), mid})
			}
		}
		full = append(full, q)
	}
	side := func(above bool) []pt {
		poly := []pt{{full[0].X, mid}}
		for _, q := range full {
			y := q.Y
			if above {
				y = min(y, mid)
			} else {
				y = max(y, mid)
			}
			poly = append(poly, pt{q.X, y})
		}
		return append(poly, pt{full[len(full)-1].X, mid})
	}
	return []graphArea{
		{side(true), alpha(a, 0x59)},
		{side(false), alpha(b, 0x59)},
	}
}

// markShape is a mark's outline: inaccuracy a small circle, mistake a
// diamond, blunder a large square, k times their SVG size.
func markShape(c pt, mark int, k float64) []pt {
	switch mark {
	case 1:
		return disc(c, 3.5*k, 16)
	case 2:
		r := 5.5 * k
		return []pt{{c.X, c.Y - r}, {c.X + r, c.Y}, {c.X, c.Y + r}, {c.X - r, c.Y}}
	default:
		return square(c, 5*k)
	}
}

// SVG writes the graph as an SVG element for a page (no XML prolog). It
// is 480 by 150 units: a page sets its width (style width:100%;
// height:auto keeps its shape). With Link, each move's column is a link;
// the class names (eval-graph, eval-move) let a style sheet show the
// one under the pointer or the keyboard's focus. Its title and
// description carry the ids eval-graph-title and eval-graph-desc, which
// name it for screen readers: one graph to a page.
func (g EvalGraph) SVG(w io.Writer) error {
	if err := g.check(); err != nil {
		return err
	}
	gs := g.shapes(plot{x: 2, y: 8, w: graphW - 4, h: graphH - 16, k: 1})
	var b bytes.Buffer
	// About 370 bytes a move (its point, its link, its name, a mark), once.
	b.Grow(2048 + 400*len(g.Points))
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph" width="480" height="150" viewBox="0 0 480 150" aria-labelledby="eval-graph-title" aria-describedby="eval-graph-desc">` + "\n")
	b.WriteString(`<title id="eval-graph-title">`)
	xml.EscapeText(&b, []byte(g.title()))
	b.WriteString("</title>\n<desc id=\"eval-graph-desc\">")
	xml.EscapeText(&b, []byte(g.describe()))
	b.WriteString("</desc>\n")
	b.WriteString(`<rect x="0" y="0" width="480" height="150" rx="4"`)
	colour(&b, "fill", graphBack)
	b.WriteString("/>\n")
	for _, a := range gs.areas {
		b.WriteString(`<path d="`)
		svgPath(&b, a.poly, true)
		b.WriteByte('"')
		colour(&b, "fill", a.fill)
		b.WriteString("/>\n")
	}
	for _, l := range gs.rules {
		svgLine(&b, l)
	}
	for _, l := range gs.lines {
		svgLine(&b, l)
	}
	if gs.current != nil {
		svgLine(&b, *gs.current)
	}
	for _, m := range gs.marks {
		svgMark(&b, m, 1)
	}
	if gs.ring != nil {
		b.WriteString(`<circle class="eval-current" cx="`)
		num(&b, gs.ring.X)
		b.WriteString(`" cy="`)
		num(&b, gs.ring.Y)
		b.WriteString(`" r="7" fill="none"`)
		colour(&b, "stroke", currentInk)
		b.WriteString(` stroke-width="2"/>` + "\n")
	}
	if g.Link != nil {
		for _, c := range gs.cols {
			b.WriteString(`<a class="eval-move" href="`)
			xml.EscapeText(&b, []byte(g.Link(c.point.Ply)))
			b.WriteString(`" aria-label="`)
			xml.EscapeText(&b, []byte(g.Label(c.point)))
			b.WriteByte('"')
			if c.point.Ply == g.Current {
				b.WriteString(` aria-current="step"`)
			}
			b.WriteString(`><rect x="`)
			num(&b, c.x0)
			b.WriteString(`" y="0" width="`)
			num(&b, c.x1-c.x0)
			b.WriteString(`" height="150" fill="#000" fill-opacity="0"/></a>` + "\n")
		}
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func svgLine(b *bytes.Buffer, l graphPath) {
	b.WriteString(`<path d="`)
	svgPath(b, l.pts, false)
	b.WriteString(`" fill="none" stroke-linejoin="round" stroke-linecap="round"`)
	colour(b, "stroke", l.ink)
	b.WriteString(` stroke-width="`)
	num(b, l.width)
	b.WriteByte('"')
	if l.dashed {
		b.WriteString(` stroke-dasharray="6 4"`)
	}
	b.WriteString("/>\n")
}

func svgMark(b *bytes.Buffer, m graphMark, k float64) {
	b.WriteString(`<path class="eval-mark eval-` + markNames[m.mark] + `" d="`)
	svgPath(b, markShape(m.c, m.mark, k), true)
	b.WriteByte('"')
	colour(b, "fill", markFill[m.mark])
	colour(b, "stroke", currentInk)
	b.WriteString(` stroke-width="1"/>` + "\n")
}

// The PNG's size: as wide as a board picture, so that a mail shows both
// at the same scale, its words at least 14 CSS pixels on a phone.
const (
	graphPNGW     = 560.0
	graphPNGPlotH = 200.0
)

// PNG writes the graph as a picture for a mail: the title, the plot, the
// players in their colours and what the marks mean, as the SVG but with
// the words a page would give around it.
func (g EvalGraph) PNG(w io.Writer) error {
	if err := g.check(); err != nil {
		return err
	}
	return writePNG(w, g.scene(), 1)
}

// pngPlot is the PNG's plot, under the title.
func pngPlot() plot {
	ts := textSizeFor(graphPNGW)
	return plot{x: pad, y: pad + ts + 4 + 12, w: graphPNGW - 2*pad, h: graphPNGPlotH, k: 1.5}
}

// scene lays out the PNG.
func (g *EvalGraph) scene() *scene {
	sc := &scene{W: graphPNGW}
	ts := textSizeFor(sc.W)
	sc.ts = ts
	sc.text(pt{pad, pad + ts + 4}, fit(g.title(), ts+4, true, sc.W-2*pad), ts+4, anchorStart, true, ink)
	p := pngPlot()
	gs := g.shapes(p)
	sc.poly(graphBack, graphRule, 1, []pt{{p.x, p.y - 8}, {p.x + p.w, p.y - 8}, {p.x + p.w, p.y + p.h + 8}, {p.x, p.y + p.h + 8}})
	for _, a := range gs.areas {
		sc.poly(a.fill, none, 0, clonePts(a.poly))
	}
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
	for _, l := range gs.rules {
		stroke(l)
	}
	for _, l := range gs.lines {
		stroke(l)
	}
	if gs.current != nil {
		stroke(*gs.current)
	}
	for _, m := range gs.marks {
		sc.poly(markFill[m.mark], currentInk, 1.2, markShape(m.c, m.mark, p.k))
	}
	if gs.ring != nil {
		sc.circle(*gs.ring, 7*p.k, none, currentInk, 2.5)
	}
	y := p.y + p.h + 8 + 14
	// Who is who: with two seats, which side of the middle is whose.
	if g.Seats == 2 {
		y = g.key(sc, y, []keyItem{
			{swatch: SeatColour(1), text: g.name(1) + " ahead (above)"},
			{swatch: SeatColour(2), text: g.name(2) + " ahead (below)"},
		})
	} else {
		var items []keyItem
		for s := 1; s <= g.Seats; s++ {
			items = append(items, keyItem{swatch: SeatColour(s), text: g.name(s)})
		}
		y = g.key(sc, y, items)
	}
	var items []keyItem
	for m := 1; m <= 3; m++ {
		items = append(items, keyItem{mark: m, text: markSymbols[m] + " " + markNames[m]})
	}
	y = g.key(sc, y, items)
	sc.H = math.Ceil(y + pad - 10)
	bg := shape{kind: kindPoly, polys: [][]pt{{{0, 0}, {sc.W, 0}, {sc.W, sc.H}, {0, sc.H}}}, fill: white}
	sc.shapes = append([]shape{bg}, sc.shapes...)
	return sc
}

type keyItem struct {
	swatch color.NRGBA // a bar in this colour, or
	mark   int         // a mark's shape
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
		if it.mark > 0 {
			sc.poly(markFill[it.mark], currentInk, 1.2, markShape(pt{x + 0.6*ts, mid}, it.mark, 1.5))
		} else {
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
