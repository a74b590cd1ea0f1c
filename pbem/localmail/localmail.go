package localmail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/mailaddr"
	"icepost/pbem/xoauth2"
)

// Config describes an embedded mail system.
type Config struct {
	// Domain is the mail domain of the local users; default "localhost".
	Domain string
	// Users maps each account's name (the local part of its address, in
	// lower case) to its password, for both IMAP and SMTP.
	Users map[string]string
	// IMAPAddr and SMTPAddr are where to listen; default "127.0.0.1:0" (a
	// free port; System has the real addresses).
	IMAPAddr, SMTPAddr string
	// Deliver, when set, replaces delivery into the in-memory mailboxes
	// (for example with a test's Dovecot, mailtest.Dovecot.Deliver), and
	// no IMAP server is started.
	Deliver func(ctx context.Context, user string, msg []byte) error
	// MinimalIMAP makes the IMAP server advertise bare IMAP4rev1 (IDLE but
	// no MOVE, no UIDPLUS), to exercise clients' fallbacks.
	MinimalIMAP bool
	// CheckToken, when set, makes the IMAP server offer XOAUTH2 and
	// OAUTHBEARER besides PLAIN, and take a login by either when it says
	// that token is good for user (the login name as sent): a test's
	// stand-in for an OAuth2 provider.
	CheckToken func(user, token string) bool
	// Logger receives server errors; default: discard.
	Logger *slog.Logger
}

// System is a running embedded mail system.
type System struct {
	// Domain is the mail domain; a user's address is user@Domain, and
	// user+anything@Domain reaches the same INBOX.
	Domain string
	// IMAPAddr is the IMAP server's host:port, empty with Config.Deliver.
	IMAPAddr string
	// SMTPAddr is the SMTP server's host:port (no TLS; AUTH PLAIN
	// required, and the account's own address as MAIL FROM and From).
	SMTPAddr string

	cfg   Config
	mem   *imapmemserver.Server
	users map[string]*imapmemserver.User
	smtp  *smtp.Server

	mu       sync.Mutex
	imap     *imapserver.Server // nil while suspended
	imapDone chan struct{}
	// delivered is closed at the next delivery, for the idle sessions.
	delivered chan struct{}
	stopped   bool
	stopCtx   func() bool
}

// Start starts the servers. They stop when ctx is done or Stop is called.
func Start(ctx context.Context, cfg Config) (*System, error) {
	if cfg.Domain == "" {
		cfg.Domain = "localhost"
	}
	if cfg.IMAPAddr == "" {
		cfg.IMAPAddr = "127.0.0.1:0"
	}
	if cfg.SMTPAddr == "" {
		cfg.SMTPAddr = "127.0.0.1:0"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &System{
		Domain: cfg.Domain,
		cfg:    cfg,
		mem:    imapmemserver.New(),
		users:  map[string]*imapmemserver.User{},
	}
	for name, pw := range cfg.Users {
		// The SMTP server compares senders with the account's address in
		// its canonical form: an account needs one.
		if _, err := mailaddr.Canonical(s.Address(name)); err != nil {
			return nil, fmt.Errorf("localmail: account %q: %w", name, err)
		}
		u := imapmemserver.NewUser(name, pw)
		if err := u.Create("INBOX", nil); err != nil {
			return nil, err
		}
		s.mem.AddUser(u)
		s.users[name] = u
	}
	if cfg.Deliver == nil {
		if err := s.startIMAP(cfg.IMAPAddr); err != nil {
			return nil, err
		}
	}
	if err := s.startSMTP(); err != nil {
		s.Stop()
		return nil, err
	}
	s.stopCtx = context.AfterFunc(ctx, func() { s.Stop() })
	return s, nil
}

type logAdapter struct{ l *slog.Logger }

func (a logAdapter) Printf(format string, args ...any) {
	a.l.Warn(strings.TrimSpace(fmt.Sprintf(format, args...)))
}

func (a logAdapter) Println(args ...any) {
	a.l.Warn(strings.TrimSpace(fmt.Sprintln(args...)))
}

func (s *System) startIMAP(addr string) error {
	caps := imap.CapSet{imap.CapIMAP4rev1: {}}
	if !s.cfg.MinimalIMAP {
		caps[imap.CapMove] = struct{}{}
		caps[imap.CapUIDPlus] = struct{}{}
		caps[imap.CapNamespace] = struct{}{}
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return &addressLogin{s.mem.NewSession().(imapserver.SessionIMAP4rev2), s}, nil, nil
		},
		Caps:         caps,
		InsecureAuth: true, // loopback only
		Logger:       logAdapter{s.cfg.Logger.With("server", "imap")},
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("localmail: IMAP listen: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(ln)
	}()
	s.mu.Lock()
	s.imap, s.imapDone = srv, done
	s.IMAPAddr = ln.Addr().String()
	s.mu.Unlock()
	return nil
}

// addressLogin is the memory server's IMAP session, logging in with the
// account's name or its full address (what many mail clients send by
// default): "ada" and "ada@" + Domain are one account.
type addressLogin struct {
	imapserver.SessionIMAP4rev2
	s *System
}

// Idle works around go-imap v2.0.0-beta.8's server (imapserver/tracker.go,
// SessionTracker.Idle): it writes the updates queued for a session only
// when the next one comes, so a mail that arrived just before IDLE began,
// or while it was starting, is announced only with the mail after it, and
// a client waiting in IDLE sits there (mutt: 31 s for a reply). Here an
// idle session writes what is queued at once, again whenever the system
// delivers a mail, and each second for what other sessions change (a
// move, an APPEND). Remove it when the library announces queued updates at
// the start of IDLE (docs/mail.md, "The embedded mail system and IDLE").
func (a *addressLogin) Idle(w *imapserver.UpdateWriter, stop <-chan struct{}) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		delivered := a.s.deliveries()
		if err := a.SessionIMAP4rev2.Poll(w, true); err != nil {
			return err
		}
		select {
		case <-stop:
			return nil
		case <-delivered:
		case <-tick.C:
		}
	}
}

