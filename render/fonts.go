package render

import (
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The Go fonts set the PNG's text and measure the text of both formats;
// the SVG names them first and falls back on the reader's fonts (room
// leaves space for those).
var fonts = sync.OnceValue(func() [2]*sfnt.Font {
	r, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err)
	}
	b, err := opentype.Parse(gobold.TTF)
	if err != nil {
		panic(err)
	}
	return [2]*sfnt.Font{r, b}
})

func fontOf(bold bool) *sfnt.Font {
	if bold {
		return fonts()[1]
	}
	return fonts()[0]
}

// measure returns the width of text at size pixels.
func measure(text string, size float64, bold bool) float64 {
	f := fontOf(bold)
	var buf sfnt.Buffer
	ppem := fixed.Int26_6(size * 64)
	var w fixed.Int26_6
	for _, r := range text {
		i, err := f.GlyphIndex(&buf, r)
		if err != nil {
			continue
		}
		a, err := f.GlyphAdvance(&buf, i, ppem, font.HintingNone)
		if err == nil {
			w += a
		}
	}
	return float64(w) / 64
}

// A picture's words are set in the Go fonts in a PNG, but in the
// reader's font in an SVG: a page names the Go font first, and few
// readers have it. The fallbacks it names next (Arial, Liberation Sans,
// Helvetica) are as wide as Go's within a few per cent; DejaVu Sans, the
// sans-serif of many Linux systems, is up to 14% wider in its regular
// weight and 21% in bold. An SVG's layout leaves room for that: where
// words must fit beside others or in a line (the legend, the status, the
// last move, the notes), it measures them as that much wider than Go
// sets them (room), and wraps them sooner; in a font as wide as Go's,
// its lines then end with room to spare, and in DejaVu Sans no words run
// over others or off the picture. A PNG, whose fonts are known, is laid
// out by their exact widths (measure).
const (
	widerRegular = 1.15
	widerBold    = 1.22
)

// room is the width to leave for text at size pixels, in whatever font
// sets it (see widerRegular).
func room(text string, size float64, bold bool) float64 {
	if bold {
		return widerBold * measure(text, size, bold)
	}
	return widerRegular * measure(text, size, bold)
}

// widthFunc measures text at size pixels: measure (the Go fonts
// exactly, for words only a PNG sets) or room (words an SVG sets too).
type widthFunc func(text string, size float64, bold bool) float64

// fit cuts text to at most width pixels by m, ending it with "…" when
// cut.
func (m widthFunc) fit(text string, size float64, bold bool, width float64) string {
	if m(text, size, bold) <= width {
		return text
	}
	rs := []rune(text)
	for len(rs) > 1 {
		rs = rs[:len(rs)-1]
		if t := string(rs) + "…"; m(t, size, bold) <= width {
			return t
		}
	}
	return "…"
}

// wrap breaks text into lines of at most width pixels by m, between
// words; a word too long for a line of its own is cut by fit.
func (m widthFunc) wrap(text string, size float64, bold bool, width float64) []string {
	return m.wrapWords(strings.Fields(text), size, bold, width)
}

// wrapWords is wrap of text already cut into words, some of which may
// hold spaces that must not break ("to move").
func (m widthFunc) wrapWords(words []string, size float64, bold bool, width float64) []string {
	var lines []string
	line := ""
	for _, w := range words {
		if line == "" {
			line = w
			continue
		}
		if try := line + " " + w; m(try, size, bold) <= width {
			line = try
			continue
		}
		lines = append(lines, m.fit(line, size, bold, width))
		line = w
	}
	if line != "" {
		lines = append(lines, m.fit(line, size, bold, width))
	}
	return lines
}

// fit cuts text to at most width pixels in the Go fonts.
func fit(text string, size float64, bold bool, width float64) string {
	return widthFunc(measure).fit(text, size, bold, width)
}

// faces makes the font faces one PNG needs; a face is not safe for
// concurrent use, so each picture has its own.
type faces map[[2]int]font.Face

func (fs faces) get(size float64, bold bool) font.Face {
	k := [2]int{int(size * 4), 0}
	if bold {
		k[1] = 1
	}
	if f, ok := fs[k]; ok {
		return f
	}
	f, err := opentype.NewFace(fontOf(bold), &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	fs[k] = f
	return f
}
