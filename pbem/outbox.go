package pbem

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net/textproto"
	"strconv"
	"time"

	"icepost/pbem/mailerr"
	"icepost/pbem/store"
)

// The outbox when the operator's settings fail (mailerr.Operator): the
// daemon's side, which stops sending and keeps every mail, and the
// operator's, which lists the mails and sends again those given up.

// outboxHold is the sender's state while an operator fault stops it. Its
// beginning and end are kept in pbem_state, so that a restart (the usual
// way a fixed setting is taken) knows that the fault was on, and counts a
// mail's two days of tries from its end.
type outboxHold struct {
	loaded  bool
	since   time.Time // the fault began; zero while sending
	advice  string    // what to fix
	resumed time.Time // the last fault ended
	probes  int       // tries since it began
	probeAt time.Time // the next try
	remind  mailerr.Reminder
}

func (h *outboxHold) held() bool { return !h.since.IsZero() }

// The keys of the hold in pbem_state: Unix times, and the advice.
const (
	stateHeldSince = "outbox_held_since"
	stateHeldFault = "outbox_held_fault"
	stateResumedAt = "outbox_resumed_at"
)

// loadHold reads the hold that an earlier process left, once.
func (d *Daemon) loadHold(ctx context.Context) error {
	h := &d.hold
	if h.loaded {
		return nil
	}
	vals := map[string]string{}
	for _, k := range []string{stateHeldSince, stateHeldFault, stateResumedAt} {
		v, err := store.State(ctx, d.Server.DB, k)
		if err != nil {
			return err
		}
		vals[k] = v
	}
	if n, err := strconv.ParseInt(vals[stateHeldSince], 10, 64); err == nil && n > 0 {
		h.since, h.advice = time.Unix(n, 0), vals[stateHeldFault]
	}
	if n, err := strconv.ParseInt(vals[stateResumedAt], 10, 64); err == nil && n > 0 {
		h.resumed = time.Unix(n, 0)
	}
	h.loaded = true
	return nil
}

