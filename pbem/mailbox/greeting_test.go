package mailbox_test

import (
	"context"
	"crypto/tls"
	"net"
	"strings"
	"testing"
	"time"

	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailtest"
)

// implicitTLS listens on loopback as an implicit-TLS port does (465,
// 993): each connection waits for the client's handshake, then greets
// with greeting. It returns the address.
func implicitTLS(t *testing.T, greeting string) string {
	t.Helper()
	cert := mailtest.NewCA(t).Issue(t, "127.0.0.1")
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert.TLS}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(time.Minute))
				if c.(*tls.Conn).Handshake() == nil {
					c.Write([]byte(greeting))
					c.Read(make([]byte, 1))
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// tls = "starttls" or "none" against a port that speaks TLS at once is
// an operator fault that names the fix, found in seconds: the server
// says nothing until the client's handshake, so without a look of its
// own the client waited for a greeting until its timeout (two minutes
// for SMTP) and then said only "use of closed network connection",
// classed temporary.
func TestPlainTextAgainstImplicitTLS(t *testing.T) {
	smtpAddr := implicitTLS(t, "220 localhost ESMTP\r\n")
	imapAddr := implicitTLS(t, "* OK IMAP4rev1 ready\r\n")
	for _, mode := range []mailbox.TLSMode{mailbox.TLSStartTLS, mailbox.TLSNone} {
		t.Run("smtp-"+string(mode), func(t *testing.T) {
			t.Parallel()
			// Well under the timeouts of a connection that waits for a
			// greeting: a hang fails the test.
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			s := newSender(t, mailbox.SMTPConfig{Addr: smtpAddr, TLS: mode, Timeout: time.Hour})
			err := s.Check(ctx, "games@example.org")
			want := "SMTP server at " + smtpAddr + ` speaks TLS at once: set [smtp] tls = "tls"`
			if !mailerr.IsOperator(err) || !strings.Contains(mailerr.Advice(err), want) {
				t.Errorf("Check = %v (%v), advice %q; want an operator fault, %q", err, mailerr.Classify(err), mailerr.Advice(err), want)
			}
		})
		t.Run("imap-"+string(mode), func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			err := mailbox.Check(ctx, mailbox.IMAPConfig{Addr: imapAddr, TLS: mode, Username: "games", Password: "pw", DialTimeout: time.Hour})
			want := "IMAP server at " + imapAddr + ` speaks TLS at once: set [imap] tls = "tls"`
			if !mailerr.IsOperator(err) || !strings.Contains(mailerr.Advice(err), want) {
				t.Errorf("Check = %v (%v), advice %q; want an operator fault, %q", err, mailerr.Classify(err), mailerr.Advice(err), want)
			}
		})
	}
}

// A server that greets late, in plain text, is asked whether it speaks
// TLS and then waited for: the greeting is read as it comes.
func TestLateGreeting(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	release := make(chan struct{})
	probed := make(chan struct{}, 1)
	go func() {
		first := true
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !first {
				// The look for TLS: a handshake, answered as a plain
				// text server answers anything.
				probed <- struct{}{}
				c.Write([]byte("220 localhost ESMTP\r\n"))
				c.Close()
				continue
			}
			first = false
			go func() {
				defer c.Close()
				<-release
				c.Write([]byte("220 localhost ESMTP\r\n"))
				buf := make([]byte, 512)
				for {
					n, err := c.Read(buf)
					if err != nil {
						return
					}
					switch line := string(buf[:n]); {
					case strings.HasPrefix(line, "EHLO"):
						c.Write([]byte("250 localhost\r\n"))
					case strings.HasPrefix(line, "MAIL"), strings.HasPrefix(line, "RSET"):
						c.Write([]byte("250 ok\r\n"))
					case strings.HasPrefix(line, "QUIT"):
						c.Write([]byte("221 bye\r\n"))
						return
					}
				}
			}()
		}
	}()
	go func() {
		// The server greets once the client has looked for TLS.
		<-probed
		close(release)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := newSender(t, mailbox.SMTPConfig{Addr: ln.Addr().String(), TLS: mailbox.TLSNone})
	if err := s.Check(ctx, "games@example.org"); err != nil {
		t.Errorf("Check = %v", err)
	}
}
