package mailerr_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http/httptest"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestClassify is the three kinds, the operator faults above all: what
// refuses the server or its settings rather than one mail.
func TestClassify(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	smtpAt := func(step mailerr.Step, code int) error {
		return mailerr.At("SMTP", "smtp.example.org:587", step, &smtp.SMTPError{Code: code, Message: "x"})
	}
	imapAt := func(step mailerr.Step, e *imap.Error) error {
		return mailerr.At("IMAP", "imap.example.org:993", step, e)
	}
	unknownCA := realTLSError(t, false)
	wrongName := realTLSError(t, true)
	for _, tc := range []struct {
		name string
		err  error
		want mailerr.Kind
	}{
		{"unknown", errors.New("boom"), mailerr.Permanent},
		{"busy", sqlite3.Error{Code: sqlite3.ErrBusy}, mailerr.Temporary},

		// SMTP: the codes that refuse the client, wherever they come.
		{"smtp-530", &smtp.SMTPError{Code: 530}, mailerr.Operator},
		{"smtp-534", &smtp.SMTPError{Code: 534}, mailerr.Operator},
		{"smtp-535", fmt.Errorf("send: %w", &smtp.SMTPError{Code: 535}), mailerr.Operator},
		{"smtp-538", &smtp.SMTPError{Code: 538}, mailerr.Operator},
		{"smtp-530-at-mail", smtpAt(mailerr.StepSender, 530), mailerr.Operator},
		{"smtp-535-at-login", smtpAt(mailerr.StepLogin, 535), mailerr.Operator},
		// The same answer, read at its step.
		{"smtp-454-at-login", smtpAt(mailerr.StepLogin, 454), mailerr.Operator},
		{"smtp-454-at-rcpt", smtpAt(mailerr.StepRecipient, 454), mailerr.Temporary},
		{"smtp-504-at-login", smtpAt(mailerr.StepLogin, 504), mailerr.Operator},
		{"smtp-421-at-login", smtpAt(mailerr.StepLogin, 421), mailerr.Temporary},
		{"smtp-554-greeting", smtpAt(mailerr.StepDial, 554), mailerr.Operator},
		{"smtp-553-at-mail", smtpAt(mailerr.StepSender, 553), mailerr.Operator},
		{"smtp-451-at-mail", smtpAt(mailerr.StepSender, 451), mailerr.Temporary},
		{"no-mechanism-at-login", mailerr.At("SMTP", "a:1", mailerr.StepLogin, errors.New("the server offers AUTH CRAM-MD5")), mailerr.Operator},
		{"no-starttls", mailerr.At("SMTP", "a:1", mailerr.StepTLS, errors.New("smtp: server doesn't support STARTTLS")), mailerr.Operator},
		{"reset-at-dial", mailerr.At("SMTP", "a:1", mailerr.StepDial, &net.OpError{Op: "read", Err: syscall.ECONNRESET}), mailerr.Temporary},
		{"cancelled-at-login", mailerr.At("SMTP", "a:1", mailerr.StepLogin, context.Canceled), mailerr.Temporary},
		// Only an answer about one recipient fails one mail.
		{"smtp-550-at-rcpt", smtpAt(mailerr.StepRecipient, 550), mailerr.Permanent},
		{"smtp-551-at-rcpt", smtpAt(mailerr.StepRecipient, 551), mailerr.Permanent},
		{"smtp-552-at-data", smtpAt(mailerr.StepData, 552), mailerr.Permanent},
		{"smtp-553-at-rcpt", smtpAt(mailerr.StepRecipient, 553), mailerr.Permanent},
		{"smtp-554-at-data", smtpAt(mailerr.StepData, 554), mailerr.Permanent},
		{"smtp-535-at-rcpt", smtpAt(mailerr.StepRecipient, 535), mailerr.Operator},

		// IMAP.
		{"imap-no-at-login", imapAt(mailerr.StepLogin, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Authentication failed."}), mailerr.Operator},
		{"imap-bad-at-login", imapAt(mailerr.StepLogin, &imap.Error{Type: imap.StatusResponseTypeBad, Text: "LOGIN disabled"}), mailerr.Operator},
		{"imap-authenticationfailed", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed}, mailerr.Operator},
		{"imap-unavailable-at-login", imapAt(mailerr.StepLogin, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeUnavailable}), mailerr.Temporary},
		{"imap-no-at-select", imapAt(mailerr.StepSelect, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Mailbox doesn't exist"}), mailerr.Operator},
		{"imap-no-elsewhere", &imap.Error{Type: imap.StatusResponseTypeNo, Text: "no"}, mailerr.Permanent},

		// TLS, real errors and made-up ones.
		{"unknown-ca", unknownCA, mailerr.Operator},
		{"wrong-name", wrongName, mailerr.Operator},
		{"unknown-ca-wrapped-at-dial", mailerr.At("IMAP", "a:1", mailerr.StepDial, fmt.Errorf("dial: %w", unknownCA)), mailerr.Operator},
		{"expired", x509.CertificateInvalidError{Reason: x509.Expired}, mailerr.Operator},
		{"not-tls", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, mailerr.Operator},
		{"alert", &net.OpError{Op: "remote error", Err: errors.New("tls: handshake failure")}, mailerr.Operator},
		{"tls-at-once", mailerr.At("SMTP", "a:465", mailerr.StepDial, &mailerr.ImplicitTLSError{Mode: "starttls"}), mailerr.Operator},

		// The network: refused and not found need the operator; the rest passes.
		{"refused", refused, mailerr.Operator},
		{"refused-errno", syscall.ECONNREFUSED, mailerr.Operator},
		{"not-found", &net.DNSError{Err: "no such host", Name: "smtp.example.org", IsNotFound: true}, mailerr.Operator},
		{"dns-timeout", &net.DNSError{Err: "timeout", Name: "smtp.example.org", IsTimeout: true}, mailerr.Temporary},
		{"reset", &net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, mailerr.Temporary},

		// An error that says its kind.
		{"send-error-operator", &mailbox.SendError{Code: 535, Temp: true, Operator: true, Err: errors.New("x")}, mailerr.Operator},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := mailerr.Classify(tc.err)
			if got != tc.want {
				t.Errorf("Classify(%v) = %v, want %v", tc.err, got, tc.want)
			}
			if temp := mailerr.IsTemporary(tc.err); temp != (tc.want != mailerr.Permanent) {
				t.Errorf("IsTemporary(%v) = %v: an operator fault keeps the work as a temporary failure does", tc.err, temp)
			}
			if advice := mailerr.Advice(tc.err); (advice != "") != (tc.want == mailerr.Operator) {
				t.Errorf("Advice(%v) = %q", tc.err, advice)
			}
		})
	}
}

