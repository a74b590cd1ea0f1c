package pbem

import (
	"fmt"
	"strings"

	"icepost/pbem/replytoken"
	"icepost/rules"
)

// preview is "preview MOVE...": the board after the moves, played from
// the position now on a copy, sent to the sender alone. Nothing is
// played or stored. The mail's reply token is that of the position now,
// so that replying to it with the first move plays it.
func (h *handling) preview(r *request) error {
	g, seatNo, toks := r.g, r.seat, r.cmd.Moves
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	st := g.state()
	var prev rules.State
	var last rules.Move
	var played []string
	for _, tk := range toks {
		if st.Outcome().Over {
			return &userError{msg: fmt.Sprintf("preview: the game is over after %s.", strings.Join(played, " ")), game: g, seat: seatNo}
		}
		next, m, err := rules.Play(st, tk)
		if err != nil {
			return &userError{msg: fmt.Sprintf("preview: %v.", err), game: g, seat: seatNo}
		}
		played = append(played, st.FormatMove(m))
		prev, last, st = st, m, next
	}
	m := h.threadMail(g, seatNo, replytoken.Token{Kind: 'm', Game: g.id, Seat: seatNo, Ply: g.ply()})
	var b strings.Builder
	b.WriteString(g.title() + "\n\n")
	fmt.Fprintf(&b, "PREVIEW of the board after %s, as you asked.\nThese moves are not played: the game is still at move %d.\n\n", strings.Join(played, " "), g.ply())
	board := st.Board(seatNo)
	b.WriteString(board + "\n")
	if g.state().ToMove() == seatNo {
		fmt.Fprintf(&b, "To play %s, reply to this mail with it on the first line.\n\n", played[0])
	}
	b.WriteString(codeBlock(st.Code()))
	m.Text = b.String()
	// The picture of the previewed position, its last move marked, and
	// "preview" in its title, so that it is never taken for the board.
	p, ok := boardPic{}, false
	if d, drawable := rules.DiagramOf(st, seatNo, prev, last); drawable {
		p, ok = g.drawing(d, fmt.Sprintf("%s #%d, preview", g.gameName(), g.id))
	}
	m.Picture = h.mailPicture(p, ok, board, fmt.Sprintf("preview-%d-%d-%d", g.id, g.ply(), seatNo), fmt.Sprintf("icepost-game-%d-preview.png", g.id))
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}
