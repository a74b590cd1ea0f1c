package localmail_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/localmail"
)

// send submits msg over SMTP, logged in as login (no AUTH when login is
// empty), as a mail client would.
func send(t *testing.T, addr, login, password, from string, to []string, msg string) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if login != "" {
		if err := c.Auth(sasl.NewPlainClient("", login, password)); err != nil {
			t.Fatalf("AUTH as %s: %v", login, err)
		}
	}
	return c.SendMail(from, to, strings.NewReader(msg))
}

func TestEmbeddedDelivers(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{
		Domain: "icepost.test",
		Users:  map[string]string{"games": "g", "alice": "a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()

	if err := send(t, sys.SMTPAddr, "alice", "a", "alice@icepost.test", []string{"games+tok123@icepost.test", "GAMES@ICEPOST.TEST"},
		"From: alice@icepost.test\r\nSubject: c3xe5\r\n\r\nc3xe5\r\n"); err != nil {
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

	err = send(t, sys.SMTPAddr, "alice", "a", "alice@icepost.test", []string{"carol@icepost.test"}, "From: alice@icepost.test\r\n\r\nx\r\n")
	if serr, ok := err.(*smtp.SMTPError); !ok || serr.Code != 550 {
		t.Errorf("mail to an unknown user: %v, want 550", err)
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
		user, ok := localmail.LocalUser(tc.addr, "h.test")
		if user != tc.user || ok != tc.ok {
			t.Errorf("LocalUser(%q) = %q, %v; want %q, %v", tc.addr, user, ok, tc.user, tc.ok)
		}
	}
}

// The SMTP server takes a mail only from a logged-in account, and only
// with that account's own address as From: on a shared machine, anyone
// who can reach the port could otherwise write to the daemon as any
// player.
func TestSubmissionNeedsOwnFrom(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "icepost.localhost",
		Users: map[string]string{"games": "games", "ada": "ada", "bob": "bob", "cy": "cy"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	delivered := 0
	for _, tc := range []struct {
		name, login, from string
		code              int // 0: accepted
	}{
		{"not logged in", "", "From: ada@icepost.localhost", 530},
		{"logged in as ada", "ada", "From: ada@icepost.localhost", 0},
		{"logged in with ada's address", "ada@icepost.localhost", "From: Ada Lovelace <ADA@icepost.LOCALHOST>", 0},
		{"the daemon's From", "games", "From: icepost <games@icepost.localhost>", 0},
		{"a name that is the address itself", "bob", `From: "bob@icepost.localhost" <bob@icepost.localhost>`, 0},
		{"another account's address", "bob", "From: ada@icepost.localhost", 550},
		{"a display name that is another address", "bob", `From: "ada@icepost.localhost" <bob@icepost.localhost>`, 550},
		{"an encoded display name that is another address", "bob", "From: =?utf-8?q?ada=40icepost.localhost?= <bob@icepost.localhost>", 550},
		{"a comment that is another address", "bob", "From: bob@icepost.localhost (ada@icepost.localhost)", 550},
		{"a full-width at sign in the name", "bob", "From: \"ada\uff20icepost.localhost\" <bob@icepost.localhost>", 550},
		{"two addresses", "bob", "From: bob@icepost.localhost, ada@icepost.localhost", 550},
		{"two From fields", "bob", "From: bob@icepost.localhost\r\nFrom: ada@icepost.localhost", 550},
		{"no From", "bob", "Sender: bob@icepost.localhost", 550},
		{"a plus detail", "bob", "From: bob+x@icepost.localhost", 550},
		{"another domain", "bob", "From: bob@elsewhere.test", 550},
		{"not an address", "bob", "From: bob", 550},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := tc.from + "\r\nTo: cy@icepost.localhost\r\nSubject: " + tc.name + "\r\n\r\nhello\r\n"
			account := strings.TrimSuffix(tc.login, "@icepost.localhost") // password = name
			// The envelope is the login's own: the From is what is tested.
			envelope := "ada@icepost.localhost"
			if account != "" {
				envelope = sys.Address(account)
			}
			err := send(t, sys.SMTPAddr, tc.login, account, envelope, []string{"cy@icepost.localhost"}, msg)
			if tc.code == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				delivered++
			} else {
				var serr *smtp.SMTPError
				if !errors.As(err, &serr) || serr.Code != tc.code {
					t.Fatalf("got %v, want %d", err, tc.code)
				}
				switch tc.code {
				case 530:
					if serr.EnhancedCode != (smtp.EnhancedCode{5, 7, 0}) || !strings.Contains(serr.Message, "name and password") {
						t.Errorf("refusal %v does not say to log in", err)
					}
				case 550:
					own := sys.Address(account)
					if serr.EnhancedCode != (smtp.EnhancedCode{5, 7, 1}) || !strings.Contains(serr.Message, own) {
						t.Errorf("refusal %v does not name %s", err, own)
					}
				}
			}
			ms, err := sys.Messages(ctx, "cy", "")
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != delivered {
				t.Errorf("cy has %d mails, want %d", len(ms), delivered)
			}
		})
	}
}

// A refused mail ends its transaction, not the login: the next mail on the
// connection, with the right From, goes through.
func TestRefusedMailKeepsTheLogin(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Users: map[string]string{"ada": "pa", "bob": "pb"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	c, err := smtp.Dial(sys.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "ada", "pa")); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("ada@localhost", []string{"bob@localhost"}, strings.NewReader("From: bob@localhost\r\n\r\nforged\r\n")); err == nil {
		t.Fatal("a From of bob's was taken from ada")
	}
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("ada@localhost", []string{"bob@localhost"}, strings.NewReader("From: ada@localhost\r\n\r\nmine\r\n")); err != nil {
		t.Fatalf("ada's own mail after a refused one: %v", err)
	}
	if ms, _ := sys.Messages(ctx, "bob", ""); len(ms) != 1 || !strings.Contains(string(ms[0].Raw), "mine") {
		t.Errorf("bob's INBOX = %+v", ms)
	}
}

// Mail clients log in with the full address by default: the embedded
// IMAP and SMTP servers take "ada" and "ada@domain" alike, and no other
// domain.
func TestLoginWithFullAddress(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "icepost.localhost", Users: map[string]string{"ada": "ada"}})
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

