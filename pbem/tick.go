package pbem

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/pbem/outmail"
	"icepost/pbem/store"
)

// newHandling is a handling with no incoming mail, for what the server
// does on its own (the tick) or on the operator's word.
func (s *Handler) newHandling(ctx context.Context, tx *sql.Tx) *handling {
	return &handling{s: s, ctx: ctx, tx: tx, now: s.now()}
}

// act runs one action in its own transaction and queues its mails. The
// action returns what it did for the log ("" for nothing). In a dry run it
// is logged, with the mails it would send, and rolled back.
func (s *Handler) act(ctx context.Context, fn func(h *handling) (string, error)) (string, error) {
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return "", fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	h := s.newHandling(ctx, tx)
	what, err := fn(h)
	if err != nil || what == "" {
		return what, err
	}
	if s.DryRun {
		s.log().Info("tick", "action", what, "dry_run", true)
		for _, m := range h.out {
			s.log().Info("would send", "to", m.To, "subject", m.Subject)
		}
		return what, nil
	}
	if err := h.flush(); err != nil {
		return "", err
	}
	if err := tx.Commit(); err != nil {
		return "", fmt.Errorf("pbem: commit: %w", err)
	}
	s.log().Info("tick", "action", what, "dry_run", false) // logged once done
	return what, nil
}

