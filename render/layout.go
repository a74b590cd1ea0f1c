package render

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"icepost/rules"
)

// Sizes in pixels of the PNG (SVG user units).
const (
	pad       = 16.0 // around everything
	labelBand = 24.0 // the coordinates beside the board
	titleSize = 18.0
	textSize  = 14.0
	labelSize = 13.0
	rowHeight = 28.0 // a line of the legend
	minWidth  = 440.0
)

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
	b := newBoard(d)
	sc := &scene{board: b}
	boardW := b.w + 2*labelBand
	sc.W = math.Ceil(max(minWidth, boardW+2*pad))
	y := pad
	// The title and who is to move, or how the game ended.
	title := o.title
	if title == "" {
		title = d.Game
	}
	status := statusText(d, o)
	if measure(title, titleSize, true)+measure(status, textSize, true)+24 <= sc.W-2*pad {
		sc.text(pt{pad, y + titleSize}, title, titleSize, anchorStart, true, ink)
		sc.text(pt{sc.W - pad, y + titleSize}, status, textSize, anchorEnd, true, statusColour(d))
		y += titleSize + 14
	} else {
		sc.text(pt{pad, y + titleSize}, fit(title, titleSize, true, sc.W-2*pad), titleSize, anchorStart, true, ink)
		y += titleSize + 8
		sc.text(pt{pad, y + textSize}, fit(status, textSize, true, sc.W-2*pad), textSize, anchorStart, true, statusColour(d))
		y += textSize + 12
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
		sc.text(pt{pad, y + textSize}, fit(n, textSize, false, sc.W-2*pad), textSize, anchorStart, false, softInk)
		y += textSize + 8
	}
	sc.H = math.Ceil(y + pad - 4)
	// The background, first.
	bg := shape{kind: kindPoly, polys: [][]pt{{{0, 0}, {sc.W, 0}, {sc.W, sc.H}, {0, sc.H}}}, fill: white}
	sc.shapes = append([]shape{bg}, sc.shapes...)
	return sc
}

