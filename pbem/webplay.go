package pbem

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"icepost/pbem/mailread"
	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
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

// webLimit bounds what one capability may send in an hour, refused or
// not, as the error limit bounds the answers to one address.
const webLimit = 120

// PlayCapability is the capability of seat in game id, for its play
// link.
func (s *Handler) PlayCapability(id int64, seat int) string {
	return replytoken.Token{Kind: 'w', Game: id, Seat: seat}.Sign(s.Secret)
}

// PlaySeat reads a capability: the game and seat it names, or
// ErrBadCapability.
func (s *Handler) PlaySeat(capability string) (id int64, seat int, err error) {
	t, ok := replytoken.Parse(s.Secret, capability)
	if !ok || t.Kind != 'w' {
		return 0, 0, ErrBadCapability
	}
	return t.Game, t.Seat, nil
}

// playLink is the link of a seat's play page, "" without web_url.
func (s *Handler) playLink(id int64, seat int) string {
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
func (s *Handler) WebAct(ctx context.Context, capability string, ply int, line string) (string, error) {
	id, seat, err := s.PlaySeat(capability)
	if err != nil {
		return "", err
	}
	switch ok, err := s.countWebCommand(ctx, id, seat); {
	case err != nil:
		return "", err
	case !ok:
		return "This link has sent many commands in the last hour: wait a while, or play by mail.", nil
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
	addr, err := h.seatAddress(id, seat)
	if err != nil {
		return "", err
	}
	if addr == "" {
		return "", ErrBadCapability
	}
	h.msg = &mailread.Message{From: addr, Commands: []mailread.Command{cmd}}
	tok := &replytoken.Token{Kind: 'm', Game: id, Seat: seat, Ply: ply}
	h.sender = sender{tok: tok, proven: true}
	said := "Done: " + cmd.String() + "."
	err = h.runCommand(commandFor(cmd.Verb), &request{cmd: cmd, tok: tok})
	var ue *userError
	switch {
	case errors.As(err, &ue):
		return outmail.Capitalized(ue.msg), nil // nothing changed: nothing to record
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

// countWebCommand counts one command sent through the link of seat in
// game id toward its limit, in a transaction of its own so that what is
// refused later (a line the page does not take, an illegal move, a form
// sent twice) counts too: ok is false when the link has sent webLimit
// commands in the last hour, and then nothing is counted.
func (s *Handler) countWebCommand(ctx context.Context, id int64, seat int) (ok bool, err error) {
	if s.DryRun {
		return true, nil
	}
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	now := s.now().Unix()
	if _, err := tx.ExecContext(ctx, `DELETE FROM pbem_web_commands WHERE at <= ?`, now-3600); err != nil {
		return false, fmt.Errorf("pbem: %w", err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pbem_web_commands WHERE game_id = ? AND seat = ?`, id, seat).Scan(&n); err != nil {
		return false, fmt.Errorf("pbem: %w", err)
	}
	if n >= webLimit {
		return false, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pbem_web_commands (game_id, seat, at) VALUES (?, ?, ?)`, id, seat, now); err != nil {
		return false, fmt.Errorf("pbem: %w", err)
	}
	return true, tx.Commit()
}
