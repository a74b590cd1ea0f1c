package pbem

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
	"icepost/puzzle"
	"icepost/render"
	"icepost/rules"
)

// The daily puzzle by mail (docs/mail.md, "Puzzles"): "puzzle on" sends
// one at once and then one a day, each a position from a real game where
// a player missed a forced win, found and stored by the archive
// (package puzzle; icepost archive puzzles). A reply with a move is
// refereed by package puzzle: any move that still forces the win in the
// moves left is right, and is answered by the defence that holds out
// longest, until the win or a miss. The puzzle mail's reply token
// (replytoken.ForPuzzle) names the puzzle and the moves played, and is
// bound to the address it was sent to.

// PuzzleArchive is an Archiver that also serves the puzzles found in its
// games, for the daily puzzle by mail.
type PuzzleArchive interface {
	// NextPuzzle is the puzzle after the one numbered after (0: the
	// first), from the first again after the last; false when there is
	// none.
	NextPuzzle(ctx context.Context, after int64) (int64, puzzle.Puzzle, bool, error)
	// Puzzle is puzzle id; false when there is none.
	Puzzle(ctx context.Context, id int64) (puzzle.Puzzle, bool, error)
}

// puzzleEvery is how often a player who asked gets a puzzle.
const puzzleEvery = 24 * time.Hour

// puzzles is the server's archive of puzzles, nil without one.
func (s *Handler) puzzles() PuzzleArchive {
	pa, _ := s.Archive.(PuzzleArchive)
	return pa
}

// puzzleCommand is "puzzle on|off".
func (h *handling) puzzleCommand(r *request) error {
	addr := h.msg.From
	if r.cmd.Off {
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_puzzle_players SET active = 0 WHERE address = ?`, addr); err != nil {
			return err
		}
		h.replyText("puzzles", "No more daily puzzles. Send \"puzzle on\" to have them again.\n")
		return nil
	}
	pa := h.s.puzzles()
	if pa == nil {
		return userErrorf(nil, "this server keeps no archive, so it has no puzzles to send.")
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_puzzle_players (address, active) VALUES (?, 1)
		ON CONFLICT(address) DO UPDATE SET active = 1`, addr); err != nil {
		return err
	}
	sent, err := h.sendPuzzle(addr)
	if err != nil {
		return err
	}
	if !sent {
		h.replyText("puzzles", "Daily puzzles are on, but the server has found none yet in its games: the first comes when it has one.\nSend \"puzzle off\" to stop them.\n")
	}
	return nil
}

