package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem/localmail"
	"icepost/pbem/mailtest"
)

// opSetup is an operator's setup: Dovecot with TLS and an SMTP submission
// server that wants AUTH over STARTTLS, both with certificates of a
// private CA, and a config for them.
type opSetup struct {
	dir    string
	ca     *mailtest.CA
	dv     *mailtest.Dovecot
	smtp   *mailtest.SMTPServer
	closed string // an address where nothing listens
}

func newOpSetup(t *testing.T) *opSetup {
	t.Helper()
	ca := mailtest.NewCA(t)
	cert := ca.Issue(t, "127.0.0.1")
	o := &opSetup{dir: t.TempDir(), ca: ca,
		dv:   mailtest.StartDovecotWith(t, mailtest.DovecotOptions{Cert: cert}),
		smtp: mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: cert, Users: map[string]string{"games": "smtp-right"}})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o.closed = ln.Addr().String()
	ln.Close()
	for name, text := range map[string]string{
		"secret":  "0123456789abcdef-test-secret\n",
		"imap-pw": o.dv.Users["games"] + "\n",
		"smtp-pw": "smtp-right\n",
		"wrong":   "wrong\n",
	} {
		if err := os.WriteFile(filepath.Join(o.dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return o
}

// config writes a config file whose [imap] and [smtp] sections have the
// lines given after the setup's own (a key given again replaces it).
func (o *opSetup) config(t *testing.T, imapLines, smtpLines string) string {
	t.Helper()
	section := func(addr, pw, extra string) string {
		keys := map[string]string{"addr": `"` + addr + `"`, "tls": `"starttls"`, "ca_file": `"` + o.ca.File + `"`,
			"username": `"games"`, "password_file": `"` + filepath.Join(o.dir, pw) + `"`}
		order := []string{"addr", "tls", "ca_file", "username", "password_file"}
		for _, line := range strings.Split(strings.TrimSpace(extra), "\n") {
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if _, known := keys[k]; !known {
				order = append(order, k)
			}
			keys[k] = v
			if v == "" {
				delete(keys, k)
			}
		}
		var b strings.Builder
		for _, k := range order {
			if v, ok := keys[k]; ok {
				fmt.Fprintf(&b, "%s = %s\n", k, v)
			}
		}
		return b.String()
	}
	text := fmt.Sprintf("database = %q\naddress = \"games@club.test\"\nsecret_file = %q\n\n[imap]\n%s\n[smtp]\n%s",
		filepath.Join(o.dir, "icepost.db"), filepath.Join(o.dir, "secret"),
		section(o.dv.Addr, "imap-pw", imapLines), section(o.smtp.Addr, "smtp-pw", smtpLines))
	path := filepath.Join(t.TempDir(), "icepost.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// serve -check says what works and what to fix, for each kind of fault,
// and exits 0 only when all works. It sends nothing and makes no
// database.
func TestServeCheck(t *testing.T) {
	o := newOpSetup(t)
	wrong := `"` + filepath.Join(o.dir, "wrong") + `"`
	for _, tc := range []struct {
		name       string
		imap, smtp string
		want       []string
	}{
		{"all-works", "", "", []string{
			"config    ok: ",
			"secret    ok: ",
			"database  ok: " + filepath.Join(o.dir, "icepost.db") + " does not exist yet: serve makes it",
			"IMAP      ok: " + o.dv.Addr + ", STARTTLS, logged in as games, INBOX selected",
			"SMTP      ok: " + o.smtp.Addr + ", STARTTLS, logged in as games, MAIL FROM games@club.test taken (nothing sent)"}},
		{"smtp-wrong-password", "", "password_file = " + wrong, []string{
			"SMTP      FAILED: SMTP login refused (535): check [smtp] username and password_env/password_file"}},
		{"imap-wrong-password", "password_file = " + wrong, "", []string{
			"IMAP      FAILED: IMAP login refused (Authentication failed.): check [imap] username and password_env/password_file",
			"SMTP      ok: "}},
		{"smtp-unknown-ca", "", "ca_file =", []string{
			"SMTP      FAILED: SMTP certificate of " + o.smtp.Addr + " is signed by an unknown authority: set [smtp] ca_file to the PEM file of the CA that signed it",
			"x509: certificate signed by unknown authority"}},
		{"imap-unknown-ca", "ca_file =", "", []string{
			"IMAP      FAILED: IMAP certificate of " + o.dv.Addr + " is signed by an unknown authority: set [imap] ca_file"}},
		{"smtp-wrong-server-name", "", `server_name = "mail.club.test"`, []string{
			"SMTP      FAILED: SMTP certificate of " + o.smtp.Addr + " is not valid for the name checked (mail.club.test): set [smtp] server_name to a name it is valid for"}},
		{"imap-wrong-server-name", `server_name = "imap.club.test"`, "", []string{
			"IMAP      FAILED: IMAP certificate of " + o.dv.Addr + " is not valid for the name checked (imap.club.test): set [imap] server_name"}},
		{"smtp-connection-refused", "", `addr = "` + o.closed + `"`, []string{
			"SMTP      FAILED: SMTP connection to " + o.closed + " refused: check [smtp] addr, and that the server runs"}},
		{"imap-implicit-tls-on-starttls-port", `tls = "tls"`, "", []string{
			"IMAP      FAILED: IMAP server at " + o.dv.Addr + " does not speak TLS from the first byte: set [imap] tls = \"starttls\""}},
	} {
		t.Run(tc.name, func(t *testing.T) { o.check(t, tc.name, tc.imap, tc.smtp, tc.want) })
	}
	if _, err := os.Stat(filepath.Join(o.dir, "icepost.db")); err == nil {
		t.Error("serve -check made the database")
	}
	if n := len(o.smtp.Deliveries()); n != 0 {
		t.Errorf("serve -check sent %d mails", n)
	}
}

// serve -check shows an OAuth2 login as it shows a password one, and a
// token refused or a token command that fails with what to fix. The IMAP
// server is the embedded one with a provider's token check, on loopback;
// the SMTP server wants XOAUTH2 or OAUTHBEARER over STARTTLS.
func TestServeCheckOAuth2(t *testing.T) {
	o := newOpSetup(t)
	const user = "games@club.test"
	oauth := mailtest.StartSMTP(t, mailtest.SMTPOptions{Cert: o.ca.Issue(t, "127.0.0.1"),
		Mechanisms: []string{"XOAUTH2", "OAUTHBEARER"}, Tokens: map[string]string{user: "tok-right"}})
	sys, err := localmail.Start(context.Background(), localmail.Config{Domain: "club.test", Users: map[string]string{"games": "pw"},
		CheckToken: func(u, token string) bool { return u == user && token == "tok-right" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	for name, token := range map[string]string{"token": "tok-right\n", "stale": "tok-old\n"} {
		if err := os.WriteFile(filepath.Join(o.dir, name), []byte(token), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	token, stale := filepath.Join(o.dir, "token"), filepath.Join(o.dir, "stale")
	imapOAuth := fmt.Sprintf("addr = %q\ntls = \"none\"\nca_file =\npassword_file =\nusername = %q\nauth = \"xoauth2\"\noauth2_token_file = %q", sys.IMAPAddr, user, token)
	smtpOAuth := fmt.Sprintf("addr = %q\npassword_file =\nusername = %q\nauth = \"oauthbearer\"\noauth2_token_command = \"cat '%s'\"", oauth.Addr, user, token)
	for _, tc := range []struct {
		name       string
		imap, smtp string
		want       []string
	}{
		{"all-works", imapOAuth, smtpOAuth, []string{
			"IMAP      ok: " + sys.IMAPAddr + ", no TLS (loopback), logged in as " + user + " by XOAUTH2 (OAuth2 token from " + token + "), INBOX selected",
			"SMTP      ok: " + oauth.Addr + ", STARTTLS, logged in as " + user + " by OAUTHBEARER (OAuth2 token from oauth2_token_command), MAIL FROM games@club.test taken (nothing sent)"}},
		{"imap-stale-token", imapOAuth + "\noauth2_token_file = \"" + stale + "\"", smtpOAuth, []string{
			"IMAP      FAILED: IMAP login: the OAuth2 token was refused: check that [imap] oauth2_token_file is refreshed",
			"NO [AUTHENTICATIONFAILED]"}},
		{"smtp-stale-token", imapOAuth, smtpOAuth + "\noauth2_token_command = \"cat '" + stale + "'\"", []string{
			"SMTP      FAILED: SMTP login: the OAuth2 token was refused: check that [smtp] oauth2_token_command prints a fresh token",
			"535"}},
		{"smtp-command-fails", imapOAuth, smtpOAuth + "\noauth2_token_command = \"echo invalid_grant >&2; exit 1\"", []string{
			"SMTP      FAILED: SMTP login: [smtp] oauth2_token_command failed",
			"exit status 1: invalid_grant"}},
	} {
		t.Run(tc.name, func(t *testing.T) { o.check(t, tc.name, tc.imap, tc.smtp, tc.want) })
	}
	if n := len(oauth.Deliveries()); n != 0 {
		t.Errorf("serve -check sent %d mails", n)
	}
}

// serve makes the same check at its start: a refused login stops it
// (exit 1, before anything runs); a server not reached may be starting,
// so it goes on, with a line at Error level.
func TestServeChecksAtStart(t *testing.T) {
	o := newOpSetup(t)
	wrong := `"` + filepath.Join(o.dir, "wrong") + `"`
	start := time.Now()
	code, _, errs := icepost(t, "", "serve", "-q", "-config", o.config(t, "", "password_file = "+wrong))
	if code != exitInvalid || !strings.Contains(errs, "icepost serve: SMTP login refused (535): check [smtp] username and password_env/password_file") ||
		!strings.Contains(errs, "Nothing was started") {
		t.Errorf("serve with a wrong SMTP password: exit %d\n%s", code, errs)
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("serve took %v to refuse", time.Since(start))
	}

	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int, 1) // room for the exit code when the test has given up waiting
	go func() {
		done <- run(ctx, []string{"serve", "-q", "-config", o.config(t, "", `addr = "`+o.closed+`"`)}, nil, &out, &errb)
	}()
	if !waitfor.Within(20*time.Second, func() bool { return strings.Contains(errb.String(), "level=ERROR") }) {
		t.Fatalf("serve logged no error for a refused SMTP connection:\n%s", errb.String())
	}
	// SMTP is checked last: after its line serve goes on to run the
	// daemon, whenever its context ends. Its last line, "icepost serve
	// stopped", is logged by the daemon's run only; a serve that gave up
	// at the check would end without it.
	cancel()
	select {
	case code := <-done:
		if code != exitOK || !strings.Contains(errb.String(), "SMTP connection to "+o.closed+" refused: check [smtp] addr") ||
			!strings.Contains(errb.String(), "serve starts all the same") || !strings.Contains(errb.String(), `msg="icepost serve stopped"`) {
			t.Errorf("serve with SMTP not reached: exit %d\n%s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

// Without -config, serve -check checks the embedded mail system, and says
// so; it makes no database.
func TestServeCheckEmbedded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "icepost.db")
	code, out, errs := icepost(t, "", "serve", "-check", "-db", db, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
	if code != exitOK || !strings.Contains(out, "checking the embedded mail system") || strings.Contains(out, "FAILED") ||
		!strings.Contains(out, "IMAP      ok: ") || !strings.Contains(out, "SMTP      ok: ") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("serve -check made the database")
	}
}

// icepost outbox lists the mails not sent, and retry makes them due.
func TestOutboxCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "icepost.db")
	db, err := openDaemonDB(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := func(subject string) []byte {
		return []byte("From: games@club.test\r\nSubject: " + subject + "\r\n\r\nx\r\n")
	}
	for _, row := range []struct {
		to, subject string
		failed      any
		sent        any
		lastErr     string
	}{
		{"ada@club.test", "IceSickle #1: your move", nil, nil, ""},
		{"bob@club.test", "=?utf-8?q?IceSickle_#1:_bob=C3=A9?=", int64(1_800_000_000), nil, "mailbox: send (permanent): SMTP RCPT TO at x:1: SMTP error 550: User unknown"},
		{"cy@club.test", "sent long ago", nil, int64(1_700_000_000), ""},
	} {
		if _, err := db.Exec(`INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at, failed_at, sent_at, last_error, attempts) VALUES (?, ?, 1700000000, 1700000000, ?, ?, ?, 1)`,
			row.to, msg(row.subject), row.failed, row.sent, row.lastErr); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	code, out, errs := icepost(t, "", "outbox", "-db", path, "list")
	if code != exitOK || !strings.Contains(out, "ada@club.test") || !strings.Contains(out, "bob@club.test") || strings.Contains(out, "cy@club.test") ||
		!strings.Contains(out, "IceSickle #1: bobé") || !strings.Contains(out, "SMTP error 550: User unknown") || !strings.Contains(out, "given up ") {
		t.Errorf("outbox list: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = icepost(t, "", "outbox", "-db", path, "list", "-failed")
	if code != exitOK || strings.Contains(out, "ada@club.test") || !strings.Contains(out, "bob@club.test") {
		t.Errorf("outbox list -failed: exit %d\n%s", code, out)
	}
	if code, _, errs := icepost(t, "", "outbox", "-db", path, "retry", "3"); code != exitInvalid || !strings.Contains(errs, "no such mail") {
		t.Errorf("retry of a sent mail: exit %d %s", code, errs)
	}
	if code, _, errs := icepost(t, "", "outbox", "-db", path, "retry", "x"); code != exitUsage {
		t.Errorf("retry x: exit %d %s", code, errs)
	}
	if code, out, errs := icepost(t, "", "outbox", "-db", path, "retry", "2"); code != exitOK || !strings.Contains(out, "1 mails due now") {
		t.Errorf("retry 2: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = icepost(t, "", "outbox", "-db", path, "list", "-failed")
	if code != exitOK || strings.Contains(out, "bob@club.test") {
		t.Errorf("after retry, outbox list -failed:\n%s", out)
	}
	if code, out, _ := icepost(t, "", "outbox", "-db", path, "retry", "all"); code != exitOK || !strings.Contains(out, "2 mails due now") {
		t.Errorf("retry all: exit %d\n%s", code, out)
	}
}

// check runs serve -check on a config with the given [imap] and [smtp]
// lines: exit 0 and nothing failed for "all-works", else exit 1 and one
// part failed, and the output holds each of want.
func (o *opSetup) check(t *testing.T, name, imap, smtp string, want []string) {
	t.Helper()
	code, out, errs := icepost(t, "", "serve", "-check", "-config", o.config(t, imap, smtp))
	wantCode := exitInvalid
	if name == "all-works" {
		wantCode = exitOK
	}
	if code != wantCode {
		t.Errorf("exit %d, want %d\n%s%s", code, wantCode, out, errs)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, " FAILED: "); (n == 1) != (wantCode == exitInvalid) {
		t.Errorf("%d parts failed:\n%s", n, out)
	}
}
