package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"icepost/pbem/mailread"
	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
)

// userError is a problem with what a player sent: they are told, in
// words, and nothing changes.
type userError struct {
	msg  string
	game *game // the game concerned, for a board in the reply; may be nil
	seat int   // the seat the reply goes to in that game (0: the sender)
	// flow: what the documented flows lead to (a reply to an old board):
	// the answer counts toward the looser limit (allowReply).
	flow bool
	// stranger: the mail that caused it came from another address than
	// the seat's, where the answer goes: it is told at most once an hour
	// (strangerNotice), in words of its own.
	stranger bool
}

func (e *userError) Error() string { return e.msg }

func userErrorf(g *game, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), game: g}
}

// pickError is a command that needs a game, from a mail that names none,
// when several of the sender's games could be meant, or when the mail
// does not show that it comes from its sender: the answer is the board
// (or invitation) of each, with its own reply token, so that one more
// reply does it.
type pickError struct {
	ids []int64
	why string // what the boards say
}

func (e *pickError) Error() string { return fmt.Sprintf("which of games %v?", e.ids) }

// proofError is a command that acts for its sender, from a mail that does
// not show it comes from them: the answer, to the From alone, asks for a
// reply with the same line, and carries an address token.
type proofError struct {
	why string
}

func (e *proofError) Error() string { return "no proof of the sender" }

// dispatch runs the mail's commands in order and returns the outcome for
// the log. It returns an error only for internal failures.
func (h *handling) dispatch() (string, error) {
	if blocked, err := h.senderBlocked(); err != nil || blocked {
		return "refused: the operator blocked this sender", err
	}
	if err := h.decideSender(); err != nil {
		return "", err
	}
	if handled, outcome, err := h.puzzleReply(); handled || err != nil {
		return outcome, err
	}
	if len(h.msg.Commands) == 0 {
		g, seat, err := h.mailGame()
		if err != nil {
			return "", err
		}
		switch moves := copiedMoves(h.msg.Unread, g); {
		case len(moves) == 1:
			// A line copied from the moves answer that names one move:
			// it is that move.
			h.msg.Commands = moves
		case len(moves) > 1:
			var list []string
			for _, c := range moves {
				list = append(list, c.Moves[0])
			}
			text := fmt.Sprintf("Your line %q names %d moves: pick one, and reply with just it on the first line: %s.", clipLine(h.msg.Unread), len(moves), strings.Join(list, ", "))
			if err := h.mistakeReply(h.msg.From, "pick one move", text, g, seat); err != nil {
				return "", err
			}
			return "several moves: asked to pick one", nil
		default:
			if err := h.mistakeReply(h.msg.From, "no command found", notUnderstood(h.msg.Unread, g), g, seat); err != nil {
				return "", err
			}
			return "no command", nil
		}
	}
	// The comment belongs to the last command that takes one (a move,
	// resign, draw), so that conditional moves after a move leave it
	// with the move; failing that, to the last command.
	withComment := len(h.msg.Commands) - 1
	for i, c := range h.msg.Commands {
		if mc := commandFor(c.Verb); mc != nil && mc.comment {
			withComment = i
		}
	}
	var done []string
	for i, c := range h.msg.Commands {
		r := &request{cmd: c, tok: h.sender.tok}
		if i == withComment {
			r.comment = h.msg.Comment
		}
		line := c.String()
		mc := commandFor(c.Verb)
		if mc == nil {
			return "", fmt.Errorf("pbem: the reader gave %q, a verb the table does not have", c.Verb)
		}
		err := h.runCommand(mc, r)
		var ue *userError
		var pe *pickError
		var ne *proofError
		switch {
		case errors.As(err, &ue):
			if err := h.replyError(line, ue); err != nil {
				return "", err
			}
			done = append(done, line+": refused: "+ue.msg)
		case errors.As(err, &pe):
			if err := h.replyPick(pe); err != nil {
				return "", err
			}
			done = append(done, line+": which game, or no proof of the sender: boards sent")
		case errors.As(err, &ne):
			if err := h.replyProof(r.cmd, ne); err != nil {
				return "", err
			}
			done = append(done, line+": no proof of the sender: asked for a reply")
		case err != nil:
			return "", err
		default:
			done = append(done, line)
			continue
		}
		break
	}
	if err := h.confirmConditions(); err != nil {
		return "", err
	}
	return strings.Join(done, "; "), nil
}

