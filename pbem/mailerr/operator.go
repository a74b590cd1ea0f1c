package mailerr

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// Step is what a mail client was doing when an error came. The same
// answer means different things at different steps: a 454 answering AUTH
// is a login the server cannot check, answering RCPT a mailbox full for
// now; a 550 answering MAIL FROM refuses the server's own address, for
// every mail, and answering RCPT TO one recipient.
type Step uint8

const (
	// StepDial is connecting: the TCP connection, TLS for implicit TLS,
	// and the greeting.
	StepDial Step = iota + 1
	// StepTLS is STARTTLS, its handshake and the greeting after it.
	StepTLS
	// StepLogin is IMAP LOGIN or AUTHENTICATE, SMTP AUTH.
	StepLogin
	// StepSelect is the IMAP SELECT of the mailbox to read.
	StepSelect
	// StepSender is SMTP MAIL FROM.
	StepSender
	// StepRecipient is SMTP RCPT TO.
	StepRecipient
	// StepData is SMTP DATA and the message.
	StepData
)

func (s Step) String() string {
	switch s {
	case StepDial:
		return "connect"
	case StepTLS:
		return "starttls"
	case StepLogin:
		return "login"
	case StepSelect:
		return "select"
	case StepSender:
		return "MAIL FROM"
	case StepRecipient:
		return "RCPT TO"
	case StepData:
		return "DATA"
	}
	return "step?"
}

// setup reports whether the step sets the connection up, before any mail.
func (s Step) setup() bool { return s <= StepSelect }

// StepError is an error a mail client met at a step of its talk with a
// server, so that Classify can read the answer in its context and Advice
// can say which setting to look at.
type StepError struct {
	// Proto is "IMAP" or "SMTP"; its lower case names the config's
	// section ([imap], [smtp]).
	Proto string
	// Addr is the server's host:port.
	Addr string
	Step Step
	Err  error
}

// At wraps err (nil stays nil) with the step it came at.
func At(proto, addr string, step Step, err error) error {
	if err == nil {
		return nil
	}
	return &StepError{Proto: proto, Addr: addr, Step: step, Err: err}
}

func (e *StepError) Error() string {
	return fmt.Sprintf("%s %s at %s: %v", e.Proto, e.Step, e.Addr, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// kind reads what e wraps in the light of its step (Classify's rules).
func (e *StepError) kind() Kind {
	k, _ := decide(e.Err)
	var se *smtp.SMTPError
	isSMTP := errors.As(e.Err, &se)
	switch {
	case e.Step.setup():
		// Nothing of any mail is at stake yet: what does not pass is
		// the settings' or the server's.
		if k == Temporary && !(e.Step == StepLogin && isSMTP && se.Code == 454) {
			return Temporary
		}
		return Operator
	case e.Step == StepSender && isSMTP && k == Permanent:
		return Operator
	}
	return k
}

// IsUnreachable reports whether err says that no connection to the server
// was made: refused, no route, a host name that does not exist, a dial
// that timed out. At the start of the daemon that may be a server still
// starting; a refused login or a certificate is not.
func IsUnreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return true
	}
	for _, no := range []syscall.Errno{syscall.ECONNREFUSED, syscall.EHOSTUNREACH, syscall.ENETUNREACH} {
		if errors.Is(err, no) {
			return true
		}
	}
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" && op.Timeout()
}

