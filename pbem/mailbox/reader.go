package mailbox

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"

	"icepost/pbem/mailerr"
)

// Reader is an inbox that survives dropped connections: it dials on first
// use, and when a command fails because the connection is gone it closes
// it and dials again, waiting between attempts with capped exponential
// backoff and jitter. Its methods are those of Inbox and block until they
// succeed, the server answers with an IMAP error, or ctx is done. A Reader
// is safe for use by several goroutines; they take turns.
type Reader struct {
	cfg IMAPConfig

	mu       sync.Mutex
	in       *Inbox // nil while disconnected
	failures int    // consecutive failed dials or dropped connections
	lastUIDV uint32 // UIDVALIDITY seen on the previous connection
	closed   bool
	remind   mailerr.Reminder // an operator fault met in connecting
}

// NewReader checks cfg and returns a Reader; it does not connect yet.
func NewReader(cfg IMAPConfig) (*Reader, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Reader{cfg: cfg}, nil
}

var errReaderClosed = errors.New("mailbox: reader closed")

// do runs f on a live connection, reconnecting as needed. The caller holds
// r.mu.
func (r *Reader) do(ctx context.Context, f func(in *Inbox) error) error {
	for {
		if r.closed {
			return errReaderClosed
		}
		if err := r.connect(ctx); err != nil {
			return err
		}
		err := f(r.in)
		if err == nil {
			r.failures = 0
			return nil
		}
		if ctx.Err() != nil {
			r.drop()
			return ctx.Err()
		}
		var ierr *imap.Error
		if errors.As(err, &ierr) {
			return err // the server answered: not a connection problem
		}
		r.cfg.Logger.Warn("IMAP connection lost", "addr", r.cfg.Addr, "err", err)
		r.drop()
	}
}

// connect dials when disconnected, retrying with backoff until it succeeds
// or ctx is done.
func (r *Reader) connect(ctx context.Context) error {
	for r.in == nil {
		if r.failures > 0 {
			t := time.NewTimer(r.backoff())
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			}
		}
		in, err := Dial(ctx, r.cfg)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			r.failures++
			r.logConnectFailed(err)
			continue
		}
		if since := r.remind.Clear(); !since.IsZero() {
			r.cfg.Logger.Warn("IMAP works again: the operator fault is over", "addr", r.cfg.Addr, "since", since.Format(time.RFC3339))
		}
		r.in = in
		if r.lastUIDV != 0 && in.uidValidity != r.lastUIDV {
			r.cfg.Logger.Warn("IMAP UIDVALIDITY changed: UIDs must be read again from 0",
				"mailbox", r.cfg.Mailbox, "old", r.lastUIDV, "new", in.uidValidity)
		}
		r.lastUIDV = in.uidValidity
		r.cfg.Logger.Info("IMAP connected", "addr", r.cfg.Addr, "mailbox", r.cfg.Mailbox, "uidvalidity", in.uidValidity)
	}
	return nil
}

// logConnectFailed logs a failed connection: a temporary failure at Warn
// level; an operator fault (a login refused, a certificate not trusted)
// at Error level with what to fix, the first time and hourly while it
// lasts, and at Debug level in between.
func (r *Reader) logConnectFailed(err error) {
	advice := mailerr.Advice(err)
	switch {
	case advice == "":
		r.cfg.Logger.Warn("IMAP connect failed", "addr", r.cfg.Addr, "attempt", r.failures, "err", err)
	case r.remind.Due(time.Now(), advice):
		r.cfg.Logger.Error(advice, "addr", r.cfg.Addr, "attempt", r.failures, "err", err, "retry_in", "up to "+r.cfg.MaxBackoff.String())
	default:
		r.cfg.Logger.Debug(advice, "addr", r.cfg.Addr, "attempt", r.failures, "err", err)
	}
}

// Check connects, logs in and selects the mailbox as a Reader would, once,
// and logs out: it reads and changes nothing. It returns nil when all of
// that works, or the error met (mailerr.Advice says what to fix).
func Check(ctx context.Context, cfg IMAPConfig) error {
	in, err := Dial(ctx, cfg)
	if err != nil {
		return err
	}
	in.Close()
	return nil
}

// Check is Check with the Reader's settings, on a connection of its own.
func (r *Reader) Check(ctx context.Context) error { return Check(ctx, r.cfg) }

// backoff returns the wait before the next dial: MinBackoff doubled per
// consecutive failure, capped at MaxBackoff, with the upper half jittered.
func (r *Reader) backoff() time.Duration {
	d := r.cfg.MinBackoff
	for i := 1; i < r.failures && d < r.cfg.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, r.cfg.MaxBackoff)
	half := d / 2
	return half + rand.N(half+1)
}

func (r *Reader) drop() {
	if r.in != nil {
		r.in.c.Close()
		r.in = nil
	}
	r.failures++
}

// Fetch is Inbox.Fetch on a live connection. Compare the UIDVALIDITY it
// returns with the one afterUID was read under: when they differ, the
// mailbox was rebuilt and the caller must Fetch again from 0.
func (r *Reader) Fetch(ctx context.Context, afterUID uint32) ([]Mail, uint32, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var (
		mails []Mail
		uidv  uint32
	)
	err := r.do(ctx, func(in *Inbox) error {
		var err error
		mails, uidv, err = in.Fetch(ctx, afterUID)
		return err
	})
	return mails, uidv, err
}

// Done is Inbox.Done on a live connection. Retried after a reconnection,
// it is harmless: a UID that is gone is no longer there to move.
func (r *Reader) Done(ctx context.Context, uids ...uint32) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.do(ctx, func(in *Inbox) error { return in.Done(ctx, uids...) })
}

// Reject is Inbox.Reject on a live connection.
func (r *Reader) Reject(ctx context.Context, uids ...uint32) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.do(ctx, func(in *Inbox) error { return in.Reject(ctx, uids...) })
}

// Wait is Inbox.Wait. When the connection is down or drops, Wait returns
// nil early so that the caller's next Fetch reconnects (and re-scans).
// Other calls on the Reader wait until Wait returns: the connection is in
// IDLE meanwhile.
func (r *Reader) Wait(ctx context.Context, timeout time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errReaderClosed
	}
	if r.in == nil {
		return nil
	}
	err := r.in.Wait(ctx, timeout)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.cfg.Logger.Warn("IMAP connection lost while waiting", "addr", r.cfg.Addr, "err", err)
		r.drop()
	}
	return nil
}

// Close logs out and makes every later call fail.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if r.in == nil {
		return nil
	}
	err := r.in.Close()
	r.in = nil
	return err
}
