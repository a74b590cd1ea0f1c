package render

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"strings"

	"icepost/rules"
)

// Sizes in pixels of the PNG (SVG user units).
const (
	pad       = 16.0 // around everything
	labelBand = 24.0 // the coordinates beside the board
	labelSize = 16.0 // the coordinates, which moves are written in
	minWidth  = 440.0
)

// The words of a picture (title, legend, last move, notes) are read on
// phones, where a board mail's picture scales to the screen's width: 390
// CSS pixels on a small phone, less the mail's margins of 8 on each side.
// There they must be at least 14 CSS pixels high, so a picture W pixels
// wide sets them at 14 × W / 374 pixels or more (20 on a board 528 wide).
const (
	phoneWidth = 374.0
	phoneText  = 14.0
)

// textSizeFor is the size of the words on a picture w pixels wide.
func textSizeFor(w float64) float64 { return math.Ceil(phoneText * w / phoneWidth) }

// Colours of the board and the marks.
var (
	ink        = rgb(0x22, 0x22, 0x22)
	softInk    = rgb(0x66, 0x5e, 0x52)
	lightCell  = rgb(0xf1, 0xe8, 0xd8)
	darkCell   = rgb(0xdf, 0xd1, 0xb8)
	hexCell    = rgb(0xee, 0xe6, 0xd6)
	frame      = rgb(0x6b, 0x5b, 0x45)
	highlight  = rgb(0xf6, 0xd3, 0x4a)
	markColour = alpha(rgb(0x1c, 0x1c, 0x1c), 0xa0)
	crossInk   = alpha(rgb(0x1c, 0x1c, 0x1c), 0xc0)
)

// board places a diagram's cells on the picture.
type board struct {
	d          *rules.Diagram
	unit       float64 // a square's side, or a hexagon's width
	origin     pt      // the top left of the cells' box
	w, h       float64 // the cells' box
	minX, maxX int
	minY, maxY int
	hexR       float64 // a hexagon's circumradius
}

func newBoard(d *rules.Diagram) *board {
	b := &board{d: d}
	if len(d.Cells) == 0 {
		return b
	}
	b.minX, b.maxX, b.minY, b.maxY = d.Cells[0].X, d.Cells[0].X, d.Cells[0].Y, d.Cells[0].Y
	for _, c := range d.Cells {
		b.minX, b.maxX = min(b.minX, c.X), max(b.maxX, c.X)
		b.minY, b.maxY = min(b.minY, c.Y), max(b.maxY, c.Y)
	}
	if d.Grid == rules.Hex {
		b.unit = 60
		b.hexR = b.unit / math.Sqrt(3)
		b.w = float64(b.maxX-b.minX)/2*b.unit + b.unit
		b.h = float64(b.maxY-b.minY)*1.5*b.hexR + 2*b.hexR
	} else {
		cols := float64(b.maxX - b.minX + 1)
		b.unit = math.Round(min(80, max(48, 448/cols)))
		b.w = cols * b.unit
		b.h = float64(b.maxY-b.minY+1) * b.unit
	}
	return b
}

// at returns the centre of the cell at (x, y) on the picture.
func (b *board) at(x, y int) pt {
	if b.d.Turned {
		x, y = b.maxX+b.minX-x, b.maxY+b.minY-y
	}
	if b.d.Grid == rules.Hex {
		return pt{
			b.origin.X + float64(x-b.minX)/2*b.unit + b.unit/2,
			b.origin.Y + float64(b.maxY-y)*1.5*b.hexR + b.hexR,
		}
	}
	return pt{
		b.origin.X + (float64(x-b.minX)+0.5)*b.unit,
		b.origin.Y + (float64(b.maxY-y)+0.5)*b.unit,
	}
}

func (b *board) centre(i int) pt { return b.at(b.d.Cells[i].X, b.d.Cells[i].Y) }

// cellShape is cell i's outline.
func (b *board) cellShape(i int) []pt {
	c := b.centre(i)
	if b.d.Grid == rules.Hex {
		return hexagon(c, b.hexR)
	}
	return square(c, b.unit/2)
}

// compass gives each direction as a unit vector on the page, y down.
var compass = [9]pt{
	{},
	{0, -1}, {math.Sqrt2 / 2, -math.Sqrt2 / 2}, {1, 0}, {math.Sqrt2 / 2, math.Sqrt2 / 2},
	{0, 1}, {-math.Sqrt2 / 2, math.Sqrt2 / 2}, {-1, 0}, {-math.Sqrt2 / 2, -math.Sqrt2 / 2},
}

func (b *board) dir(d rules.Direction) pt {
	v := compass[d]
	if b.d.Turned {
		v = v.mul(-1)
	}
	return v
}

