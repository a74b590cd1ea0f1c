package outbox

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"icepost/pbem/mailerr"
	"icepost/pbem/store"
)

// Mailer sends one mail: *mailbox.Sender is one. An error that
// mailerr.Classify calls temporary is tried again later; an operator fault
// stops sending until it passes, and keeps every mail; any other gives
// the mail up.
type Mailer interface {
	Send(ctx context.Context, from string, to []string, msg []byte) error
}

// Sender sends the outbox. Its fields are set once before use; one
// Sender sends (the daemon's send loop), with Sync called from the inbox
// loop beside it.
type Sender struct {
	DB   *sql.DB
	Mail Mailer
	// From is the envelope's sender: the server's address.
	From string
	Now  func() time.Time // default time.Now
	Log  *slog.Logger     // default: discarded
	// GiveUp is how long a mail may stay unsent before it is given up;
	// default two days.
	GiveUp time.Duration
	// Workers is how many mails are sent at once, to different
	// recipients; default 4.
	Workers int
	// DryRun writes nothing (the daemon's -dry-run).
	DryRun bool
	// Writers keeps this process's other writers of the database out
	// while the outbox writes (the game service's lock: see
	// pbem.Handler.Writers); nil when there are none.
	Writers sync.Locker

	synced atomic.Int64 // outbox rows up to this id are durable (Sync)
	hold   hold         // sending stopped by an operator fault (hold.go)
	// unrecorded are sends whose outcome could not be written (a full
	// disk): Send writes them before it sends anything else.
	unrecorded []outcome
}

func (s *Sender) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Sender) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.New(slog.DiscardHandler)
}

// lock takes the Writers lock, and returns its release.
func (s *Sender) lock() func() {
	if s.Writers == nil {
		return func() {}
	}
	s.Writers.Lock()
	return s.Writers.Unlock
}

// item is a mail of the outbox to send.
type item struct {
	id       int64
	to       string
	msg      []byte
	attempts int
	created  int64
}

