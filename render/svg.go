package render

import (
	"bytes"
	"encoding/xml"
	"image/color"
	"io"
	"math"
	"strconv"
)

// writeSVG writes the scene as a standalone SVG document, its
// description (the position in words) as the title that screen readers
// say. Its words name the Go font first (which the layout measured),
// then fonts as wide as it (Arial and its metric twin Liberation Sans,
// Helvetica, Roboto); a wider fallback still fits (fonts.go, room).
func writeSVG(w io.Writer, sc *scene, desc string) error {
	var b bytes.Buffer
	b.Grow(16 << 10)
	role := "img"
	if len(sc.handles) > 0 {
		role = "group"
	}
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" role="` + role + `" width="`)
	num(&b, sc.W)
	b.WriteString(`" height="`)
	num(&b, sc.H)
	b.WriteString(`" viewBox="0 0 `)
	num(&b, sc.W)
	b.WriteByte(' ')
	num(&b, sc.H)
	b.WriteString(`" font-family="'Go', Arial, 'Liberation Sans', Helvetica, Roboto, sans-serif">` + "\n<title>")
	xml.EscapeText(&b, []byte(desc))
	b.WriteString("</title>\n")
	if len(sc.handles) > 0 {
		// The title says the picture: its shapes are hidden, the handles
		// over them are not.
		b.WriteString(`<g aria-hidden="true">` + "\n")
	}
	for i := range sc.shapes {
		s := &sc.shapes[i]
		switch s.kind {
		case kindPoly:
			b.WriteString(`<path d="`)
			pathData(&b, s.polys...)
			b.WriteByte('"')
			paint(&b, s)
			b.WriteString("/>\n")
		case kindCircle:
			b.WriteString(`<circle cx="`)
			num(&b, s.c.X)
			b.WriteString(`" cy="`)
			num(&b, s.c.Y)
			b.WriteString(`" r="`)
			num(&b, s.r)
			b.WriteByte('"')
			paint(&b, s)
			b.WriteString("/>\n")
		case kindText:
			b.WriteString(`<text x="`)
			num(&b, s.c.X)
			b.WriteString(`" y="`)
			num(&b, s.c.Y)
			b.WriteString(`" font-size="`)
			num(&b, s.size)
			b.WriteByte('"')
			switch s.anchor {
			case anchorMiddle:
				b.WriteString(` text-anchor="middle"`)
			case anchorEnd:
				b.WriteString(` text-anchor="end"`)
			}
			if s.bold {
				b.WriteString(` font-weight="bold"`)
			}
			colour(&b, "fill", s.fill)
			b.WriteByte('>')
			xml.EscapeText(&b, []byte(s.text))
			b.WriteString("</text>\n")
		}
	}
	if len(sc.handles) > 0 {
		b.WriteString("</g>\n<g class=\"cells\">\n")
		for _, h := range sc.handles {
			b.WriteString(`<path data-cell="`)
			xml.EscapeText(&b, []byte(h.name))
			b.WriteString(`" d="`)
			pathData(&b, h.poly)
			b.WriteString(`" fill="#000" fill-opacity="0"/>` + "\n")
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// pathData writes polygons as the d of a <path>, each closed.
func pathData(b *bytes.Buffer, polys ...[]pt) {
	for k, p := range polys {
		if k > 0 {
			b.WriteByte(' ')
		}
		svgPath(b, p, true)
	}
}

// svgPath writes the points of one line as path data, closed or not.
func svgPath(b *bytes.Buffer, pts []pt, closed bool) {
	for j, q := range pts {
		if j == 0 {
			b.WriteByte('M')
		} else {
			b.WriteByte(' ')
		}
		num(b, q.X)
		b.WriteByte(' ')
		num(b, q.Y)
	}
	if closed {
		b.WriteByte('Z')
	}
}

func paint(b *bytes.Buffer, s *shape) {
	if s.fill.A == 0 {
		b.WriteString(` fill="none"`)
	} else {
		colour(b, "fill", s.fill)
	}
	if s.stroke.A != 0 {
		colour(b, "stroke", s.stroke)
		b.WriteString(` stroke-width="`)
		num(b, s.width)
		b.WriteByte('"')
	}
}

// colour writes attr="#rrggbb", and attr-opacity when it is not opaque.
func colour(b *bytes.Buffer, attr string, c color.NRGBA) {
	const hex = "0123456789abcdef"
	b.WriteString(" " + attr + `="#`)
	for _, v := range []uint8{c.R, c.G, c.B} {
		b.WriteByte(hex[v>>4])
		b.WriteByte(hex[v&15])
	}
	b.WriteByte('"')
	if c.A != 0xff {
		b.WriteString(" " + attr + `-opacity="`)
		num(b, math.Round(float64(c.A)/255*1000)/1000)
		b.WriteByte('"')
	}
}

// num writes v with at most two decimals.
func num(b *bytes.Buffer, v float64) {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	b.Write(strconv.AppendFloat(b.AvailableBuffer(), v, 'f', -1, 64))
}
