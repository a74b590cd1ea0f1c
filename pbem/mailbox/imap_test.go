package mailbox_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailtest"
)

// server is one IMAP server the tests run the reader against.
type server struct {
	cfg      mailbox.IMAPConfig
	deliver  func(t *testing.T, msg []byte)
	messages func(t *testing.T, folder string) []localmail.Message
	bounce   func(t *testing.T, between func()) // down, between(), up again
}

func testLogger(t *testing.T) *slog.Logger {
	if testing.Verbose() {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// logCounts counts the lines logged by message, for a test that waits
// for one (waitfor.Until); it passes each line on to the handler it
// wraps.
type logCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *logCounts) count(msg string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[msg]
}

type countingHandler struct {
	next slog.Handler
	c    *logCounts
}

func (h countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countingHandler) Handle(ctx context.Context, r slog.Record) error {
	h.c.mu.Lock()
	h.c.n[r.Message]++
	h.c.mu.Unlock()
	if h.next.Enabled(ctx, r.Level) {
		return h.next.Handle(ctx, r)
	}
	return nil
}

func (h countingHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return countingHandler{h.next.WithAttrs(as), h.c}
}

func (h countingHandler) WithGroup(name string) slog.Handler {
	return countingHandler{h.next.WithGroup(name), h.c}
}

// countLogs makes s's IMAP config log through a counter, and returns it:
// a connection dialled after it counts its lines there.
func countLogs(s *server) *logCounts {
	c := &logCounts{n: map[string]int{}}
	s.cfg.Logger = slog.New(countingHandler{s.cfg.Logger.Handler(), c})
	return c
}

func newMem(t *testing.T, minimal bool) *server {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{
		Users:       map[string]string{"games": "pw", "alice": "apw"},
		MinimalIMAP: minimal,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	return &server{
		cfg: mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "pw",
			Logger: testLogger(t), MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond},
		deliver: func(t *testing.T, msg []byte) {
			if err := sys.Append(ctx, "games", "", msg); err != nil {
				t.Fatal(err)
			}
		},
		messages: func(t *testing.T, folder string) []localmail.Message {
			m, err := sys.Messages(ctx, "games", folder)
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
		bounce: func(t *testing.T, between func()) {
			if err := sys.SuspendIMAP(); err != nil {
				t.Fatal(err)
			}
			between()
			if err := sys.ResumeIMAP(); err != nil {
				t.Fatal(err)
			}
		},
	}
}

func newDovecot(t *testing.T, o mailtest.DovecotOptions) *server {
	ctx := context.Background()
	dv := mailtest.StartDovecotWith(t, o)
	return &server{
		cfg: mailbox.IMAPConfig{Addr: dv.Addr, TLS: mailbox.TLSNone, Username: "games", Password: dv.Users["games"],
			Logger: testLogger(t), MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond},
		deliver: func(t *testing.T, msg []byte) {
			if err := dv.Deliver(ctx, "games", msg); err != nil {
				t.Fatal(err)
			}
		},
		messages: func(t *testing.T, folder string) []localmail.Message {
			m, err := dv.Messages(ctx, "games", folder)
			if err != nil {
				t.Fatal(err)
			}
			return m
		},
		bounce: func(t *testing.T, between func()) {
			dv.Stop()
			between()
			dv.Restart()
		},
	}
}

// servers lists the servers every reader test runs against.
var servers = []struct {
	name string
	new  func(t *testing.T) *server
}{
	{"memory", func(t *testing.T) *server { return newMem(t, false) }},
	{"memory-minimal", func(t *testing.T) *server { return newMem(t, true) }},
	{"dovecot", func(t *testing.T) *server { return newDovecot(t, mailtest.DovecotOptions{}) }},
}

func mail(n int) []byte {
	return fmt.Appendf(nil, "From: alice@localhost\r\nTo: games@localhost\r\nSubject: move %d\r\nMessage-ID: <%d@test>\r\n\r\nc3xe5\r\n", n, n)
}

func dial(t *testing.T, s *server) *mailbox.Inbox {
	t.Helper()
	in, err := mailbox.Dial(context.Background(), s.cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close() })
	return in
}

func uids(ms []mailbox.Mail) []uint32 {
	var out []uint32
	for _, m := range ms {
		out = append(out, m.UID)
	}
	return out
}

func TestFetchDoneReject(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			s := srv.new(t)
			ctx := context.Background()
			for i := 1; i <= 3; i++ {
				s.deliver(t, mail(i))
			}
			in := dial(t, s)

			all, uidv, err := in.Fetch(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(all) != 3 || uidv == 0 {
				t.Fatalf("Fetch(0) = %d mails, uidvalidity %d; want 3 and non-zero", len(all), uidv)
			}
			for i, m := range all {
				if !bytes.Equal(m.Raw, mail(i+1)) || m.Truncated {
					t.Errorf("mail %d = %q (truncated %v), want %q", i, m.Raw, m.Truncated, mail(i+1))
				}
			}
			rest, _, err := in.Fetch(ctx, all[0].UID)
			if err != nil {
				t.Fatal(err)
			}
			if got := uids(rest); len(got) != 2 || got[0] != all[1].UID || got[1] != all[2].UID {
				t.Errorf("Fetch(after %d) = %v, want the last two of %v", all[0].UID, got, uids(all))
			}
			// After the highest UID, "UID n:*" still matches the last
			// message; Fetch must not return it.
			none, _, err := in.Fetch(ctx, all[2].UID)
			if err != nil || len(none) != 0 {
				t.Errorf("Fetch(after last) = %v, %v; want nothing", uids(none), err)
			}

			if err := in.Done(ctx, all[0].UID); err != nil {
				t.Fatal(err)
			}
			if err := in.Reject(ctx, all[1].UID); err != nil {
				t.Fatal(err)
			}
			// Filing a UID that is gone is harmless (a retry after a
			// reconnection does it).
			if err := in.Done(ctx, all[0].UID); err != nil {
				t.Errorf("Done twice: %v", err)
			}
			left, _, err := in.Fetch(ctx, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := uids(left); len(got) != 1 || got[0] != all[2].UID {
				t.Errorf("after Done and Reject, Fetch(0) = %v, want [%d]", got, all[2].UID)
			}
			for folder, want := range map[string][]byte{"icepost/done": mail(1), "icepost/rejected": mail(2)} {
				ms := s.messages(t, folder)
				if len(ms) != 1 || !bytes.Equal(ms[0].Raw, want) {
					t.Errorf("%s holds %d messages, want 1: %q", folder, len(ms), want)
				}
			}
			if ms := s.messages(t, "INBOX"); len(ms) != 1 {
				t.Errorf("INBOX holds %d messages, want 1", len(ms))
			}

			// Several at once, one of them gone already.
			for i := 4; i <= 6; i++ {
				s.deliver(t, mail(i))
			}
			more, _, err := in.Fetch(ctx, 0)
			if err != nil || len(more) != 4 {
				t.Fatalf("Fetch(0) = %v, %v; want 4 mails", uids(more), err)
			}
			if err := in.Done(ctx, append(uids(more), all[0].UID)...); err != nil {
				t.Fatal(err)
			}
			if ms := s.messages(t, "INBOX"); len(ms) != 0 {
				t.Errorf("after Done of all, INBOX holds %d messages", len(ms))
			}
			if ms := s.messages(t, "icepost/done"); len(ms) != 5 {
				t.Errorf("icepost/done holds %d messages, want 5", len(ms))
			}
		})
	}
}