// deliveries is a channel closed at the next delivery.
func (s *System) deliveries() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.delivered == nil {
		s.delivered = make(chan struct{})
	}
	return s.delivered
}

// announce wakes the idle sessions after a delivery.
func (s *System) announce() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.delivered != nil {
		close(s.delivered)
		s.delivered = nil
	}
}

func (a *addressLogin) Login(username, password string) error {
	user, ok := a.s.account(username)
	if !ok {
		return imapserver.ErrAuthFailed
	}
	return a.SessionIMAP4rev2.Login(user, password)
}

// AuthenticateMechanisms is what AUTHENTICATE takes: PLAIN, and the
// OAuth2 ones with Config.CheckToken.
func (a *addressLogin) AuthenticateMechanisms() []string {
	if a.s.cfg.CheckToken == nil {
		return []string{sasl.Plain}
	}
	return []string{sasl.Plain, xoauth2.Mechanism, sasl.OAuthBearer}
}

// Authenticate is AUTHENTICATE: PLAIN as the library's server does it,
// and XOAUTH2 and OAUTHBEARER with Config.CheckToken.
func (a *addressLogin) Authenticate(mech string) (sasl.Server, error) {
	refused := &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Invalid credentials (Failure)"}
	token := func(login, token string) error {
		user, ok := a.s.account(login)
		if !ok || !a.s.cfg.CheckToken(login, token) {
			return refused
		}
		return a.SessionIMAP4rev2.Login(user, a.s.cfg.Users[user])
	}
	switch {
	case mech == sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			if identity != "" && identity != username {
				return &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthorizationFailed, Text: "SASL identity not supported"}
			}
			return a.Login(username, password)
		}), nil
	case a.s.cfg.CheckToken == nil:
	case mech == xoauth2.Mechanism:
		return imapRefusal{xoauth2.NewServer(token), refused}, nil
	case mech == sasl.OAuthBearer:
		return imapRefusal{sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if token(o.Username, o.Token) != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		}), refused}, nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}

// imapRefusal ends a refused OAuth2 login with NO [AUTHENTICATIONFAILED],
// as providers do, where the library's server would send the SASL
// server's error as it is.
type imapRefusal struct {
	sasl.Server
	refused *imap.Error
}

func (r imapRefusal) Next(response []byte) ([]byte, bool, error) {
	challenge, done, err := r.Server.Next(response)
	var ierr *imap.Error
	if err != nil && !errors.As(err, &ierr) {
		err = r.refused
	}
	return challenge, done, err
}

// account returns the account a login name means: the name itself, or the
// local part of an address on Domain, in lower case.
func (s *System) account(login string) (string, bool) {
	user := login
	if i := strings.LastIndexByte(login, '@'); i >= 0 {
		if !strings.EqualFold(login[i+1:], s.Domain) {
			return "", false
		}
		user = login[:i]
	}
	user = strings.ToLower(user)
	_, ok := s.cfg.Users[user]
	return user, ok
}