// Resume is called once when the daemon starts: the time since the last
// heartbeat of the daemon that ran before is an outage, during which no
// clock ran. It also notes the server's address for the operator's
// commands.
func (s *Handler) Resume(ctx context.Context) error {
	now := s.now().Unix()
	last, err := store.State(ctx, s.DB, "heartbeat")
	if err != nil {
		return err
	}
	beat, _ := strconv.ParseInt(last, 10, 64)
	if s.DryRun {
		if beat > 0 && now > beat {
			s.log().Info("would pause the clocks for the outage", "since", time.Unix(beat, 0).UTC(), "dry_run", true)
		}
		return nil
	}
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if beat > 0 && now > beat {
		s.log().Info("the daemon was not running: clocks paused for the outage", "from", time.Unix(beat, 0).UTC(), "for", time.Duration(now-beat)*time.Second)
		if _, err := tx.ExecContext(ctx, `INSERT INTO pbem_outages (starts_at, ends_at) VALUES (?, ?)`, beat, now); err != nil {
			return err
		}
	}
	if err := store.SetState(ctx, tx, "heartbeat", strconv.FormatInt(now, 10)); err != nil {
		return err
	}
	if s.Address != "" {
		if err := store.SetState(ctx, tx, "address", s.Address); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Tick does what time brings: the daemon's heartbeat, reminders, last
// warnings and losses on time, vacation end notices, seeks that ran out,
// and daily digests.
// daemon.Server calls it about once a minute; each action is one
// transaction, its mails queued in the outbox.
func (s *Handler) Tick(ctx context.Context) error {
	now := s.now()
	if !s.DryRun {
		if err := store.SetState(ctx, s.DB, "heartbeat", strconv.FormatInt(now.Unix(), 10)); err != nil {
			return err
		}
	}
	// One action failing (a game whose record no longer replays) does
	// not hold up the others: their errors are reported together.
	var errs []error
	ids, err := store.Column[int64](ctx, s.DB, `SELECT id FROM pbem_games WHERE status = ? AND days_per_move > 0 ORDER BY id`, statusActive)
	if err != nil {
		return err
	}
	for _, id := range ids {
		if _, err := s.act(ctx, func(h *handling) (string, error) { return h.checkClock(id) }); err != nil {
			errs = append(errs, fmt.Errorf("pbem: clock of game %d: %w", id, err))
		}
	}
	back, err := store.Column[string](ctx, s.DB, `SELECT DISTINCT address FROM pbem_vacations WHERE noticed = 0 AND ends_at <= ? ORDER BY address`, now.Unix())
	if err != nil {
		return err
	}
	for _, addr := range back {
		if _, err := s.act(ctx, func(h *handling) (string, error) { return h.vacationOver(addr) }); err != nil {
			errs = append(errs, fmt.Errorf("pbem: vacation of %s: %w", addr, err))
		}
	}
	if err := s.expireSeeks(ctx); err != nil {
		errs = append(errs, err)
	}
	if err := s.sendDuePuzzles(ctx); err != nil {
		errs = append(errs, err)
	}
	slot := digestSlot(now, s.Deadlines.DigestHour)
	due, err := store.Column[string](ctx, s.DB, `SELECT address FROM pbem_players WHERE digest = 1 AND blocked = 0 AND digest_sent_at < ? ORDER BY address`, slot.Unix())
	if err != nil {
		return err
	}
	for _, addr := range due {
		if _, err := s.act(ctx, func(h *handling) (string, error) { return h.digest(addr) }); err != nil {
			errs = append(errs, fmt.Errorf("pbem: digest for %s: %w", addr, err))
		}
	}
	return errors.Join(errs...)
}

// digestSlot is the latest time digests were due at or before now.
func digestSlot(now time.Time, hour int) time.Time {
	u := now.UTC()
	slot := time.Date(u.Year(), u.Month(), u.Day(), hour, 0, 0, 0, time.UTC)
	if slot.After(u) {
		slot = slot.AddDate(0, 0, -1)
	}
	return slot
}

// checkClock sends the reminder, the last warning, or ends the game on
// time, as the mover's clock says.
func (h *handling) checkClock(id int64) (string, error) {
	g, err := h.loadGame(id)
	if err != nil || g.status != statusActive {
		return "", err
	}
	c, err := h.clockOf(g)
	if err != nil || c.Limit == 0 {
		return "", err
	}
	d := h.s.Deadlines
	moverSeat := g.state().ToMove()
	mover := g.seats[moverSeat-1].name
	switch {
	case c.Used >= c.Limit:
		return fmt.Sprintf("game %d: %s lost on time", g.id, mover), h.forfeit(g, moverSeat, c.Limit)
	case c.Paused:
		return "", nil
	case c.notice < 2 && float64(c.Used) >= d.warnAt()*float64(c.Limit):
		m := h.boardMail(g, moverSeat, fmt.Sprintf("LAST WARNING: %s left for your move in this game, until %s. If no move comes by then, you lose the game on time.",
			span(c.Left()), when(h.now.Add(c.Left()))), "")
		h.send(m)
		return fmt.Sprintf("game %d: last warning to %s", g.id, mover), h.setNotice(g.id, 2)
	case c.notice < 1 && float64(c.Used) >= d.remindAt()*float64(c.Limit):
		m := h.boardMail(g, moverSeat, fmt.Sprintf("Reminder: it is your move, and %s of your %s for it are left (until %s).",
			span(c.Left()), span(c.Limit), when(h.now.Add(c.Left()))), "")
		h.send(m)
		return fmt.Sprintf("game %d: reminder to %s", g.id, mover), h.setNotice(g.id, 1)
	}
	return "", nil
}

func (h *handling) setNotice(id int64, n int) error {
	_, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_games SET clock_notice = ? WHERE id = ?`, n, id)
	return err
}

// forfeit ends the game: the mover loses on time. With two seats the
// other wins; with more, the same rule as a resignation (resignWinner).
func (h *handling) forfeit(g *game, seatNo int, limit time.Duration) error {
	if err := g.end("time forfeit", resignWinner(g, seatNo)); err != nil {
		return err
	}
	if err := h.archive(g); err != nil {
		return err
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, fmt.Sprintf("%s did not move within the %s per move: the game is lost on time.\n\n%s", g.seats[seatNo-1].name, span(limit), g.endText()))
	return nil
}

// digest sends a player the games waiting for their move, once a day;
// nothing when no game waits.
func (h *handling) digest(addr string) (string, error) {
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_players SET digest_sent_at = ? WHERE address = ?`, h.now.Unix(), addr); err != nil {
		return "", err
	}
	ids, err := h.activeGames(addr)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	n := 0
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return "", err
		}
		if g.status != statusActive || g.state().ToMove() != g.seatOf(addr) {
			continue
		}
		n++
		fmt.Fprintf(&b, "%s: your move (move %d)", g.title(), g.ply()+1)
		if c, err := h.clockOf(g); err != nil {
			return "", err
		} else if c.Limit > 0 {
			fmt.Fprintf(&b, ", %s left", span(c.Left()))
		}
		b.WriteString("\n")
	}
	if n == 0 {
		return "digest: nothing waits for " + addr, nil
	}
	text := fmt.Sprintf("Your daily icepost digest: %d game(s) wait for your move.\n\n%s\nReply to each game's latest board mail with your move. Send \"digest off\" to stop these mails.\n", n, b.String())
	h.send(&outmail.Mail{To: addr, Subject: "icepost: games waiting for you", Text: text})
	return fmt.Sprintf("digest to %s: %d game(s)", addr, n), nil
}

// activeGames lists the ids of the active games address plays in.
func (h *handling) activeGames(addr string) ([]int64, error) {
	return store.Column[int64](h.ctx, h.tx, `SELECT DISTINCT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id
		WHERE s.address = ? AND g.status = ? ORDER BY g.id`, addr, statusActive)
}
