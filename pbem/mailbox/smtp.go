package mailbox

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
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
	// CAFile and ServerName, when set, override TLSConfig's: the PEM
	// file of the certificate authorities to trust instead of the
	// system's (a private CA), and the name the server's certificate
	// must hold when it is not the host of Addr.
	CAFile, ServerName string
	// Username and Password, when Username is set, log in with AUTH
	// PLAIN, or LOGIN when the server offers only that (only ever over
	// TLS or to a loopback server).
	Username, Password string
	// Auth is how to log in; "" means AuthPassword. With an OAuth2
	// Auth, Username is the account's address, Password is empty, and
	// OAuth2 says where the token comes from: the login is AUTH with the
	// mechanism, which the server must offer.
	Auth   Auth
	OAuth2 OAuth2
	// LocalName is the name given in EHLO; default "localhost".
	LocalName string
	// Timeout bounds one Send when ctx has no earlier deadline; default
	// 2 minutes.
	Timeout time.Duration
	// KeepIdle is how long a connection stays open after a message, for
	// the next one; default 30 seconds (servers wait at least five
	// minutes for a client's next command, RFC 5321 4.5.3.2); negative:
	// one connection per message.
	KeepIdle time.Duration
}

// Sender submits messages to an SMTP server. A connection serves one
// message after another (a MAIL transaction each) for as long as messages
// come within SMTPConfig.KeepIdle, so that a burst of replies does not pay
// a connection, a greeting and EHLO (and TLS, and AUTH) each. It is safe
// for concurrent use: each Send takes an idle connection, or opens one.
type Sender struct {
	cfg SMTPConfig

	mu     sync.Mutex
	idle   []*smtpConn // newest last
	reaper *time.Timer // closes connections idle too long; nil when none
	closed bool
}

