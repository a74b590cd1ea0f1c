package render

import "icepost/rules"

// Words is a line of text in a picture, for tests.
type Words struct {
	Text string
	Size float64
}

// WordsOffBoard lays out the picture of d and returns its width and the
// words it sets outside the board and its coordinates: the title, the
// legend, the last move, the notes.
func WordsOffBoard(d rules.Diagram, opts ...Option) (width float64, words []Words) {
	sc := layout(&d, collect(opts))
	b := sc.board
	top, bottom := b.origin.Y-labelBand, b.origin.Y+b.h+labelBand
	for _, s := range sc.shapes {
		if s.kind != kindText || len(d.Cells) > 0 && s.c.Y > top && s.c.Y < bottom {
			continue
		}
		words = append(words, Words{s.text, s.size})
	}
	return sc.W, words
}

// Box is where a line of words stands in a picture, in its pixels: from
// X0 to X1 across, its ascent to its descent down.
type Box struct {
	Text           string
	X0, Y0, X1, Y1 float64
}

// TextBoxes lays out the picture of d as SVG (svg true, its words given
// the room of a wider font than Go's, as a reader's may be) or as PNG,
// and returns its width and height and the box of every line of words
// in it, each as wide as the layout measures it.
func TextBoxes(d rules.Diagram, svg bool, opts ...Option) (w, h float64, boxes []Box) {
	o := collect(opts)
	o.svg = svg
	sc := layout(&d, o)
	width := widthFunc(measure)
	if svg {
		width = room
	}
	for _, s := range sc.shapes {
		if s.kind != kindText || s.text == "" {
			continue
		}
		wd := width(s.text, s.size, s.bold)
		x := s.c.X
		switch s.anchor {
		case anchorMiddle:
			x -= wd / 2
		case anchorEnd:
			x -= wd
		}
		boxes = append(boxes, Box{s.text, x, s.c.Y - 0.76*s.size, x + wd, s.c.Y + 0.24*s.size})
	}
	return sc.W, sc.H, boxes
}
