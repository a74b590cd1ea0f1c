package mailbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/mailerr"
)

// SMTPConfig says where and how to submit outgoing mail.
type SMTPConfig struct {
	// Addr is the submission server's host:port.
	Addr string
	// TLS is how the connection is secured; "" means TLSImplicit.
	TLS TLSMode
	// TLSConfig, when set, is used for TLS. ServerName defaults to the host
	// of Addr.
	TLSConfig *tls.Config
	// Username and Password, when Username is set, authenticate with
	// AUTH PLAIN (only ever over TLS or to a loopback server).
	Username, Password string
	// LocalName is the name given in EHLO; default "localhost".
	LocalName string
	// Timeout bounds one Send when ctx has no earlier deadline; default
	// 2 minutes.
	Timeout time.Duration
}

// Sender submits messages to an SMTP server, one connection per message.
// It is safe for concurrent use.
type Sender struct {
	cfg SMTPConfig
}

// NewSender checks cfg and returns a Sender; it does not connect.
func NewSender(cfg SMTPConfig) (*Sender, error) {
	if cfg.Addr == "" {
		return nil, errors.New("mailbox: SMTP address is empty")
	}
	mode, err := cfg.TLS.check(cfg.Addr)
	if err != nil {
		return nil, err
	}
	cfg.TLS = mode
	if cfg.LocalName == "" {
		cfg.LocalName = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	return &Sender{cfg: cfg}, nil
}

// SendError is the error Send returns. Temporary says whether trying again
// later may succeed: true for 4xx replies and network failures, false for
// 5xx replies. Code is the SMTP reply code, or 0 when the server gave none.
type SendError struct {
	Code int
	Temp bool
	Err  error
}

func (e *SendError) Error() string {
	kind := "permanent"
	if e.Temp {
		kind = "temporary"
	}
	return fmt.Sprintf("mailbox: send (%s): %v", kind, e.Err)
}

func (e *SendError) Unwrap() error { return e.Err }

// Temporary reports whether a retry may succeed.
func (e *SendError) Temporary() bool { return e.Temp }

// IsTemporary reports whether err (from Send) is worth retrying. It is
// mailerr.IsTemporary, the one decision the daemon makes too: a
// *SendError says so itself, and a cancelled context is temporary (the
// message was not refused, only not sent yet).
func IsTemporary(err error) bool { return mailerr.IsTemporary(err) }

// classify wraps err in a *SendError.
func classify(err error) error {
	var send *SendError
	if errors.As(err, &send) {
		return err
	}
	var serr *smtp.SMTPError
	if errors.As(err, &serr) {
		// 4xx: try again later; 5xx: refused for good (mailerr).
		return &SendError{Code: serr.Code, Temp: mailerr.IsTemporary(serr), Err: err}
	}
	// Anything else went wrong on the way (dial, TLS, reset connection,
	// timeout): the message may go through later.
	return &SendError{Temp: true, Err: err}
}

// Send submits msg (RFC 5322, CRLF lines) with the envelope sender from and
// recipients to. It returns nil once the server accepted the message for
// all recipients; otherwise a *SendError, or ctx's error when ctx ended
// first. A partial failure (one recipient refused) fails the whole
// message, so a retry sends it to everyone again.
func (s *Sender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	if len(to) == 0 {
		return &SendError{Err: errors.New("no recipients")}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	err := s.send(ctx, from, to, msg)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("mailbox: send: %w", ctx.Err())
	}
	return classify(err)
}

func (s *Sender) send(ctx context.Context, from string, to []string, msg []byte) error {
	conn, err := dialTCP(ctx, s.cfg.Addr, s.cfg.TLS, s.cfg.TLSConfig, s.cfg.Timeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	var c *smtp.Client
	if s.cfg.TLS == TLSStartTLS {
		// The first EHLO says "localhost"; the one after STARTTLS, which
		// is the one that counts, says LocalName.
		c, err = smtp.NewClientStartTLS(conn, tlsConfig(s.cfg.TLSConfig, s.cfg.Addr))
		if err != nil {
			return err
		}
	} else {
		c = smtp.NewClient(conn)
	}
	if err := c.Hello(s.cfg.LocalName); err != nil {
		return err
	}
	defer c.Close()
	if s.cfg.Username != "" {
		// TLSNone is only accepted for loopback (NewSender), so the
		// password never crosses a network in clear.
		if err := c.Auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return err
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return err
	}
	c.Quit() // the message is accepted; a failed QUIT loses nothing
	return nil
}
