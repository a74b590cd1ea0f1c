package pbem

import (
	"fmt"
	"strings"

	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
)

// RoundMail sends a player the first boards of their games started
// together (GameSpec.Quiet), all in one mail: a round of a tournament's
// in which all games start at once is one mail, not one a game. One game
// is its ordinary board mail, with news. With several, each game's part
// has its board from the player's side, its clock and, where the player
// is to move, the address that takes a move in that game (the game's
// reply token, as a board mail's Reply-To carries it) and the play link;
// a reply to the mail itself goes to the one game that waits for the
// player, when only one does (else the answer shows each game's board to
// reply to, as for a move sent in a new mail). Each board's picture is
// attached.
func (t *Tx) RoundMail(to, subject, news string, ids []int64) error {
	return t.h.roundMail(to, subject, news, ids)
}

func (h *handling) roundMail(to, subject, news string, ids []int64) error {
	var gs []*game
	var seats []int
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return fmt.Errorf("pbem: the round's game %d: %w", id, err)
		}
		seat := g.seatOf(to)
		if seat == 0 {
			return fmt.Errorf("pbem: %s has no seat in game %d", to, id)
		}
		gs, seats = append(gs, g), append(seats, seat)
	}
	if len(gs) == 0 {
		return nil
	}
	news = strings.TrimRight(news, "\n") + " " + gs[0].gameName() + " in short:\n\n" + gs[0].play.Rules.Info().Summary
	if len(gs) == 1 {
		h.send(h.boardMail(gs[0], seats[0], news, ""))
		return nil
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(news, "\n") + "\n\n")
	fmt.Fprintf(&b, "Your %d games, each below with its board from your side:\n", len(gs))
	for i, g := range gs {
		fmt.Fprintf(&b, "  - %s, seat %d", g.title(), seats[i])
		if g.state().ToMove() == seats[i] {
			b.WriteString(": your move")
		}
		b.WriteString("\n")
	}
	if n := waitingFor(gs, seats); n > 1 {
		fmt.Fprintf(&b, "%d games wait for your move: send each move to its game's address below (a reply to this mail with a move brings back each game's board to reply to).\n", n)
	}
	b.WriteString("\n")
	var waiting []*game
	var waitingSeat []int
	var att []outmail.Attachment
	for i, g := range gs {
		seat := seats[i]
		s := g.state()
		b.WriteString(strings.Repeat("=", 20) + "\n")
		b.WriteString(g.title() + "\n")
		for j, st := range g.seats {
			fmt.Fprintf(&b, "  seat %d: %s <%s>\n", j+1, st.name, st.address)
		}
		b.WriteString("\n" + boardText(s, seat, false) + "\n")
		if c := h.clockLine(g, seat); c != "" {
			b.WriteString(c + "\n")
		}
		if s.ToMove() == seat {
			waiting, waitingSeat = append(waiting, g), append(waitingSeat, seat)
			tok := replytoken.Token{Kind: 'm', Game: g.id, Seat: seat, Ply: g.ply()}.Sign(h.s.Secret)
			fmt.Fprintf(&b, "YOUR MOVE in game %d: write your move on the first line of a mail to\n    %s\n", g.id, h.s.plusAddress(tok))
			if link := h.s.playLink(g.id, seat); link != "" {
				fmt.Fprintf(&b, "or play it on the web: %s\n", link)
			}
		} else {
			fmt.Fprintf(&b, "%s (seat %d) is to move; the next board of this game comes by mail.\n", g.seats[s.ToMove()-1].name, s.ToMove())
		}
		b.WriteString(codeBlock(s.Code()) + "\n")
		if p := h.boardImage(g, seat, ""); p != nil && p.Image.Data != nil {
			att = append(att, outmail.Attachment{Name: p.Image.Name, Type: p.Image.Type, Data: p.Image.Data})
		}
	}
	var m *outmail.Mail
	if len(waiting) == 1 {
		// A plain reply moves in the one game that waits.
		m = h.threadMail(waiting[0], waitingSeat[0], replytoken.Token{Kind: 'm', Game: waiting[0].id, Seat: waitingSeat[0], Ply: waiting[0].ply()})
		m.Subject = subject
		fmt.Fprintf(&b, "A reply to this mail with a move plays it in game %d, the one that waits for you.\n", waiting[0].id)
	} else {
		m = h.mailTo(to, subject, "")
	}
	m.Text = b.String()
	m.Attachments = att
	h.send(m)
	return nil
}

// waitingFor counts the games of gs that wait for the player's move, at
// seats.
func waitingFor(gs []*game, seats []int) int {
	n := 0
	for i, g := range gs {
		if g.state().ToMove() == seats[i] {
			n++
		}
	}
	return n
}
