package mailbox_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailtest"
)

// The operator's mistakes are operator faults, each with the setting to
// fix; a recipient's refusal is about one mail. The SMTP server requires
// AUTH over STARTTLS, with a certificate from a private CA.
func TestSMTPOperatorFaults(t *testing.T) {
	ctx := context.Background()
	ca := mailtest.NewCA(t)
	cert := ca.Issue(t, "127.0.0.1", "localhost")
	srv := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert, Users: map[string]string{"games": "right"},
		Refuse: map[string]*smtp.SMTPError{"nobody@example.org": {Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "User unknown"}}})
	loginOnly := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert, Users: map[string]string{"games": "right"}, Mechanisms: []string{"LOGIN"}})
	plainOnly := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert, Users: map[string]string{"games": "right"}, Mechanisms: []string{"PLAIN"}})
	neither := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert, Mechanisms: []string{"CRAM-MD5"}})
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()

	good := mailbox.SMTPConfig{Addr: srv.Addr, TLS: mailbox.TLSStartTLS, CAFile: ca.File, Username: "games", Password: "right"}
	with := func(f func(c *mailbox.SMTPConfig)) mailbox.SMTPConfig {
		c := good
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name   string
		cfg    mailbox.SMTPConfig
		to     string
		kind   mailerr.Kind // of the error; Permanent with advice "" and code 0: none
		code   int
		advice string
	}{
		{"works", good, "ada@example.org", 0, 0, ""},
		{"auth-login-only", with(func(c *mailbox.SMTPConfig) { c.Addr = loginOnly.Addr }), "ada@example.org", 0, 0, ""},
		{"auth-plain-only", with(func(c *mailbox.SMTPConfig) { c.Addr = plainOnly.Addr }), "ada@example.org", 0, 0, ""},
		{"wrong-password", with(func(c *mailbox.SMTPConfig) { c.Password = "wrong" }), "ada@example.org", mailerr.Operator, 535,
			"SMTP login refused (535): check [smtp] username and password_env/password_file"},
		{"no-login", with(func(c *mailbox.SMTPConfig) { c.Username = "" }), "ada@example.org", mailerr.Operator, 530,
			"SMTP server requires a login (530): set [smtp] username"},
		{"no-mechanism", with(func(c *mailbox.SMTPConfig) { c.Addr = neither.Addr }), "ada@example.org", mailerr.Operator, 504,
			"SMTP login mechanism refused (504)"},
		{"unknown-ca", with(func(c *mailbox.SMTPConfig) { c.CAFile = "" }), "ada@example.org", mailerr.Operator, 0,
			"is signed by an unknown authority: set [smtp] ca_file"},
		{"wrong-server-name", with(func(c *mailbox.SMTPConfig) { c.ServerName = "mail.example.org" }), "ada@example.org", mailerr.Operator, 0,
			"is not valid for the name checked (mail.example.org): set [smtp] server_name"},
		{"implicit-tls-on-starttls-port", with(func(c *mailbox.SMTPConfig) { c.TLS = mailbox.TLSImplicit }), "ada@example.org", mailerr.Operator, 0,
			"does not speak TLS from the first byte: set [smtp] tls = \"starttls\""},
		{"connection-refused", with(func(c *mailbox.SMTPConfig) { c.Addr = closedAddr }), "ada@example.org", mailerr.Operator, 0,
			"SMTP connection to " + closedAddr + " refused: check [smtp] addr"},
		{"unknown-recipient", good, "nobody@example.org", mailerr.Permanent, 550, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSender(t, tc.cfg)
			defer s.Close()
			msg := []byte("From: games@example.org\r\nSubject: " + tc.name + "\r\n\r\nx\r\n")
			err := s.Send(ctx, "games@example.org", []string{tc.to}, msg)
			if tc.kind == 0 && tc.code == 0 {
				if err != nil {
					t.Fatalf("Send = %v", err)
				}
				if cerr := s.Check(ctx, "games@example.org"); cerr != nil {
					t.Errorf("Check = %v", cerr)
				}
				return
			}
			var se *mailbox.SendError
			if !errors.As(err, &se) {
				t.Fatalf("Send = %v, want a *SendError", err)
			}
			if got := mailerr.Classify(err); got != tc.kind || se.Code != tc.code {
				t.Errorf("Send = %v: %v, code %d; want %v, code %d", err, got, se.Code, tc.kind, tc.code)
			}
			if advice := mailerr.Advice(err); !strings.Contains(advice, tc.advice) || (tc.advice == "") != (advice == "") {
				t.Errorf("Advice = %q, want %q", advice, tc.advice)
			}
			// Check meets the same fault, but not a recipient's.
			cerr := s.Check(ctx, "games@example.org")
			if tc.kind == mailerr.Operator && mailerr.Advice(cerr) != mailerr.Advice(err) {
				t.Errorf("Check = %v, want the fault Send met", cerr)
			}
			if tc.kind != mailerr.Operator && cerr != nil {
				t.Errorf("Check = %v", cerr)
			}
		})
	}
	// Every message the server took went to whom it was sent, once.
	if n := len(srv.Deliveries()) + len(loginOnly.Deliveries()) + len(plainOnly.Deliveries()); n != 3 {
		t.Errorf("the servers took %d messages, want 3", n)
	}
	for _, d := range loginOnly.Deliveries() {
		if !bytes.Contains(d.Data, []byte("Subject: auth-login-only")) {
			t.Errorf("the LOGIN-only server took %q", d.Data)
		}
	}
}