// pieceScale is a piece's half side, as a part of the cell's unit, by
// size; hexagons are a little smaller than squares.
func (b *board) half(size int) float64 {
	k := [4]float64{0, 0.21, 0.31, 0.40}
	if b.d.Grid == rules.Hex {
		k = [4]float64{0, 0.19, 0.275, 0.355}
	}
	return k[size] * b.unit
}

func layout(d *rules.Diagram, o options) *scene {
	o = o.settle(d)
	b := newBoard(d)
	sc := &scene{board: b}
	boardW := b.w + 2*labelBand
	sc.W = math.Ceil(max(minWidth, boardW+2*pad))
	ts := textSizeFor(sc.W)
	sc.ts = ts
	titleSize := ts + 4
	y := pad
	// The title and who is to move, or how the game ended.
	title := o.title
	if title == "" {
		title = d.Game
	}
	status := statusText(d, o)
	words := widthFunc(measure)
	if o.svg {
		words = room
	}
	sc.words = words
	if words(title, titleSize, true)+words(status, ts, true)+24 <= sc.W-2*pad {
		sc.text(pt{pad, y + titleSize}, title, titleSize, anchorStart, true, ink)
		sc.text(pt{sc.W - pad, y + titleSize}, status, ts, anchorEnd, true, statusColour(d))
		y += titleSize + 14
	} else {
		// The status under the title, over as many lines as it takes.
		sc.text(pt{pad, y + titleSize}, words.fit(title, titleSize, true, sc.W-2*pad), titleSize, anchorStart, true, ink)
		y += titleSize + 8
		lines := words.wrap(status, ts, true, sc.W-2*pad)
		for k, line := range lines {
			sc.text(pt{pad, y + ts + float64(k)*math.Round(1.3*ts)}, line, ts, anchorStart, true, statusColour(d))
		}
		y += ts + 12 + float64(max(len(lines)-1, 0))*math.Round(1.3*ts)
	}

	notes := slices.Clone(d.Notes)
	if len(d.Cells) == 0 {
		// No board: the notes stand where it would be.
		box := []pt{{pad, y}, {sc.W - pad, y}, {sc.W - pad, y + 90}, {pad, y + 90}}
		sc.poly(lightCell, frame, 1.5, box)
		for i, n := range notes {
			sc.text(pt{sc.W / 2, y + 45 + 10 + float64(i)*30 - float64(len(notes)-1)*15}, n, 26, anchorMiddle, true, ink)
		}
		notes = nil
		y += 90 + 16
	} else {
		b.origin = pt{math.Round((sc.W - b.w) / 2), math.Round(y + labelBand)}
		drawBoard(sc, b)
		if o.better != nil {
			drawBetter(sc, b, o.better)
		}
		if o.cells {
			for i, c := range d.Cells {
				sc.handles = append(sc.handles, handle{c.Name, wind(b.cellShape(i))})
			}
		}
		y += b.h + 2*labelBand + 10
	}

	y = drawLegend(sc, d, o, y)
	if d.Pointing && len(d.Cells) > 0 {
		// Tokens name directions by the compass: say where N is.
		if d.Turned {
			notes = append(notes, "N points down the page, E to the left (the board is turned)")
		} else {
			notes = append(notes, "N points up the page, E to the right")
		}
	}
	for _, n := range notes {
		y = sc.paragraph(y, n, softInk)
	}
	sc.H = math.Ceil(y + pad - 4)
	// The background, first.
	bg := shape{kind: kindPoly, polys: [][]pt{{{0, 0}, {sc.W, 0}, {sc.W, sc.H}, {0, sc.H}}}, fill: white}
	sc.shapes = append([]shape{bg}, sc.shapes...)
	return sc
}

// paragraph sets text under y in the picture's text size, across the
// picture and broken into lines where it is too long for one, and
// returns the y below it.
func (sc *scene) paragraph(y float64, text string, col color.NRGBA) float64 {
	for _, line := range sc.words.wrap(text, sc.ts, false, sc.W-2*pad) {
		sc.text(pt{pad, y + sc.ts}, line, sc.ts, anchorStart, false, col)
		y += math.Round(1.3 * sc.ts)
	}
	return y + 4
}

// statusText is whose move it is, or how the game ended: "Bob to move",
// "Game over: Bob wins (resignation)".
func statusText(d *rules.Diagram, o options) string {
	switch {
	case d.Over && d.Winner > 0:
		return "Game over: " + o.seatName(d.Winner) + " wins" + o.how()
	case d.Over:
		return "Game over: a draw" + o.how()
	case d.ToMove > 0:
		return o.seatName(d.ToMove) + " to move"
	}
	return ""
}

