package render

import (
	"image/color"
	"math"
)

// A scene is a picture as a list of shapes, drawn in order. layout makes
// it from a diagram; writeSVG and writePNG draw it.
type scene struct {
	W, H   float64
	shapes []shape
	board  *board  // where the cells are, for tests
	ts     float64 // the size of the words (textSizeFor)
	// words measures the words of the picture: exactly in the Go fonts
	// for a PNG, with room for the reader's font in an SVG (room).
	words widthFunc
	// handles are the board's cells by name, over the picture (Cells).
	handles []handle
}

// handle is one cell's outline and name, for an SVG's script.
type handle struct {
	name string
	poly []pt
}

type pt struct{ X, Y float64 }

func (a pt) add(b pt) pt            { return pt{a.X + b.X, a.Y + b.Y} }
func (a pt) sub(b pt) pt            { return pt{a.X - b.X, a.Y - b.Y} }
func (a pt) mul(k float64) pt       { return pt{a.X * k, a.Y * k} }
func (a pt) perp() pt               { return pt{-a.Y, a.X} }
func (a pt) len() float64           { return math.Hypot(a.X, a.Y) }
func (a pt) unit() pt               { return a.mul(1 / a.len()) }
func rgb(r, g, b uint8) color.NRGBA { return color.NRGBA{r, g, b, 0xff} }

type shapeKind uint8

const (
	// polys: one or more closed polygons filled together (non-zero
	// winding, all wound the same way), with an optional stroke.
	kindPoly shapeKind = iota
	// a circle at c with radius r, filled and/or stroked.
	kindCircle
	// text with its baseline at c.
	kindText
)

// Text anchors.
const (
	anchorStart = iota
	anchorMiddle
	anchorEnd
)

type shape struct {
	kind   shapeKind
	polys  [][]pt
	c      pt
	r      float64
	fill   color.NRGBA // alpha 0: no fill
	stroke color.NRGBA // alpha 0: no stroke
	width  float64
	text   string
	size   float64
	anchor uint8
	bold   bool
}

func (s *scene) poly(fill, stroke color.NRGBA, width float64, polys ...[]pt) {
	for i := range polys {
		polys[i] = wind(polys[i])
	}
	s.shapes = append(s.shapes, shape{kind: kindPoly, polys: polys, fill: fill, stroke: stroke, width: width})
}

func (s *scene) circle(c pt, r float64, fill, stroke color.NRGBA, width float64) {
	s.shapes = append(s.shapes, shape{kind: kindCircle, c: c, r: r, fill: fill, stroke: stroke, width: width})
}

func (s *scene) text(at pt, text string, size float64, anchor uint8, bold bool, col color.NRGBA) {
	s.shapes = append(s.shapes, shape{kind: kindText, c: at, text: text, size: size, anchor: anchor, bold: bold, fill: col})
}

// wind returns poly wound clockwise on the screen (positive area with y
// down), so that polygons filled together add up instead of cancelling.
func wind(poly []pt) []pt {
	if area(poly) < 0 {
		for i, j := 0, len(poly)-1; i < j; i, j = i+1, j-1 {
			poly[i], poly[j] = poly[j], poly[i]
		}
	}
	return poly
}

func area(poly []pt) float64 {
	a := 0.0
	for i := range poly {
		p, q := poly[i], poly[(i+1)%len(poly)]
		a += p.X*q.Y - q.X*p.Y
	}
	return a / 2
}

// segment is a line from a to b, width w wide, as a polygon.
func segment(a, b pt, w float64) []pt {
	n := b.sub(a).unit().perp().mul(w / 2)
	return []pt{a.add(n), b.add(n), b.sub(n), a.sub(n)}
}

// disc approximates a circle by a polygon of n sides.
func disc(c pt, r float64, n int) []pt {
	p := make([]pt, n)
	for i := range p {
		a := 2 * math.Pi * float64(i) / float64(n)
		p[i] = pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return p
}

// square is the square of half side h around c.
func square(c pt, h float64) []pt {
	return []pt{{c.X - h, c.Y - h}, {c.X + h, c.Y - h}, {c.X + h, c.Y + h}, {c.X - h, c.Y + h}}
}

// hexagon is a hexagon with a point at the top, of circumradius r.
func hexagon(c pt, r float64) []pt {
	p := make([]pt, 6)
	for i := range p {
		a := math.Pi/6 + math.Pi/3*float64(i)
		p[i] = pt{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)}
	}
	return p
}

// mix blends a toward b by t (0..1), keeping a's alpha.
func mix(a, b color.NRGBA, t float64) color.NRGBA {
	f := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return color.NRGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), a.A}
}

func alpha(c color.NRGBA, a uint8) color.NRGBA { c.A = a; return c }

var (
	white = rgb(0xff, 0xff, 0xff)
	black = rgb(0, 0, 0)
	none  = color.NRGBA{}
)