// A private CA through ca_file, and the name to check through server_name,
// against Dovecot with TLS: both its STARTTLS and its implicit TLS. The
// faults are the operator's, each with what to fix.
func TestIMAPOperatorFaults(t *testing.T) {
	ca := mailtest.NewCA(t)
	dv := mailtest.StartDovecotWith(t, mailtest.DovecotOptions{Cert: ca.Issue(t, "imap.test", "127.0.0.1")})
	ctx := context.Background()
	good := mailbox.IMAPConfig{Addr: dv.Addr, TLS: mailbox.TLSStartTLS, CAFile: ca.File, Username: "games", Password: dv.Users["games"], DialTimeout: 10 * time.Second}
	with := func(f func(c *mailbox.IMAPConfig)) mailbox.IMAPConfig {
		c := good
		f(&c)
		return c
	}
	for _, tc := range []struct {
		name   string
		cfg    mailbox.IMAPConfig
		advice string // "": it works
	}{
		{"starttls", good, ""},
		{"implicit-tls", with(func(c *mailbox.IMAPConfig) { c.Addr, c.TLS = dv.TLSAddr, mailbox.TLSImplicit }), ""},
		{"server-name", with(func(c *mailbox.IMAPConfig) { c.ServerName = "imap.test" }), ""},
		{"wrong-password", with(func(c *mailbox.IMAPConfig) { c.Password = "wrong" }), "IMAP login refused (Authentication failed.): check [imap] username and password_env/password_file"},
		{"unknown-ca", with(func(c *mailbox.IMAPConfig) { c.CAFile = "" }), "IMAP certificate of " + dv.Addr + " is signed by an unknown authority: set [imap] ca_file"},
		{"wrong-server-name", with(func(c *mailbox.IMAPConfig) { c.ServerName = "mail.example.org" }), "is not valid for the name checked (mail.example.org): set [imap] server_name"},
		{"implicit-tls-on-starttls-port", with(func(c *mailbox.IMAPConfig) { c.TLS = mailbox.TLSImplicit }), "does not speak TLS from the first byte: set [imap] tls = \"starttls\""},
		{"no-such-mailbox", with(func(c *mailbox.IMAPConfig) { c.Mailbox = "Nowhere" }), "IMAP mailbox cannot be selected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := mailbox.Check(ctx, tc.cfg)
			if tc.advice == "" {
				if err != nil {
					t.Fatalf("Check = %v", err)
				}
				return
			}
			if !mailerr.IsOperator(err) || !strings.Contains(mailerr.Advice(err), tc.advice) {
				t.Errorf("Check = %v (%v), advice %q; want an operator fault, %q", err, mailerr.Classify(err), mailerr.Advice(err), tc.advice)
			}
		})
	}

	// The Reader logs an operator fault at Error level once, not at each
	// of its attempts, and says when it is over.
	t.Run("reader-logs-once", func(t *testing.T) {
		var log syncLog
		cfg := with(func(c *mailbox.IMAPConfig) { c.Password = "wrong" })
		cfg.MinBackoff, cfg.MaxBackoff = time.Millisecond, 5*time.Millisecond
		cfg.Logger = slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelInfo}))
		r, err := mailbox.NewReader(cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second) // Dovecot answers a wrong password after 2 s
		defer cancel()
		r.Fetch(fctx, 0)
		out := log.String()
		if n := strings.Count(out, "level=ERROR"); n != 1 || !strings.Contains(out, "IMAP login refused") || strings.Contains(out, "level=WARN") {
			t.Errorf("%d lines at Error level, want 1, and none at Warn:\n%s", n, out)
		}
	})
}

// syncLog is a log destination safe for the Reader's goroutine and the
// test.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