func TestFetchBounds(t *testing.T) {
	s := newMem(t, false)
	s.cfg.MaxBatch = 2
	s.cfg.MaxMessageSize = 40
	for i := 1; i <= 3; i++ {
		s.deliver(t, mail(i))
	}
	in := dial(t, s)
	ms, _, err := in.Fetch(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 {
		t.Fatalf("Fetch returned %d mails, want MaxBatch = 2", len(ms))
	}
	if !ms[0].Truncated || len(ms[0].Raw) != 40 || !bytes.HasPrefix(mail(1), ms[0].Raw) {
		t.Errorf("mail = %q truncated %v; want the first 40 bytes, truncated", ms[0].Raw, ms[0].Truncated)
	}
}

// TestFlagWhenCannotMove: a done folder that cannot be created (its parent
// is INBOX's child on a server that refuses) falls back to flags.
func TestFlagWhenCannotMove(t *testing.T) {
	s := newDovecot(t, mailtest.DovecotOptions{})
	s.cfg.DoneFolder = "bad\x01name" // Dovecot refuses control characters
	s.deliver(t, mail(1))
	in := dial(t, s)
	ctx := context.Background()
	ms, _, err := in.Fetch(ctx, 0)
	if err != nil || len(ms) != 1 {
		t.Fatalf("Fetch = %d, %v", len(ms), err)
	}
	if err := in.Done(ctx, ms[0].UID); err != nil {
		t.Fatal(err)
	}
	left, _, err := in.Fetch(ctx, 0)
	if err != nil || len(left) != 0 {
		t.Errorf("after flagging, Fetch(0) = %v, %v; want nothing", uids(left), err)
	}
	inbox := s.messages(t, "INBOX")
	if len(inbox) != 1 {
		t.Fatalf("INBOX holds %d, want the flagged message", len(inbox))
	}
	flags := fmt.Sprint(inbox[0].Flags)
	if !bytes.Contains([]byte(flags), []byte(mailbox.KeywordDone)) || !bytes.Contains([]byte(flags), []byte(`\Seen`)) {
		t.Errorf("flags = %s, want \\Seen and %s", flags, mailbox.KeywordDone)
	}
}

func TestIdleWakeup(t *testing.T) {
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			s := srv.new(t)
			s.cfg.PollInterval = time.Hour // a poll would fail the test
			logs := countLogs(s)
			in := dial(t, s)
			ctx := context.Background()
			if _, _, err := in.Fetch(ctx, 0); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- in.Wait(ctx, 20*time.Second) }()
			// The mail arrives during the IDLE, not before it.
			waitfor.Until(t, "Wait to enter IDLE", 10*time.Second, func() bool { return logs.count(mailbox.LogIdling) > 0 })
			s.deliver(t, mail(1))
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Wait did not return after a message arrived")
			}
			t.Logf("woke after %v", time.Since(start))
			ms, _, err := in.Fetch(ctx, 0)
			if err != nil || len(ms) != 1 {
				t.Fatalf("Fetch after wake-up = %d, %v; want 1", len(ms), err)
			}
		})
	}
}

