package mailbox_test

import (
	"context"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"icepost/internal/waitfor"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailtest"
)

// TestReaderReconnect stops the server under a Reader, delivers while it is
// down (where the server allows), brings it back, and expects the Reader to
// carry on by itself.
func TestReaderReconnect(t *testing.T) {
	for _, srv := range []struct {
		name string
		new  func(t *testing.T) *server
	}{
		{"memory", func(t *testing.T) *server { return newMem(t, false) }},
		{"dovecot", func(t *testing.T) *server { return newDovecot(t, mailtest.DovecotOptions{}) }},
	} {
		t.Run(srv.name, func(t *testing.T) {
			s := srv.new(t)
			logs := countLogs(s)
			r, err := mailbox.NewReader(s.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ctx := context.Background()
			s.deliver(t, mail(1))
			ms, uidv, err := r.Fetch(ctx, 0)
			if err != nil || len(ms) != 1 {
				t.Fatalf("Fetch = %d, %v", len(ms), err)
			}
			last := ms[0].UID

			// A Wait running when the server goes away returns early.
			waited := make(chan error, 1)
			go func() { waited <- r.Wait(ctx, 30*time.Second) }()
			waitfor.Until(t, "Wait to enter IDLE", 10*time.Second, func() bool { return logs.count(mailbox.LogIdling) > 0 })
			s.bounce(t, func() {
				select {
				case err := <-waited:
					if err != nil {
						t.Errorf("Wait when the server went down = %v, want nil", err)
					}
				case <-time.After(10 * time.Second):
					t.Fatal("Wait did not return when the server went down")
				}
				// While the server is down, Fetch keeps trying until
				// its ctx ends.
				short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
				defer cancel()
				if _, _, err := r.Fetch(short, last); err != context.DeadlineExceeded {
					t.Errorf("Fetch with the server down = %v, want DeadlineExceeded", err)
				}
			})
			s.deliver(t, mail(2))

			ctx10, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			ms, uidv2, err := r.Fetch(ctx10, last)
			if err != nil {
				t.Fatalf("Fetch after restart: %v", err)
			}
			if len(ms) != 1 || string(ms[0].Raw) != string(mail(2)) {
				t.Errorf("Fetch after restart = %v, want the second mail", uids(ms))
			}
			if uidv2 != uidv {
				t.Errorf("UIDVALIDITY changed across a restart: %d -> %d", uidv, uidv2)
			}
			if err := r.Done(ctx10, ms[0].UID); err != nil {
				t.Errorf("Done after restart: %v", err)
			}
		})
	}
}

// TestUIDValidityChange rebuilds the mailbox a Reader reads, then bounces
// the server: Fetch reports the new UIDVALIDITY, and the caller reads again
// from 0.
func TestUIDValidityChange(t *testing.T) {
	for _, srv := range servers {
		if srv.name == "memory-minimal" {
			continue
		}
		t.Run(srv.name, func(t *testing.T) {
			s := srv.new(t)
			s.cfg.Mailbox = "games"
			ctx := context.Background()
			admin := func(f func(c *imapclient.Client) error) {
				t.Helper()
				c, err := imapclient.DialInsecure(s.cfg.Addr, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				if err := c.Login(s.cfg.Username, s.cfg.Password).Wait(); err != nil {
					t.Fatal(err)
				}
				if err := f(c); err != nil {
					t.Fatal(err)
				}
				c.Logout().Wait()
			}
			appendTo := func(c *imapclient.Client, msg []byte) error {
				cmd := c.Append("games", int64(len(msg)), nil)
				cmd.Write(msg)
				cmd.Close()
				_, err := cmd.Wait()
				return err
			}
			admin(func(c *imapclient.Client) error {
				if err := c.Create("games", nil).Wait(); err != nil {
					return err
				}
				return appendTo(c, mail(1))
			})
			r, err := mailbox.NewReader(s.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			ms, uidv, err := r.Fetch(ctx, 0)
			if err != nil || len(ms) != 1 {
				t.Fatalf("Fetch = %d, %v", len(ms), err)
			}
			admin(func(c *imapclient.Client) error {
				if err := c.Delete("games").Wait(); err != nil {
					return err
				}
				if err := c.Create("games", nil).Wait(); err != nil {
					return err
				}
				return appendTo(c, mail(2))
			})
			s.bounce(t, func() {})
			ctx10, cancel := context.WithTimeout(ctx, 10*time.Second)
			defer cancel()
			_, uidv2, err := r.Fetch(ctx10, ms[0].UID)
			if err != nil {
				t.Fatal(err)
			}
			if uidv2 == uidv {
				t.Fatalf("UIDVALIDITY still %d after the mailbox was rebuilt", uidv)
			}
			again, _, err := r.Fetch(ctx10, 0)
			if err != nil || len(again) != 1 || string(again[0].Raw) != string(mail(2)) {
				t.Errorf("Fetch(0) under the new UIDVALIDITY = %d mails, %v", len(again), err)
			}
		})
	}
}