// runCommand runs one command, once what it needs is there: the game it
// is about, and the proof its entry asks for.
func (h *handling) runCommand(mc *mailCommand, r *request) error {
	if mc.about != nil {
		if err := h.findGame(mc, r); err != nil {
			return err
		}
	} else if mc.proof != readOnly && !h.sender.proven {
		return &proofError{why: h.sender.why}
	}
	return mc.run(h, r)
}

// findGame sets the game a command is about: the game it names by
// number (analyze 12), the reply token's (whose seat must be the From's),
// or the sender's one game that fits the command. A forSeat command
// without proof of the sender gets the board of each game it could be
// about instead, to reply to.
func (h *handling) findGame(mc *mailCommand, r *request) error {
	if namesGame(r.cmd) {
		return h.numberedGame(mc, r)
	}
	if tok := r.tok; tok != nil {
		g, err := h.loadGame(tok.Game)
		if errors.Is(err, errNoGame) {
			return userErrorf(nil, "game %d does not exist", tok.Game)
		}
		if err != nil {
			return err
		}
		if tok.Seat > len(g.seats) {
			return userErrorf(nil, "game %d has no seat %d", tok.Game, tok.Seat)
		}
		if g.seatOf(h.msg.From) != tok.Seat {
			return &userError{msg: fmt.Sprintf("This mail came from %s, but the game mail it answers was sent to %s: only that address may act for seat %d.", h.msg.From, g.seats[tok.Seat-1].address, tok.Seat), game: g, seat: tok.Seat, stranger: true}
		}
		if mc.proof == forSeat && !h.sender.proven {
			return &pickError{ids: []int64{g.id}, why: h.notDone(r.cmd, 1)}
		}
		r.g, r.seat = g, tok.Seat
		return nil
	}
	ids, err := h.sendersGames(mc.about)
	if err != nil {
		return err
	}
	switch {
	case len(ids) == 0 && mc.about.toMove:
		return userErrorf(nil, "your move %s came in a new mail, and none of your games waits for your move now. Send \"games\" to list your games.", r.cmd.Moves[0])
	case len(ids) == 0 && mc.about.none != "":
		return userErrorf(nil, "%s", mc.about.none)
	case len(ids) == 0:
		return userErrorf(nil, "you have no game this command could be about. Send \"games\" to list your games.")
	case len(ids) > 1 && mc.Arg == mailread.OptionalGame:
		// Finished games pile up: a board of each, to reply to, could
		// be dozens of mails. The numbers, to name one, are enough.
		return userErrorf(nil, "%s", h.whichGame(r.cmd, ids))
	case mc.proof == forSeat && !h.sender.proven:
		return &pickError{ids: ids, why: h.notDone(r.cmd, len(ids))}
	case len(ids) > 1:
		return &pickError{ids: ids, why: fmt.Sprintf("Your mail said %q but did not answer a game's mail, and you have %d games it could be about. This is one of them: to do it here, reply to this mail with the same line.", r.cmd.String(), len(ids))}
	}
	g, err := h.loadGame(ids[0])
	if err != nil {
		return err
	}
	r.g, r.seat = g, g.seatOf(h.msg.From)
	return nil
}

// numberedGame sets the game a command names by its number: the From
// must have a seat in it, and for a forSeat command, proof (any reply
// token of the server's from that address, or a verified sender).
func (h *handling) numberedGame(mc *mailCommand, r *request) error {
	id := r.cmd.Number
	g, err := h.loadGame(id)
	if errors.Is(err, errNoGame) {
		return userErrorf(nil, "game %d does not exist. Send \"games\" to list your games.", id)
	}
	if err != nil {
		return err
	}
	seatNo := g.seatOf(h.msg.From)
	if seatNo == 0 {
		return userErrorf(nil, "%s has no seat in game %d: only its players may ask this of it.", h.msg.From, id)
	}
	if mc.proof == forSeat && !h.sender.proven {
		return &pickError{ids: []int64{id}, why: h.notDone(r.cmd, 1)}
	}
	r.g, r.seat = g, seatNo
	return nil
}