func statusText(d *rules.Diagram, o options) string {
	switch {
	case d.Over && d.Winner > 0:
		return "Game over: " + o.seatName(d.Winner) + " wins"
	case d.Over:
		return "Game over: a draw"
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

	// Crosses on the captured cells, beneath what stands there now.
	if last != nil {
		for _, i := range last.Captured {
			c := b.centre(i)
			r := 0.36 * u
			w := 0.075 * u
			sc.poly(crossInk, none, 0,
				segment(c.add(pt{-r, -r}), c.add(pt{r, r}), w),
				segment(c.add(pt{-r, r}), c.add(pt{r, -r}), w))
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
				sc.text(pt{p.X, p.Y + 0.3*u + 4}, c.Name, 12, anchorMiddle, false, mix(frame, white, 0.25))
			}
		}
	}

	for i, c := range d.Cells {
		drawStack(sc, b, b.centre(i), c.Pieces)
	}

	if last != nil {
		drawLastMove(sc, b, last)
	}

	// Coordinates on the edges.
	for _, l := range d.Columns {
		p := b.at(l.At, b.minY)
		q := b.at(l.At, b.maxY)
		top, bottom := min(p.Y, q.Y)-u/2, max(p.Y, q.Y)+u/2
		sc.text(pt{p.X, top - 8}, l.Text, labelSize, anchorMiddle, false, softInk)
		sc.text(pt{p.X, bottom + 17}, l.Text, labelSize, anchorMiddle, false, softInk)
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
		sc.text(pt{b.origin.X - labelBand/2, y + 4.5}, l.Text, labelSize, anchorMiddle, false, softInk)
		sc.text(pt{b.origin.X + b.w + labelBand/2, y + 4.5}, l.Text, labelSize, anchorMiddle, false, softInk)
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
	length := [4]float64{0, 0.50, 0.68, 0.86}[p.Size] * b.unit
	v := b.dir(p.Points)
	n := v.perp()
	tip := c.add(v.mul(0.55 * length))
	base := c.sub(v.mul(0.45 * length))
	bw := 0.32 * length
	left, right := base.add(n.mul(bw)), base.sub(n.mul(bw))
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
	headLen, headW := 0.30*u, 0.20*u
	end := pts[len(pts)-1]
	dir := end.sub(pts[len(pts)-2]).unit()
	// The tip stops short of the centre, so that the piece there shows.
	tip := end.sub(dir.mul(0.24 * u))
	neck := tip.sub(dir.mul(headLen))
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
	n := dir.perp()
	polys = append(polys, []pt{tip, neck.add(n.mul(headW)), neck.sub(n.mul(headW))})
	sc.circle(pts[0], 0.13*u, markColour, none, 0)
	sc.poly(markColour, none, 0, polys...)
}

// drawLegend draws a line for each seat (its colour, name, side, score,
// supply) and one for a shared stash, then the last move; it returns
// the y below them.
func drawLegend(sc *scene, d *rules.Diagram, o options, y float64) float64 {
	supplies := map[int][]rules.Supply{}
	var slots [3]bool // the sizes any supply holds: each gets a column
	supplyW := 0.0
	for _, s := range d.Supplies {
		supplies[s.Owner] = append(supplies[s.Owner], s)
		for i, n := range s.Count {
			slots[i] = slots[i] || n > 0
		}
	}
	for _, s := range d.Supplies {
		supplyW = max(supplyW, supplyWidth(slots, s))
	}
	hasScore := false
	for _, s := range d.Seats {
		hasScore = hasScore || s.HasScore
	}
	right := sc.W - pad // where the supply column ends
	if hasScore {
		right -= 80
	}
	nameW := right - (pad + 30)
	if supplyW > 0 {
		nameW -= supplyW + 12
	}
	for i, s := range d.Seats {
		seat := i + 1
		mid := y + rowHeight/2
		drawPiece(sc, &board{d: d, unit: 30}, pt{pad + 12, mid}, rules.Piece{Owner: seat, Size: rules.Large})
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
		switch {
		case s.Out:
			name += ": no pieces left"
		case d.Over && d.Winner == seat:
			name += ": wins"
		case !d.Over && d.ToMove == seat:
			name += ": to move"
		}
		bold := !d.Over && d.ToMove == seat || d.Over && d.Winner == seat
		sc.text(pt{pad + 30, mid + 5}, fit(name, textSize, bold, nameW), textSize, anchorStart, bold, ink)
		if s.HasScore {
			pts := "points"
			if s.Score == 1 {
				pts = "point"
			}
			sc.text(pt{sc.W - pad, mid + 5}, fmt.Sprintf("%d %s", s.Score, pts), textSize, anchorEnd, bold, ink)
		}
		for _, sp := range supplies[seat] {
			drawSupply(sc, d, pt{right - supplyW, mid}, slots, sp)
		}
		y += rowHeight
	}
	for _, sp := range supplies[0] {
		mid := y + rowHeight/2
		drawPiece(sc, &board{d: d, unit: 30}, pt{pad + 12, mid}, rules.Piece{Size: rules.Large})
		label := strings.ToUpper(sp.Label[:1]) + sp.Label[1:] + ", shared"
		sc.text(pt{pad + 30, mid + 5}, label, textSize, anchorStart, false, ink)
		drawSupply(sc, d, pt{max(right-supplyW, pad+30+measure(label, textSize, false)+14), mid}, slots, sp)
		y += rowHeight
	}
	if l := d.Last; l != nil {
		text := "Last move: " + o.seatName(l.Seat) + " " + l.Token
		if len(l.Captured) > 0 {
			var names []string
			for _, c := range l.Captured {
				names = append(names, d.Cells[c].Name)
			}
			text += ", took " + strings.Join(names, ", ")
		}
		y += 4
		sc.text(pt{pad, y + textSize}, fit(text, textSize, false, sc.W-2*pad), textSize, anchorStart, false, ink)
		y += textSize + 10
	}
	return y
}

// supplyWidth is the width drawSupply takes.
func supplyWidth(slots [3]bool, s rules.Supply) float64 {
	w := 0.0
	for _, on := range slots {
		if on {
			w += slotWidth
		}
	}
	if w == 0 {
		w = measure("none", textSize, false) + 8
	}
	if s.Owner != 0 {
		w += measure(s.Label, 12, false)
	}
	return w
}

const slotWidth = 50.0

// drawSupply draws a supply as small pyramids with their counts, a column
// for each size that any supply holds, then its label.
func drawSupply(sc *scene, d *rules.Diagram, at pt, slots [3]bool, s rules.Supply) {
	mini := &board{d: d, unit: 26}
	x := at.X
	if slots == [3]bool{} {
		sc.text(pt{x, at.Y + 5}, "none", textSize, anchorStart, false, softInk)
		x += measure("none", textSize, false) + 8
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
			drawPiece(sc, mini, pt{x + 10, at.Y}, rules.Piece{Owner: s.Owner, Size: size})
		}
		sc.text(pt{x + 22, at.Y + 5}, fmt.Sprintf("×%d", n), textSize, anchorStart, false, ink)
		x += slotWidth
	}
	if s.Owner != 0 {
		sc.text(pt{x, at.Y + 5}, s.Label, 12, anchorStart, false, softInk)
	}
}
