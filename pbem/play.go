package pbem

import (
	"fmt"
	"slices"
	"strings"

	"icepost/notation"
	"icepost/pbem/outmail"
	"icepost/rules"
)

// The commands that play: a move, resign, draw; and what follows any move
// (played), a player's or a bot's.

// move is a move: r.g is the game (the reply token's, or the one game
// waiting for the sender's move) and r.seat the sender's seat.
func (h *handling) move(r *request) error {
	g, seatNo, moveTok := r.g, r.seat, r.cmd.Moves[0]
	if g.status != statusActive {
		return &userError{msg: fmt.Sprintf("game %d is %s: no moves now.", g.id, g.status), game: g, seat: seatNo}
	}
	s := g.state()
	if tok := r.tok; tok != nil && tok.Kind == 'm' && tok.Ply != g.ply() {
		return &userError{msg: fmt.Sprintf("your reply answers the board after move %d, but the game has gone on to move %d since. Nothing was played; here is the board now.", tok.Ply, g.ply()), game: g, seat: seatNo, flow: true}
	}
	if s.ToMove() != seatNo {
		return &userError{msg: fmt.Sprintf("it is %s's turn (seat %d), not yours.", g.seats[s.ToMove()-1].name, s.ToMove()), game: g, seat: seatNo}
	}
	m, err := g.play.PlayToken(moveTok, r.comment)
	if err != nil {
		msg := fmt.Sprintf("your move was not played: %v.", err)
		if legal := s.Moves(nil); len(legal) <= 30 {
			toks := make([]string, len(legal))
			for i, l := range legal {
				toks[i] = s.FormatMove(l)
			}
			slices.Sort(toks)
			msg += "\n\nThe legal moves: " + strings.Join(toks, " ")
		}
		return &userError{msg: msg, game: g, seat: seatNo}
	}
	return h.played(g, seatNo, s, m, r.comment)
}

