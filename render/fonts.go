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
// the SVG names them first and falls back on the viewer's sans-serif.
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

// fit cuts text to at most width pixels, ending it with "…" when cut.
func fit(text string, size float64, bold bool, width float64) string {
	if measure(text, size, bold) <= width {
		return text
	}
	rs := []rune(text)
	for len(rs) > 1 {
		rs = rs[:len(rs)-1]
		if t := string(rs) + "…"; measure(t, size, bold) <= width {
			return t
		}
	}
	return "…"
}

// wrap breaks text into lines of at most width pixels, between words; a
// word too long for a line of its own is cut by fit.
func wrap(text string, size float64, bold bool, width float64) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line == "" {
			line = w
			continue
		}
		if try := line + " " + w; measure(try, size, bold) <= width {
			line = try
			continue
		}
		lines = append(lines, fit(line, size, bold, width))
		line = w
	}
	if line != "" {
		lines = append(lines, fit(line, size, bold, width))
	}
	return lines
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
