package outbox

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"icepost/pbem/mailerr"
	"icepost/pbem/store"
)

// The outbox when the operator's settings fail (mailerr.Operator): the
// daemon's side, which stops sending and keeps every mail, and the
// operator's, which lists the mails and sends again those given up.

// hold is the sender's state while an operator fault stops it. Its
// beginning and end are kept in pbem_state, so that a restart (the usual
// way a fixed setting is taken) knows that the fault was on, and counts a
// mail's two days of tries from its end.
type hold struct {
	loaded  bool
	since   time.Time // the fault began; zero while sending
	advice  string    // what to fix
	resumed time.Time // the last fault ended
	probes  int       // tries since it began
	probeAt time.Time // the next try
	remind  mailerr.Reminder
}

func (h *hold) held() bool { return !h.since.IsZero() }

// The keys of the hold in pbem_state: Unix times, and the advice.
const (
	stateHeldSince = "outbox_held_since"
	stateHeldFault = "outbox_held_fault"
	stateResumedAt = "outbox_resumed_at"
)

// loadHold reads the hold that an earlier process left, once.
func (s *Sender) loadHold(ctx context.Context) error {
	h := &s.hold
	if h.loaded {
		return nil
	}
	vals := map[string]string{}
	for _, k := range []string{stateHeldSince, stateHeldFault, stateResumedAt} {
		v, err := store.State(ctx, s.DB, k)
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
func (s *Sender) holdSending(ctx context.Context, now time.Time, fault error) (time.Time, error) {
	h := &s.hold
	advice := mailerr.Advice(fault)
	if !h.held() || advice != h.advice {
		if !h.held() {
			h.since, h.probes = now, 0
		}
		h.advice = advice
		if err := s.setStates(ctx, map[string]string{
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
	log := s.log()
	if log.Enabled(ctx, level) {
		var queued int
		s.DB.QueryRowContext(ctx, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL`).Scan(&queued)
		log.Log(ctx, level, advice, "err", fault, "queued", queued, "held_since", h.since.Format(time.RFC3339), "retry_in", h.probeAt.Sub(now))
	}
	return h.probeAt, nil
}

// resumeSending notes that a mail went through after an operator fault.
func (s *Sender) resumeSending(ctx context.Context, now time.Time) error {
	h := &s.hold
	s.log().Warn("sending again: the operator fault is over", "held_since", h.since.Format(time.RFC3339), "fault", h.advice)
	if err := s.setStates(ctx, map[string]string{stateHeldSince: "", stateHeldFault: "", stateResumedAt: strconv.FormatInt(now.Unix(), 10)}); err != nil {
		return err
	}
	h.since, h.advice, h.resumed, h.probes, h.probeAt = time.Time{}, "", now, 0, time.Time{}
	h.remind.Clear()
	return nil
}

// setStates writes pbem_state's keys in one transaction; "" deletes one.
func (s *Sender) setStates(ctx context.Context, kv map[string]string) error {
	if s.DryRun {
		return nil
	}
	defer s.lock()()
	tx, err := s.DB.BeginTx(ctx, nil)
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