// sendPuzzle sends addr the next puzzle; false when the archive has none.
func (h *handling) sendPuzzle(addr string) (bool, error) {
	pa := h.s.puzzles()
	if pa == nil {
		return false, nil
	}
	var last int64
	if err := h.tx.QueryRowContext(h.ctx, `SELECT last_puzzle FROM pbem_puzzle_players WHERE address = ?`, addr).Scan(&last); err != nil {
		return false, err
	}
	id, p, ok, err := pa.NextPuzzle(h.ctx, last)
	if err != nil || !ok {
		return false, err
	}
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_puzzle_players SET last_puzzle = ?, sent_at = ? WHERE address = ?`, id, h.now.Unix(), addr); err != nil {
		return false, err
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_puzzle_tries (address, puzzle_id, moves, status, updated_at) VALUES (?, ?, '', 'open', ?)
		ON CONFLICT(address, puzzle_id) DO UPDATE SET moves = '', status = 'open', updated_at = excluded.updated_at`, addr, id, h.now.Unix()); err != nil {
		return false, err
	}
	s, err := p.Start()
	if err != nil {
		return false, fmt.Errorf("pbem: puzzle %d: %w", id, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Puzzle %d: %s (seat %d) to move %s. Find the win.\n\n", id, p.Player(), p.Seat, p.Words())
	if from := puzzleSource(p); from != "" {
		fmt.Fprintf(&b, "From a real game (%s): the player to move played %s there, and missed it.\n\n", from, p.Played)
	}
	h.puzzleBoard(&b, s, p.Seat)
	fmt.Fprintf(&b, "Reply to this mail with your move on the first line. When the win takes more than one move, I answer with the defence, and you reply with your next move.\nSend \"puzzle off\" to stop the daily puzzle.\n")
	h.send(h.puzzleMail(addr, id, 0, fmt.Sprintf("icepost: puzzle %d, %s %s", id, p.Game, p.Words()), b.String(), s, nil, rules.Move{}, p.Seat))
	return true, nil
}

// puzzleSource names the game a puzzle came from: its event, date and
// players, as its tags give them.
func puzzleSource(p puzzle.Puzzle) string {
	var parts []string
	tag := func(name string) string {
		for _, t := range p.Tags {
			if t.Name == name {
				return t.Value
			}
		}
		return ""
	}
	if e := tag("Event"); e != "" && e != "?" {
		parts = append(parts, e)
	}
	if d := tag("Date"); d != "" && !strings.Contains(d, "?") {
		parts = append(parts, d)
	}
	if a, b := tag("Player1"), tag("Player2"); a != "" && b != "" {
		parts = append(parts, a+" vs "+b)
	}
	return strings.Join(parts, ", ")
}

// puzzleBoard writes s's board from seat's side and its position code.
func (h *handling) puzzleBoard(b *strings.Builder, s rules.State, seat int) {
	b.WriteString(boardText(s, seat, false) + "\n")
	b.WriteString(codeBlock(s.Code()) + "\n")
}

// puzzleMail is a mail of puzzle id to addr, its reply token at the
// player's moves so far, with the position's picture (the last move
// shown when prev is set).
func (h *handling) puzzleMail(addr string, id int64, moves int, subject, text string, s, prev rules.State, last rules.Move, seat int) *outmail.Mail {
	tok := replytoken.ForPuzzle(h.s.Secret, addr, id, moves)
	m := &outmail.Mail{To: addr, ReplyTo: h.s.plusAddress(tok), Subject: subject, Text: text,
		MessageID: tok + "." + outmail.RandomID() + "@" + h.s.domain()}
	board := boardText(s, seat, false)
	if d, ok := rules.DiagramOf(s, seat, prev, last); ok {
		title := "Puzzle " + strconv.FormatInt(id, 10)
		key, err := json.Marshal(struct {
			D     rules.Diagram
			Title string
		}{d, title})
		if err == nil {
			m.Picture = h.mailPicture(boardPic{d: d, opts: []render.Option{render.Title(title)}, key: string(key)}, true, board,
				fmt.Sprintf("puzzle-%d-%d", id, moves), fmt.Sprintf("icepost-puzzle-%d.png", id))
		}
	}
	return m
}

// puzzleReply answers a reply to a puzzle mail that carries a move: it
// reports whether the mail was one (handled), with the outcome's words.
// A mail with a puzzle token of its From but no move (puzzle off, a
// question) goes on to the commands as any other.
func (h *handling) puzzleReply() (bool, string, error) {
	if h.sender.tok != nil {
		return false, "", nil // a game's mail: its token rules
	}
	var id int64
	var k int
	found := false
	for _, place := range h.tokenPlaces() {
		if id, k, found = replytoken.ParsePuzzle(h.s.Secret, place, h.msg.From); found {
			break
		}
	}
	cs := h.msg.Commands
	if !found || len(cs) > 1 || (len(cs) == 1 && cs[0].Verb != "move") {
		return false, "", nil
	}
	move := ""
	if len(cs) == 1 {
		move = cs[0].Moves[0]
	}
	addr := h.msg.From
	pa := h.s.puzzles()
	var p puzzle.Puzzle
	ok := false
	if pa != nil {
		var err error
		if p, ok, err = pa.Puzzle(h.ctx, id); err != nil {
			return true, "", err
		}
	}
	var stored, status string
	err := h.tx.QueryRowContext(h.ctx, `SELECT moves, status FROM pbem_puzzle_tries WHERE address = ? AND puzzle_id = ?`, addr, id).Scan(&stored, &status)
	if errors.Is(err, sql.ErrNoRows) || !ok {
		h.replyText(fmt.Sprintf("puzzle %d", id), fmt.Sprintf("Puzzle %d is no longer here to answer. Send \"puzzle on\" for the next one.\n", id))
		return true, "puzzle gone", nil
	}
	if err != nil {
		return true, "", err
	}
	mine := strings.Fields(stored)
	subject := fmt.Sprintf("icepost: puzzle %d, %s %s", id, p.Game, p.Words())
	switch {
	case status != "open":
		h.replyText(fmt.Sprintf("puzzle %d", id), fmt.Sprintf("You have answered puzzle %d already (%s). The next comes with the daily puzzle.\n", id, status))
		return true, "puzzle answered already", nil
	case k != len(mine):
		// The position now, with a token of it, so that a reply to this
		// answer plays on.
		cur, err := puzzle.Play(h.ctx, p, mine, 0)
		if err != nil {
			return true, "", err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Your mail answers an earlier mail of puzzle %d: nothing changed. The position now, %s to move, wins in %d:\n\n", id, p.Player(), cur.Left)
		h.puzzleBoard(&b, cur.Position, p.Seat)
		b.WriteString("Reply to this mail with your move.\n")
		h.send(h.puzzleMail(addr, id, len(mine), subject, b.String(), cur.Position, cur.Before, cur.Last, p.Seat))
		return true, "puzzle: an old mail", nil
	}
	var at puzzle.Attempt
	if move == "" {
		err = fmt.Errorf("%w: I found no move in %q", puzzle.ErrAnswer, clipLine(h.msg.Unread))
	} else {
		at, err = puzzle.Play(h.ctx, p, append(mine, move), 0)
	}
	if errors.Is(err, puzzle.ErrAnswer) {
		cur, _ := puzzle.Play(h.ctx, p, mine, 0)
		var b strings.Builder
		fmt.Fprintf(&b, "That is not a move here (%v). Nothing changed: reply with a legal move of %s on the first line.\n\n", err, p.Player())
		if cur.Position != nil {
			h.puzzleBoard(&b, cur.Position, p.Seat)
			h.send(h.puzzleMail(addr, id, len(mine), subject, b.String(), cur.Position, cur.Before, cur.Last, p.Seat))
		}
		return true, "puzzle: not a move", nil
	}
	if err != nil {
		return true, "", err
	}
	var b strings.Builder
	switch {
	case at.Wrong != "":
		fmt.Fprintf(&b, "%s does not force the win: the other side has a defence. The solution was %s.\n", at.Wrong, strings.Join(p.Solution, " "))
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_puzzle_tries SET status = 'missed', updated_at = ? WHERE address = ? AND puzzle_id = ?`, h.now.Unix(), addr, id); err != nil {
			return true, "", err
		}
		b.WriteString("The next puzzle comes tomorrow.\n")
		h.send(h.puzzleMail(addr, id, len(mine), subject, b.String(), at.Position, at.Before, at.Last, p.Seat))
		return true, "puzzle missed", nil
	case at.Solved:
		fmt.Fprintf(&b, "Solved: %s wins. Your line: %s.\n", p.Player(), strings.Join(at.Plies, " "))
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_puzzle_tries SET moves = ?, status = 'solved', updated_at = ? WHERE address = ? AND puzzle_id = ?`,
			strings.Join(append(mine, move), " "), h.now.Unix(), addr, id); err != nil {
			return true, "", err
		}
		b.WriteString("The next puzzle comes tomorrow.\n")
		h.send(h.puzzleMail(addr, id, len(mine)+1, subject, b.String(), at.Position, at.Before, at.Last, p.Seat))
		return true, "puzzle solved", nil
	}
	mine = append(mine, move)
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_puzzle_tries SET moves = ?, updated_at = ? WHERE address = ? AND puzzle_id = ?`,
		strings.Join(mine, " "), h.now.Unix(), addr, id); err != nil {
		return true, "", err
	}
	reply := "the defence"
	if n := len(at.Plies); n > 0 {
		reply = at.Plies[n-1]
	}
	fmt.Fprintf(&b, "Right: %s still forces the win. The defence: %s. Your move now: %s wins in %d.\n\n", move, reply, p.Player(), at.Left)
	h.puzzleBoard(&b, at.Position, p.Seat)
	b.WriteString("Reply to this mail with your next move.\n")
	h.send(h.puzzleMail(addr, id, len(mine), subject, b.String(), at.Position, at.Before, at.Last, p.Seat))
	return true, "puzzle: right, the defence sent", nil
}

// sendDuePuzzles sends the daily puzzle to each player who asked and has
// had none for a day.
func (s *Handler) sendDuePuzzles(ctx context.Context) error {
	if s.puzzles() == nil {
		return nil
	}
	due, err := store.Column[string](ctx, s.DB, `SELECT address FROM pbem_puzzle_players WHERE active = 1 AND sent_at <= ?
		AND address NOT IN (SELECT address FROM pbem_players WHERE blocked = 1) ORDER BY address`,
		s.now().Add(-puzzleEvery).Unix())
	if err != nil {
		return err
	}
	var errs []error
	for _, addr := range due {
		if _, err := s.act(ctx, func(h *handling) (string, error) {
			sent, err := h.sendPuzzle(addr)
			if err != nil || !sent {
				return "daily puzzle: none to send to " + addr, err
			}
			return "daily puzzle to " + addr, nil
		}); err != nil {
			errs = append(errs, fmt.Errorf("pbem: daily puzzle for %s: %w", addr, err))
		}
	}
	return errors.Join(errs...)
}
