package mailtest

import (
	"bytes"
	"crypto/tls"
	"errors"
	"io"
	"maps"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/xoauth2"
)

// SMTPOptions says what kind of submission server StartSMTP runs.
type SMTPOptions struct {
	// Users are the accounts that may log in, name to password; default
	// {"games": "games-secret"}.
	Users map[string]string
	// Mechanisms are the AUTH mechanisms offered, of "PLAIN", "LOGIN",
	// "XOAUTH2" and "OAUTHBEARER"; default PLAIN and LOGIN.
	Mechanisms []string
	// Tokens are the OAuth2 access tokens the server takes with XOAUTH2
	// and OAUTHBEARER, account to token (the provider's check, which a
	// test changes with SetToken, as a refresh does).
	Tokens map[string]string
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
	o.Users, o.Refuse, o.Tokens = maps.Clone(o.Users), maps.Clone(o.Refuse), maps.Clone(o.Tokens)
	if o.Tokens == nil {
		o.Tokens = map[string]string{}
	}
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

// SetToken makes token the one the server takes for user's OAuth2
// logins, in place of the one before (the provider's side of a refresh).
func (s *SMTPServer) SetToken(user, token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.Tokens[user] = token
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
	checkToken := func(user, token string) error {
		se.s.mu.Lock()
		defer se.s.mu.Unlock()
		if want, ok := se.s.o.Tokens[user]; !ok || want != token {
			se.s.failed++
			return errBadToken
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
	case strings.EqualFold(mech, xoauth2.Mechanism):
		return refusal{xoauth2.NewServer(checkToken)}, nil
	case strings.EqualFold(mech, sasl.OAuthBearer):
		return refusal{sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
			if checkToken(o.Username, o.Token) != nil {
				return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
			}
			return nil
		})}, nil
	}
	return nil, &smtp.SMTPError{Code: 504, EnhancedCode: smtp.EnhancedCode{5, 5, 4}, Message: "Unrecognized authentication type"}
}

// errBadToken is what a provider answers to a token expired or revoked
// (Gmail's words).
var errBadToken = &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Username and Password not accepted"}

// refusal ends a refused OAuth2 login with 535, as providers do, where
// go-smtp's server would answer the SASL server's error with 454.
type refusal struct{ sasl.Server }

func (r refusal) Next(response []byte) ([]byte, bool, error) {
	challenge, done, err := r.Server.Next(response)
	var se *smtp.SMTPError
	if err != nil && !errors.As(err, &se) {
		err = errBadToken
	}
	return challenge, done, err
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