// realTLSError is what a TLS client says of a certificate from a CA it
// does not know, or (wrongName) for a name the certificate does not hold.
func realTLSError(t *testing.T, wrongName bool) error {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	hs.StartTLS()
	defer hs.Close()
	cfg := &tls.Config{ServerName: "127.0.0.1"}
	if wrongName {
		pool := x509.NewCertPool()
		pool.AddCert(hs.Certificate())
		cfg = &tls.Config{RootCAs: pool, ServerName: "mail.example.org"}
	}
	conn, err := tls.Dial("tcp", hs.Listener.Addr().String(), cfg)
	if err == nil {
		conn.Close()
		t.Fatal("the handshake succeeded")
	}
	return err
}

// Advice names the setting to fix.
func TestAdvice(t *testing.T) {
	refused := mailerr.At("SMTP", "127.0.0.1:1", mailerr.StepDial, &net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
	for _, tc := range []struct {
		err  error
		want string
	}{
		{mailerr.At("SMTP", "smtp.example.org:587", mailerr.StepLogin, &smtp.SMTPError{Code: 535}),
			"SMTP login refused (535): check [smtp] username and password_env/password_file"},
		{mailerr.At("IMAP", "imap.example.org:993", mailerr.StepLogin, &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Authentication failed."}),
			"IMAP login refused (Authentication failed.): check [imap] username and password_env/password_file"},
		{mailerr.At("IMAP", "imap.example.org:993", mailerr.StepDial, realTLSError(t, false)),
			"IMAP certificate of imap.example.org:993 is signed by an unknown authority: set [imap] ca_file"},
		{mailerr.At("SMTP", "10.0.0.1:587", mailerr.StepTLS, realTLSError(t, true)),
			"not valid for the name checked (mail.example.org): set [smtp] server_name"},
		{refused, "SMTP connection to 127.0.0.1:1 refused: check [smtp] addr"},
		{mailerr.At("SMTP", "smtp.example.org:587", mailerr.StepSender, &smtp.SMTPError{Code: 553}),
			"SMTP server refuses the sender address (553): check address"},
		{&smtp.SMTPError{Code: 550}, ""},
		{mailerr.At("SMTP", "smtp.example.org:587", mailerr.StepLogin, &mailerr.OAuth2Error{Setting: "oauth2_token_file", Err: &smtp.SMTPError{Code: 535}}),
			"SMTP login: the OAuth2 token was refused: check that [smtp] oauth2_token_file is refreshed"},
		{mailerr.At("IMAP", "imap.example.org:993", mailerr.StepLogin, &mailerr.OAuth2Error{Setting: "oauth2_token_command", Err: &imap.Error{Type: imap.StatusResponseTypeNo, Text: "Invalid credentials"}}),
			"IMAP login: the OAuth2 token was refused: check that [imap] oauth2_token_command prints a fresh token"},
		{mailerr.At("IMAP", "imap.example.org:993", mailerr.StepLogin, &mailerr.OAuth2Error{Setting: "oauth2_token_command", Token: true, Err: errors.New("exit status 1: invalid_grant")}),
			"IMAP login: [imap] oauth2_token_command failed"},
		{mailerr.At("SMTP", "smtp.example.org:587", mailerr.StepLogin, &mailerr.MechanismError{Mechanism: "XOAUTH2", Offered: []string{"PLAIN", "LOGIN"}}),
			"SMTP server at smtp.example.org:587 offers no AUTH XOAUTH2: set [smtp] auth to a mechanism it offers (PLAIN LOGIN)"},
		{mailerr.At("SMTP", "127.0.0.1:465", mailerr.StepDial, &mailerr.ImplicitTLSError{Mode: "starttls"}),
			"SMTP server at 127.0.0.1:465 speaks TLS at once: set [smtp] tls = \"tls\""},
	} {
		if got := mailerr.Advice(tc.err); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("Advice(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	if !mailerr.IsUnreachable(refused) || mailerr.IsUnreachable(realTLSError(t, false)) {
		t.Error("IsUnreachable tells a refused connection from a certificate wrongly")
	}
}

func TestReminder(t *testing.T) {
	var r mailerr.Reminder
	t0 := time.Unix(1_000_000, 0)
	for _, step := range []struct {
		after  time.Duration
		advice string
		want   bool
	}{
		{0, "a", true},
		{time.Minute, "a", false},
		{59 * time.Minute, "a", false},
		{time.Hour, "a", true},
		{time.Hour + time.Minute, "b", true},
		{time.Hour + 2*time.Minute, "b", false},
	} {
		if got := r.Due(t0.Add(step.after), step.advice); got != step.want {
			t.Errorf("Due(+%v, %q) = %v, want %v", step.after, step.advice, got, step.want)
		}
	}
	if since := r.Clear(); !since.Equal(t0.Add(time.Hour + time.Minute)) {
		t.Errorf("Clear = %v", since)
	}
	if !r.Due(t0.Add(2*time.Hour), "b") || !r.Clear().Equal(t0.Add(2*time.Hour)) || !r.Clear().IsZero() {
		t.Error("a fault met again after Clear is not logged again, or Clear does not forget it")
	}
}
