// Package mailerr decides what an error met while handling or sending
// mail says about the work: Classify, and IsTemporary.
//
// It exists so that the daemon (package pbem) and the mail adapters
// (package pbem/mailbox) make one decision, not two that disagree. It
// cannot live in pbem, which imports pbem/mailbox; and it must know the
// errors of every layer a mail goes through: SQLite's, the network's,
// TLS's, SMTP's and IMAP's.
//
// An error is of one of three kinds. Temporary and Permanent are about
// the work (this mail, this reply); Operator is about neither: the
// operator's settings or servers are wrong, every mail would fail alike,
// and no mail may be given up for it.
package mailerr

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"database/sql/driver"
	"io"
	"net"
	"syscall"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
	"github.com/mattn/go-sqlite3"
)

// Kind is what an error says about the work that met it, and so what the
// caller does with the work.
type Kind uint8

const (
	// Permanent: the same work will fail again every time. The caller
	// sets the mail aside (or gives the reply up) and goes on with the
	// next. It is the zero Kind: an error not recognised is permanent.
	Permanent Kind = iota
	// Temporary: something the work needs is not there now. The caller
	// keeps the work and tries again with backoff.
	Temporary
	// Operator: an operator fault. The operator's settings or mail
	// servers are wrong (a login refused, a certificate not trusted, TLS
	// where the server speaks none, no server at the address), so every
	// mail would fail alike, and none is to blame. The caller keeps every
	// mail, stops what cannot work (sending), does not count the time
	// toward giving anything up, and logs at Error level what to fix
	// (Advice), again hourly while it lasts (Reminder).
	Operator
)

func (k Kind) String() string {
	switch k {
	case Temporary:
		return "temporary"
	case Operator:
		return "operator fault"
	}
	return "permanent"
}

// IsTemporary reports whether the work should be kept and tried again:
// true for Temporary and for Operator faults, which pass when the
// operator fixes them. See Classify.
func IsTemporary(err error) bool { return Classify(err) != Permanent }

// IsOperator reports whether err is an operator fault.
func IsOperator(err error) bool { return Classify(err) == Operator }

// Classify says what kind of error err is: whether the same work (handling
// the same mail, sending the same reply), tried again later unchanged, may
// succeed (Temporary), needs the operator first (Operator), or will never
// (Permanent). A temporary failure says nothing about the mail; it says
// that something the mail needs is not there now. A permanent failure is
// one that will recur for this mail every time: the caller sets the mail
// aside and goes on with the next, so that one bad mail never holds up
// the others.
//
// Operator faults:
//   - an SMTP reply that refuses the client rather than the mail: 530
//     (a login is required), 534 (the mechanism is too weak), 535 (the
//     credentials are wrong), 538 (encryption is required for it);
//   - an IMAP NO with the response code AUTHENTICATIONFAILED,
//     AUTHORIZATIONFAILED, EXPIRED or PRIVACYREQUIRED (RFC 5530);
//   - TLS: a certificate not trusted, not valid for the name checked, or
//     expired (crypto/x509's errors), a server that does not speak TLS
//     where TLS was expected (tls.RecordHeaderError), a server that
//     speaks TLS at once where plain text was expected
//     (*ImplicitTLSError), and an alert the server sent in the
//     handshake;
//   - a refused connection (ECONNREFUSED: no server at the address), and
//     a host name that does not exist (*net.DNSError with IsNotFound);
//   - what a *StepError says from the step it came at (At): any failure
//     that is not temporary while connecting, securing, logging in or
//     selecting the mailbox (it is about the server and the settings,
//     never about a mail), including an SMTP 454 or 504 answering AUTH;
//     and an SMTP 5xx answering MAIL FROM, which refuses the server's own
//     address for every mail.
//
// Temporary:
//   - a context that ended (context.Canceled, context.DeadlineExceeded):
//     the work was stopped, not refused;
//   - SQLite busy or locked, and the database's own troubles (interrupted,
//     out of memory, I/O error, disk full, cannot open, read-only, lock
//     protocol): the mail is fine, the database is not, and every mail
//     would fail alike; a closed or bad database connection too;
//   - the network: *net.OpError (reset, unreachable, timed out),
//     *net.DNSError, net.ErrClosed, io.EOF and io.ErrUnexpectedEOF (a
//     connection closed under a reader), the network and resource errnos
//     (ECONNRESET, EPIPE, ETIMEDOUT, EMFILE, ENOSPC, ...), and any error
//     whose Timeout method says true;
//   - an SMTP reply other than 5xx (4xx: "try again later", RFC 5321);
//   - an IMAP BYE, or a NO with the response code UNAVAILABLE, INUSE or
//     LIMIT (RFC 5530).
//
// Permanent:
//   - an SMTP 5xx reply about the mail: RFC 5321's "permanent negative
//     completion" answering RCPT TO or DATA (an unknown recipient, a
//     message refused as spam or too large);
//   - an IMAP NO or BAD with another code or none, outside a login;
//   - any other SQLite error (constraint, SQL logic error, corrupt page):
//     a bug, or stored data that no longer fits the code;
//   - every error not named here.
//
// An error may also say what it is, with a method Kind() Kind (as
// *mailbox.SendError does) or Temporary() bool; that is believed, except
// from *net.OpError, *net.DNSError and syscall.Errno, decided above:
// their Temporary method is deprecated and says false for a refused
// connection.
//
// The chain of wrapped errors is read outermost first and the first error
// recognised decides, so a wrapper can overrule what it wraps.
//
// Unknown errors are permanent on purpose. Retrying one that will not pass
// holds up every mail behind it, forever and silently; calling permanent
// one that would have passed costs one mail, set aside with its cause in
// the log and kept in the rejected folder for the operator. The adapters
// wrap what they return (a send failure on the way to the SMTP server is a
// temporary *mailbox.SendError), so an unknown error is in practice a bug.
func Classify(err error) Kind {
	k, _ := decide(err)
	return k
}