// The system vouches for the senders it checked, in one
// Authentication-Results header of its own on top, and drops any such
// header the sender wrote, folded or not, so that a forged pass never
// reaches the daemon.
func TestVouchesForItsSenders(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "club.test", Users: map[string]string{"ada": "pa", "bob": "pb"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	msg := "Authentication-Results: club.test; dmarc=pass\r\n header.from=evil.example\r\n" +
		"From: ada@club.test\r\nauthentication-results: mx.evil.example; dkim=pass\r\nSubject: hi\r\n\r\n" +
		"Authentication-Results: in the body stays\r\n"
	if err := send(t, sys.SMTPAddr, "ada", "pa", "ada@club.test", []string{"bob@club.test"}, msg); err != nil {
		t.Fatal(err)
	}
	ms, err := sys.Messages(ctx, "bob", "")
	if err != nil || len(ms) != 1 {
		t.Fatalf("bob's INBOX: %d mails, %v", len(ms), err)
	}
	raw := string(ms[0].Raw)
	head, body, _ := strings.Cut(raw, "\r\n\r\n")
	want := "Authentication-Results: " + sys.AuthServID() + "; dmarc=pass header.from=club.test"
	if n := strings.Count(strings.ToLower(head), "authentication-results:"); n != 1 || !strings.Contains(head, want) {
		t.Errorf("header has %d Authentication-Results, want only %q:\n%s", n, want, head)
	}
	if strings.Contains(head, "evil") || !strings.Contains(head, "Subject: hi") {
		t.Errorf("the sender's own fields:\n%s", head)
	}
	if !strings.Contains(body, "Authentication-Results: in the body stays") {
		t.Errorf("body changed:\n%s", body)
	}
}
