package mailbox

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
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
			r.cfg.Logger.Warn("IMAP connect failed", "addr", r.cfg.Addr, "attempt", r.failures, "err", err)
			continue
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
