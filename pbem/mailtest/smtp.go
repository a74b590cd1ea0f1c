package mailtest

import (
	"bytes"
	"crypto/tls"
	"io"
	"maps"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// SMTPOptions says what kind of submission server StartSMTP runs.
type SMTPOptions struct {
	// Users are the accounts that may log in, name to password; default
	// {"games": "games-secret"}.
	Users map[string]string
	// Mechanisms are the AUTH mechanisms offered, of "PLAIN" and
	// "LOGIN"; default both.
	Mechanisms []string
	// Cert, when set, is offered with STARTTLS, and AUTH only after it
	// (as every submission server does). Without it the server speaks
	// clear text and offers AUTH at once (loopback).
	Cert *Cert
	// Refuse answers RCPT TO for these recipients (lower case) with an
	// error, as a server does for an unknown user.
	Refuse map[string]*smtp.SMTPError
}

// SMTPServer is a submission server on 127.0.0.1 for one test: it takes
// mail only after a login, for any recipient not refused, and keeps what
// it took.
type SMTPServer struct {
	// Addr is its host:port.
	Addr string

	o      SMTPOptions
	srv    *smtp.Server
	mu     sync.Mutex
	got    []Delivery
	failed int // logins refused
}

// Delivery is one message the server took, for one recipient.
type Delivery struct {
	From, To string
	Data     []byte
}

// StartSMTP starts a submission server and stops it when the test ends.
func StartSMTP(t testing.TB, o SMTPOptions) *SMTPServer {
	t.Helper()
	if o.Users == nil {
		o.Users = map[string]string{"games": "games-secret"}
	}
	o.Users, o.Refuse = maps.Clone(o.Users), maps.Clone(o.Refuse)
	if o.Mechanisms == nil {
		o.Mechanisms = []string{sasl.Plain, sasl.Login}
	}
	s := &SMTPServer{o: o}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "localhost"
	s.srv.ErrorLog = quietLog{}
	if o.Cert != nil {
		s.srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{o.Cert.TLS}}
	} else {
		s.srv.AllowInsecureAuth = true
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.Addr = ln.Addr().String()
	go s.srv.Serve(ln)
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// Deliveries returns what the server took so far, in order.
func (s *SMTPServer) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.got...)
}

// FailedLogins returns how many logins the server refused.
func (s *SMTPServer) FailedLogins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failed
}

// SetRefused makes the server answer RCPT TO for recipient with e, or, with
// e nil, take it again.
func (s *SMTPServer) SetRefused(recipient string, e *smtp.SMTPError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.o.Refuse == nil {
		s.o.Refuse = map[string]*smtp.SMTPError{}
	}
	if e == nil {
		delete(s.o.Refuse, strings.ToLower(recipient))
	} else {
		s.o.Refuse[strings.ToLower(recipient)] = e
	}
}

// SetPassword changes an account's password (the operator's mail admin
// at work).
func (s *SMTPServer) SetPassword(user, password string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Users[user] = password
}

func (s *SMTPServer) NewSession(*smtp.Conn) (smtp.Session, error) { return &smtpSession{s: s}, nil }

type smtpSession struct {
	s        *SMTPServer
	loggedIn bool
	from     string
	to       []string
}

func (se *smtpSession) AuthMechanisms() []string { return se.s.o.Mechanisms }

func (se *smtpSession) Auth(mech string) (sasl.Server, error) {
	check := func(user, pass string) error {
		se.s.mu.Lock()
		defer se.s.mu.Unlock()
		if want, ok := se.s.o.Users[user]; !ok || want != pass {
			se.s.failed++
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Authentication credentials invalid"}
		}
		se.loggedIn = true
		return nil
	}
	offered := false
	for _, m := range se.s.o.Mechanisms {
		offered = offered || strings.EqualFold(m, mech)
	}
	switch {
	case !offered:
	case strings.EqualFold(mech, sasl.Plain):
		return sasl.NewPlainServer(func(identity, user, pass string) error { return check(user, pass) }), nil
	case strings.EqualFold(mech, sasl.Login):
		return &loginServer{check: check}, nil
	}
	return nil, &smtp.SMTPError{Code: 504, EnhancedCode: smtp.EnhancedCode{5, 5, 4}, Message: "Unrecognized authentication type"}
}

// loginServer is the server side of AUTH LOGIN, as the servers that offer
// only it speak: "Username:", then "Password:", each a challenge. An
// initial response is the user name.
type loginServer struct {
	check func(user, pass string) error
	user  *string
}

func (l *loginServer) Next(response []byte) ([]byte, bool, error) {
	if l.user == nil {
		if response == nil {
			return []byte("Username:"), false, nil
		}
		user := string(response)
		l.user = &user
		return []byte("Password:"), false, nil
	}
	if err := l.check(*l.user, string(response)); err != nil {
		return nil, false, err
	}
	return nil, true, nil
}

func (se *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	if !se.loggedIn {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}
	}
	se.from = from
	return nil
}

func (se *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	se.s.mu.Lock()
	e := se.s.o.Refuse[strings.ToLower(to)]
	se.s.mu.Unlock()
	if e != nil {
		return e
	}
	se.to = append(se.to, to)
	return nil
}

func (se *smtpSession) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	se.s.mu.Lock()
	defer se.s.mu.Unlock()
	for _, to := range se.to {
		se.s.got = append(se.s.got, Delivery{From: se.from, To: to, Data: bytes.Clone(b)})
	}
	return nil
}

func (se *smtpSession) Reset() { se.from, se.to = "", nil }

func (se *smtpSession) Logout() error { return nil }

type quietLog struct{}

func (quietLog) Printf(string, ...any) {}
func (quietLog) Println(...any)        {}
