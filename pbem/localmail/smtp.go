package localmail

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/mailaddr"
)

func (s *System) startSMTP() error {
	srv := smtp.NewServer(&backend{s})
	srv.Domain = s.cfg.Domain
	srv.AllowInsecureAuth = true // loopback only
	srv.MaxMessageBytes = 16 << 20
	srv.MaxRecipients = 100
	srv.ReadTimeout = time.Minute
	srv.WriteTimeout = time.Minute
	srv.ErrorLog = logAdapter{s.cfg.Logger.With("server", "smtp")}
	ln, err := net.Listen("tcp", s.cfg.SMTPAddr)
	if err != nil {
		return fmt.Errorf("localmail: SMTP listen: %w", err)
	}
	s.smtp = srv
	s.SMTPAddr = ln.Addr().String()
	go srv.Serve(ln)
	return nil
}

// backend is the SMTP side: it takes mail from a logged-in account, with
// that account's address as envelope sender and as From (sender.go), for
// local users, and delivers it into their INBOX.
type backend struct{ s *System }

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &session{s: b.s}, nil
}

type session struct {
	s     *System
	user  string   // the account logged in; "" before AUTH
	own   string   // the account's address, canonical (mailaddr); "" before AUTH
	from  string   // the envelope sender: own, once MAIL FROM took it
	rcpts []string // local user names, deduplicated
}

func (se *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (se *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		user, ok := se.s.account(username)
		if !ok || se.s.cfg.Users[user] != password || (identity != "" && identity != username) {
			return &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Invalid credentials"}
		}
		own, err := mailaddr.Canonical(se.s.Address(user))
		if err != nil { // Start checked every account's address
			return err
		}
		se.user, se.own = user, own
		return nil
	}), nil
}

// Mail starts a transaction, for a logged-in account only, and only with
// that account's address as the envelope sender: without a login anyone
// on the machine could write as anyone, and with another sender a login
// could write as another account. The address is compared in its
// canonical form (mailaddr): "Ada@Club.test" is ada's, "+tag" forms and
// look-alikes are not.
func (se *session) Mail(from string, _ *smtp.MailOptions) error {
	if se.user == "" {
		return &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0},
			Message: "Authentication required: log in with your account's name and password"}
	}
	if c, err := mailaddr.Canonical(from); err != nil || c != se.own {
		se.s.cfg.Logger.Info("refused a mail: its MAIL FROM is not the account's address", "account", se.user, "mail_from", mailaddr.Quote(from))
		return &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "MAIL FROM must be your login's address, " + se.own}
	}
	se.from = se.own
	return nil
}

// LocalUser returns the account that address reaches on domain: the local
// part without any "+tag", in lower case (account names are lower case).
// It reports false for another domain.
func LocalUser(address, domain string) (string, bool) {
	i := strings.LastIndexByte(address, '@')
	if i < 0 || !strings.EqualFold(address[i+1:], domain) {
		return "", false
	}
	user, _, _ := strings.Cut(address[:i], "+")
	return strings.ToLower(user), user != ""
}

func (se *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	user, ok := LocalUser(to, se.s.Domain)
	if !ok {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1}, Message: "Relaying denied: not a local domain"}
	}
	if _, ok := se.s.cfg.Users[user]; !ok {
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	}
	for _, r := range se.rcpts {
		if r == user {
			return nil
		}
	}
	se.rcpts = append(se.rcpts, user)
	return nil
}

func (se *session) Data(r io.Reader) error {
	body, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	if err := ownHeader(body, se.own); err != nil {
		se.s.cfg.Logger.Info("refused a mail: its header is not from the account's address alone", "account", se.user, "why", err.Error())
		return &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 7, 1},
			Message: "From must be your login's address, " + se.own + ", alone: " + err.Error()}
	}
	msg := append([]byte("Return-Path: <"+se.from+">\r\n"+se.s.authResults()), withoutAuthResults(body)...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, user := range se.rcpts {
		if err := se.s.Append(ctx, user, "", msg); err != nil {
			se.s.cfg.Logger.Error("delivery failed", "user", user, "err", err)
			return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "Delivery failed, try again later"}
		}
	}
	return nil
}

func (se *session) Reset() {
	se.from = ""
	se.rcpts = nil
}

func (se *session) Logout() error { return nil }

// AuthServID is the authserv-id of the Authentication-Results header the
// SMTP server puts on every mail it takes: the mail domain. A daemon
// that reads this system's mail sets it as its auth_serv_id.
func (s *System) AuthServID() string { return s.Domain }

// authResults is the header that vouches for a mail's sender. The system
// is its domain's only mail server, and it takes a mail only from a
// logged-in account with that account's address as From (ownHeader):
// that is what a DMARC pass for the domain says, and more (the very
// address).
func (s *System) authResults() string {
	return "Authentication-Results: " + s.AuthServID() + "; dmarc=pass header.from=" + s.Domain + "\r\n"
}

// withoutAuthResults drops every Authentication-Results field of msg's
// header: the system is the only server a mail passes here, so any such
// field was written by the sender (RFC 8601 section 5 asks a server to
// drop those that carry its own authserv-id; these carry no other
// server's word either).
func withoutAuthResults(msg []byte) []byte {
	end := bytes.Index(msg, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(msg)
	}
	var out []byte
	skipping := false
	for _, line := range bytes.SplitAfter(msg[:end], []byte("\n")) {
		folded := len(line) > 0 && (line[0] == ' ' || line[0] == '\t')
		if !folded {
			name, _, _ := bytes.Cut(line, []byte(":"))
			skipping = bytes.EqualFold(bytes.TrimSpace(name), []byte("Authentication-Results"))
		}
		if !skipping {
			out = append(out, line...)
		}
	}
	return append(out, msg[end:]...)
}