func TestWaitTimeoutAndCancel(t *testing.T) {
	s := newMem(t, false)
	s.cfg.IdleRefresh = 100 * time.Millisecond // the watchdog runs a few times
	in := dial(t, s)
	start := time.Now()
	if err := in.Wait(context.Background(), 450*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 400*time.Millisecond || d > 3*time.Second {
		t.Errorf("Wait(450ms) took %v", d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := in.Wait(ctx, time.Minute); err != context.DeadlineExceeded {
		t.Errorf("Wait with an expiring ctx = %v, want DeadlineExceeded", err)
	}
}

func TestPollingFallback(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func(t *testing.T) *server
	}{
		{"memory-idle-disabled", func(t *testing.T) *server {
			s := newMem(t, false)
			s.cfg.DisableIdle = true
			return s
		}},
		{"dovecot-without-idle", func(t *testing.T) *server {
			return newDovecot(t, mailtest.DovecotOptions{Capabilities: "IMAP4rev1 LITERAL+ UIDPLUS MOVE"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.new(t)
			s.cfg.PollInterval = 500 * time.Millisecond
			in := dial(t, s)
			ctx := context.Background()
			s.deliver(t, mail(1))
			start := time.Now()
			if err := in.Wait(ctx, 10*time.Second); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d < 450*time.Millisecond || d > 5*time.Second {
				t.Errorf("Wait slept %v, want the poll interval", d)
			}
			ms, _, err := in.Fetch(ctx, 0)
			if err != nil || len(ms) != 1 {
				t.Fatalf("Fetch after poll = %d, %v", len(ms), err)
			}
		})
	}
}