// decide walks err's chain, outermost first (as errors.As does), and
// returns the verdict of the first error it recognises.
func decide(err error) (kind Kind, known bool) {
	for err != nil {
		if k, known := classify(err); known {
			return k, true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if k, known := decide(e); known {
					return k, true
				}
			}
			return Permanent, false
		default:
			return Permanent, false
		}
	}
	return Permanent, false
}

// classify says what one error (not its chain) is, when it knows.
func classify(err error) (kind Kind, known bool) {
	switch err {
	case context.Canceled, context.DeadlineExceeded,
		io.EOF, io.ErrUnexpectedEOF, net.ErrClosed,
		sql.ErrConnDone, driver.ErrBadConn:
		return Temporary, true
	}
	switch e := err.(type) {
	case *StepError:
		return e.kind(), true
	case sqlite3.Error:
		return sqliteKind(e.Code), true
	case *sqlite3.Error:
		return sqliteKind(e.Code), true
	case sqlite3.ErrNo:
		return sqliteKind(e), true
	case *smtp.SMTPError:
		return smtpKind(e.Code), true
	case *imap.Error:
		return imapKind(e), true
	case *tls.CertificateVerificationError, x509.UnknownAuthorityError,
		x509.HostnameError, x509.CertificateInvalidError, x509.SystemRootsError,
		tls.RecordHeaderError, tls.AlertError:
		return Operator, true
	case *net.OpError:
		// A TLS alert the server sent; or what the dial met (a refused
		// connection, a certificate): the rest of the network passes.
		if e.Op == "remote error" {
			return Operator, true
		}
		if k, _ := decide(e.Err); k == Operator {
			return Operator, true
		}
		return Temporary, true
	case *net.DNSError:
		if e.IsNotFound {
			return Operator, true
		}
		return Temporary, true
	case syscall.Errno:
		return errnoKind(e), true
	case interface{ Kind() Kind }:
		return e.Kind(), true
	case interface{ Temporary() bool }:
		if e.Temporary() {
			return Temporary, true
		}
		return Permanent, true
	case interface{ Timeout() bool }:
		if e.Timeout() {
			return Temporary, true
		}
	}
	return Permanent, false
}

// smtpKind is what an SMTP reply code says, wherever it came.
func smtpKind(code int) Kind {
	switch code {
	case 530, 534, 535, 538:
		return Operator
	}
	if code/100 == 5 {
		return Permanent
	}
	return Temporary
}

func sqliteKind(code sqlite3.ErrNo) Kind {
	switch code {
	case sqlite3.ErrBusy, sqlite3.ErrLocked, sqlite3.ErrInterrupt,
		sqlite3.ErrNomem, sqlite3.ErrIoErr, sqlite3.ErrFull,
		sqlite3.ErrCantOpen, sqlite3.ErrReadonly, sqlite3.ErrProtocol:
		return Temporary
	}
	return Permanent
}

func imapKind(e *imap.Error) Kind {
	if e.Type == imap.StatusResponseTypeBye {
		return Temporary
	}
	switch e.Code {
	case imap.ResponseCodeUnavailable, imap.ResponseCodeInUse, imap.ResponseCodeLimit:
		return Temporary
	case imap.ResponseCodeAuthenticationFailed, imap.ResponseCodeAuthorizationFailed,
		imap.ResponseCodeExpired, imap.ResponseCodePrivacyRequired:
		return Operator
	}
	return Permanent
}

func errnoKind(e syscall.Errno) Kind {
	if e == syscall.ECONNREFUSED {
		return Operator
	}
	switch e {
	case syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, syscall.ETIMEDOUT, syscall.EHOSTUNREACH,
		syscall.ENETUNREACH, syscall.ENETDOWN, syscall.EAGAIN,
		syscall.EINTR, syscall.EMFILE, syscall.ENFILE, syscall.ENOSPC,
		syscall.ENOBUFS:
		return Temporary
	}
	return Permanent
}