func statusColour(d *rules.Diagram) color.NRGBA {
	if !d.Over && d.ToMove > 0 {
		return mix(SeatColour(d.ToMove), black, 0.25)
	}
	return ink
}

func drawBoard(sc *scene, b *board) {
	d := b.d
	u := b.unit
	last := d.Last
	tinted := map[int]bool{}
	if last != nil && len(last.Path) > 0 {
		tinted[last.Path[0]] = true
		tinted[last.Path[len(last.Path)-1]] = true
	}

	// Cells.
	if d.Grid == rules.Square {
		sc.poly(none, frame, 2, []pt{
			b.origin.sub(pt{1, 1}), {b.origin.X + b.w + 1, b.origin.Y - 1},
			{b.origin.X + b.w + 1, b.origin.Y + b.h + 1}, {b.origin.X - 1, b.origin.Y + b.h + 1},
		})
	}
	for i, c := range d.Cells {
		fill := hexCell
		if d.Grid == rules.Square {
			fill = lightCell
			if (c.X+c.Y)%2 == 0 {
				fill = darkCell
			}
		}
		var stroke = none
		width := 0.0
		if d.Grid == rules.Hex {
			stroke, width = frame, 1.2
		}
		if c.Start > 0 {
			fill = mix(SeatColour(c.Start), white, 0.72)
		}
		if tinted[i] {
			fill = mix(fill, highlight, 0.75)
		}
		sc.poly(fill, stroke, width, b.cellShape(i))
		if c.Start > 0 {
			sc.poly(none, SeatColour(c.Start), 3, shrink(b.cellShape(i), b.centre(i), 2.5))
		}
	}

	// What the last move took, on the cells it left empty: the pieces,
	// faded and crossed out, beneath the arrow. (On a cell where a piece
	// stands now, the capturer or what a stack kept, they go in a badge
	// beside it, drawn last.)
	taken := takenByCell(last)
	for _, i := range slices.Sorted(maps.Keys(taken)) {
		if len(d.Cells[i].Pieces) == 0 {
			drawGhost(sc, b, i, taken[i])
		}
	}

	// Names of empty cells, where the board has no coordinates on its
	// edges for them.
	if d.NameCells {
		for i, c := range d.Cells {
			if len(c.Pieces) == 0 {
				p := b.centre(i)
				// Below the centre, where an arrow through the cell
				// leaves it readable.
				sc.text(pt{p.X, p.Y + 0.3*u + 5}, c.Name, 15, anchorMiddle, false, mix(frame, white, 0.25))
			}
		}
	}

	for i, c := range d.Cells {
		drawStack(sc, b, b.centre(i), c.Pieces)
	}

	if last != nil {
		drawLastMove(sc, b, last)
		for _, i := range slices.Sorted(maps.Keys(taken)) {
			if len(d.Cells[i].Pieces) > 0 {
				drawTakenBadges(sc, b, last, i, taken[i])
			}
		}
	}

	// Coordinates on the edges.
	for _, l := range d.Columns {
		p := b.at(l.At, b.minY)
		q := b.at(l.At, b.maxY)
		top, bottom := min(p.Y, q.Y)-u/2, max(p.Y, q.Y)+u/2
		sc.text(pt{p.X, top - 7}, l.Text, labelSize, anchorMiddle, false, softInk)
		sc.text(pt{p.X, bottom + 19}, l.Text, labelSize, anchorMiddle, false, softInk)
	}
	for _, l := range d.Rows {
		var y float64
		if d.Grid == rules.Hex {
			y = b.origin.Y + b.hexR + float64(b.maxY-l.At)*1.5*b.hexR
			if d.Turned {
				y = b.origin.Y + b.hexR + float64(l.At-b.minY)*1.5*b.hexR
			}
		} else {
			y = b.at(b.minX, l.At).Y
		}
		sc.text(pt{b.origin.X - labelBand/2, y + 5.5}, l.Text, labelSize, anchorMiddle, false, softInk)
		sc.text(pt{b.origin.X + b.w + labelBand/2, y + 5.5}, l.Text, labelSize, anchorMiddle, false, softInk)
	}
}

// shrink moves a convex polygon's corners toward c by k pixels.
func shrink(poly []pt, c pt, k float64) []pt {
	out := make([]pt, len(poly))
	for i, p := range poly {
		v := p.sub(c)
		out[i] = c.add(v.mul((v.len() - k) / v.len()))
	}
	return out
}

