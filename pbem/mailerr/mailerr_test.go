package mailerr_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"syscall"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
	"github.com/mattn/go-sqlite3"

	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
)

// says is an error that says whether it is temporary.
type says struct {
	temp bool
	err  error
}

func (e says) Error() string   { return fmt.Sprintf("says %v: %v", e.temp, e.err) }
func (e says) Unwrap() error   { return e.err }
func (e says) Temporary() bool { return e.temp }

// timeout is an error with only a Timeout method.
type timeout bool

func (t timeout) Error() string { return "timeout?" }
func (t timeout) Timeout() bool { return bool(t) }

func TestIsTemporary(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	busy := sqlite3.Error{Code: sqlite3.ErrBusy, ExtendedCode: sqlite3.ErrBusySnapshot}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},

		// Unknown errors will not pass: a bug, or data that no longer fits.
		{"unknown", errors.New("boom"), false},
		{"unknown-wrapped", fmt.Errorf("pbem: %w", errors.New("boom")), false},
		{"record-no-longer-replays", fmt.Errorf("game %d: the stored record no longer replays: %v", 1, errors.New("line 1: garbage")), false},
		{"sql-tx-done", sql.ErrTxDone, false},
		{"sql-no-rows", fmt.Errorf("pbem: %w", sql.ErrNoRows), false},
		{"file-not-found", &fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, false},

		// The context ended: stopped, not refused.
		{"context-canceled", context.Canceled, true},
		{"context-deadline", fmt.Errorf("pbem: begin: %w", context.DeadlineExceeded), true},
		{"context-in-join", errors.Join(errors.New("boom"), context.Canceled), true},

		// SQLite: the database's troubles pass, the rest does not.
		{"sqlite-busy", busy, true},
		{"sqlite-busy-wrapped", fmt.Errorf("pbem: %w", busy), true},
		{"sqlite-busy-pointer", &busy, true},
		{"sqlite-locked", sqlite3.Error{Code: sqlite3.ErrLocked}, true},
		{"sqlite-full", sqlite3.Error{Code: sqlite3.ErrFull}, true},
		{"sqlite-ioerr", sqlite3.Error{Code: sqlite3.ErrIoErr, ExtendedCode: sqlite3.ErrIoErrWrite}, true},
		{"sqlite-errno-busy", sqlite3.ErrBusy, true},
		{"sqlite-constraint", sqlite3.Error{Code: sqlite3.ErrConstraint, ExtendedCode: sqlite3.ErrConstraintUnique}, false},
		{"sqlite-sql-logic", sqlite3.Error{Code: sqlite3.ErrError}, false},
		{"sqlite-corrupt", sqlite3.Error{Code: sqlite3.ErrCorrupt}, false},
		{"sql-conn-done", sql.ErrConnDone, true},

		// The network.
		{"connection-refused", refused, true},
		{"connection-refused-wrapped", fmt.Errorf("mailbox: dial: %w", refused), true},
		{"connection-reset", syscall.ECONNRESET, true},
		{"broken-pipe", &net.OpError{Op: "write", Err: os.NewSyscallError("write", syscall.EPIPE)}, true},
		{"dns", &net.DNSError{Err: "no such host", Name: "mail.example.org", IsNotFound: true}, true},
		{"eof", io.EOF, true},
		{"unexpected-eof-wrapped", fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		{"closed-conn", net.ErrClosed, true},
		{"deadline-on-conn", os.ErrDeadlineExceeded, true},
		{"timeout-method", timeout(true), true},
		{"no-timeout-method", timeout(false), false},
		{"bad-address", &net.AddrError{Err: "missing port in address", Addr: "mail.example.org"}, false},

		// SMTP: 4xx try again later, 5xx refused for good (RFC 5321).
		{"smtp-421", &smtp.SMTPError{Code: 421, Message: "busy"}, true},
		{"smtp-451", fmt.Errorf("send: %w", &smtp.SMTPError{Code: 451, Message: "try later"}), true},
		{"smtp-550", &smtp.SMTPError{Code: 550, Message: "no such user"}, false},
		{"smtp-554", &smtp.SMTPError{Code: 554, Message: "spam"}, false},
		{"send-error-temp", &mailbox.SendError{Code: 451, Temp: true, Err: errors.New("x")}, true},
		{"send-error-perm", &mailbox.SendError{Code: 550, Err: errors.New("x")}, false},

		// IMAP.
		{"imap-bye", &imap.Error{Type: imap.StatusResponseTypeBye, Text: "shutting down"}, true},
		{"imap-unavailable", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable}, true},
		{"imap-inuse", fmt.Errorf("mailbox: %w", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeInUse}), true},
		{"imap-no-trycreate", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeTryCreate}, false},
		{"imap-bad", &imap.Error{Type: imap.StatusResponseTypeBad, Text: "syntax"}, false},

		// An error that says what it is, and the outermost says last.
		{"says-temporary", says{temp: true, err: errors.New("x")}, true},
		{"says-permanent", says{temp: false, err: errors.New("x")}, false},
		{"permanent-over-busy", says{temp: false, err: busy}, false},
		{"temporary-over-constraint", fmt.Errorf("x: %w", says{temp: true, err: sqlite3.Error{Code: sqlite3.ErrConstraint}}), true},
		{"send-error-over-smtp-550", &mailbox.SendError{Code: 550, Temp: true, Err: &smtp.SMTPError{Code: 550}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mailerr.IsTemporary(tc.err); got != tc.want {
				t.Errorf("IsTemporary(%#v) = %v, want %v", tc.err, got, tc.want)
			}
			if got := mailbox.IsTemporary(tc.err); got != tc.want {
				t.Errorf("mailbox.IsTemporary(%v) = %v, want %v: the adapters decide otherwise", tc.err, got, tc.want)
			}
		})
	}
}

// Real errors, not made up: a refused connection and a busy database.
func TestIsTemporaryReal(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = net.Dial("tcp", addr)
	if err == nil || !mailerr.IsTemporary(err) {
		t.Errorf("dialling a closed port: %v, temporary %v", err, mailerr.IsTemporary(err))
	}

	path := t.TempDir() + "/busy.db"
	hold, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	ctx := context.Background()
	conn, err := hold.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE; CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=0&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.BeginTx(ctx, nil)
	if err == nil {
		tx.Rollback()
		t.Fatal("a second writer got the database")
	}
	if !mailerr.IsTemporary(fmt.Errorf("pbem: begin: %w", err)) {
		t.Errorf("a busy database: %v (%#v) is not temporary", err, err)
	}
	conn.ExecContext(ctx, `ROLLBACK`)
}
