// icepost serve -check, and the check serve makes at its start: whether
// the settings work, each part on a line that says what works or what to
// fix (mailerr.Advice). A check sends nothing and changes nothing.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"icepost/pbem"
	"icepost/pbem/config"
	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/outbox"
	"icepost/sqlitedb"
)

// checks writes the verdicts, and remembers whether all were good.
type checks struct {
	w      io.Writer
	failed bool
}

// say writes part's verdict: good when err is nil, else what to fix and
// the error.
func (c *checks) say(part, good string, err error) {
	if err == nil {
		fmt.Fprintf(c.w, "%-9s ok: %s\n", part, good)
		return
	}
	c.failed = true
	if advice := mailerr.Advice(err); advice != "" {
		fmt.Fprintf(c.w, "%-9s FAILED: %s\n%-9s   (%v)\n", part, advice, "", err)
		return
	}
	fmt.Fprintf(c.w, "%-9s FAILED: %v\n", part, err)
}

// checkConfigured checks a config file and the mail servers it names,
// and reports whether all works.
func checkConfigured(ctx context.Context, w io.Writer, path string) bool {
	c := &checks{w: w}
	cfg, err := config.Load(path)
	c.say("config", path, err)
	if err != nil {
		return false
	}
	_, err = cfg.Secret()
	c.say("secret", "the token secret is there", err)
	if cfg.MetricsAddr != "" {
		good, err := checkMetrics(ctx, cfg.MetricsAddr, cfg.MetricsPublic)
		c.say("metrics", good, err)
	}
	good, err := checkDatabase(ctx, cfg.Database)
	c.say("database", good, err)

	imapCfg, err := cfg.IMAPConfig()
	if err == nil {
		err = mailbox.Check(ctx, imapCfg)
	}
	folder := orDefault(cfg.IMAP.Mailbox, "INBOX")
	c.say("IMAP", fmt.Sprintf("%s, %s, logged in as %s%s, %s selected", cfg.IMAP.Addr, tlsWords(cfg.IMAP.TLS), cfg.IMAP.Username,
		oauthWords(cfg.IMAP.Auth, cfg.IMAP.OAuth2TokenFile), folder), err)

	err = checkSMTP(ctx, cfg)
	login := "no login"
	if cfg.SMTP.Username != "" {
		login = "logged in as " + cfg.SMTP.Username + oauthWords(cfg.SMTP.Auth, cfg.SMTP.OAuth2TokenFile)
	}
	c.say("SMTP", fmt.Sprintf("%s, %s, %s, MAIL FROM %s taken (nothing sent)", cfg.SMTP.Addr, tlsWords(cfg.SMTP.TLS), login, cfg.Address), err)
	return !c.failed
}

// oauthWords says how an OAuth2 login was made ("" for a password):
// the mechanism, and where the token came from.
func oauthWords(auth, tokenFile string) string {
	switch mailbox.Auth(auth) {
	case mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer:
	default:
		return ""
	}
	from := "oauth2_token_command"
	if tokenFile != "" {
		from = tokenFile
	}
	return fmt.Sprintf(" by %s (OAuth2 token from %s)", strings.ToUpper(auth), from)
}

func checkSMTP(ctx context.Context, cfg *config.Config) error {
	smtpCfg, err := cfg.SMTPConfig()
	if err != nil {
		return err
	}
	s, err := mailbox.NewSender(smtpCfg)
	if err != nil {
		return err
	}
	defer s.Close()
	return s.Check(ctx, cfg.Address)
}

// checkMetrics says whether serve can listen on metrics_addr (LoadConfig
// has checked its form): it binds the address and lets it go. An address
// in use is a fault, unless what answers there is an icepost serve's
// /metrics (the daemon of this config, running: a restart frees it).
func checkMetrics(ctx context.Context, addr string, public bool) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			if icepostMetricsAt(ctx, addr) {
				return addr + " is in use by a running icepost serve's /metrics (this config's? a restart frees it)", nil
			}
			return "", fmt.Errorf("metrics_addr %s is in use by another program: choose another port, or stop what listens there (%w)", addr, err)
		}
		return "", fmt.Errorf("metrics_addr %s: serve cannot listen there: %w", addr, err)
	}
	ln.Close()
	good := addr + ": /metrics and /healthz can be served there"
	if public {
		good += "; WARNING: beyond loopback (metrics_public = true), open to anyone who can reach it, with no login"
	}
	return good, nil
}

// icepostMetricsAt reports whether an icepost serve's /metrics answers at
// addr.
func icepostMetricsAt(ctx context.Context, addr string) bool {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode == http.StatusOK && strings.Contains(string(b), "icepost_heartbeat_timestamp_seconds")
}