// drawStack draws the pieces of one cell, bottom first, and beside them
// the pieces that the ones above hide.
func drawStack(sc *scene, b *board, c pt, pieces []rules.Piece) {
	// Each piece on another is drawn a little smaller, so that the ring
	// of the one beneath shows, with that one's pips in it.
	k := 1.0
	for i, p := range pieces {
		above := 0.0
		if i+1 < len(pieces) {
			above = b.half(pieces[i+1].Size) * k * stackShrink
		}
		drawPieceScaled(sc, b, c, p, k, above)
		k *= stackShrink
	}
	hidden := false
	for i := range pieces {
		for j := i + 1; j < len(pieces); j++ {
			if pieces[j].Size >= pieces[i].Size {
				hidden = true
			}
		}
	}
	if !hidden {
		return
	}
	// A column of small squares at the right edge, bottom piece lowest:
	// every piece beneath the top one.
	x := c.X + 0.41*b.unit
	y := c.Y + 0.3*b.unit
	for _, p := range pieces[:len(pieces)-1] {
		h := []float64{0, 3, 4, 5.5}[p.Size]
		sq := square(pt{x, y - h}, h)
		sc.poly(SeatColour(p.Owner), mix(SeatColour(p.Owner), black, 0.55), 1, sq)
		y -= 2*h + 2
	}
}

// stackShrink is how much smaller a piece on another is drawn.
const stackShrink = 0.88

// drawPiece draws one pyramid seen from above.
func drawPiece(sc *scene, b *board, c pt, p rules.Piece) { drawPieceScaled(sc, b, c, p, 1, 0) }

// drawPieceScaled draws a pyramid k times its size; above is the half
// side of the piece standing on it (0 for none), whose base its pips
// keep clear of.
func drawPieceScaled(sc *scene, b *board, c pt, p rules.Piece, k, above float64) {
	col := SeatColour(p.Owner)
	edge := mix(col, black, 0.55)
	pip := mix(col, white, 0.85)
	pipR := max(1.8, 0.038*b.unit)
	if p.Points == rules.Upright {
		h := b.half(p.Size) * k
		tl, tr := pt{c.X - h, c.Y - h}, pt{c.X + h, c.Y - h}
		br, bl := pt{c.X + h, c.Y + h}, pt{c.X - h, c.Y + h}
		sc.poly(mix(col, white, 0.38), none, 0, []pt{tl, tr, c})
		sc.poly(mix(col, white, 0.16), none, 0, []pt{tl, c, bl})
		sc.poly(mix(col, black, 0.12), none, 0, []pt{tr, br, c})
		sc.poly(mix(col, black, 0.26), none, 0, []pt{bl, c, br})
		sc.poly(none, edge, 1.2, []pt{tl, tr, br, bl})
		sc.poly(none, alpha(edge, 0x90), 0.8, []pt{tl, br}, []pt{tr, bl})
		// Pips on the face toward the viewer, near its base (in the ring
		// that the piece above leaves).
		py := c.Y + max(0.74*h, (h+above)/2)
		span := 2 * (py - c.Y)
		gap := min(span/float64(p.Size+1), 3.2*pipR)
		for k := range p.Size {
			x := c.X + (float64(k)-float64(p.Size-1)/2)*gap
			sc.circle(pt{x, py}, pipR, pip, none, 0)
		}
		return
	}
	// Lying down: a triangle pointing its way.
	tip, left, right, base := lying(b, c, p)
	v, n := b.dir(p.Points), b.dir(p.Points).perp()
	length := tip.sub(base).len()
	bw := left.sub(base).len()
	// The face toward the light (the top left) is the lighter one.
	light := pt{-1, -1}
	lf, df := mix(col, white, 0.30), mix(col, black, 0.18)
	if n.X*light.X+n.Y*light.Y < 0 {
		lf, df = df, lf
	}
	sc.poly(lf, none, 0, []pt{tip, left, base})
	sc.poly(df, none, 0, []pt{tip, base, right})
	sc.poly(none, edge, 1.2, []pt{tip, left, right})
	sc.poly(none, alpha(edge, 0x90), 0.8, []pt{tip, base})
	// Pips along the base.
	at := base.add(v.mul(0.13 * length))
	gap := min(2*bw*0.8/float64(p.Size+1), 3.2*pipR)
	for k := range p.Size {
		sc.circle(at.add(n.mul((float64(k)-float64(p.Size-1)/2)*gap)), pipR, pip, none, 0)
	}
}

