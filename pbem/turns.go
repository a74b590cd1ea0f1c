package pbem

import (
	"fmt"
	"strings"
	"time"

	"icepost/pbem/outbox"
	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
)

// One mail a turn (docs/mail.md, "How many mails"). After a person's
// move the other players get the board, and the mover one short
// confirmation (none when they sent "confirm off"), which also lists the
// conditional moves the same mail gave. When a bot moves next, the
// confirmation waits a few seconds in the outbox: the transaction that
// plays the bot's answer deletes it while it is unsent, and the bot's
// board names both moves, so that a round against the bot is one mail.

// hold is a queued mail that waits before it goes, and that a later mail
// with the same key replaces while it is unsent.
type hold struct {
	delay time.Duration
	key   string
}

// botAnswerWait is how long the confirmation of a move waits for the
// bot's answer, which replaces it. A bot's search takes at most its move
// time (5 s by default, less at the low levels); a slower answer comes as
// a board of its own after the confirmation.
const botAnswerWait = 6 * time.Second

// confirmKey is the key of a seat's confirmation that the bot's answer
// may replace.
func confirmKey(id int64, seat int) string { return fmt.Sprintf("confirm %d %d", id, seat) }

// sendTurn sends what follows a person's move in a game that goes on:
// the board to every other player and observer, and the confirmation to
// the mover.
func (h *handling) sendTurn(g *game, mover int, played, news string) error {
	h.sendBoardsExcept(g, news, mover)
	addr := g.seats[mover-1].address
	var on bool
	if err := h.tx.QueryRowContext(h.ctx, `SELECT coalesce(max(confirm), 1) FROM pbem_players WHERE address = ?`, addr).Scan(&on); err != nil {
		return err
	}
	if !on {
		return nil
	}
	next := g.state().ToMove()
	m := h.threadMail(g, mover, replytoken.Token{Kind: 'm', Game: g.id, Seat: mover, Ply: g.ply()})
	var b strings.Builder
	fmt.Fprintf(&b, "You played %s (move %d) in %s.\n", played, g.ply(), g.title())
	if g.seats[next-1].bot > 0 {
		fmt.Fprintf(&b, "%s is thinking: its answer comes on the next board.\n", g.seats[next-1].name)
		if h.held == nil {
			h.held = map[*outmail.Mail]hold{}
		}
		h.held[m] = hold{delay: botAnswerWait, key: confirmKey(g.id, mover)}
	} else {
		fmt.Fprintf(&b, "%s (seat %d) is to move; the board comes when they have played.\n", g.seats[next-1].name, next)
	}
	b.WriteString("\nReply to this mail to offer a draw, resign, or give conditional moves (if THEIRS then MINE). Send \"confirm off\" to get no mail for your own moves.\n")
	m.Text = b.String()
	h.send(m)
	if h.confirmations == nil {
		h.confirmations = map[condChange]*outmail.Mail{}
	}
	h.confirmations[condChange{g.id, mover}] = m
	return nil
}

// replaceConfirmations deletes the confirmations of g's players that
// still wait in the outbox for a bot's answer, and returns the moves they
// confirmed, for the bot's board to name.
func (h *handling) replaceConfirmations(g *game) (string, error) {
	var said []string
	for i, st := range g.seats {
		if st.bot > 0 {
			continue
		}
		n, err := outbox.Supersede(h.ctx, h.tx, confirmKey(g.id, i+1))
		if err != nil {
			return "", err
		}
		if n == 0 {
			continue
		}
		// The move it confirmed is the one before the bot's, this seat's.
		if p := g.ply() - 1; p > 0 && g.play.States[p-1].ToMove() == i+1 {
			said = append(said, fmt.Sprintf("%s played %s (move %d).", st.name, g.play.Token(p), p))
		}
	}
	return strings.Join(said, "\n"), nil
}

// confirmCommand is "confirm on|off": whether the sender gets a mail for
// their own moves.
func (h *handling) confirmCommand(r *request) error {
	on := !r.cmd.Off
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_players (address, confirm) VALUES (?, ?)
		ON CONFLICT(address) DO UPDATE SET confirm = excluded.confirm`, h.msg.From, on); err != nil {
		return err
	}
	text := "You will get a short mail for each of your own moves.\n"
	if !on {
		text = "You will get no mail for your own moves: the next board comes when it is your turn again. Send \"confirm on\" to have them back.\n"
	}
	h.replyText("your confirmations", text)
	return nil
}