// checkEmbedded checks what serve without a config runs: its database,
// its ports, and the embedded mail system, started for the check on free
// ports and stopped.
func checkEmbedded(ctx context.Context, w io.Writer, dbPath, imapAddr, smtpAddr string) bool {
	fmt.Fprintln(w, "No -config: checking the embedded mail system (loopback, mail kept in memory) that serve runs without one.")
	c := &checks{w: w}
	good, err := checkDatabase(ctx, dbPath)
	c.say("database", good, err)
	for _, p := range []struct{ what, addr string }{{"IMAP port", imapAddr}, {"SMTP port", smtpAddr}} {
		if freeOr(p.addr) == p.addr {
			c.say(p.what, p.addr+" is free", nil)
		} else {
			c.say(p.what, p.addr+" is taken: serve would listen on a free port instead, and say which", nil)
		}
	}
	users := map[string]string{}
	for _, u := range embeddedUsers {
		users[u] = u
	}
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "icepost.localhost", Users: users, IMAPAddr: "127.0.0.1:0", SMTPAddr: "127.0.0.1:0"})
	if err != nil {
		c.say("mail", "", err)
		return false
	}
	defer sys.Stop()
	err = mailbox.Check(ctx, mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: "games", Password: sys.Password("games")})
	c.say("IMAP", "the embedded server takes the login of games", err)
	s, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: sys.Password("games")})
	if err == nil {
		err = s.Check(ctx, sys.Address("games"))
		s.Close()
	}
	c.say("SMTP", "the embedded server takes the login of games", err)
	return !c.failed
}

// checkDatabase says whether the daemon can use the database at path,
// without making or changing it: a file that is there is opened read-only.
func checkDatabase(ctx context.Context, path string) (string, error) {
	// serve would refuse a database with a second name (lock.go).
	if real, err := realPath(path); err == nil {
		if err := oneName(path, real); err != nil {
			return "", err
		}
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(path)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return "", fmt.Errorf("%s does not exist, and its folder %s is not there to make it in", path, dir)
		}
		return path + " does not exist yet: serve makes it", nil
	}
	db, err := sqlitedb.OpenReadOnly(ctx, path)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name = 'pbem_outbox'`).Scan(&tables); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if tables == 0 {
		return path + " (no mail daemon tables yet: serve adds them)", nil
	}
	srv := &pbem.Handler{DB: db}
	waiting, failed, err := outbox.Counts(ctx, srv.DB)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	good := fmt.Sprintf("%s (outbox: %d waiting, %d given up)", path, waiting, failed)
	since, advice, err := outbox.Held(ctx, srv.DB)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !since.IsZero() {
		good += fmt.Sprintf("; sending was held since %s: %s", since.Format("2006-01-02 15:04 MST"), advice)
	}
	return good, nil
}

// checkAtStart checks the IMAP and SMTP servers as serve -check does,
// before serve starts. A refused login, an untrusted certificate or
// another fault of the settings stops serve (exit 1, so that a unit under
// systemd fails where the operator looks); a server not reached may be
// starting as well: that is logged at Error level, and serve goes on and
// tries again as it runs.
func checkAtStart(ctx context.Context, log *slog.Logger, imap func(context.Context) error, smtp func(context.Context) error) error {
	for _, c := range []struct {
		what  string
		check func(context.Context) error
	}{{"IMAP", imap}, {"SMTP", smtp}} {
		err := c.check(ctx)
		switch {
		case err == nil:
			log.Info("checked at start: "+c.what+" works", "part", c.what)
		case ctx.Err() != nil:
			return ctx.Err()
		case mailerr.IsOperator(err) && !mailerr.IsUnreachable(err):
			return fmt.Errorf("%s\n  (%v)\nNothing was started. Fix the setting (icepost serve -check -config FILE checks them all)", mailerr.Advice(err), err)
		default:
			msg := mailerr.Advice(err)
			if msg == "" {
				msg = "checked at start: " + c.what + " does not work now"
			}
			log.Error(msg, "part", c.what, "err", err, "then", "serve starts all the same and tries again")
		}
	}
	return nil
}

// tlsWords says a config's tls setting in words.
func tlsWords(mode string) string {
	switch mailbox.TLSMode(mode) {
	case mailbox.TLSStartTLS:
		return "STARTTLS"
	case mailbox.TLSNone:
		return "no TLS (loopback)"
	}
	return "TLS"
}

// orDefault returns s, or def when s is "".
func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