// drawLastMove draws an arrow through the move's cells, or a ring round
// the one cell of a placement or a turn in place.
func drawLastMove(sc *scene, b *board, l *rules.LastMove) {
	u := b.unit
	if len(l.Path) == 1 {
		sc.circle(b.centre(l.Path[0]), 0.46*u, none, markColour, 3)
		return
	}
	if len(l.Path) < 2 {
		return
	}
	pts := make([]pt, len(l.Path))
	for i, c := range l.Path {
		pts[i] = b.centre(c)
	}
	w := 0.10 * u
	head, neck := arrowHead(b, pts, b.d.Cells[l.Path[len(l.Path)-1]].Pieces)
	end := pts[len(pts)-1]
	dir := end.sub(pts[len(pts)-2]).unit()
	var polys [][]pt
	for i := 0; i+1 < len(pts); i++ {
		a, z := pts[i], pts[i+1]
		if i+2 == len(pts) {
			z = neck.add(dir.mul(1))
		}
		polys = append(polys, segment(a, z, w))
		if i > 0 {
			// A landing cell on the way: a dot larger than the line.
			polys = append(polys, disc(a, 0.09*u, 16))
		}
	}
	polys = append(polys, head)
	sc.circle(pts[0], 0.13*u, markColour, none, 0)
	sc.poly(markColour, none, 0, polys...)
}

// arrowHead is the head of the arrow through pts (two or more), and
// where it begins: its tip stops short of the last centre, and short of
// the pieces that stand there, so that they show whole (a capturer's
// pips too).
func arrowHead(b *board, pts []pt, pieces []rules.Piece) (head []pt, neck pt) {
	u := b.unit
	end := pts[len(pts)-1]
	dir := end.sub(pts[len(pts)-2]).unit()
	var outlines [][]pt
	for _, p := range pieces {
		outlines = append(outlines, pieceOutline(b, end, p))
	}
	stop := 0.24 * u
	for t := 0.0; t < 0.5*u; t += 0.5 {
		at := end.sub(dir.mul(t))
		for _, o := range outlines {
			if clearance(at, o) < 0 {
				stop = max(stop, t+3)
			}
		}
	}
	tip := end.sub(dir.mul(stop))
	neck = tip.sub(dir.mul(0.30 * u))
	n := dir.perp().mul(0.20 * u)
	return wind([]pt{tip, neck.add(n), neck.sub(n)}), neck
}

// takenByCell gathers what the move took by cell, bottom piece first (a
// cell captured twice lost its top piece, then the one beneath). A
// capture whose piece the game does not name counts as a nil entry.
func takenByCell(l *rules.LastMove) map[int][]*rules.Piece {
	if l == nil || len(l.Captured) == 0 {
		return nil
	}
	m := map[int][]*rules.Piece{}
	for k, i := range l.Captured {
		var p *rules.Piece
		if k < len(l.Taken) {
			p = &l.Taken[k]
		}
		m[i] = append([]*rules.Piece{p}, m[i]...)
	}
	return m
}

// known returns the pieces named, or false when any is not.
func known(ps []*rules.Piece) ([]rules.Piece, bool) {
	out := make([]rules.Piece, len(ps))
	for k, p := range ps {
		if p == nil {
			return nil, false
		}
		out[k] = *p
	}
	return out, true
}

// drawGhost marks an empty cell whose pieces the move took: the pieces
// as they stood, faded, under a cross.
func drawGhost(sc *scene, b *board, i int, taken []*rules.Piece) {
	c := b.centre(i)
	u := b.unit
	r := 0.36 * u
	if ps, ok := known(taken); ok {
		drawStack(sc, b, c, ps)
		sc.poly(alpha(white, 0x70), none, 0, grow(pieceOutline(b, c, ps[0]), c, 1.5))
		r = 0.33 * u
	}
	sc.poly(crossInk, none, 0, cross(c, r, 0.06*u)...)
}

// cross is an X of half size r and stroke w around c, as polygons.
func cross(c pt, r, w float64) [][]pt {
	return [][]pt{
		segment(c.add(pt{-r, -r}), c.add(pt{r, r}), w),
		segment(c.add(pt{-r, r}), c.add(pt{r, -r}), w),
	}
}