// Stop closes both servers and their connections. The mailboxes' content
// is lost.
func (s *System) Stop() error {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	s.mu.Unlock()
	if s.stopCtx != nil {
		s.stopCtx()
	}
	var errs []error
	if err := s.SuspendIMAP(); err != nil {
		errs = append(errs, err)
	}
	if s.smtp != nil {
		if err := s.smtp.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// SuspendIMAP closes the IMAP server and drops its connections, keeping
// the mailboxes: clients see the server go down. ResumeIMAP brings it back
// on the same address.
func (s *System) SuspendIMAP() error {
	s.mu.Lock()
	srv, done := s.imap, s.imapDone
	s.imap = nil
	s.mu.Unlock()
	if srv == nil {
		return nil
	}
	err := srv.Close()
	<-done
	return err
}

// ResumeIMAP starts the IMAP server again on the address it had.
func (s *System) ResumeIMAP() error {
	s.mu.Lock()
	running, stopped := s.imap != nil, s.stopped
	addr := s.IMAPAddr
	s.mu.Unlock()
	if running || stopped || s.cfg.Deliver != nil {
		return errors.New("localmail: IMAP server is running, stopped for good, or not used")
	}
	// The old port may linger in TIME_WAIT for a moment.
	var err error
	for range 50 {
		if err = s.startIMAP(addr); err == nil {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// Address returns the mail address of user.
func (s *System) Address(user string) string { return user + "@" + s.Domain }

// Password returns user's password.
func (s *System) Password(user string) string { return s.cfg.Users[user] }

// Append stores msg in user's mailbox (INBOX if mailbox is ""), as if
// delivered, without going through SMTP.
func (s *System) Append(ctx context.Context, user, mailbox string, msg []byte) error {
	if mailbox == "" {
		mailbox = "INBOX"
	}
	if s.cfg.Deliver != nil && mailbox == "INBOX" {
		return s.cfg.Deliver(ctx, user, msg)
	}
	u := s.users[user]
	if u == nil {
		return fmt.Errorf("localmail: no user %q", user)
	}
	_, err := u.Append(mailbox, bytes.NewReader(msg), &imap.AppendOptions{Time: time.Now()})
	s.announce()
	return err
}

// Message is a stored message as Messages lists it.
type Message struct {
	UID   uint32
	Flags []string
	Raw   []byte
}

// Messages logs in as user over IMAP and returns the messages of mailbox
// (INBOX if ""), oldest first, without changing their flags.
func (s *System) Messages(ctx context.Context, user, mailbox string) ([]Message, error) {
	s.mu.Lock()
	addr := s.IMAPAddr
	s.mu.Unlock()
	if addr == "" {
		return nil, errors.New("localmail: no IMAP server (Config.Deliver is set)")
	}
	return ReadMailbox(ctx, addr, user, s.cfg.Users[user], mailbox)
}

// Login opens a clear-text IMAP connection to addr as user: to this
// system, or to a test's Dovecot on loopback.
func Login(ctx context.Context, addr, user, password string) (*imapclient.Client, error) {
	d := net.Dialer{Timeout: 10 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	c := imapclient.New(conn, nil)
	if err := c.Login(user, password).Wait(); err != nil {
		c.Close()
		return nil, fmt.Errorf("localmail: login as %s: %w", user, err)
	}
	return c, nil
}

// ReadMailbox logs in to the IMAP server at addr (clear text: loopback
// only) as user and returns the messages of mailbox (INBOX if ""), oldest
// first, without changing their flags. It works with any IMAP server:
// tests read a Dovecot's mailboxes with it too.
func ReadMailbox(ctx context.Context, addr, user, password, mailbox string) ([]Message, error) {
	if mailbox == "" {
		mailbox = "INBOX"
	}
	c, err := Login(ctx, addr, user, password)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("localmail: select %s: %w", mailbox, err)
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	bufs, err := c.Fetch(imap.SeqSet{imap.SeqRange{Start: 1, Stop: 0}}, &imap.FetchOptions{
		UID: true, Flags: true, BodySection: []*imap.FetchItemBodySection{section},
	}).Collect()
	if err != nil {
		return nil, fmt.Errorf("localmail: fetch %s: %w", mailbox, err)
	}
	var out []Message
	for _, b := range bufs {
		m := Message{UID: uint32(b.UID), Raw: b.FindBodySection(section)}
		for _, f := range b.Flags {
			m.Flags = append(m.Flags, string(f))
		}
		out = append(out, m)
	}
	c.Logout().Wait()
	return out, nil
}