// whichGame asks which of the sender's games ids (oldest first) a
// command that takes a game's number is about, listing the last ten.
func (h *handling) whichGame(c mailread.Command, ids []int64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "you have %d games it could be about. Write it again with the game's number, like:\n\n    %s %d\n\n", len(ids), c.Verb, ids[len(ids)-1])
	if len(ids) > 10 {
		fmt.Fprintf(&b, "The last 10 of them:\n")
		ids = ids[len(ids)-10:]
	}
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "  #%d  %s\n", id, g.title())
	}
	return b.String()
}

// notDone is what the board says to a command that acts for a seat from a
// mail without proof of its sender, when n games could be meant.
func (h *handling) notDone(c mailread.Command, n int) string {
	what, line, done := fmt.Sprintf("your mail said %q", c.String()), c.String(), "nothing was done"
	if c.Verb == "move" {
		what, line, done = "your move "+c.Moves[0], c.Moves[0], "it was not played"
	}
	text := fmt.Sprintf("%s, but %s, so %s.", what, h.sender.why, done)
	if n > 1 {
		text += fmt.Sprintf(" You have %d games it could be about; this is one of them.", n)
	}
	if c.Verb == "move" {
		return outmail.Capitalized(text) + fmt.Sprintf(" To play %s here, reply to this mail with it.", line)
	}
	return outmail.Capitalized(text) + " If you sent it, reply to this mail with the same line:\n\n    " + line
}

// sendersGames lists the ids of the sender's games that fit f, oldest
// first.
func (h *handling) sendersGames(f *gameFilter) ([]int64, error) {
	q := `SELECT DISTINCT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id WHERE s.address = ? AND s.bot_level = 0 AND g.status IN (` +
		strings.TrimSuffix(strings.Repeat("?,", len(f.statuses)), ",") + `) ORDER BY g.id`
	args := []any{h.msg.From}
	for _, st := range f.statuses {
		args = append(args, st)
	}
	ids, err := store.Column[int64](h.ctx, h.tx, q, args...)
	if err != nil || !f.toMove {
		return ids, err
	}
	var waiting []int64
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return nil, err
		}
		if s := g.seatOf(h.msg.From); s > 0 && g.state().ToMove() == s {
			waiting = append(waiting, id)
		}
	}
	return waiting, nil
}

// replyPick sends the boards a pickError asks for, within the per-sender
// limit on error replies (they count as one). Each goes to the seat's
// address: the From, or the reply token's seat, which findGame checked
// is the From.
func (h *handling) replyPick(pe *pickError) error {
	ok, err := h.allowReply(h.msg.From, flowAnswer)
	if err != nil || !ok {
		return err
	}
	for _, id := range pe.ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		seatNo := g.seatOf(h.msg.From)
		if g.status == statusInvited {
			m := h.threadMail(g, seatNo, replytoken.Token{Kind: 'i', Game: g.id, Seat: seatNo})
			m.Text = pe.why + "\n\nThe invitation: " + g.title() + ". Reply \"accept\" or \"decline\".\n"
			m.Reply = true
			h.send(m)
			continue
		}
		m := h.boardMail(g, seatNo, pe.why, "")
		m.Reply = true
		h.send(m)
	}
	return nil
}