// drawTakenBadges marks a cell where a piece stands now (the capturer,
// or a stack that lost its top) and where the move took something: a
// small disc for each piece taken, in a corner of the cell that the
// pieces there and the arrow leave clearest, showing the piece taken
// (its owner's colour and pips) crossed out. The capturer stays whole.
func drawTakenBadges(sc *scene, b *board, l *rules.LastMove, i int, taken []*rules.Piece) {
	u := b.unit
	c := b.centre(i)
	r := math.Round(0.25*u*2) / 2
	// Where a badge may go: the corners of a square, toward the sides
	// of a hexagon; each keeps the disc inside the cell.
	var spots []pt
	if b.d.Grid == rules.Hex {
		for k := range 6 {
			a := math.Pi / 3 * float64(k)
			spots = append(spots, c.add(pt{math.Cos(a), math.Sin(a)}.mul(u/2-r-1)))
		}
	} else {
		a := u/2 - r - 1.5
		spots = []pt{c.add(pt{a, -a}), c.add(pt{-a, -a}), c.add(pt{a, a}), c.add(pt{-a, a})}
	}
	// What the badge should not cover: the pieces standing there, and
	// the arrow's line through the move's cells.
	var outlines [][]pt
	for _, p := range b.d.Cells[i].Pieces {
		outlines = append(outlines, pieceOutline(b, c, p))
	}
	var path []pt
	for _, k := range l.Path {
		path = append(path, b.centre(k))
	}
	if len(path) >= 2 {
		head, _ := arrowHead(b, path, b.d.Cells[i].Pieces)
		outlines = append(outlines, head)
	}
	// A spot's room: how far it is from the nearest of them (negative
	// inside a piece or across the line), and, between spots with as
	// much, how far from the others (up to the badge's radius).
	room := func(s pt) (nearest, other float64) {
		var free []float64
		for _, o := range outlines {
			free = append(free, clearance(s, o))
		}
		for j := 0; j+1 < len(path); j++ {
			free = append(free, distToSegment(s, path[j], path[j+1])-0.05*u)
		}
		if len(free) == 0 {
			return math.Inf(1), 0
		}
		slices.Sort(free)
		for _, f := range free[1:] {
			other += min(f, r)
		}
		return free[0], other
	}
	used := make([]bool, len(spots))
	for _, p := range taken {
		best, most, then := -1, math.Inf(-1), math.Inf(-1)
		for k, s := range spots {
			if used[k] {
				continue
			}
			n, o := room(s)
			if n > most+0.5 || n > most-0.5 && o > then {
				best, most, then = k, n, o
			}
		}
		if best < 0 {
			return
		}
		used[best] = true
		drawTakenBadge(sc, b, spots[best], r, p)
	}
}

// drawTakenBadge draws a disc of radius r at c showing the piece p (nil
// for one the game does not name) crossed out.
func drawTakenBadge(sc *scene, b *board, c pt, r float64, p *rules.Piece) {
	sc.circle(c, r, white, frame, 1.2)
	if p != nil {
		mini := &board{d: b.d, unit: 0.66 * r / b.half(rules.Large) * b.unit}
		q := *p
		q.Points = rules.Upright
		drawPiece(sc, mini, c, q)
	}
	k, w := 0.66*r, max(2, 0.09*r)
	sc.poly(alpha(white, 0xc0), none, 0, cross(c, k+0.5, w+2)...)
	sc.poly(crossInk, none, 0, cross(c, k, w)...)
}

// pieceOutline is the outline of a piece drawn at c: a square, or a
// triangle for one lying down.
func pieceOutline(b *board, c pt, p rules.Piece) []pt {
	if p.Points == rules.Upright {
		return square(c, b.half(p.Size))
	}
	tip, left, right, _ := lying(b, c, p)
	return wind([]pt{tip, left, right})
}

// lying gives the corners of a lying piece at c, its tip and the ends of
// its base, and the middle of its base.
func lying(b *board, c pt, p rules.Piece) (tip, left, right, base pt) {
	length := [4]float64{0, 0.50, 0.68, 0.86}[p.Size] * b.unit
	v := b.dir(p.Points)
	n := v.perp()
	tip = c.add(v.mul(0.55 * length))
	base = c.sub(v.mul(0.45 * length))
	bw := 0.32 * length
	return tip, base.add(n.mul(bw)), base.sub(n.mul(bw)), base
}

// grow moves a convex polygon's corners away from c by k pixels.
func grow(poly []pt, c pt, k float64) []pt { return shrink(poly, c, -k) }

// clearance is how far p lies outside the convex polygon poly (wound as
// wind leaves it): its distance to the nearest edge, negative when p is
// inside.
func clearance(p pt, poly []pt) float64 {
	d := math.Inf(1)
	inside := true
	for k := range poly {
		a, z := poly[k], poly[(k+1)%len(poly)]
		d = min(d, distToSegment(p, a, z))
		e, f := z.sub(a), p.sub(a)
		if e.X*f.Y-e.Y*f.X < 0 {
			inside = false
		}
	}
	if inside {
		return -d
	}
	return d
}

// distToSegment is the distance from p to the segment from a to z.
func distToSegment(p, a, z pt) float64 {
	e := z.sub(a)
	t := 0.0
	if l := e.X*e.X + e.Y*e.Y; l > 0 {
		t = max(0, min(1, ((p.X-a.X)*e.X+(p.Y-a.Y)*e.Y)/l))
	}
	return p.sub(a.add(e.mul(t))).len()
}

