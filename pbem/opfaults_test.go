package pbem_test

import (
	"context"
	"errors"
	"log/slog"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"icepost/pbem/daemon"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailtest"
	"icepost/pbem/outbox"
)

// smtpWithAuth is a submission server as operators run them: AUTH over
// STARTTLS only, with a certificate from a private CA.
func smtpWithAuth(t *testing.T, o mailtest.SMTPOptions) (*mailtest.SMTPServer, *mailtest.CA) {
	ca := mailtest.NewCA(t)
	o.Cert = ca.Issue(t, "127.0.0.1")
	if o.Users == nil {
		o.Users = map[string]string{"games": "right"}
	}
	return mailtest.StartSMTP(t, o), ca
}

// sendingDaemon is a daemon of w's server that sends through addr, as a
// new process with that password would.
func sendingDaemon(t *testing.T, w *world, addr, caFile, password string) *daemon.Server {
	t.Helper()
	s, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: addr, TLS: mailbox.TLSStartTLS, CAFile: caFile, Username: "games", Password: password})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &daemon.Server{Handler: w.srv, Mailbox: w.d.Mailbox, Sender: s}
}

// queueHelp has each player write a mail without a command, twice, so
// that the outbox holds a help mail for each, in order.
func queueHelp(t *testing.T, w *world, who ...string) {
	t.Helper()
	for round := 1; round <= 2; round++ {
		for _, p := range who {
			w.deliver(w.write(p, w.srv.Address, "hello "+p+" "+string(rune('0'+round)), "", "hello?"))
		}
	}
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		t.Fatal(err)
	}
}

// A wrong SMTP password loses nothing: every mail stays queued, untried
// and not given up, however long the fault lasts; the operator is told
// once at Error level what to fix. A new daemon with the right password
// sends everything, once each, in order.
func TestWrongSMTPPasswordLosesNothing(t *testing.T) {
	w := newWorld(t)
	log := operatorLog(w)
	srv, ca := smtpWithAuth(t, mailtest.SMTPOptions{})
	queueHelp(t, w, "ada", "bob", "cy")
	queued := w.outboxCount()
	if queued != 6 {
		t.Fatalf("%d mails queued, want 6", queued)
	}

	d := sendingDaemon(t, w, srv.Addr, ca.File, "wrong")
	for i := range 5 {
		next, err := d.SendOutbox(w.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if next.IsZero() || !next.After(w.clock.Now()) {
			t.Fatalf("pass %d: next try at %v, want later than now", i, next)
		}
		w.clock.Advance(next.Sub(w.clock.Now()))
	}
	// A night of it; and the poke of a new mail tries nothing before
	// its time.
	w.clock.Advance(50 * time.Hour)
	if _, err := d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND attempts = 0`); n != queued {
		t.Errorf("%d of %d mails queued and untried after the fault, want all", n, queued)
	}
	if n := len(srv.Deliveries()); n != 0 {
		t.Errorf("%d mails delivered with a wrong password", n)
	}
	// One login a try, not one a mail (the first try has up to one a
	// sender at once: 3 here).
	if n := srv.FailedLogins(); n < 6 || n > 8 {
		t.Errorf("%d logins refused in 6 tries, want one a try", n)
	}
	out := log.String()
	const advice = "SMTP login refused (535): check [smtp] username and password_env/password_file"
	if n := strings.Count(out, "level=ERROR"); n != 2 || strings.Count(out, advice) != 2 {
		t.Errorf("%d lines at Error level, want the advice once and again after an hour:\n%s", n, out)
	}
	if strings.Contains(out, "level=WARN msg=sending") {
		t.Errorf("the fault is logged mail by mail:\n%s", out)
	}
	held, why, err := outbox.Held(w.ctx, w.srv.DB)
	if err != nil || held.IsZero() || why != advice {
		t.Errorf("OutboxHeld = %v, %q, %v", held, why, err)
	}

	// The operator fixes the password and restarts.
	d = sendingDaemon(t, w, srv.Addr, ca.File, "right")
	for range 3 {
		if _, err := d.SendOutbox(w.ctx); err != nil {
			t.Fatal(err)
		}
	}
	got := srv.Deliveries()
	if len(got) != queued {
		t.Fatalf("%d mails delivered after the fix, want %d", len(got), queued)
	}
	seen := map[string]bool{}
	var order []string
	for _, dl := range got {
		m, err := mail.ReadMessage(strings.NewReader(string(dl.Data)))
		if err != nil {
			t.Fatal(err)
		}
		id := m.Header.Get("Message-ID")
		if seen[id] {
			t.Errorf("mail %s delivered twice", id)
		}
		seen[id] = true
		if strings.HasPrefix(dl.To, "ada@") {
			order = append(order, m.Header.Get("In-Reply-To"))
		}
	}
	// ada wrote m1 and m4 (queueHelp).
	if len(order) != 2 || !strings.Contains(order[0], "<m1.ada@") || !strings.Contains(order[1], "<m4.ada@") {
		t.Errorf("ada's mails answered, in order, %q", order)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NOT NULL AND attempts = 1`); n != queued {
		t.Errorf("%d mails recorded sent at their first try, want %d", n, queued)
	}
	if held, _, _ := outbox.Held(w.ctx, w.srv.DB); !held.IsZero() {
		t.Error("the outbox is still held after the fix")
	}
	if !strings.Contains(log.String(), "sending again: the operator fault is over") {
		t.Errorf("the end of the fault is not logged:\n%s", log.String())
	}
}