// Send sends every mail that is due, and returns when the next one
// not yet due is (zero when none). Mails to different recipients go out
// on up to Workers connections at once; the mails to one recipient
// go out one after another, in the order they were queued.
//
// An operator fault (a login refused, a certificate not trusted: see
// mailerr) stops sending: the mails stay queued as they were, and
// Send tries again with one mail, from a minute later doubling up
// to five minutes, until one goes through (hold.go).
func (s *Sender) Send(ctx context.Context) (time.Time, error) {
	// Mails sent whose outcome could not be written are written first:
	// until a write succeeds, nothing is sent, since they would be sent
	// again and their outcome could not be written either.
	if len(s.unrecorded) > 0 {
		if err := s.recordSent(ctx, s.unrecorded); err != nil {
			return time.Time{}, fmt.Errorf("%d mails sent are not yet recorded, and nothing more is sent until they are: %w", len(s.unrecorded), err)
		}
		s.unrecorded = nil
	}
	db := s.DB
	now := s.now()
	if err := s.loadHold(ctx); err != nil {
		return time.Time{}, err
	}
	probe := s.hold.held()
	if probe && now.Before(s.hold.probeAt) {
		return s.hold.probeAt, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT id, recipient, message, attempts, created_at FROM pbem_outbox
		WHERE sent_at IS NULL AND failed_at IS NULL AND next_try_at <= ? ORDER BY id LIMIT 100`, now.Unix())
	if err != nil {
		return time.Time{}, err
	}
	var items []item
	for rows.Next() {
		var it item
		if err := rows.Scan(&it.id, &it.to, &it.msg, &it.attempts, &it.created); err != nil {
			rows.Close()
			return time.Time{}, err
		}
		items = append(items, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return time.Time{}, err
	}
	if probe && len(items) > 1 {
		items = items[:1] // the oldest mail due tells whether the fault is over
	}
	// A reply goes out only once the commit that queued it is durable:
	// the inbox loop syncs each batch (ProcessInbox); others, the bots'
	// moves and the clocks, are synced here.
	if len(items) > 0 && items[len(items)-1].id > s.synced.Load() {
		if err := s.Sync(ctx); err != nil {
			return time.Time{}, err
		}
	}
	// One queue per recipient, in the order of their first mail.
	var queues [][]item
	at := map[string]int{}
	for _, it := range items {
		i, ok := at[it.to]
		if !ok {
			i = len(queues)
			at[it.to] = i
			queues = append(queues, nil)
		}
		queues[i] = append(queues[i], it)
	}
	workers := s.Workers
	if workers <= 0 {
		workers = 4
	}
	workers = min(workers, len(queues))
	// The senders hand what became of each mail to one recorder, which
	// writes it as soon as it gets the database, with whatever else came
	// meanwhile in the same transaction: a sender never waits for a
	// handled mail's transaction to end.
	outcomes := make(chan outcome, len(items))
	recorded := make(chan error, 1)
	var failed atomic.Bool
	go func() {
		var err error
		s.unrecorded, err = s.record(ctx, outcomes, &failed)
		recorded <- err
	}()
	// An operator fault stops every sender after the mail in hand: the
	// next would meet it too.
	var fault atomic.Pointer[error]
	var reached atomic.Bool // a send got an answer about its mail
	work := make(chan []item)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for q := range work {
				for _, it := range q {
					if failed.Load() || fault.Load() != nil || ctx.Err() != nil {
						break
					}
					o := s.sendOne(ctx, it)
					if o.fault != nil {
						fault.CompareAndSwap(nil, &o.fault)
					} else if !o.stopped {
						reached.Store(true)
					}
					outcomes <- o
				}
			}
		})
	}
	for _, q := range queues {
		work <- q
	}
	close(work)
	wg.Wait()
	close(outcomes)
	if err := <-recorded; err != nil {
		return time.Time{}, err
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	if f := fault.Load(); f != nil {
		return s.holdSending(ctx, now, *f)
	}
	if reached.Load() && s.hold.held() {
		if err := s.resumeSending(ctx, now); err != nil {
			return time.Time{}, err
		}
	}
	var next int64
	err = db.QueryRowContext(ctx, `SELECT coalesce(min(next_try_at), 0) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL`).Scan(&next)
	if err != nil || next == 0 {
		return time.Time{}, err
	}
	return time.Unix(next, 0), nil
}

// outcome is what became of one mail of the outbox.
type outcome struct {
	id      int64
	at      time.Time
	sent    bool
	giveUp  bool      // failed for good
	retryAt time.Time // failed for now
	err     string
	stopped bool  // not sent: the daemon is stopping
	fault   error // not sent: an operator fault; the mail stays as it was
}

// sendOne sends one mail of the outbox and says what became of it: sent,
// given up, or to be tried again later.
func (s *Sender) sendOne(ctx context.Context, it item) outcome {
	giveUp := s.GiveUp
	if giveUp == 0 {
		giveUp = 48 * time.Hour
	}
	err := s.Mail.Send(ctx, s.From, []string{it.to}, it.msg)
	o := outcome{id: it.id, at: s.now(), sent: err == nil}
	if err == nil {
		return o
	}
	o.err = err.Error()
	kind := mailerr.Classify(err)
	switch {
	case ctx.Err() != nil:
		o.stopped = true // not refused: due again at the next start
	case kind == mailerr.Operator:
		o.fault = err // about no mail: holdSending logs it
	default:
		temp := kind == mailerr.Temporary
		s.log().Warn("sending", "to", it.to, "err", err, "temporary", temp)
		// The two days count from the mail's queueing, or from the end
		// of the last operator fault: a fault is nobody's mail's.
		from := time.Unix(it.created, 0)
		if s.hold.resumed.After(from) {
			from = s.hold.resumed
		}
		if !temp || o.at.Sub(from) > giveUp {
			o.giveUp = true
		} else {
			o.retryAt = o.at.Add(time.Minute << min(it.attempts, 6)) // 1 min doubling to about an hour
		}
	}
	return o
}

// record writes the outcomes of sendOne as they come, all that have come
// in one transaction. When it cannot (a full disk), it sets failed, so
// that no more is sent, and returns the error with the outcomes not
// written, those of the mails still being sent included: the next
// Send writes them before it sends anything, so that a mail is not
// sent again because its outcome could not be written. Only a stop of
// the process before they are written sends them again (at least once,
// never lost).
func (s *Sender) record(ctx context.Context, outcomes <-chan outcome, failed *atomic.Bool) ([]outcome, error) {
	for o := range outcomes {
		batch := []outcome{o}
	more:
		for {
			select {
			case o, ok := <-outcomes:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		if err := s.recordSent(ctx, batch); err != nil {
			failed.Store(true)
			for o := range outcomes {
				batch = append(batch, o)
			}
			return batch, err
		}
	}
	return nil, nil
}

// Stop tries once more, as the send loop stops, to write the
// outcomes that could not be written; those it cannot are sent again by
// the next process.
func (s *Sender) Stop() {
	if len(s.unrecorded) == 0 {
		return
	}
	if err := s.recordSent(context.Background(), s.unrecorded); err != nil {
		s.log().Error("stopping with mails sent but not recorded: the next start sends them again", "mails", len(s.unrecorded), "err", err)
		return
	}
	s.unrecorded = nil
}

func (s *Sender) recordSent(ctx context.Context, batch []outcome) error {
	// A mail sent is recorded even when the daemon is stopping, so that
	// the next start does not send it again.
	ctx = context.WithoutCancel(ctx)
	defer s.lock()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, o := range batch {
		switch {
		case o.stopped:
			continue
		case o.fault != nil:
			// Kept as it was, not counted as a try; the error says
			// why it waits (icepost outbox list).
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET last_error = ? WHERE id = ?`, o.err, o.id)
		case o.sent:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ?`, o.at.Unix(), o.id)
		case o.giveUp:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET failed_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?`, o.at.Unix(), o.err, o.id)
		default:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET next_try_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?`, o.retryAt.Unix(), o.err, o.id)
		}
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Sync makes every commit so far durable (store.Sync), and remembers
// which outbox rows it covered, so that Send syncs only for rows queued
// since. The inbox loop calls it before it files a batch of mails away.
func (s *Sender) Sync(ctx context.Context) error {
	unlock := s.lock()
	id, err := store.Sync(ctx, s.DB, s.now())
	unlock()
	if err != nil {
		return err
	}
	for {
		old := s.synced.Load()
		if id <= old || s.synced.CompareAndSwap(old, id) {
			return nil
		}
	}
}

// Unrecorded says how many mails were sent whose outcome could not yet
// be written (a full disk): until it is 0 again, Send sends nothing.
func (s *Sender) Unrecorded() int { return len(s.unrecorded) }