// drawLegend draws a line for each seat (its colour, name, side, score,
// supply) and one for a shared stash, then the last move; it returns
// the y below them. The supplies stand in a column right of the names
// when every line has room for them, else each on a line of its own
// under its seat's name.
func drawLegend(sc *scene, d *rules.Diagram, o options, y float64) float64 {
	ts := sc.ts
	row := math.Round(1.75 * ts)
	icon := &board{d: d, unit: math.Round(1.6 * ts)}
	nameX := pad + math.Round(1.6*ts) + 6 // where the words begin
	supplies := map[int][]rules.Supply{}
	var slots [3]bool // the sizes any supply holds: each gets a column
	for _, s := range d.Supplies {
		supplies[s.Owner] = append(supplies[s.Owner], s)
		for i, n := range s.Count {
			slots[i] = slots[i] || n > 0
		}
	}
	// The width of the supply column, with the supplies' labels on each
	// line or without them.
	supplyW, bareW := 0.0, 0.0
	for _, s := range d.Supplies {
		supplyW = max(supplyW, supplyWidth(sc.words, ts, slots, s, true))
		bareW = max(bareW, supplyWidth(sc.words, ts, slots, s, false))
	}

	type line struct {
		name, score string
		words       []string // name, cut where it may wrap
		bold        bool
	}
	lines := make([]line, len(d.Seats))
	scoreW := 0.0
	for i, s := range d.Seats {
		seat := i + 1
		name := o.seatName(seat)
		var extra []string
		if len(o.names) >= seat && o.names[seat-1] != "" {
			extra = append(extra, fmt.Sprintf("seat %d", seat))
		}
		if s.Side != "" {
			extra = append(extra, s.Side)
		}
		if len(extra) > 0 {
			name += " (" + strings.Join(extra, ", ") + ")"
		}
		state := ""
		switch {
		case s.Out:
			state = "no pieces left"
		case d.Over && d.Winner == seat:
			state = "wins"
		case !d.Over && d.ToMove == seat:
			state = "to move"
		}
		// A name that wraps keeps its state whole: "to move" on one line.
		words := strings.Fields(name)
		if state != "" {
			name += ": " + state
			if len(words) > 0 {
				words[len(words)-1] += ":"
			}
			words = append(words, state)
		}
		l := line{name: name, words: words, bold: !d.Over && d.ToMove == seat || d.Over && d.Winner == seat}
		if s.HasScore {
			l.score = fmt.Sprintf("%d points", s.Score)
			if s.Score == 1 {
				l.score = "1 point"
			}
			scoreW = max(scoreW, sc.words(l.score, ts, true)+ts)
		}
		lines[i] = l
	}
	right := sc.W - pad - scoreW // where the supply column ends
	// The seats' supplies stand in a column beside the names when every
	// name has room, each with its label; else, when they all have the
	// same label, without it, the label once over the column; else each
	// on a line of its own under its seat's name.
	fits := func(w float64) bool {
		for i, l := range lines {
			if len(supplies[i+1]) > 0 && nameX+sc.words(l.name, ts, l.bold)+ts+w > right {
				return false
			}
		}
		return true
	}
	header := ""
	for seat := 1; seat <= len(lines); seat++ {
		for _, sp := range supplies[seat] {
			if header == "" || header == sp.Label {
				header = sp.Label
			} else {
				header = "\x00" // two labels: none can stand for all
			}
		}
	}
	beside, labelled := true, true
	switch {
	case fits(supplyW):
		header = ""
	case header != "" && header != "\x00" && fits(bareW):
		supplyW, labelled = bareW, false
		x := min(max(right-supplyW/2, nameX+sc.words(header, ts, false)/2), sc.W-pad-sc.words(header, ts, false)/2)
		sc.text(pt{x, y + ts}, header, ts, anchorMiddle, false, softInk)
		y += math.Round(1.3 * ts)
	default:
		beside = false
	}
	for i, l := range lines {
		seat := i + 1
		mid := y + row/2
		drawPiece(sc, icon, pt{pad + icon.unit/2 - 3, mid}, rules.Piece{Owner: seat, Size: rules.Large})
		nameW := right - nameX
		if beside && len(supplies[seat]) > 0 {
			nameW -= supplyW + ts
		}
		// A name too long for its room wraps: the score stays on its
		// first line, and what follows goes down.
		names := sc.words.wrapWords(l.words, ts, l.bold, nameW)
		for k, n := range names {
			sc.text(pt{nameX, mid + 0.36*ts + float64(k)*math.Round(1.3*ts)}, n, ts, anchorStart, l.bold, ink)
		}
		if l.score != "" {
			sc.text(pt{sc.W - pad, mid + 0.36*ts}, l.score, ts, anchorEnd, l.bold, ink)
		}
		y += float64(max(len(names)-1, 0)) * math.Round(1.3*ts)
		for _, sp := range supplies[seat] {
			if beside {
				drawSupply(sc, d, pt{right - supplyW, mid}, slots, sp, labelled)
			} else {
				y += math.Round(1.4 * ts)
				drawSupply(sc, d, pt{nameX, y + row/2}, slots, sp, true)
			}
		}
		if !beside && len(supplies[seat]) > 0 {
			y += math.Round(0.3 * ts) // apart from the next seat
		}
		y += row
	}
	for _, sp := range supplies[0] {
		mid := y + row/2
		drawPiece(sc, icon, pt{pad + icon.unit/2 - 3, mid}, rules.Piece{Size: rules.Large})
		label := strings.ToUpper(sp.Label[:1]) + sp.Label[1:] + ", shared"
		sc.text(pt{nameX, mid + 0.36*ts}, label, ts, anchorStart, false, ink)
		at := max(right-supplyW, nameX+sc.words(label, ts, false)+ts)
		if at+supplyW > sc.W-pad {
			y += math.Round(1.4 * ts)
			mid, at = y+row/2, nameX
		}
		drawSupply(sc, d, pt{at, mid}, slots, sp, true)
		y += row
	}
	if d.Last != nil {
		y = sc.paragraph(y+4, lastMoveText(d, o), ink)
	}
	return y
}