// A stale OAuth2 token loses nothing either: mail stays queued and
// untried, the operator is told once what to fix, and once the refresher
// writes a good token the same daemon, not restarted, sends everything
// at its next try (the token is read at each login).
func TestStaleOAuth2TokenLosesNothing(t *testing.T) {
	w := newWorld(t)
	log := operatorLog(w)
	const user = "games@example.org"
	srv, ca := smtpWithAuth(t, mailtest.SMTPOptions{Mechanisms: []string{"XOAUTH2"}, Tokens: map[string]string{user: "fresh"}})
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("stale\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	queueHelp(t, w, "ada", "bob")
	queued := w.outboxCount()

	s, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: srv.Addr, TLS: mailbox.TLSStartTLS, CAFile: ca.File,
		Username: user, Auth: mailbox.AuthXOAuth2, OAuth2: mailbox.OAuth2{TokenFile: tokenFile}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	d := &daemon.Server{Handler: w.srv, Mailbox: w.d.Mailbox, Sender: s}
	for range 3 {
		next, err := d.SendOutbox(w.ctx)
		if err != nil {
			t.Fatal(err)
		}
		w.clock.Advance(next.Sub(w.clock.Now()))
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL AND attempts = 0`); n != queued {
		t.Errorf("%d of %d mails queued and untried, want all", n, queued)
	}
	const advice = "SMTP login: the OAuth2 token was refused: check that [smtp] oauth2_token_file is refreshed"
	if out := log.String(); strings.Count(out, "level=ERROR") != 1 || !strings.Contains(out, advice) {
		t.Errorf("want the advice once at Error level:\n%s", out)
	}

	// The refresher runs.
	if err := os.WriteFile(tokenFile, []byte("fresh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		next, err := d.SendOutbox(w.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !next.IsZero() {
			w.clock.Advance(next.Sub(w.clock.Now()))
		}
	}
	if n := len(srv.Deliveries()); n != queued {
		t.Errorf("%d mails delivered after the refresh, want %d", n, queued)
	}
	if held, _, _ := outbox.Held(w.ctx, w.srv.DB); !held.IsZero() {
		t.Error("the outbox is still held after the refresh")
	}
}

// Only an answer about one recipient fails that one mail; the operator
// sends it again with RetryOutbox once the cause is fixed.
func TestRecipientRefusedFailsOneMail(t *testing.T) {
	w := newWorld(t)
	operatorLog(w)
	srv, ca := smtpWithAuth(t, mailtest.SMTPOptions{Refuse: map[string]*smtp.SMTPError{
		"bob@club.test": {Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "User unknown"}}})
	queueHelp(t, w, "ada", "bob")
	d := sendingDaemon(t, w, srv.Addr, ca.File, "right")
	if _, err := d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Deliveries()); n != 2 {
		t.Errorf("%d mails delivered, want ada's 2", n)
	}
	failed, err := outbox.List(w.ctx, w.srv.DB, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 2 || failed[0].To != "bob@club.test" || !strings.Contains(failed[0].LastError, "550") || failed[0].Failed.IsZero() {
		t.Fatalf("failed mails = %+v, want bob's 2 with the 550", failed)
	}
	if !strings.Contains(failed[0].Subject, "no command found") {
		t.Errorf("Subject = %q", failed[0].Subject)
	}
	if held, _, _ := outbox.Held(w.ctx, w.srv.DB); !held.IsZero() {
		t.Error("a recipient's refusal held the outbox")
	}

	// bob's mailbox is made; the operator retries one, then all.
	srv.SetRefused("bob@club.test", nil)
	if _, err := outbox.Retry(w.ctx, w.srv.DB, 999, w.clock.Now()); !errors.Is(err, outbox.ErrNoMail) {
		t.Errorf("RetryOutbox of no mail = %v", err)
	}
	if n, err := outbox.Retry(w.ctx, w.srv.DB, failed[0].ID, w.clock.Now()); n != 1 || err != nil {
		t.Fatalf("RetryOutbox(%d) = %d, %v", failed[0].ID, n, err)
	}
	// all: the other given up, and the one made due already.
	if n, err := outbox.Retry(w.ctx, w.srv.DB, 0, w.clock.Now()); n != 2 || err != nil {
		t.Fatalf("RetryOutbox(all) = %d, %v", n, err)
	}
	if _, err := d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Deliveries()); n != 4 {
		t.Errorf("%d mails delivered after the retry, want 4", n)
	}
	if left, _ := outbox.List(w.ctx, w.srv.DB, false); len(left) != 0 {
		t.Errorf("left in the outbox: %+v", left)
	}
	// A mail sent is never sent again.
	if _, err := outbox.Retry(w.ctx, w.srv.DB, failed[0].ID, w.clock.Now()); !errors.Is(err, outbox.ErrNoMail) {
		t.Errorf("RetryOutbox of a sent mail = %v", err)
	}
}

// faultyInbox is a mailbox whose login is refused.
type faultyInbox struct{ daemon.Mailbox }

func (faultyInbox) Fetch(context.Context, uint32) ([]mailbox.Mail, uint32, error) {
	return nil, 0, mailerr.At("IMAP", "imap.example.org:993", mailerr.StepLogin,
		&imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed, Text: "Authentication failed."})
}

// The daemon logs an operator fault of the inbox at Error level with what
// to fix, once, not at Warn at each retry.
func TestInboxOperatorFaultAtError(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	w := newWorld(t)
	buf := &syncBuffer{}
	w.srv.Log = slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	d := &daemon.Server{Handler: w.srv, Mailbox: faultyInbox{w.d.Mailbox}, Sender: w.d.Sender}
	ctx, cancel := context.WithTimeout(w.ctx, 3500*time.Millisecond)
	defer cancel()
	d.Run(ctx)
	out := buf.String()
	const advice = "IMAP login refused (Authentication failed.): check [imap] username and password_env/password_file"
	if strings.Count(out, "level=ERROR") != 1 || !strings.Contains(out, "level=ERROR msg=\""+advice) ||
		strings.Count(out, advice) < 2 || strings.Contains(out, "level=WARN msg=inbox") {
		t.Errorf("want one line at Error level with the advice, the retries at Debug:\n%s", out)
	}
}
