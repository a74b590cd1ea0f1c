package mailbox_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/emersion/go-smtp"

	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
)

func startSystem(t *testing.T) *localmail.System {
	t.Helper()
	sys, err := localmail.Start(context.Background(), localmail.Config{
		Domain: "example.org",
		Users:  map[string]string{"games": "gpw", "alice": "apw", "bob": "bpw"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	return sys
}

func newSender(t *testing.T, cfg mailbox.SMTPConfig) *mailbox.Sender {
	t.Helper()
	s, err := mailbox.NewSender(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSendDelivers(t *testing.T) {
	sys := startSystem(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		cfg  mailbox.SMTPConfig
	}{
		{"auth-plain-on-loopback", mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "gpw"}},
		{"login-with-address", mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games@example.org", Password: "gpw"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSender(t, tc.cfg)
			msg := []byte("From: games@example.org\r\nSubject: board " + tc.name + "\r\n\r\nyour move\r\n")
			err := s.Send(ctx, "games@example.org", []string{"alice@example.org", "bob+g7@example.org"}, msg)
			if err != nil {
				t.Fatal(err)
			}
			for _, user := range []string{"alice", "bob"} {
				ms, err := sys.Messages(ctx, user, "")
				if err != nil {
					t.Fatal(err)
				}
				last := string(ms[len(ms)-1].Raw)
				if !strings.Contains(last, "Subject: board "+tc.name) || !strings.HasPrefix(last, "Return-Path: <games@example.org>") {
					t.Errorf("%s's last message = %q", user, last)
				}
			}
		})
	}
	t.Run("wrong-password", func(t *testing.T) {
		s := newSender(t, mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "nope"})
		err := s.Send(ctx, "games@example.org", []string{"alice@example.org"}, []byte("\r\nx\r\n"))
		// The operator's fault, not the mail's: kept, never given up.
		var se *mailbox.SendError
		if !errors.As(err, &se) || se.Kind() != mailerr.Operator || !se.Temporary() || se.Code != 535 {
			t.Errorf("Send with a wrong password = %v, want an operator fault 535", err)
		}
	})
	// The embedded server takes no mail without a login.
	t.Run("anonymous", func(t *testing.T) {
		s := newSender(t, mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone})
		err := s.Send(ctx, "games@example.org", []string{"alice@example.org"}, []byte("From: games@example.org\r\n\r\nx\r\n"))
		var se *mailbox.SendError
		if !errors.As(err, &se) || se.Kind() != mailerr.Operator || se.Code != 530 {
			t.Errorf("Send without a login = %v, want an operator fault 530", err)
		}
	})
}

// failing is an SMTP backend that fails at one step with one error.
type failing struct {
	at  string // "mail", "rcpt" or "data"
	err *smtp.SMTPError
}

func (f failing) NewSession(*smtp.Conn) (smtp.Session, error) { return f, nil }
func (f failing) Reset()                                      {}
func (f failing) Logout() error                               { return nil }

func (f failing) Mail(string, *smtp.MailOptions) error { return f.fail("mail") }
func (f failing) Rcpt(string, *smtp.RcptOptions) error { return f.fail("rcpt") }
func (f failing) Data(r io.Reader) error {
	io.Copy(io.Discard, r)
	return f.fail("data")
}

func (f failing) fail(step string) error {
	if step == f.at {
		return f.err
	}
	return nil
}

// serveSMTP runs a go-smtp server with backend be on loopback; with tlsCfg,
// either behind implicit TLS or offering STARTTLS.
func serveSMTP(t *testing.T, be smtp.Backend, tlsCfg *tls.Config, implicit bool) string {
	t.Helper()
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ErrorLog = quiet{}
	var ln net.Listener
	var err error
	if implicit {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", tlsCfg)
	} else {
		srv.TLSConfig = tlsCfg
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func TestSendErrorClasses(t *testing.T) {
	ctx := context.Background()
	sys := startSystem(t)
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()

	for _, tc := range []struct {
		name     string
		addr     string
		to       string
		wantTemp bool
		wantCode int
	}{
		{"unknown-user-550", sys.SMTPAddr, "nobody@example.org", false, 550},
		{"relay-denied-550", sys.SMTPAddr, "someone@elsewhere.net", false, 550},
		{"from-not-own-550", sys.SMTPAddr, "alice@example.org", false, 550}, // the message has no From
		{"data-451", serveSMTP(t, failing{"data", &smtp.SMTPError{Code: 451, Message: "try later"}}, nil, false), "a@b", true, 451},
		{"mail-421", serveSMTP(t, failing{"mail", &smtp.SMTPError{Code: 421, Message: "busy"}}, nil, false), "a@b", true, 421},
		{"rcpt-550", serveSMTP(t, failing{"rcpt", &smtp.SMTPError{Code: 550, Message: "no"}}, nil, false), "a@b", false, 550},
		{"data-554", serveSMTP(t, failing{"data", &smtp.SMTPError{Code: 554, Message: "spam"}}, nil, false), "a@b", false, 554},
		{"connection-refused", closedAddr, "a@b", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := mailbox.SMTPConfig{Addr: tc.addr, TLS: mailbox.TLSNone}
			if tc.addr == sys.SMTPAddr { // the embedded server wants a login
				cfg.Username, cfg.Password = "games", "gpw"
			}
			s := newSender(t, cfg)
			err := s.Send(ctx, "games@example.org", []string{tc.to}, []byte("Subject: x\r\n\r\nx\r\n"))
			var se *mailbox.SendError
			if !errors.As(err, &se) {
				t.Fatalf("Send = %v, want a *SendError", err)
			}
			if se.Temporary() != tc.wantTemp || mailerr.IsTemporary(err) != tc.wantTemp || se.Code != tc.wantCode {
				t.Errorf("Send = %v (code %d, temporary %v), want code %d, temporary %v", err, se.Code, se.Temporary(), tc.wantCode, tc.wantTemp)
			}
		})
	}

	t.Run("cancelled", func(t *testing.T) {
		s := newSender(t, mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "gpw"})
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		err := s.Send(cctx, "games@example.org", []string{"alice@example.org"}, []byte("\r\nx\r\n"))
		// Not refused, only not sent yet: the outbox keeps it (mailerr).
		if !errors.Is(err, context.Canceled) || !mailerr.IsTemporary(err) {
			t.Errorf("Send with a cancelled ctx = %v", err)
		}
	})
}

// accepting is a backend that accepts everything and records the last
// message.
type accepting struct{ got chan string }

func (a accepting) NewSession(c *smtp.Conn) (smtp.Session, error) { return a, nil }
func (a accepting) Reset()                                        {}
func (a accepting) Logout() error                                 { return nil }
func (a accepting) Mail(string, *smtp.MailOptions) error          { return nil }
func (a accepting) Rcpt(string, *smtp.RcptOptions) error          { return nil }
func (a accepting) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	a.got <- string(b)
	return err
}

