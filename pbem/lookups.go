package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"icepost/pbem/outmail"
	"icepost/pbem/store"
	"icepost/rules"
	"icepost/rules/games"
)

// The commands that only read: board, history, games, help; and observe,
// which subscribes its sender to a game's boards.

func (h *handling) board(r *request) error {
	m := h.boardMail(r.g, r.seat, "The board, as you asked.", "")
	h.threadReply(m)
	h.send(m)
	return nil
}

// legalMoves is "moves" and "moves CELL": the legal moves of the
// position now, grouped by the cell the moving piece starts from (and the
// pieces put on the board apart), or only those from CELL, in the board
// mail of the sender's seat, whose token plays whichever is replied.
func (h *handling) legalMoves(r *request) error {
	g, seat := r.g, r.seat
	s := g.state()
	text := fmt.Sprintf("It is %s's move, not yours: your legal moves come with your turn.", g.seats[s.ToMove()-1].name)
	if s.ToMove() == seat {
		text = movesText(s, r.cmd.Cell)
	}
	m := h.boardMail(g, seat, text, "")
	h.threadReply(m)
	h.send(m)
	return nil
}

// movesText lists the legal moves of s by the cell each starts from,
// from the diagram the game draws (rules.Drawable): no game's notation is
// read here. cell, when not "", keeps only the moves from it.
func movesText(s rules.State, cell string) string {
	legal, drawable := rules.CellMoves(s)
	var order []string
	groups := map[string][]string{}
	for _, m := range legal {
		from := "other moves"
		switch {
		case drawable && m.Placed:
			from = "pieces put on the board"
		case m.From() != "":
			from = m.From()
		}
		if cell != "" && !strings.EqualFold(from, cell) {
			continue
		}
		if groups[from] == nil {
			order = append(order, from)
		}
		groups[from] = append(groups[from], m.Token)
	}
	var b strings.Builder
	switch {
	case len(order) == 0 && cell != "":
		fmt.Fprintf(&b, "No legal move of yours starts on %s now. Send \"moves\" for all of them.\n", cell)
	case cell != "":
		fmt.Fprintf(&b, "Your legal moves from %s (%d):\n", cell, len(groups[order[0]]))
	default:
		fmt.Fprintf(&b, "Your legal moves (%d), by the piece that moves:\n", len(legal))
	}
	slices.Sort(order)
	example, width := "", 0
	for _, k := range order {
		width = max(width, len(k)+1)
	}
	for _, k := range order {
		toks := groups[k]
		slices.Sort(toks)
		if example == "" {
			example = toks[0]
		}
		// A term and its text (pbem/outmail): the text part wraps the
		// moves under the first.
		fmt.Fprintf(&b, "  %-*s  %s\n", width, k+":", strings.Join(toks, " "))
	}
	if example != "" {
		fmt.Fprintf(&b, "To play one, reply to this mail with it on the first line (like %s).\n", example)
	}
	return b.String()
}

func (h *handling) history(r *request) error {
	g := r.g
	rec := g.record().String()
	m := h.boardMail(g, r.seat, "The record of the game so far (also attached):\n\n"+outmail.RecordBlock(rec), "")
	m.Attachments = []outmail.Attachment{recordAttachment(g)}
	h.threadReply(m)
	h.send(m)
	return nil
}

// listGames is "games": the sender's games in progress. The mail carries
// an address token, so that a reply to it acts for the sender (a
// vacation, a challenge).
func (h *handling) listGames(*request) error {
	ids, err := store.Column[int64](h.ctx, h.tx, `SELECT DISTINCT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id
		WHERE s.address = ? AND s.bot_level = 0 AND g.status IN ('invited', 'active') ORDER BY g.id`, h.msg.From)
	if err != nil {
		return err
	}
	var b strings.Builder
	if len(ids) == 0 {
		b.WriteString("You have no games in progress.\nStart one with: challenge GAME ADDRESS (or bot, to play the server)\n")
	} else {
		fmt.Fprintf(&b, "Your games in progress (%d):\n", len(ids))
	}
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %s: ", g.title())
		switch {
		case g.status == statusInvited:
			b.WriteString("waiting for players to accept\n")
		case g.state().ToMove() == g.seatOf(h.msg.From):
			fmt.Fprintf(&b, "your move (move %d)%s\n", g.ply()+1, h.timeLeft(g))
		default:
			fmt.Fprintf(&b, "%s to move (move %d)%s\n", g.seats[g.state().ToMove()-1].name, g.ply()+1, h.timeLeft(g))
		}
	}
	if len(ids) > 0 {
		b.WriteString("\nTo play, reply to the latest board mail of a game.\n")
	}
	m := h.addressMail("icepost: your games", b.String())
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

func (h *handling) help(r *request) error {
	text := helpText("")
	if r.tok != nil {
		if g, err := h.loadGame(r.tok.Game); err == nil {
			text = helpText(exampleMove(g)) + "\n" + g.play.Rules.Info().Summary
		}
	} else {
		for _, g := range games.All() {
			text += "\n" + g.Info().Summary
		}
	}
	m := &outmail.Mail{To: h.msg.From, Subject: "icepost: help", Text: text, Reply: true}
	h.threadReply(m)
	h.send(m)
	return nil
}

// observe subscribes the sender to every board of a game they do not
// play in.
func (h *handling) observe(r *request) error {
	id := r.cmd.Number
	g, err := h.loadGame(id)
	if errors.Is(err, errNoGame) {
		return userErrorf(nil, "game %d does not exist.", id)
	}
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return userErrorf(nil, "game %d is %s: there is nothing to watch.", id, g.status)
	}
	addr := h.msg.From
	if g.seatOf(addr) > 0 {
		return userErrorf(nil, "you play in game %d: you get its boards already.", id)
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT OR IGNORE INTO pbem_observers (game_id, address) VALUES (?, ?)`, id, addr); err != nil {
		return err
	}
	m := h.boardMail(g, 0, "You now follow this game: every board will come to you.", addr)
	h.threadReply(m)
	h.send(m)
	return nil
}