// Advice says, for an operator fault, what is wrong and which setting to
// look at, in one line for the log and for serve -check: "SMTP login
// refused (535): check [smtp] username and password_env/password_file".
// It returns "" when err is not an operator fault. The settings it names
// are those of the daemon's config file (docs/mail.md); the error itself,
// logged beside it, has the details.
func Advice(err error) string {
	if Classify(err) != Operator {
		return ""
	}
	proto, section, addr := "mail", "the server's", "the server"
	var step Step
	var se *StepError
	if errors.As(err, &se) {
		proto, section, addr, step = se.Proto, "["+strings.ToLower(se.Proto)+"]", se.Addr, se.Step
	}
	var (
		smtpErr  *smtp.SMTPError
		imapErr  *imap.Error
		dns      *net.DNSError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		op       *net.OpError
		oauth    *OAuth2Error
		mech     *MechanismError
		implicit *ImplicitTLSError
	)
	login := section + " username and password_env/password_file"
	switch {
	case errors.As(err, &unknown):
		return fmt.Sprintf("%s certificate of %s is signed by an unknown authority: set %s ca_file to the PEM file of the CA that signed it", proto, addr, section)
	case errors.As(err, &hostname):
		return fmt.Sprintf("%s certificate of %s is not valid for the name checked (%s): set %s server_name to a name it is valid for", proto, addr, hostname.Host, section)
	case errors.As(err, &invalid):
		if invalid.Reason == x509.Expired {
			return fmt.Sprintf("%s certificate of %s has expired or is not valid yet: renew it on the server (or check this machine's clock)", proto, addr)
		}
		return fmt.Sprintf("%s certificate of %s is not valid: %s; fix it on the server", proto, addr, invalid.Detail)
	case errors.As(err, &record):
		return fmt.Sprintf("%s server at %s does not speak TLS from the first byte: set %s tls = \"starttls\" (ports 587, 143), or addr to its TLS port (465, 993)", proto, addr, section)
	case errors.As(err, &implicit):
		return fmt.Sprintf("%s server at %s speaks TLS at once: set %s tls = \"tls\" (ports 465, 993), or addr to its port in plain text (587, 143)", proto, addr, section)
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Sprintf("%s connection to %s refused: check %s addr, and that the server runs", proto, addr, section)
	case errors.As(err, &dns):
		return fmt.Sprintf("%s server %s not found: check %s addr", proto, dns.Name, section)
	case errors.As(err, &op) && op.Op == "remote error":
		return fmt.Sprintf("%s server at %s ended the TLS handshake (%v): check %s tls and the server's TLS settings", proto, addr, op.Err, section)
	case errors.As(err, &mech):
		return fmt.Sprintf("%s server at %s offers no AUTH %s: set %s auth to a mechanism it offers (%s)", proto, addr, mech.Mechanism, section, strings.Join(mech.Offered, " "))
	case errors.As(err, &oauth) && !(errors.As(err, &smtpErr) && smtpErr.Code == 454):
		return oauth2Advice(oauth, proto, section)
	case errors.As(err, &smtpErr):
		code := smtpErr.Code
		switch {
		case code == 530:
			return fmt.Sprintf("SMTP server requires a login (530): set %s", login)
		case code == 534:
			return "SMTP login refused (534): the server wants another mechanism than PLAIN or LOGIN (some providers want an app password, or OAuth2)"
		case code == 538:
			return fmt.Sprintf("SMTP login refused (538): the server wants encryption first: set %s tls to \"starttls\" or \"tls\"", section)
		case code == 504 && step == StepLogin:
			return "SMTP login mechanism refused (504): the server must take AUTH PLAIN or LOGIN"
		case code == 454 && step == StepLogin:
			return fmt.Sprintf("SMTP login failed on the server's side (454): check the server's log and %s", login)
		case step == StepLogin:
			return fmt.Sprintf("SMTP login refused (%d): check %s", code, login)
		case step == StepSender:
			return fmt.Sprintf("SMTP server refuses the sender address (%d): check address, and that %s username may send as it", code, section)
		case step.setup():
			return fmt.Sprintf("SMTP server at %s refuses the connection (%d): check %s addr and tls", addr, code, section)
		}
		return fmt.Sprintf("SMTP login refused (%d): check %s", code, login)
	case errors.As(err, &imapErr) && step == StepSelect:
		return fmt.Sprintf("IMAP mailbox cannot be selected (%s): check %s mailbox", imapErr.Text, section)
	case errors.As(err, &imapErr):
		return fmt.Sprintf("IMAP login refused (%s): check %s", imapErr.Text, login)
	case step == StepLogin:
		return fmt.Sprintf("%s login failed: check %s, and %s tls (servers offer a login only over TLS)", proto, login, section)
	case step == StepTLS:
		return fmt.Sprintf("%s STARTTLS with %s failed: check %s tls (\"tls\" for ports 465 and 993, \"starttls\" for 587 and 143)", proto, addr, section)
	case step != 0:
		return fmt.Sprintf("%s %s at %s failed: check the %s settings", proto, step, addr, section)
	}
	return "a mail server refuses icepost: check the [imap] and [smtp] settings"
}

// Reminder says when to log an operator fault at Error level: when it is
// first met, when another fault takes its place, and once an hour while
// it lasts. In between, the caller logs it at Debug level or not at all,
// so that a fault that lasts a night writes a dozen lines, not a
// thousand. A Reminder is safe for concurrent use; its zero value is
// ready.
type Reminder struct {
	// Every is how often a lasting fault is logged again; default one
	// hour.
	Every time.Duration

	mu     sync.Mutex
	advice string
	since  time.Time
	logged time.Time
}

// Due notes that the fault advice is met at now, and reports whether to
// log it at Error level now.
func (r *Reminder) Due(now time.Time, advice string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	every := r.Every
	if every <= 0 {
		every = time.Hour
	}
	if advice != r.advice || r.since.IsZero() {
		r.advice, r.since, r.logged = advice, now, now
		return true
	}
	if now.Sub(r.logged) >= every {
		r.logged = now
		return true
	}
	return false
}

// Clear notes that the fault is over, and returns when it began: zero when
// there was none, so that the caller logs its end once.
func (r *Reminder) Clear() (since time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	since = r.since
	r.advice, r.since, r.logged = "", time.Time{}, time.Time{}
	return since
}

// ImplicitTLSError says that a server answered in TLS where a greeting
// in plain text was expected: the settings say tls = "starttls" or
// "none", and addr is an implicit-TLS port (465, 993). Such a server
// waits for the client's TLS handshake and says nothing, and the client
// waits for its greeting: without this, the two wait until a timeout
// that names neither. The settings are wrong: an operator fault.
type ImplicitTLSError struct {
	// Mode is the tls setting that expected plain text.
	Mode string
}

func (e *ImplicitTLSError) Error() string {
	return fmt.Sprintf("the server speaks TLS at once (it answered a TLS handshake and sent no greeting in plain text), but tls = %q", e.Mode)
}

// Kind says that it is an operator fault.
func (e *ImplicitTLSError) Kind() Kind { return Operator }