func TestSendTLS(t *testing.T) {
	// httptest makes a certificate for 127.0.0.1 and a pool that trusts it.
	hs := httptest.NewUnstartedServer(nil)
	hs.StartTLS()
	defer hs.Close()
	serverTLS := &tls.Config{Certificates: hs.TLS.Certificates}
	pool := x509.NewCertPool()
	pool.AddCert(hs.Certificate())
	clientTLS := &tls.Config{RootCAs: pool}

	for _, tc := range []struct {
		name     string
		mode     mailbox.TLSMode
		implicit bool
	}{
		{"starttls", mailbox.TLSStartTLS, false},
		{"implicit", mailbox.TLSImplicit, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			be := accepting{got: make(chan string, 1)}
			addr := serveSMTP(t, be, serverTLS, tc.implicit)
			s := newSender(t, mailbox.SMTPConfig{Addr: addr, TLS: tc.mode, TLSConfig: clientTLS})
			if err := s.Send(context.Background(), "a@b", []string{"c@d"}, []byte("Subject: tls\r\n\r\nx\r\n")); err != nil {
				t.Fatal(err)
			}
			if got := <-be.got; !strings.Contains(got, "Subject: tls") {
				t.Errorf("server got %q", got)
			}
			// Without trusting the certificate, the handshake fails.
			s = newSender(t, mailbox.SMTPConfig{Addr: addr, TLS: tc.mode})
			if err := s.Send(context.Background(), "a@b", []string{"c@d"}, []byte("\r\nx\r\n")); err == nil {
				t.Error("Send trusted an unknown certificate")
			}
		})
	}
	t.Run("starttls-not-offered", func(t *testing.T) {
		addr := serveSMTP(t, accepting{got: make(chan string, 1)}, nil, false)
		s := newSender(t, mailbox.SMTPConfig{Addr: addr, TLS: mailbox.TLSStartTLS, Username: "u", Password: "p"})
		if err := s.Send(context.Background(), "a@b", []string{"c@d"}, []byte("\r\nx\r\n")); err == nil {
			t.Error("Send went on without the STARTTLS it was told to use")
		}
	})
}