// played does what follows a move, whoever made it (a player or a bot):
// offers dropped, conditional moves answered, the end of the game, the
// game saved and every board sent. s is the position the move was played
// in.
func (h *handling) played(g *game, seatNo int, s rules.State, m rules.Move, comment string) error {
	g.drawOffers = 0
	mover := g.seats[seatNo-1].name
	news := fmt.Sprintf("%s played %s (move %d).", mover, s.FormatMove(m), g.ply())
	if g.seats[seatNo-1].bot > 0 {
		// The bot's answer replaces the confirmations waiting for it.
		before, err := h.replaceConfirmations(g)
		if err != nil {
			return err
		}
		if before != "" {
			news = before + "\n" + news
		}
	}
	if comment != "" {
		news += "\n" + mover + " wrote: " + comment
	}
	answer, err := h.answerConditions(g, seatNo, s, m)
	if err != nil {
		return err
	}
	if answer != "" {
		news += "\n\n" + answer
	}
	if g.play.Over() {
		g.finished()
		news += "\n\n" + g.endText()
		if err := h.archive(g); err != nil {
			return err
		}
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	if g.status == statusActive && g.seats[seatNo-1].bot == 0 && g.state().ToMove() != seatNo {
		return h.sendTurn(g, seatNo, s.FormatMove(m), news)
	}
	h.sendBoards(g, news)
	return nil
}

// archive stores a finished game in the archive, in this transaction.
func (h *handling) archive(g *game) error {
	if h.s.Archive == nil {
		return nil
	}
	return h.s.Archive.AddGame(h.ctx, h.tx, g.play, archiveSource(g.id))
}
func (g *game) endText() string {
	rec := g.record()
	w, decided, _ := notation.ParseResult(rec.Result, len(g.seats))
	how := ""
	if t, ok := rec.Tag("Termination"); ok && t != "normal" {
		how = " by " + t
	}
	switch {
	case !decided:
		return "The game has ended."
	case w == 0:
		return fmt.Sprintf("Game over: a draw%s (%s).", how, rec.Result)
	}
	return fmt.Sprintf("Game over: %s wins%s (%s).", g.seats[w-1].name, how, rec.Result)
}

// sendBoards sends the board to every player (each with their own token,
// from their own side) and observer.
func (h *handling) sendBoards(g *game, news string) { h.sendBoardsExcept(g, news, 0) }

// sendBoardsExcept is sendBoards but for seat except (0: none).
func (h *handling) sendBoardsExcept(g *game, news string, except int) {
	var att []outmail.Attachment
	if g.status == statusFinished {
		// The game-over mail carries the finished record, as history does.
		att = []outmail.Attachment{recordAttachment(g)}
	}
	for i := range g.seats {
		if i+1 == except {
			continue
		}
		if p, ok := h.boardPicture(g, i+1); ok {
			h.drawAhead(p)
		}
	}
	if len(g.observers) > 0 {
		if p, ok := h.boardPicture(g, 0); ok {
			h.drawAhead(p)
		}
	}
	for i := range g.seats {
		if i+1 == except {
			continue
		}
		m := h.boardMail(g, i+1, news, "")
		m.Attachments = append(m.Attachments, att...)
		h.send(m)
	}
	for _, o := range g.observers {
		m := h.boardMail(g, 0, news, o)
		m.Attachments = append(m.Attachments, att...)
		h.send(m)
	}
}

// recordAttachment is the game's record as a file.
func recordAttachment(g *game) outmail.Attachment {
	return outmail.Attachment{Name: fmt.Sprintf("icepost-game-%d.txt", g.id), Type: "text/plain", Data: []byte(g.record().String())}
}
func (h *handling) resign(r *request) error {
	g, seatNo, comment := r.g, r.seat, r.comment
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	name := g.seats[seatNo-1].name
	note, news := "", name+" resigned."
	if comment != "" {
		note = name + " resigns: " + comment
		news += "\n" + name + " wrote: " + comment
	}
	if err := g.endWith("resignation", resignWinner(g, seatNo), note); err != nil {
		return err
	}
	if err := h.archive(g); err != nil {
		return err
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, news+"\n\n"+g.endText())
	return nil
}

// resignWinner decides who wins when a seat resigns: in a 2-seat game the
// other seat; with 3 or 4 seats the other seat with the highest score, or a
// draw when scores are level or the game has none (see docs/mail.md).
func resignWinner(g *game, resigning int) int {
	if len(g.seats) == 2 {
		return 3 - resigning
	}
	sc := g.state().Scores()
	if sc == nil {
		return 0
	}
	best, winner := -1, 0
	for i, v := range sc {
		switch {
		case i+1 == resigning:
		case v > best:
			best, winner = v, i+1
		case v == best:
			winner = 0
		}
	}
	return winner
}
func (h *handling) draw(r *request) error {
	g, seatNo, comment := r.g, r.seat, r.comment
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	g.drawOffers |= 1 << (seatNo - 1)
	all := 1<<len(g.seats) - 1
	name := g.seats[seatNo-1].name
	wrote := ""
	if comment != "" {
		wrote = "\n" + name + " wrote: " + comment
	}
	if g.drawOffers != all {
		if comment != "" {
			g.play.Comment(name + " offers a draw: " + comment)
		}
		if err := h.saveGame(g); err != nil {
			return err
		}
		var still []string
		for i, st := range g.seats {
			if g.drawOffers&(1<<i) == 0 {
				still = append(still, st.name)
			}
		}
		h.sendBoards(g, fmt.Sprintf("%s offers a draw. To accept, reply \"draw\"; a move declines it. Waiting for: %s.%s", name, strings.Join(still, ", "), wrote))
		return nil
	}
	note := ""
	if comment != "" {
		note = name + " agrees to a draw: " + comment
	}
	if err := g.endWith("agreement", 0, note); err != nil {
		return err
	}
	if err := h.archive(g); err != nil {
		return err
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, fmt.Sprintf("%s accepted the draw.%s\n\n%s", name, wrote, g.endText()))
	return nil
}

// archiveSource is what the archive knows a game by mail as.
func archiveSource(id int64) string { return fmt.Sprintf("mail game %d", id) }
