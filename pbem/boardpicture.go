package pbem

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"icepost/notation"
	"icepost/pbem/outmail"
	"icepost/render"
	"icepost/rules"
)

// boardImage is the picture a board mail shows in place of board, the
// text board of g as seatNo sees it: the PNG of boardPicture, with alt
// text that says the position in words. No SVG: major webmail clients
// block it. A game that does not describe its positions, or a picture
// that failed, leaves the text board in the HTML.
func (h *handling) boardImage(g *game, seatNo int, board string) *outmail.Picture {
	p, ok := h.boardPicture(g, seatNo)
	return h.mailPicture(p, ok, board, fmt.Sprintf("board-%d-%d-%d", g.id, g.ply(), seatNo), fmt.Sprintf("icepost-game-%d-move-%d.png", g.id, g.ply()))
}

// mailPicture is p drawn, in place of board; cid (made unique here) and
// name name its image.
func (h *handling) mailPicture(p boardPic, ok bool, board, cid, name string) *outmail.Picture {
	pic := &outmail.Picture{Board: board}
	if !ok {
		return pic
	}
	png, err := h.picture(p)
	if err != nil {
		return pic // the text board stays
	}
	pic.Alt = render.Describe(p.d, p.opts...)
	pic.Image = outmail.InlineImage{ContentID: cid + "." + outmail.RandomID() + "@" + h.s.domain(), Name: name, Type: "image/png", Data: png}
	return pic
}

// boardPic is the picture of a board mail: what to draw, and a key that
// names it.
type boardPic struct {
	d    rules.Diagram
	opts []render.Option
	key  string
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
	if g.status != statusActive && !d.Over {
		// Ended off the board (resigned, agreed, lost on time): the
		// picture says the result, and no one is to move.
		d.ToMove = 0
		if w, decided, _ := notation.ParseResult(g.record().Result, len(g.seats)); decided {
			d.Over, d.Winner = true, w
		}
	}
	return g.drawing(d, fmt.Sprintf("%s #%d", g.gameName(), g.id))
}

// drawing is what to draw of d, a position of g, under title.
func (g *game) drawing(d rules.Diagram, title string) (boardPic, bool) {
	names := make([]string, len(g.seats))
	for i, st := range g.seats {
		names[i] = st.name
	}
	key, err := json.Marshal(struct {
		D     rules.Diagram
		Names []string
		Title string
	}{d, names, title})
	if err != nil {
		return boardPic{}, false
	}
	return boardPic{d: d, opts: []render.Option{render.Names(names...), render.Title(title)}, key: string(key)}, true
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
// 5 ms a picture) and all of it holds the write lock (Handler.writing).
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
