package pbem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"runtime/debug"
	"strings"

	"icepost/notation"
	"icepost/render"
	"icepost/rules"
)

// boardHTML gives a board mail its HTML part: the board as an inline PNG
// (alt text saying the position in words), the scores and whose turn it
// is beside it, what to do next, and the position code in a block of its
// own; readable on a phone (the picture scales to the width). No SVG:
// major webmail clients block it. A game that does not describe its
// positions keeps the text board in a <pre>.
func (h *handling) boardHTML(m *outMail, g *game, seatNo int, news, clock, next string) {
	p, ok := h.boardPicture(g, seatNo)
	if !ok {
		return
	}
	s, d, opts, names := g.state(), p.d, p.opts, p.names
	png, err := h.picture(p)
	if err != nil {
		return // the <pre> board stays
	}
	alt := render.Describe(d, opts...)
	cid := fmt.Sprintf("board-%d-%d-%d.%s@%s", g.id, g.ply(), seatNo, randomID(), h.s.domain())
	m.Inline = []inlineImage{{ContentID: cid, Name: fmt.Sprintf("icepost-game-%d-move-%d.png", g.id, g.ply()), Type: "image/png", Data: png}}

	esc := func(t string) string {
		return strings.ReplaceAll(html.EscapeString(strings.TrimRight(t, "\n")), "\n", "<br>\n")
	}
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin: 0; padding: 8px; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.45; color: #222">
`)
	fmt.Fprintf(&b, "<p style=\"margin: 0 0 8px\"><b>%s</b><br>\n", esc(g.title()))
	for i, st := range g.seats {
		fmt.Fprintf(&b, "seat %d: %s &lt;%s&gt;<br>\n", i+1, html.EscapeString(st.name), html.EscapeString(st.address))
	}
	b.WriteString("</p>\n")
	if news != "" {
		fmt.Fprintf(&b, "<p style=\"margin: 0 0 8px\">%s</p>\n", esc(news))
	}
	fmt.Fprintf(&b, "<img src=\"cid:%s\" alt=\"%s\" width=\"%d\" style=\"display: block; width: 100%%; max-width: %dpx; height: auto; border: 0\">\n",
		cid, html.EscapeString(alt), pngWidth(png), pngWidth(png))
	b.WriteString("<p style=\"margin: 8px 0\">")
	if sc := s.Scores(); sc != nil {
		var parts []string
		for i, v := range sc {
			parts = append(parts, fmt.Sprintf("%s %d", html.EscapeString(names[i]), v))
		}
		b.WriteString("Scores: " + strings.Join(parts, ", ") + "<br>\n")
	}
	fmt.Fprintf(&b, "Moves played: %d", g.ply())
	if clock != "" {
		b.WriteString("<br>\n" + esc(clock))
	}
	b.WriteString("</p>\n")
	fmt.Fprintf(&b, "<p style=\"margin: 8px 0\"><b>%s</b></p>\n", esc(next))
	fmt.Fprintf(&b, "<p style=\"margin: 8px 0 2px\">Position code:</p>\n<div style=\"font-family: Menlo, Consolas, 'DejaVu Sans Mono', monospace; font-size: 13px; word-break: break-all; overflow-wrap: anywhere; background: #f4efe6; padding: 6px 8px\">%s</div>\n", html.EscapeString(s.Code()))
	b.WriteString("</body></html>\n")
	m.HTML = b.String()
}

// boardPic is the picture of a board mail: what to draw, and a key that
// names it.
type boardPic struct {
	d     rules.Diagram
	opts  []render.Option
	names []string
	key   string
}

// boardPicture is the picture of g's board as seatNo sees it (an
// observer's with 0); false for a game that does not describe its
// positions.
func (h *handling) boardPicture(g *game, seatNo int) (boardPic, bool) {
	s := g.state()
	var prev rules.State
	var last rules.Move
	if n := g.ply(); n > 0 {
		prev, last = g.play.States[n-1], g.play.Moves[n-1]
	}
	d, ok := rules.DiagramOf(s, seatNo, prev, last)
	if !ok {
		return boardPic{}, false
	}
	names := make([]string, len(g.seats))
	for i, st := range g.seats {
		names[i] = st.name
	}
	if g.status != statusActive && !d.Over {
		// Ended off the board (resigned, agreed, lost on time): the
		// picture says the result, and no one is to move.
		d.ToMove = 0
		if w, decided, _ := notation.ParseResult(g.record().Result, len(g.seats)); decided {
			d.Over, d.Winner = true, w
		}
	}
	title := fmt.Sprintf("%s #%d", g.gameName(), g.id)
	key, err := json.Marshal(struct {
		D     rules.Diagram
		Names []string
		Title string
	}{d, names, title})
	if err != nil {
		return boardPic{}, false
	}
	return boardPic{d: d, opts: []render.Option{render.Names(names...), render.Title(title)}, names: names, key: string(key)}, true
}

// pictureJob is a picture being drawn.
type pictureJob struct {
	done chan struct{}
	png  []byte
	err  error
}

// drawAhead starts drawing p, on a core of its own, unless this handling
// has it already: the pictures of a move's board mails (one per seat,
// one for the observers) are drawn at once, and a picture that several
// mails show (the seats of a game of three or four see one board) is
// drawn once. Drawing is most of the time a move takes the daemon (about
// 5 ms a picture) and all of it holds the write lock (Server.writing).
func (h *handling) drawAhead(p boardPic) *pictureJob {
	if j, ok := h.pictures[p.key]; ok {
		return j
	}
	j := &pictureJob{done: make(chan struct{})}
	if h.pictures == nil {
		h.pictures = map[string]*pictureJob{}
	}
	h.pictures[p.key] = j
	go func() {
		defer close(j.done)
		defer func() {
			if v := recover(); v != nil {
				j.err = fmt.Errorf("drawing the board panicked: %v", v)
				h.s.log().Error("drawing a board picture panicked: the mail shows the text board", "panic", v, "stack", string(debug.Stack()))
			}
		}()
		var b bytes.Buffer
		j.err = render.PNG(&b, p.d, p.opts...)
		j.png = b.Bytes()
	}()
	return j
}

// picture is p's PNG, drawn by drawAhead.
func (h *handling) picture(p boardPic) ([]byte, error) {
	j := h.drawAhead(p)
	<-j.done
	return j.png, j.err
}

// pngWidth reads a PNG's width from its header.
func pngWidth(b []byte) int {
	if len(b) < 24 {
		return 0
	}
	return int(b[16])<<24 | int(b[17])<<16 | int(b[18])<<8 | int(b[19])
}