// lastMoveText is the line under the legend that says the last move and
// what it took: "Last move: Bob c3xc1, took Alice's medium on c1".
func lastMoveText(d *rules.Diagram, o options) string {
	l := d.Last
	text := "Last move: " + o.seatName(l.Seat) + " " + l.Token
	if len(l.Captured) > 0 {
		text += ", " + tookText(d, o)
	}
	return text
}

// tookText says what the last move took, piece by piece: "took Alice's
// medium on c1 and a small on d4" (a neutral piece is "a"), or only the
// cells when the game does not name the pieces.
func tookText(d *rules.Diagram, o options) string {
	l := d.Last
	var parts []string
	for k, i := range l.Captured {
		cell := d.Cells[i].Name
		if len(l.Taken) != len(l.Captured) {
			parts = append(parts, cell)
			continue
		}
		p := l.Taken[k]
		whose := "a"
		if p.Owner > 0 {
			whose = o.possessive(p.Owner)
		}
		parts = append(parts, whose+" "+sizeWords[p.Size]+" on "+cell)
	}
	if len(parts) == 1 {
		return "took " + parts[0]
	}
	return "took " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// supplyWidth is the width drawSupply takes, its words measured by m.
func supplyWidth(m widthFunc, ts float64, slots [3]bool, s rules.Supply, label bool) float64 {
	w := 0.0
	for _, on := range slots {
		if on {
			w += slotWidth(m, ts)
		}
	}
	if w == 0 {
		w = m("none", ts, false) + 8
	}
	if s.Owner != 0 && label {
		w += m(s.Label, ts, false)
	}
	return w
}

// slotWidth is the room of one size in a supply: a pyramid and a count.
func slotWidth(m widthFunc, ts float64) float64 {
	return math.Ceil(1.3*ts + m("×00", ts, false) + 0.4*ts)
}

// drawSupply draws a supply as small pyramids with their counts, a column
// for each size that any supply holds, then its label when label is true
// (a shared stash's label is on its line already).
func drawSupply(sc *scene, d *rules.Diagram, at pt, slots [3]bool, s rules.Supply, label bool) {
	ts := sc.ts
	mini := &board{d: d, unit: math.Round(1.4 * ts)}
	x := at.X
	if slots == [3]bool{} {
		sc.text(pt{x, at.Y + 0.36*ts}, "none", ts, anchorStart, false, softInk)
		x += sc.words("none", ts, false) + 8
	}
	for size := rules.Small; size <= rules.Large; size++ {
		if !slots[size-1] {
			continue
		}
		n := s.Count[size-1]
		ink := ink
		if n == 0 {
			ink = mix(softInk, white, 0.4)
		} else {
			drawPiece(sc, mini, pt{x + 0.5*ts, at.Y}, rules.Piece{Owner: s.Owner, Size: size})
		}
		sc.text(pt{x + 1.1*ts, at.Y + 0.36*ts}, fmt.Sprintf("×%d", n), ts, anchorStart, false, ink)
		x += slotWidth(sc.words, ts)
	}
	if s.Owner != 0 && label {
		sc.text(pt{x, at.Y + 0.36*ts}, s.Label, ts, anchorStart, false, softInk)
	}
}