// holdSending notes an operator fault met at now: sending stops until the
// next try, which it returns. The fault is logged at Error level with
// what to fix, the first time and hourly while it lasts.
func (d *Daemon) holdSending(ctx context.Context, now time.Time, fault error) (time.Time, error) {
	h := &d.hold
	advice := mailerr.Advice(fault)
	if !h.held() || advice != h.advice {
		if !h.held() {
			h.since, h.probes = now, 0
		}
		h.advice = advice
		if err := d.setStates(ctx, map[string]string{
			stateHeldSince: strconv.FormatInt(h.since.Unix(), 10), stateHeldFault: advice,
		}); err != nil {
			return time.Time{}, err
		}
	}
	h.probes++
	h.probeAt = now.Add(min(time.Minute<<min(h.probes-1, 3), 5*time.Minute))
	level := slog.LevelDebug
	if h.remind.Due(now, advice) {
		level = slog.LevelError
	}
	log := d.Server.log()
	if log.Enabled(ctx, level) {
		var queued int
		d.Server.DB.QueryRowContext(ctx, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL`).Scan(&queued)
		log.Log(ctx, level, advice, "err", fault, "queued", queued, "held_since", h.since.Format(time.RFC3339), "retry_in", h.probeAt.Sub(now))
	}
	return h.probeAt, nil
}

// resumeSending notes that a mail went through after an operator fault.
func (d *Daemon) resumeSending(ctx context.Context, now time.Time) error {
	h := &d.hold
	d.Server.log().Warn("sending again: the operator fault is over", "held_since", h.since.Format(time.RFC3339), "fault", h.advice)
	if err := d.setStates(ctx, map[string]string{stateHeldSince: "", stateHeldFault: "", stateResumedAt: strconv.FormatInt(now.Unix(), 10)}); err != nil {
		return err
	}
	h.since, h.advice, h.resumed, h.probes, h.probeAt = time.Time{}, "", now, 0, time.Time{}
	h.remind.Clear()
	return nil
}

// setStates writes pbem_state's keys in one transaction; "" deletes one.
func (d *Daemon) setStates(ctx context.Context, kv map[string]string) error {
	if d.Server.DryRun {
		return nil
	}
	defer d.Server.writing()()
	tx, err := d.Server.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for k, v := range kv {
		if v == "" {
			_, err = tx.ExecContext(ctx, `DELETE FROM pbem_state WHERE key = ?`, k)
		} else {
			err = store.SetState(ctx, tx, k, v)
		}
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}

// OutboxMail is one mail of the outbox as the operator lists it.
type OutboxMail struct {
	ID        int64
	To        string
	Subject   string
	Queued    time.Time
	Attempts  int
	NextTry   time.Time // when it is due, while it waits
	Failed    time.Time // when it was given up; zero while it waits
	LastError string
}

// OutboxHeld says whether an operator fault stops the daemon's sending
// now (as the daemon last recorded it), since when, and what to fix.
func (s *Server) OutboxHeld(ctx context.Context) (since time.Time, advice string, err error) {
	v, err := store.State(ctx, s.DB, stateHeldSince)
	if err != nil || v == "" {
		return time.Time{}, "", err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	advice, err = store.State(ctx, s.DB, stateHeldFault)
	return time.Unix(n, 0), advice, err
}

// Outbox lists the mails not sent, oldest first: those waiting to be sent
// and those given up, or (failedOnly) only those given up.
func (s *Server) Outbox(ctx context.Context, failedOnly bool) ([]OutboxMail, error) {
	q := `SELECT id, recipient, message, created_at, attempts, next_try_at, coalesce(failed_at, 0), last_error
		FROM pbem_outbox WHERE sent_at IS NULL`
	if failedOnly {
		q += ` AND failed_at IS NOT NULL`
	}
	rows, err := s.DB.QueryContext(ctx, q+` ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []OutboxMail
	for rows.Next() {
		var (
			m                      OutboxMail
			msg                    []byte
			queued, next, failedAt int64
		)
		if err := rows.Scan(&m.ID, &m.To, &msg, &queued, &m.Attempts, &next, &failedAt, &m.LastError); err != nil {
			return nil, err
		}
		m.Subject = subjectOf(msg)
		m.Queued, m.NextTry = time.Unix(queued, 0), time.Unix(next, 0)
		if failedAt != 0 {
			m.Failed, m.NextTry = time.Unix(failedAt, 0), time.Time{}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// subjectOf reads a queued mail's Subject, decoded.
func subjectOf(msg []byte) string {
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(msg))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return ""
	}
	subject := h.Get("Subject")
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	return subject
}

// ErrNoMail is the error of RetryOutbox for a mail that is not in the
// outbox, or was sent.
var ErrNoMail = errors.New("no such mail waiting or given up in the outbox")

// RetryOutbox makes a mail of the outbox that was given up (or waits for
// its next try) due now, so that the running daemon sends it within a
// minute: id, or every mail not sent when id is 0. It returns how many it
// made due. A mail given up gets its two days of tries again, counted from
// now; a mail sent is never sent again.
func (s *Server) RetryOutbox(ctx context.Context, id int64) (int, error) {
	if s.DryRun {
		return 0, nil
	}
	now := s.now().Unix()
	q := `UPDATE pbem_outbox SET next_try_at = ?, failed_at = NULL,
		created_at = CASE WHEN failed_at IS NULL THEN created_at ELSE ? END
		WHERE sent_at IS NULL`
	args := []any{now, now}
	if id != 0 {
		q += ` AND id = ?`
		args = append(args, id)
	}
	defer s.writing()()
	res, err := s.DB.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 && id != 0 {
		return 0, fmt.Errorf("%w: %d", ErrNoMail, id)
	}
	return int(n), err
}

// OutboxCounts returns how many mails of the outbox wait to be sent and
// how many were given up.
func (s *Server) OutboxCounts(ctx context.Context) (waiting, failed int, err error) {
	err = s.DB.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE failed_at IS NULL), count(*) FILTER (WHERE failed_at IS NOT NULL)
		FROM pbem_outbox WHERE sent_at IS NULL`).Scan(&waiting, &failed)
	return waiting, failed, err
}
