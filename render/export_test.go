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
