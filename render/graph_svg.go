package render

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
)

// The SVG's size in its own units; the page scales it to its width
// (a phone's 358 px show it at three quarters, its words at 11 px).
const (
	graphW    = 480.0
	graphH    = 164.0
	graphFont = 15.0 // the axes' words
)

// svgPlot is the SVG's plot: room on the left for 1, ½ and 0, under it
// for the move numbers.
func svgPlot() plot { return plot{x: 20, y: 9, w: graphW - 20 - 8, h: 128, k: 1, under: 14} }

// SVG writes the graph as an SVG element for a page (no XML prolog). It
// is 480 by 164 units: a page sets its width (style width:100%;
// height:auto keeps its shape). The chances 0, ½ and 1 are written up
// its left side and move numbers along the bottom (hidden from screen
// readers, which read the title, the description and the links).
//
// With Link, each move's column is a link; the class names (eval-graph,
// eval-move) let a style sheet show the one under the pointer or the
// keyboard's focus. Its title and description carry the ids
// eval-graph-title and eval-graph-desc, which name it for screen
// readers: one graph to a page.
//
// With three or four seats, each seat's line, its marks and its area
// (between the line and the even share, display="none") are a group of
// classes eval-seat and eval-seat-N, so that a page's style sheet can
// show one seat's line with its area and put the others back (the web
// site's game page lets the reader choose): without a style sheet, every
// line shows, and no area.
func (g EvalGraph) SVG(w io.Writer) error {
	if err := g.check(); err != nil {
		return err
	}
	gs := g.shapes(svgPlot(), 0, graphFont)
	var b bytes.Buffer
	// About 370 bytes a move (its point, its link, its name, a mark), once.
	b.Grow(3072 + 400*len(g.Points))
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" class="eval-graph eval-seats-` + strconv.Itoa(g.Seats) + `" width="480" height="164" viewBox="0 0 480 164" aria-labelledby="eval-graph-title" aria-describedby="eval-graph-desc">` + "\n")
	b.WriteString(`<title id="eval-graph-title">`)
	xml.EscapeText(&b, []byte(g.title()))
	b.WriteString("</title>\n<desc id=\"eval-graph-desc\">")
	xml.EscapeText(&b, []byte(g.describe()))
	b.WriteString("</desc>\n")
	b.WriteString(`<rect x="0" y="0" width="480" height="164" rx="4"`)
	colour(&b, "fill", graphBack)
	b.WriteString("/>\n")
	for _, l := range gs.grid {
		svgLine(&b, l)
	}
	if len(gs.labels) > 0 {
		b.WriteString(`<g class="eval-axes" aria-hidden="true" font-family="'Go', Arial, 'Liberation Sans', Helvetica, Roboto, sans-serif" font-size="15"`)
		colour(&b, "fill", softInk)
		b.WriteString(">\n")
		for _, l := range gs.labels {
			b.WriteString(`<text x="`)
			num(&b, l.at.X)
			b.WriteString(`" y="`)
			num(&b, l.at.Y+0.35*graphFont)
			b.WriteByte('"')
			switch l.anchor {
			case anchorEnd:
				b.WriteString(` text-anchor="end"`)
			case anchorMiddle:
				b.WriteString(` text-anchor="middle"`)
			}
			b.WriteByte('>')
			xml.EscapeText(&b, []byte(l.text))
			b.WriteString("</text>\n")
		}
		b.WriteString("</g>\n")
	}
	if g.Seats == 2 {
		for _, ss := range gs.seats {
			for _, a := range ss.areas {
				svgArea(&b, a, false)
			}
		}
	}
	for _, l := range gs.rules {
		svgLine(&b, l)
	}
	for _, ss := range gs.seats {
		if ss.seat > 0 {
			b.WriteString(`<g class="eval-seat eval-seat-` + strconv.Itoa(ss.seat) + `">` + "\n")
			for _, a := range ss.areas {
				svgArea(&b, a, true)
			}
		}
		if ss.line != nil {
			svgLine(&b, *ss.line)
		}
		for _, m := range ss.marks {
			svgMark(&b, m, 1)
		}
		if ss.seat > 0 {
			b.WriteString("</g>\n")
		}
	}
	if gs.current != nil {
		svgLine(&b, *gs.current)
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
			b.WriteString(`" height="164" fill="#000" fill-opacity="0"/></a>` + "\n")
		}
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

func svgArea(b *bytes.Buffer, a graphArea, hidden bool) {
	b.WriteString(`<path class="eval-area" d="`)
	svgPath(b, a.poly, true)
	b.WriteByte('"')
	colour(b, "fill", a.fill)
	if hidden {
		b.WriteString(` display="none"`)
	}
	b.WriteString("/>\n")
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