// replyProof answers a command that acts for its sender, from a mail
// that does not show it comes from them: to the From alone, with an
// address token, so that a reply with the same line does it.
func (h *handling) replyProof(c mailread.Command, ne *proofError) error {
	ok, err := h.allowReply(h.msg.From, flowAnswer)
	if err != nil || !ok {
		return err
	}
	text := fmt.Sprintf("Please confirm: nothing was done yet.\n\nYour mail said %q, but %s.\n\nIf you sent it, reply to this mail with the same line:\n\n    %s\n", c.String(), ne.why, c.String())
	m := h.addressMail("icepost: please confirm "+strconv.Quote(c.Verb), text)
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

// addressMail is a mail to the sender that carries an address token in
// its reply address and Message-ID.
func (h *handling) addressMail(subject, text string) *outmail.Mail {
	return h.mailTo(h.msg.From, subject, text)
}

// mailTo is a mail to addr that carries addr's address token, so that a
// command in the reply acts for addr.
func (h *handling) mailTo(addr, subject, text string) *outmail.Mail {
	tok := replytoken.ForAddress(h.s.Secret, addr)
	return &outmail.Mail{To: addr, ReplyTo: h.s.plusAddress(tok), Subject: subject, Text: text,
		MessageID: tok + "." + outmail.RandomID() + "@" + h.s.domain()}
}

// replyError tells the player what went wrong, with the board when a game
// is concerned. It goes to the seat's address when the error concerns a
// seat (so a forged From is never answered), else to the sender.
func (h *handling) replyError(line string, ue *userError) error {
	to := h.msg.From
	if ue.game != nil && ue.seat > 0 {
		to = ue.game.seats[ue.seat-1].address
	}
	kind := errorAnswer
	switch {
	case ue.flow:
		kind = flowAnswer
	case h.isPlayer():
		kind = playerAnswer
	}
	text := outmail.Capitalized(ue.msg)
	if ue.game == nil {
		// No board to head the answer: a short first line says what it
		// is about.
		text = fmt.Sprintf("Your command %q was not done: %s", line, ue.msg)
	}
	if ue.stranger {
		// The seat's player did not write: they are told what was tried
		// in their name, and that nothing was done, once an hour at most,
		// so that a stranger cannot make the server write to them
		// without end.
		seat := ue.game.seats[ue.seat-1]
		return h.limitedReply(to, strangerNotice, fmt.Sprintf("a mail from %s for your seat in game %d", h.msg.From, ue.game.id), fmt.Sprintf(
			"A mail from %s answered a mail of game %d that was sent to you, asking for %q. Nothing was done: only mail from %s acts for seat %d.\n\n"+
				"If that mail was yours, send the command again from %s. If it was not, you need do nothing: your game is as it was. (You get this notice at most once an hour.)",
			h.msg.From, ue.game.id, line, seat.address, ue.seat, seat.address), ue.game, ue.seat)
	}
	return h.limitedReply(to, kind, "about your command "+strconv.Quote(line), text, ue.game, ue.seat)
}

// mistakeReply answers a mail that did not do what it meant to: with the
// board of g when the mail is about a game (seat the From's seat in it,
// so that the answer stays in the game's thread), within the looser
// limit of a player with a game (isPlayer) or else the error limit.
func (h *handling) mistakeReply(to, subject, text string, g *game, seat int) error {
	kind := errorAnswer
	if h.isPlayer() {
		kind = playerAnswer
	}
	if g != nil && seat == 0 {
		g = nil
	}
	return h.limitedReply(to, kind, subject, text, g, seat)
}

// errorReply sends an error reply within the per-address limit.
func (h *handling) errorReply(to, subject, text string, g *game, seatNo int) error {
	return h.limitedReply(to, errorAnswer, subject, text, g, seatNo)
}

// limitedReply sends an answer of a kind within the per-address limit on it
// (allowReply): with the board when a game is concerned.
func (h *handling) limitedReply(to string, kind replyKind, subject, text string, g *game, seatNo int) error {
	ok, err := h.allowReply(to, kind)
	if err != nil || !ok {
		return err
	}
	if g != nil {
		m := h.boardMail(g, seatNo, text, "")
		m.To = to
		m.Reply = true
		h.threadReply(m)
		h.send(m)
		return nil
	}
	m := &outmail.Mail{To: to, Subject: "icepost: " + subject, Text: text + "\n", Reply: true}
	h.threadReply(m)
	h.send(m)
	return nil
}

// threadReply makes m a reply to the mail being handled.
func (h *handling) threadReply(m *outmail.Mail) {
	if id := h.msg.MessageID; id != "" {
		m.InReplyTo = id
		m.References = append(slices.Clone(m.References), id)
	}
}