func TestConfigRefusesClearTextOffLoopback(t *testing.T) {
	if _, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: "mail.example.org:25", TLS: mailbox.TLSNone}); err == nil {
		t.Error("NewSender accepted clear text to a remote server")
	}
	if _, err := mailbox.NewReader(mailbox.IMAPConfig{Addr: "mail.example.org:143", TLS: mailbox.TLSNone}); err == nil {
		t.Error("NewReader accepted clear text to a remote server")
	}
	if _, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: "[::1]:25", TLS: mailbox.TLSNone}); err != nil {
		t.Errorf("NewSender refused clear text on loopback: %v", err)
	}
	if _, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: "mail.example.org:25", TLS: "ssl"}); err == nil {
		t.Error("NewSender accepted an unknown TLS mode")
	}
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}
func (quiet) Println(...any)        {}

// counting is accepting that counts its connections and keeps the last.
type counting struct {
	accepting
	sessions *atomic.Int32
	last     chan *smtp.Conn
}

func (c counting) NewSession(conn *smtp.Conn) (smtp.Session, error) {
	c.sessions.Add(1)
	select {
	case <-c.last:
	default:
	}
	c.last <- conn
	return c.accepting, nil
}

// TestSendKeepsConnections: messages in a row share one connection, and a
// kept connection that the server has closed meanwhile is replaced
// without losing the message.
func TestSendKeepsConnections(t *testing.T) {
	ctx := context.Background()
	var sessions atomic.Int32
	be := counting{accepting{got: make(chan string, 10)}, &sessions, make(chan *smtp.Conn, 1)}
	srv := smtp.NewServer(be)
	srv.Domain = "localhost"
	srv.ErrorLog = quiet{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	s := newSender(t, mailbox.SMTPConfig{Addr: ln.Addr().String(), TLS: mailbox.TLSNone})
	defer s.Close()
	send := func(body string) {
		t.Helper()
		if err := s.Send(ctx, "games@example.org", []string{"alice@example.org"}, []byte("Subject: x\r\n\r\n"+body+"\r\n")); err != nil {
			t.Fatal(err)
		}
		if got := <-be.got; !strings.Contains(got, body) {
			t.Fatalf("the server got %q, want %q", got, body)
		}
	}
	send("one")
	send("two")
	if n := sessions.Load(); n != 1 {
		t.Errorf("two messages in a row took %d connections, want 1", n)
	}
	(<-be.last).Close() // the server drops the idle connection
	send("three")
	if n := sessions.Load(); n != 2 {
		t.Errorf("%d connections after the server closed the first, want 2", n)
	}
}
