package pbem

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"icepost/pbem/mailread"
)

// Playing from the browser (docs/web.md, "Play from a board mail's
// link"). Each board mail of a server with web_url carries a link to
// WEB_URL/play/CAPABILITY, where CAPABILITY is a token like the reply
// tokens, of kind 'w': one game and one seat, made with the server's
// secret. Whoever holds the link acts for that seat, as whoever can reply
// from the seat's address does by mail. What the page sends goes through
// the same table of commands, the same handlers and the same kind of
// transaction as a mail (WebAct), with the exactly-once key of the form
// (the capability, the move number the page showed and the line), so
// that a form sent twice plays once.

// ErrBadCapability is a play link that names no seat of this server.
var ErrBadCapability = errors.New("this play link is not valid: use the link of your latest board mail")

// webLimit bounds what one capability may send in an hour, as the error
// limit bounds the answers to one address.
const webLimit = 120

// webCountSQL counts a link's commands since a time: its keys, from
// "web:CAPABILITY:" up to "web:CAPABILITY;", are a range of the primary
// key.
const webCountSQL = `SELECT count(*) FROM pbem_processed WHERE mail_key >= ? AND mail_key < ? AND processed_at > ?`

// PlayCapability is the capability of seat in game id, for its play
// link.
func (s *Server) PlayCapability(id int64, seat int) string {
	return replyToken{kind: 'w', game: id, seat: seat}.sign(s.Secret)
}

// PlaySeat reads a capability: the game and seat it names, or
// ErrBadCapability.
func (s *Server) PlaySeat(capability string) (id int64, seat int, err error) {
	t, ok := parseReplyToken(s.Secret, capability)
	if !ok || t.kind != 'w' {
		return 0, 0, ErrBadCapability
	}
	return t.game, t.seat, nil
}

// playLink is the link of a seat's play page, "" without web_url.
func (s *Server) playLink(id int64, seat int) string {
	if s.WebURL == "" || seat == 0 {
		return ""
	}
	return strings.TrimRight(s.WebURL, "/") + "/play/" + s.PlayCapability(id, seat)
}

// WebAct carries out one command line of the play page for the seat
// capability names, the page having shown the game after ply moves: in
// one transaction, exactly once for the same capability, ply and line,
// with every mail it makes queued in the outbox. It returns what to tell
// the player; an error only for a failure that is not theirs.
func (s *Server) WebAct(ctx context.Context, capability string, ply int, line string) (string, error) {
	id, seat, err := s.PlaySeat(capability)
	if err != nil {
		return "", err
	}
	cmd, ok := mailread.ParseCommand(line, Language())
	// The page takes what acts for its seat in its game: the table's
	// forSeat commands.
	if !ok || commandFor(cmd.Verb).proof != forSeat {
		return fmt.Sprintf("%q is not a move or a command this page takes (a move, draw, resign, undo, if THEIRS then MINE, conditions clear).", line), nil
	}
	key := "web:" + capability + ":" + strconv.Itoa(ply) + ":" + cmd.String()
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	var prev string
	switch err := tx.QueryRowContext(ctx, `SELECT outcome FROM pbem_processed WHERE mail_key = ?`, key).Scan(&prev); {
	case err == nil:
		return "This was sent before, and done then: nothing more was played. (" + prev + ")", nil
	case !errors.Is(err, sql.ErrNoRows):
		return "", fmt.Errorf("pbem: %w", err)
	}
	h := s.newHandling(ctx, tx)
	var n int
	// The link's commands are the keys that begin "web:CAPABILITY:", a
	// range of the table's key (';' follows ':'): LIKE would read every
	// mail ever handled.
	prefix := "web:" + capability + ":"
	if err := tx.QueryRowContext(ctx, webCountSQL, prefix, prefix[:len(prefix)-1]+";", h.now.Unix()-3600).Scan(&n); err != nil {
		return "", fmt.Errorf("pbem: %w", err)
	}
	if n >= webLimit {
		return "This link has sent many commands in the last hour: wait a while, or play by mail.", nil
	}
	addr, err := h.seatAddress(id, seat)
	if err != nil {
		return "", err
	}
	if addr == "" {
		return "", ErrBadCapability
	}
	h.msg = &mailread.Message{From: addr, Commands: []mailread.Command{cmd}}
	tok := &replyToken{kind: 'm', game: id, seat: seat, ply: ply}
	h.sender = sender{tok: tok, proven: true}
	said := "Done: " + cmd.String() + "."
	err = h.runCommand(commandFor(cmd.Verb), &request{cmd: cmd, tok: tok})
	var ue *userError
	switch {
	case errors.As(err, &ue):
		return upper(ue.msg), nil // nothing changed: nothing to record
	case err != nil:
		return "", err
	}
	if err := h.confirmConditions(); err != nil {
		return "", err
	}
	// Queued, recorded under its key and committed as a mail is.
	if err := h.commitMail(key, addr, "web: "+cmd.String()); err != nil {
		return "", err
	}
	s.log().Info("web", "game", id, "seat", seat, "outcome", cmd.String())
	return said, nil
}