// smtpConn is an open SMTP session, greeted and authenticated.
type smtpConn struct {
	conn  net.Conn
	c     *smtp.Client
	since time.Time // idle since
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
	if cfg.Auth, err = cfg.Auth.check("[smtp]", cfg.Username, cfg.Password, cfg.OAuth2); err != nil {
		return nil, err
	}
	if cfg.TLSConfig, err = trust(cfg.TLSConfig, cfg.CAFile, cfg.ServerName); err != nil {
		return nil, fmt.Errorf("mailbox: [smtp] %w", err)
	}
	if cfg.LocalName == "" {
		cfg.LocalName = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	if cfg.KeepIdle == 0 {
		cfg.KeepIdle = 30 * time.Second
	}
	return &Sender{cfg: cfg}, nil
}

// SendError is the error Send returns. Temporary says whether trying again
// later may succeed: true for 4xx replies, network failures and operator
// faults, false for 5xx replies about the message. Operator says that the
// settings or the server are wrong, not the message (mailerr.Operator): a
// login refused, a certificate not trusted, a refused connection. Code is
// the SMTP reply code, or 0 when the server gave none.
type SendError struct {
	Code     int
	Temp     bool
	Operator bool
	Err      error
}

func (e *SendError) Error() string {
	return fmt.Sprintf("mailbox: send (%s): %v", e.Kind(), e.Err)
}

func (e *SendError) Unwrap() error { return e.Err }

// Temporary reports whether a retry may succeed.
func (e *SendError) Temporary() bool { return e.Temp || e.Operator }

// Kind says what the error is to mailerr.Classify.
func (e *SendError) Kind() mailerr.Kind {
	switch {
	case e.Operator:
		return mailerr.Operator
	case e.Temp:
		return mailerr.Temporary
	}
	return mailerr.Permanent
}

// classify wraps err in a *SendError, by mailerr.Classify: err carries the
// step it came at (mailerr.At).
func classify(err error) error {
	var send *SendError
	if errors.As(err, &send) {
		return err
	}
	kind := mailerr.Classify(err)
	se := &SendError{Temp: kind == mailerr.Temporary, Operator: kind == mailerr.Operator, Err: err}
	var serr *smtp.SMTPError
	if errors.As(err, &serr) {
		se.Code = serr.Code
	} else if kind == mailerr.Permanent {
		// Anything else went wrong on the way (a reset connection, a
		// timeout): the message may go through later.
		se.Temp = true
	}
	return se
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
	// A connection kept from an earlier message may have been closed by
	// the server meanwhile. That shows at MAIL FROM, before anything of
	// the message went out: then try the next, or a new connection. A
	// failure later, or on a new connection, is the answer.
	for {
		sc := s.takeIdle()
		if sc == nil {
			break
		}
		err, early := s.transact(ctx, sc, from, to, msg)
		if err == nil {
			s.putIdle(sc)
			return nil
		}
		sc.conn.Close()
		if !early || ctx.Err() != nil {
			return err
		}
	}
	sc, err := s.dial(ctx)
	if err != nil {
		return err
	}
	err, _ = s.transact(ctx, sc, from, to, msg)
	if err != nil {
		sc.conn.Close()
		return err
	}
	s.putIdle(sc)
	return nil
}

// at marks err with the step of the SMTP talk it came at.
func (s *Sender) at(step mailerr.Step, err error) error {
	return mailerr.At("SMTP", s.cfg.Addr, step, err)
}

// dial opens a connection, says EHLO and authenticates.
func (s *Sender) dial(ctx context.Context) (*smtpConn, error) {
	conn, err := dialTCP(ctx, s.cfg.Addr, s.cfg.TLS, s.cfg.TLSConfig, s.cfg.Timeout)
	if err != nil {
		return nil, s.at(mailerr.StepDial, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()
	fail := func(step mailerr.Step, err error) (*smtpConn, error) {
		conn.Close()
		return nil, s.at(step, err)
	}
	// In plain text, the greeting is awaited here, so that a server that
	// speaks TLS at once is named as such (greeting.go).
	greeted := conn
	if s.cfg.TLS != TLSImplicit {
		if greeted, err = awaitGreeting(ctx, conn, s.cfg.Addr, s.cfg.TLS, s.cfg.Timeout); err != nil {
			return fail(mailerr.StepDial, err)
		}
	}
	var c *smtp.Client
	hello := mailerr.StepDial // the greeting, and EHLO
	if s.cfg.TLS == TLSStartTLS {
		// The first EHLO says "localhost"; the one after STARTTLS, which
		// is the one that counts, says LocalName (and makes the
		// handshake).
		c, err = smtp.NewClientStartTLS(greeted, tlsConfig(s.cfg.TLSConfig, s.cfg.Addr))
		if err != nil {
			return fail(mailerr.StepTLS, err)
		}
		hello = mailerr.StepTLS
	} else {
		c = smtp.NewClient(greeted)
	}
	if err := c.Hello(s.cfg.LocalName); err != nil {
		return fail(hello, err)
	}
	if s.cfg.Username != "" {
		// TLSNone is only accepted for loopback (NewSender), so the
		// password (or token) never crosses a network in clear.
		if err := s.login(ctx, c); err != nil {
			return fail(mailerr.StepLogin, err)
		}
	}
	return &smtpConn{conn: conn, c: c}, nil
}

// login logs in with the password, or with an OAuth2 token.
func (s *Sender) login(ctx context.Context, c *smtp.Client) error {
	if s.cfg.Auth == AuthPassword {
		mech, err := s.mechanism(c)
		if err != nil {
			return err
		}
		return c.Auth(mech)
	}
	mech := s.cfg.Auth.mechanism()
	_, offered := c.Extension("AUTH")
	mechs := strings.Fields(strings.ToUpper(offered))
	if !slices.Contains(mechs, mech) {
		return &mailerr.MechanismError{Mechanism: mech, Offered: mechs}
	}
	return oauthLogin(ctx, s.cfg.Auth, s.cfg.OAuth2, s.cfg.Addr, s.cfg.Username, c.Auth)
}

// mechanism chooses how to log in from what the server offers in EHLO:
// PLAIN, or else LOGIN (older servers, and some hosted ones, offer only
// that).
func (s *Sender) mechanism(c *smtp.Client) (sasl.Client, error) {
	ok, offered := c.Extension("AUTH")
	if !ok {
		return nil, errors.New("the server offers no AUTH on this connection (servers offer it only over TLS)")
	}
	mechs := strings.Fields(strings.ToUpper(offered))
	switch {
	case slices.Contains(mechs, sasl.Plain):
		return sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password), nil
	case slices.Contains(mechs, sasl.Login):
		return &loginClient{username: s.cfg.Username, password: s.cfg.Password}, nil
	}
	return nil, &smtp.SMTPError{Code: 504, Message: fmt.Sprintf("the server offers AUTH %s; icepost logs in with PLAIN or LOGIN", offered)}
}

// loginClient is the LOGIN mechanism (draft-murchison-sasl-login): the
// server asks for the user name and then the password, each in a
// challenge. go-sasl has one, but it sends the user name in the AUTH
// command and takes only the exact challenge "Password:"; servers word
// and order their challenges as they please, so this one answers the
// one that asks for the password with it and any other with the name.
type loginClient struct {
	username, password string
	step               int
}

func (a *loginClient) Start() (mech string, ir []byte, err error) {
	return sasl.Login, nil, nil
}

func (a *loginClient) Next(challenge []byte) ([]byte, error) {
	a.step++
	asks := strings.ToLower(string(challenge))
	switch {
	case a.step > 2:
		return nil, sasl.ErrUnexpectedServerChallenge
	case strings.Contains(asks, "pass"), a.step == 2 && !strings.Contains(asks, "user"):
		return []byte(a.password), nil
	}
	return []byte(a.username), nil
}

// Check connects, secures the connection and logs in as Send would, and
// says MAIL FROM with from, which the server may refuse (a login it
// requires, an address the account may not use); then RSET and QUIT: it
// sends nothing. It returns nil when all of that works, or the error that
// Send would meet (mailerr.Advice says what to fix).
func (s *Sender) Check(ctx context.Context, from string) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	sc, err := s.dial(ctx)
	if err != nil {
		return classify(err)
	}
	defer sc.conn.Close()
	stop := context.AfterFunc(ctx, func() { sc.conn.Close() })
	defer stop()
	if err := sc.c.Mail(from, nil); err != nil {
		return classify(s.at(mailerr.StepSender, err))
	}
	if err := sc.c.Reset(); err != nil {
		return classify(s.at(mailerr.StepSender, err))
	}
	sc.c.Quit()
	return nil
}

// transact sends one message on sc: MAIL FROM, RCPT TO each, DATA. It
// reports whether it failed at MAIL FROM, when the server has seen nothing
// of the message.
func (s *Sender) transact(ctx context.Context, sc *smtpConn, from string, to []string, msg []byte) (err error, early bool) {
	if dl, ok := ctx.Deadline(); ok {
		sc.conn.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { sc.conn.Close() })
	// A message accepted stays accepted when ctx ends just after; the
	// connection, closed, fails at MAIL FROM next time and is dropped.
	defer stop()
	var opts *smtp.MailOptions
	if !ascii(from) || slices.ContainsFunc(to, func(a string) bool { return !ascii(a) }) {
		opts = &smtp.MailOptions{UTF8: true}
	}
	if err := sc.c.Mail(from, opts); err != nil {
		return s.at(mailerr.StepSender, err), true
	}
	for _, addr := range to {
		if err := sc.c.Rcpt(addr, nil); err != nil {
			return s.at(mailerr.StepRecipient, err), false
		}
	}
	w, err := sc.c.Data()
	if err != nil {
		return s.at(mailerr.StepData, err), false
	}
	if _, err := w.Write(msg); err != nil {
		w.Close()
		return s.at(mailerr.StepData, err), false
	}
	if err := w.Close(); err != nil {
		return s.at(mailerr.StepData, err), false
	}
	sc.conn.SetDeadline(time.Time{})
	return nil, false
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// takeIdle returns the connection idle the shortest time, closing those
// idle too long; nil when there is none.
func (s *Sender) takeIdle() *smtpConn {
	s.mu.Lock()
	defer s.mu.Unlock()
	for n := len(s.idle); n > 0; n = len(s.idle) {
		sc := s.idle[n-1]
		s.idle = s.idle[:n-1]
		if time.Since(sc.since) < s.cfg.KeepIdle {
			return sc
		}
		sc.conn.Close()
	}
	return nil
}

// putIdle keeps sc for the next message, or says QUIT and closes it.
func (s *Sender) putIdle(sc *smtpConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cfg.KeepIdle < 0 {
		go quit(sc)
		return
	}
	sc.since = time.Now()
	s.idle = append(s.idle, sc)
	if s.reaper == nil {
		s.reaper = time.AfterFunc(s.cfg.KeepIdle, s.reap)
	}
}

// reap closes the connections idle for KeepIdle.
func (s *Sender) reap() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reaper = nil
	keep := s.idle[:0]
	for _, sc := range s.idle {
		if time.Since(sc.since) >= s.cfg.KeepIdle {
			go quit(sc)
		} else {
			keep = append(keep, sc)
		}
	}
	clear(s.idle[len(keep):])
	s.idle = keep
	if len(s.idle) > 0 {
		s.reaper = time.AfterFunc(s.cfg.KeepIdle-time.Since(s.idle[0].since), s.reap)
	}
}

// quit says QUIT and closes: every message on the connection is accepted
// already, so a failed QUIT loses nothing.
func quit(sc *smtpConn) {
	sc.conn.SetDeadline(time.Now().Add(5 * time.Second))
	sc.c.Quit()
	sc.conn.Close()
}

// Close closes the idle connections; a Send after it works, on a
// connection of its own.
func (s *Sender) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, sc := range s.idle {
		go quit(sc)
	}
	s.idle = nil
	if s.reaper != nil {
		s.reaper.Stop()
		s.reaper = nil
	}
	return nil
}
