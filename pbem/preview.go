package pbem

import (
	"fmt"
	"strings"

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
		st = next
	}
	m := h.threadMail(g, seatNo, replyToken{kind: 'm', game: g.id, seat: seatNo, ply: g.ply()})
	var b strings.Builder
	b.WriteString(g.title() + "\n\n")
	fmt.Fprintf(&b, "PREVIEW, as you asked: the board after %s. These moves are not played; the game is still at move %d.\n\n", strings.Join(played, " "), g.ply())
	b.WriteString(st.Board(seatNo))
	fmt.Fprintf(&b, "Position: %s\n", st.Code())
	if g.state().ToMove() == seatNo {
		fmt.Fprintf(&b, "\nTo play %s, reply to this mail with it.\n", played[0])
	}
	m.Text = b.String()
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}
