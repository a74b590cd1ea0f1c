package mailtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/mailtest"
)

func send(t *testing.T, addr, from string, to []string, msg string) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.SendMail(from, to, strings.NewReader(msg))
}

func TestEmbeddedDelivers(t *testing.T) {
	ctx := context.Background()
	sys, err := mailtest.Start(ctx, mailtest.Config{
		Domain: "icepost.test",
		Users:  map[string]string{"games": "g", "alice": "a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()

	if err := send(t, sys.SMTPAddr, "alice@icepost.test", []string{"games+tok123@icepost.test", "GAMES@ICEPOST.TEST"},
		"Subject: c3xe5\r\n\r\nc3xe5\r\n"); err != nil {
		t.Fatal(err)
	}
	ms, err := sys.Messages(ctx, "games", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 { // two addresses of one user: one copy
		t.Fatalf("games has %d messages, want 1", len(ms))
	}
	if raw := string(ms[0].Raw); !strings.HasPrefix(raw, "Return-Path: <alice@icepost.test>\r\n") || !strings.Contains(raw, "Subject: c3xe5") {
		t.Errorf("delivered %q", raw)
	}
	if err := sys.Append(ctx, "alice", "", []byte("Subject: direct\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	if ms, _ := sys.Messages(ctx, "alice", ""); len(ms) != 1 || ms[0].UID != 1 {
		t.Errorf("alice's INBOX = %+v", ms)
	}

	err = send(t, sys.SMTPAddr, "alice@icepost.test", []string{"carol@icepost.test"}, "\r\nx\r\n")
	if serr, ok := err.(*smtp.SMTPError); !ok || serr.Code != 550 {
		t.Errorf("mail to an unknown user: %v, want 550", err)
	}

	c, err := smtp.Dial(sys.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "alice@icepost.test", "a")); err != nil {
		t.Errorf("AUTH PLAIN with the right password: %v", err)
	}
}

func TestLocalUser(t *testing.T) {
	for _, tc := range []struct {
		addr, user string
		ok         bool
	}{
		{"games@h.test", "games", true},
		{"games+abc+def@H.TEST", "games", true},
		{"games@other.test", "", false},
		{"+x@h.test", "", false},
		{"nodomain", "", false},
	} {
		user, ok := mailtest.LocalUser(tc.addr, "h.test")
		if user != tc.user || ok != tc.ok {
			t.Errorf("LocalUser(%q) = %q, %v; want %q, %v", tc.addr, user, ok, tc.user, tc.ok)
		}
	}
}

// TestDovecotWithEmbeddedSMTP pairs Dovecot with the embedded SMTP server,
// as the integration tests do, and restarts Dovecot with the mail kept.
func TestDovecotWithEmbeddedSMTP(t *testing.T) {
	ctx := context.Background()
	dv := mailtest.StartDovecot(t)
	sys, err := mailtest.Start(ctx, mailtest.Config{Users: dv.Users, Deliver: dv.Deliver})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	if sys.IMAPAddr != "" {
		t.Errorf("IMAPAddr = %q with Deliver set, want none", sys.IMAPAddr)
	}
	if err := send(t, sys.SMTPAddr, "bob@localhost", []string{"games+t1@localhost"}, "Subject: hello\r\n\r\nhi\r\n"); err != nil {
		t.Fatal(err)
	}
	dv.Restart()
	ms, err := dv.Messages(ctx, "games", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || !strings.Contains(string(ms[0].Raw), "Subject: hello") {
		t.Errorf("games's INBOX in Dovecot = %+v", ms)
	}
}

// Mail clients log in with the full address by default: the embedded
// IMAP and SMTP servers take "ada" and "ada@domain" alike, and no other
// domain.
func TestLoginWithFullAddress(t *testing.T) {
	ctx := context.Background()
	sys, err := mailtest.Start(ctx, mailtest.Config{Domain: "icepost.localhost", Users: map[string]string{"ada": "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	for _, c := range []struct {
		user string
		ok   bool
	}{{"ada", true}, {"ada@icepost.localhost", true}, {"Ada@ICEPOST.localhost", true}, {"ada@elsewhere.test", false}, {"bob@icepost.localhost", false}} {
		ic, err := imapclient.DialInsecure(sys.IMAPAddr, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = ic.Login(c.user, "ada").Wait()
		if (err == nil) != c.ok {
			t.Errorf("IMAP login as %s: %v, want ok %v", c.user, err, c.ok)
		}
		if err == nil {
			if _, err := ic.Select("INBOX", nil).Wait(); err != nil {
				t.Errorf("IMAP as %s: SELECT INBOX: %v", c.user, err)
			}
		}
		ic.Close()

		sc, err := smtp.Dial(sys.SMTPAddr)
		if err != nil {
			t.Fatal(err)
		}
		err = sc.Auth(sasl.NewPlainClient("", c.user, "ada"))
		if (err == nil) != c.ok {
			t.Errorf("SMTP AUTH as %s: %v, want ok %v", c.user, err, c.ok)
		}
		sc.Close()
	}
}
