package mailbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailtest"
)

const oauthUser = "games@example.org"

// tokenSources are the two ways to the token: a file the operator's
// refresher rewrites, and a command that prints it. Each returns the
// settings and a function that makes the source give another token (the
// refresher at work).
var tokenSources = []struct {
	name string
	make func(t *testing.T, token string) (mailbox.OAuth2, func(token string))
}{
	{"file", func(t *testing.T, token string) (mailbox.OAuth2, func(string)) {
		file := filepath.Join(t.TempDir(), "token")
		write := func(token string) {
			if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write(token)
		return mailbox.OAuth2{TokenFile: file}, write
	}},
	{"command", func(t *testing.T, token string) (mailbox.OAuth2, func(string)) {
		file := filepath.Join(t.TempDir(), "cache")
		write := func(token string) {
			if err := os.WriteFile(file, []byte("  "+token+"\n\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		write(token)
		return mailbox.OAuth2{TokenCommand: "cat '" + file + "'"}, write
	}},
}

// OAuth2 logins to an SMTP server that requires AUTH over STARTTLS and
// takes only XOAUTH2 and OAUTHBEARER: the token is read at each login, so
// a refreshed one is used at the next; a refused one is an operator fault
// that names the token's setting.
func TestOAuth2SMTP(t *testing.T) {
	ctx := context.Background()
	ca := mailtest.NewCA(t)
	for _, auth := range []mailbox.Auth{mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer} {
		for _, src := range tokenSources {
			t.Run(string(auth)+"/"+src.name, func(t *testing.T) {
				srv := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: ca.Issue(t, "127.0.0.1"),
					Mechanisms: []string{"XOAUTH2", "OAUTHBEARER"}, Tokens: map[string]string{oauthUser: "tok-1"}})
				o, refresh := src.make(t, "tok-1")
				s := newSender(t, mailbox.SMTPConfig{Addr: srv.Addr, TLS: mailbox.TLSStartTLS, CAFile: ca.File,
					Username: oauthUser, Auth: auth, OAuth2: o, KeepIdle: -1})
				defer s.Close()
				send := func(subject string) error {
					return s.Send(ctx, oauthUser, []string{"ada@example.org"}, []byte("Subject: "+subject+"\r\n\r\nx\r\n"))
				}
				if err := send("first"); err != nil {
					t.Fatalf("Send = %v", err)
				}
				if err := s.Check(ctx, oauthUser); err != nil {
					t.Fatalf("Check = %v", err)
				}

				// The provider takes a new token only; the refresher has
				// not run yet.
				srv.SetToken(oauthUser, "tok-2")
				err := send("stale")
				if mailerr.Classify(err) != mailerr.Operator || !mailerr.IsTemporary(err) {
					t.Fatalf("Send with a stale token = %v (%v), want an operator fault", err, mailerr.Classify(err))
				}
				want := "SMTP login: the OAuth2 token was refused: check that [smtp] " + map[string]string{
					"file": "oauth2_token_file is refreshed", "command": "oauth2_token_command prints a fresh token"}[src.name]
				if advice := mailerr.Advice(err); !strings.Contains(advice, want) {
					t.Errorf("Advice = %q, want %q", advice, want)
				}
				if !strings.Contains(err.Error(), "535") {
					t.Errorf("the error does not say the server's answer: %v", err)
				}

				refresh("tok-2")
				if err := send("refreshed"); err != nil {
					t.Fatalf("Send after the refresh = %v", err)
				}
				if n := len(srv.Deliveries()); n != 2 {
					t.Errorf("the server took %d mails, want 2", n)
				}
			})
		}
	}
}

// What goes wrong before the server sees a token: the command fails (its
// error output is in the error), the file is empty or missing, the
// server does not offer the mechanism. Each is an operator fault that
// says what to fix, and the server sees no login.
func TestOAuth2SMTPFaults(t *testing.T) {
	ctx := context.Background()
	ca := mailtest.NewCA(t)
	cert := ca.Issue(t, "127.0.0.1")
	srv := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert,
		Mechanisms: []string{"XOAUTH2"}, Tokens: map[string]string{oauthUser: "tok"}})
	empty := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		auth   mailbox.Auth
		o      mailbox.OAuth2
		advice string
		inErr  string
	}{
		{"command-fails", mailbox.AuthXOAuth2, mailbox.OAuth2{TokenCommand: "echo 'invalid_grant: token revoked' >&2; exit 3"},
			"SMTP login: [smtp] oauth2_token_command failed", "invalid_grant: token revoked"},
		{"command-prints-nothing", mailbox.AuthXOAuth2, mailbox.OAuth2{TokenCommand: "true"},
			"SMTP login: [smtp] oauth2_token_command failed", "printed no token"},
		{"file-empty", mailbox.AuthXOAuth2, mailbox.OAuth2{TokenFile: empty},
			"SMTP login: the OAuth2 token cannot be read: check [smtp] oauth2_token_file", "is empty"},
		{"file-missing", mailbox.AuthXOAuth2, mailbox.OAuth2{TokenFile: empty + ".missing"},
			"SMTP login: the OAuth2 token cannot be read: check [smtp] oauth2_token_file", "no such file"},
		{"mechanism-not-offered", mailbox.AuthOAuthBearer, mailbox.OAuth2{TokenCommand: "echo tok"},
			"SMTP server at " + srv.Addr + " offers no AUTH OAUTHBEARER: set [smtp] auth to a mechanism it offers (XOAUTH2)", "offers no AUTH OAUTHBEARER"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSender(t, mailbox.SMTPConfig{Addr: srv.Addr, TLS: mailbox.TLSStartTLS, CAFile: ca.File,
				Username: oauthUser, Auth: tc.auth, OAuth2: tc.o})
			defer s.Close()
			err := s.Send(ctx, oauthUser, []string{"ada@example.org"}, []byte("Subject: x\r\n\r\nx\r\n"))
			if mailerr.Classify(err) != mailerr.Operator {
				t.Fatalf("Send = %v (%v), want an operator fault", err, mailerr.Classify(err))
			}
			if advice := mailerr.Advice(err); !strings.Contains(advice, tc.advice) {
				t.Errorf("Advice = %q, want %q", advice, tc.advice)
			}
			if !strings.Contains(err.Error(), tc.inErr) {
				t.Errorf("Send = %v, want it to say %q", err, tc.inErr)
			}
		})
	}
	if n := srv.FailedLogins(); n != 0 || len(srv.Deliveries()) != 0 {
		t.Errorf("the server refused %d logins and took %d mails, want none", n, len(srv.Deliveries()))
	}
}

