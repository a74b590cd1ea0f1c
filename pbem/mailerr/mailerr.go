// Package mailerr decides whether an error met while handling or sending
// mail may pass: IsTemporary.
//
// It exists so that the daemon (package pbem) and the mail adapters
// (package pbem/mailbox) make one decision, not two that disagree. It
// cannot live in pbem, which imports pbem/mailbox; and it must know the
// errors of every layer a mail goes through: SQLite's, the network's,
// SMTP's and IMAP's.
package mailerr

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"io"
	"net"
	"syscall"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
	"github.com/mattn/go-sqlite3"
)

// IsTemporary reports whether err may pass: whether the same work (handling
// the same mail, sending the same reply), tried again later unchanged, may
// succeed. A temporary failure says nothing about the mail; it says that
// something the mail needs is not there now. The caller keeps the work and
// tries again with backoff. A permanent failure is one that will recur for
// this mail every time: the caller sets the mail aside and goes on with
// the next, so that one bad mail never holds up the others.
//
// Temporary:
//   - a context that ended (context.Canceled, context.DeadlineExceeded):
//     the work was stopped, not refused;
//   - SQLite busy or locked, and the database's own troubles (interrupted,
//     out of memory, I/O error, disk full, cannot open, read-only, lock
//     protocol): the mail is fine, the database is not, and every mail
//     would fail alike; a closed or bad database connection too;
//   - the network: *net.OpError (connection refused, reset, unreachable,
//     timed out), *net.DNSError, net.ErrClosed, io.EOF and
//     io.ErrUnexpectedEOF (a connection closed under a reader), the
//     network and resource errnos (ECONNREFUSED, ECONNRESET, EPIPE,
//     ETIMEDOUT, EMFILE, ENOSPC, ...), and any error whose Timeout method
//     says true;
//   - an SMTP reply other than 5xx (4xx: "try again later", RFC 5321);
//   - an IMAP BYE, or a NO with the response code UNAVAILABLE, INUSE or
//     LIMIT (RFC 5530).
//
// Permanent:
//   - an SMTP 5xx reply: RFC 5321's "permanent negative completion", the
//     same command will be refused again (an unknown recipient, a message
//     refused as spam or too large, and also refused credentials, which
//     the operator must fix);
//   - an IMAP NO or BAD with another code or none;
//   - any other SQLite error (constraint, SQL logic error, corrupt page):
//     a bug, or stored data that no longer fits the code;
//   - every error not named here.
//
// An error may also say what it is with a method Temporary() bool (as
// *mailbox.SendError does); that is believed, except from *net.OpError,
// *net.DNSError and syscall.Errno, decided above: their Temporary method
// is deprecated and says false for a refused connection.
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
func IsTemporary(err error) bool {
	temp, _ := decide(err)
	return temp
}

// decide walks err's chain, outermost first (as errors.As does), and
// returns the verdict of the first error it recognises.
func decide(err error) (temp, known bool) {
	for err != nil {
		if temp, known := classify(err); known {
			return temp, true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if temp, known := decide(e); known {
					return temp, true
				}
			}
			return false, false
		default:
			return false, false
		}
	}
	return false, false
}

// classify says what one error (not its chain) is, when it knows.
func classify(err error) (temp, known bool) {
	switch err {
	case context.Canceled, context.DeadlineExceeded,
		io.EOF, io.ErrUnexpectedEOF, net.ErrClosed,
		sql.ErrConnDone, driver.ErrBadConn:
		return true, true
	}
	switch e := err.(type) {
	case sqlite3.Error:
		return sqliteTemporary(e.Code), true
	case *sqlite3.Error:
		return sqliteTemporary(e.Code), true
	case sqlite3.ErrNo:
		return sqliteTemporary(e), true
	case *smtp.SMTPError:
		return e.Code/100 != 5, true
	case *imap.Error:
		return imapTemporary(e), true
	case *net.OpError, *net.DNSError:
		return true, true
	case syscall.Errno:
		return errnoTemporary(e), true
	case interface{ Temporary() bool }:
		return e.Temporary(), true
	case interface{ Timeout() bool }:
		if e.Timeout() {
			return true, true
		}
	}
	return false, false
}

func sqliteTemporary(code sqlite3.ErrNo) bool {
	switch code {
	case sqlite3.ErrBusy, sqlite3.ErrLocked, sqlite3.ErrInterrupt,
		sqlite3.ErrNomem, sqlite3.ErrIoErr, sqlite3.ErrFull,
		sqlite3.ErrCantOpen, sqlite3.ErrReadonly, sqlite3.ErrProtocol:
		return true
	}
	return false
}

func imapTemporary(e *imap.Error) bool {
	if e.Type == imap.StatusResponseTypeBye {
		return true
	}
	switch e.Code {
	case imap.ResponseCodeUnavailable, imap.ResponseCodeInUse, imap.ResponseCodeLimit:
		return true
	}
	return false
}

func errnoTemporary(e syscall.Errno) bool {
	switch e {
	case syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.ECONNABORTED,
		syscall.EPIPE, syscall.ETIMEDOUT, syscall.EHOSTUNREACH,
		syscall.ENETUNREACH, syscall.ENETDOWN, syscall.EAGAIN,
		syscall.EINTR, syscall.EMFILE, syscall.ENFILE, syscall.ENOSPC,
		syscall.ENOBUFS:
		return true
	}
	return false
}