// OAuth2 logins to an IMAP server (the embedded one, with a token check
// as a provider has): both mechanisms, both sources, a refreshed token
// picked up at the next login, a stale one an operator fault.
func TestOAuth2IMAP(t *testing.T) {
	ctx := context.Background()
	var good atomic.Value // the token the provider takes now
	good.Store("tok-1")
	sys, err := localmail.Start(ctx, localmail.Config{
		Domain:     "example.org",
		Users:      map[string]string{"games": "pw"},
		CheckToken: func(user, token string) bool { return user == oauthUser && token == good.Load() },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	for _, auth := range []mailbox.Auth{mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer} {
		for _, src := range tokenSources {
			t.Run(string(auth)+"/"+src.name, func(t *testing.T) {
				good.Store("tok-1")
				o, refresh := src.make(t, "tok-1")
				cfg := mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: oauthUser, Auth: auth, OAuth2: o}
				if err := mailbox.Check(ctx, cfg); err != nil {
					t.Fatalf("Check = %v", err)
				}
				good.Store("tok-2")
				err := mailbox.Check(ctx, cfg)
				if mailerr.Classify(err) != mailerr.Operator {
					t.Fatalf("Check with a stale token = %v (%v), want an operator fault", err, mailerr.Classify(err))
				}
				want := "IMAP login: the OAuth2 token was refused: check that [imap] " + map[string]string{
					"file": "oauth2_token_file is refreshed", "command": "oauth2_token_command prints a fresh token"}[src.name]
				if advice := mailerr.Advice(err); !strings.Contains(advice, want) {
					t.Errorf("Advice = %q, want %q", advice, want)
				}
				refresh("tok-2")
				if err := mailbox.Check(ctx, cfg); err != nil {
					t.Fatalf("Check after the refresh = %v", err)
				}
			})
		}
	}
	// A server that offers only PLAIN.
	plain, err := localmail.Start(ctx, localmail.Config{Users: map[string]string{"games": "pw"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { plain.Stop() })
	err = mailbox.Check(ctx, mailbox.IMAPConfig{Addr: plain.IMAPAddr, TLS: mailbox.TLSNone, Username: oauthUser,
		Auth: mailbox.AuthXOAuth2, OAuth2: mailbox.OAuth2{TokenCommand: "echo tok-2"}})
	if advice := mailerr.Advice(err); !strings.Contains(advice, "offers no AUTH XOAUTH2: set [imap] auth to a mechanism it offers (PLAIN)") {
		t.Errorf("Check against a PLAIN-only server = %v, advice %q", err, advice)
	}
}

// Settings that do not fit together are refused before any connection.
func TestOAuth2Settings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		auth     mailbox.Auth
		user, pw string
		o        mailbox.OAuth2
		want     string
	}{
		{"both-sources", mailbox.AuthXOAuth2, oauthUser, "", mailbox.OAuth2{TokenFile: "t", TokenCommand: "c"}, "exactly one of oauth2_token_file and oauth2_token_command"},
		{"no-source", mailbox.AuthOAuthBearer, oauthUser, "", mailbox.OAuth2{}, "exactly one of"},
		{"password-too", mailbox.AuthXOAuth2, oauthUser, "pw", mailbox.OAuth2{TokenFile: "t"}, "logs in with a token, not a password"},
		{"no-username", mailbox.AuthXOAuth2, "", "", mailbox.OAuth2{TokenFile: "t"}, "needs username"},
		{"token-without-oauth", "", oauthUser, "pw", mailbox.OAuth2{TokenFile: "t"}, "are for auth = \"xoauth2\" or \"oauthbearer\""},
		{"unknown", "cram-md5", oauthUser, "pw", mailbox.OAuth2{}, "unknown auth \"cram-md5\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: "127.0.0.1:587", Username: tc.user, Password: tc.pw, Auth: tc.auth, OAuth2: tc.o})
			if err == nil || !strings.Contains(err.Error(), "[smtp] ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewSender = %v, want %q", err, tc.want)
			}
			_, err = mailbox.Dial(context.Background(), mailbox.IMAPConfig{Addr: "127.0.0.1:1", Username: tc.user, Password: tc.pw, Auth: tc.auth, OAuth2: tc.o})
			if err == nil || !strings.Contains(err.Error(), "[imap] ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Dial = %v, want %q", err, tc.want)
			}
		})
	}
}
