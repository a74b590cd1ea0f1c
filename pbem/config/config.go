// Package config reads and checks the mail daemon's configuration file
// (TOML): the mailbox and the submission server, the secret, the limits,
// the clocks' and the bots' settings, the metrics and the web site. It is
// the operator's side of the daemon, apart from the game service, which
// gets the settings it plays by (pbem.Deadlines, pbem.Bots) already
// checked. Every command that takes -config reads it through Load, so
// that all of them refuse the same faults, each named by its key.
package config

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"icepost/pbem"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailbox"
	"icepost/pbem/outbox"
)

// Config is the daemon's TOML configuration file. Secrets (passwords, the
// token secret) never stand in the file: each comes from an environment
// variable or a file the config names. Load resolves the paths it
// names against the config file's folder (see Config.paths).
type Config struct {
	Database      string         `toml:"database"`       // SQLite file; default icepost.db
	LogFormat     string         `toml:"log_format"`     // serve's log lines: text (default) or json
	Address       string         `toml:"address"`        // the server's own mail address
	Name          string         `toml:"name"`           // display name; default icepost
	PollInterval  pbem.Duration  `toml:"poll_interval"`  // default 1m
	Starters      []string       `toml:"starters"`       // who may challenge; empty: anyone
	ErrorLimit    int            `toml:"error_limit"`    // error replies per sender per hour
	AuthServID    string         `toml:"auth_serv_id"`   // the operator's mail server, whose DMARC/DKIM verdict verifies senders
	SecretEnv     string         `toml:"secret_env"`     // variable holding the token secret
	SecretFile    string         `toml:"secret_file"`    // or a file holding it
	KeepSent      pbem.Duration  `toml:"keep_sent"`      // how long a sent mail's body is kept; default 720h
	MetricsAddr   string         `toml:"metrics_addr"`   // where to serve /metrics and /healthz (host:port); empty: nowhere
	MetricsPublic bool           `toml:"metrics_public"` // metrics_addr may listen beyond loopback (it has no authentication)
	WebURL        string         `toml:"web_url"`        // the public address of icepost web -config: board mails link to its play pages
	WebAddr       string         `toml:"web_addr"`       // where serve itself serves the web site and its play pages (host:port); empty: nowhere
	Deadlines     pbem.Deadlines `toml:"deadlines"`      // time controls, vacations, digests
	Bots          pbem.Bots      `toml:"bots"`           // the computer opponent
	IMAP          struct {
		Addr               string `toml:"addr"`
		TLS                string `toml:"tls"`         // tls, starttls, or none (loopback only)
		CAFile             string `toml:"ca_file"`     // PEM file of the CAs to trust instead of the system's
		ServerName         string `toml:"server_name"` // the name to check in the certificate; default: addr's host
		Username           string `toml:"username"`
		PasswordEnv        string `toml:"password_env"`
		PasswordFile       string `toml:"password_file"`
		Auth               string `toml:"auth"`                 // password (default), xoauth2 or oauthbearer
		OAuth2TokenFile    string `toml:"oauth2_token_file"`    // with an OAuth2 auth: the file the token refresher keeps current
		OAuth2TokenCommand string `toml:"oauth2_token_command"` // or a command (sh -c) that prints the token
		Mailbox            string `toml:"mailbox"`
		DoneFolder         string `toml:"done_folder"`
		RejectedFolder     string `toml:"rejected_folder"`
		DisableIdle        bool   `toml:"disable_idle"`
	} `toml:"imap"`
	SMTP struct {
		Addr               string `toml:"addr"`
		TLS                string `toml:"tls"`
		CAFile             string `toml:"ca_file"`
		ServerName         string `toml:"server_name"`
		Username           string `toml:"username"`
		PasswordEnv        string `toml:"password_env"`
		PasswordFile       string `toml:"password_file"`
		Auth               string `toml:"auth"`
		OAuth2TokenFile    string `toml:"oauth2_token_file"`
		OAuth2TokenCommand string `toml:"oauth2_token_command"`
	} `toml:"smtp"`
}

// Load reads and checks a configuration file. Every command that
// reads one (serve, serve -check, web -config) goes through it, so a
// setting that cannot work is refused in one place, with its key named;
// an address is kept in its canonical form (pbem/mailaddr). A setting
// left out takes its default; one written out must mean something: a
// duration or a limit of zero that would only mean "the default" is
// refused, so that "0s" is never read as "off" by the operator and as
// "default" by the daemon.
func Load(path string) (*Config, error) {
	var c Config
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
			if strings.HasSuffix(k.String(), "password") || strings.HasSuffix(k.String(), "secret") {
				return nil, fmt.Errorf("%s: %s: secrets never go in the file; name an environment variable (%s_env) or a file (%s_file)", path, k, k, k)
			}
			if strings.HasSuffix(k.String(), "token") {
				return nil, fmt.Errorf("%s: %s: secrets never go in the file; name a file (oauth2_token_file) or a command (oauth2_token_command)", path, k)
			}
		}
		return nil, fmt.Errorf("%s: unknown settings: %s", path, strings.Join(keys, ", "))
	}
	if c.Database == "" {
		c.Database = "icepost.db"
	}
	// A path in the file means the same whichever folder the daemon, or
	// an operator's command, is started from.
	dir := filepath.Dir(path)
	for _, p := range c.paths() {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	// Every setting that cannot work is said at once, each on its line.
	var errs []error
	bad := func(err error) {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", path, err))
		}
	}
	switch c.LogFormat {
	case "":
		c.LogFormat = "text"
	case "text", "json":
	default:
		bad(fmt.Errorf("log_format is text or json, not %q", c.LogFormat))
	}
	bad(c.checkSettings(md))
	if c.IMAP.Addr == "" || c.SMTP.Addr == "" {
		bad(errors.New("[imap] addr and [smtp] addr are required"))
	}
	bad(checkAuth("[imap]", c.IMAP.Auth, c.IMAP.Username, c.IMAP.PasswordEnv, c.IMAP.PasswordFile, c.IMAP.OAuth2TokenFile, c.IMAP.OAuth2TokenCommand))
	bad(checkAuth("[smtp]", c.SMTP.Auth, c.SMTP.Username, c.SMTP.PasswordEnv, c.SMTP.PasswordFile, c.SMTP.OAuth2TokenFile, c.SMTP.OAuth2TokenCommand))
	bad(c.Bots.Check())
	bad(c.Deadlines.Check())
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if c.KeepSent.Duration == 0 {
		c.KeepSent.Duration = outbox.DefaultKeepSent
	}
	return &c, nil
}

// minPollInterval is the shortest poll_interval: a poll is a round trip
// to the IMAP server, and a shorter interval only spins.
const minPollInterval = time.Second

// checkSettings checks the top-level settings and those written out
// whose zero would only mean the default (md says which were written),
// and makes each address canonical. It returns every fault, joined.
func (c *Config) checkSettings(md toml.MetaData) error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }

	// Durations and limits: positive. Zero is refused where it would
	// only mean the default; none of these has an "off". (A negative
	// move_time is Bots.Check's.)
	if md.IsDefined("poll_interval") && c.PollInterval.Duration < minPollInterval {
		bad("poll_interval = %q: how often to look for new mail is %s or more (leave it out for the default, 1m)", c.PollInterval.Duration, minPollInterval)
	}
	if md.IsDefined("keep_sent") && c.KeepSent.Duration <= 0 {
		bad("keep_sent = %q: how long a sent mail's body is kept cannot be zero or negative (leave it out for the default, 720h: 30 days)", c.KeepSent.Duration)
	}
	if md.IsDefined("bots", "move_time") && c.Bots.MoveTime.Duration == 0 {
		bad("bots: move_time = \"0s\": a search needs time; the most one may take is positive (leave it out for the default, 5s)")
	}
	if md.IsDefined("deadlines", "vacation_days") && c.Deadlines.VacationDays == 0 {
		bad("deadlines: vacation_days = 0 would mean the default, 30: write a negative number for no vacations (or leave it out for 30)")
	}
	if md.IsDefined("error_limit") && c.ErrorLimit < 1 {
		bad("error_limit = %d: the answers to mistakes a sender gets an hour is 1 or more (leave it out for the default, 5)", c.ErrorLimit)
	}

	if c.Address == "" {
		bad("address must be the server's mail address, like games@example.org")
	} else if a, err := mailaddr.Canonical(c.Address); err != nil {
		bad("address must be the server's one mail address, like games@example.org: %w", err)
	} else {
		c.Address = a
	}
	for i, s := range c.Starters {
		a, err := mailaddr.Canonical(s)
		if err != nil {
			bad("starters: each is one player's mail address, like ada@example.org (a pattern is not taken): %w", err)
			continue
		}
		c.Starters[i] = a
	}

	if c.SecretEnv != "" && c.SecretFile != "" {
		bad("secret_env and secret_file are both set: name the token secret's one source")
	}
	for _, s := range []struct{ section, env, file string }{
		{"[imap]", c.IMAP.PasswordEnv, c.IMAP.PasswordFile},
		{"[smtp]", c.SMTP.PasswordEnv, c.SMTP.PasswordFile},
	} {
		if s.env != "" && s.file != "" {
			bad("%s password_env and password_file are both set: name the password's one source", s.section)
		}
	}

	if c.MetricsAddr != "" {
		if err := checkMetricsAddr(c.MetricsAddr, c.MetricsPublic); err != nil {
			bad("metrics_addr = %q: %w", c.MetricsAddr, err)
		}
	} else if c.MetricsPublic {
		bad("metrics_public = true needs metrics_addr")
	}
	if c.WebURL != "" {
		if err := checkWebURL(c.WebURL); err != nil {
			bad("web_url = %q: %w", c.WebURL, err)
		}
	}
	if c.WebAddr != "" {
		if err := checkWebAddr(c.WebAddr); err != nil {
			bad("web_addr = %q: %w", c.WebAddr, err)
		}
	}
	if c.AuthServID != "" {
		if err := checkAuthServID(c.AuthServID); err != nil {
			bad("auth_serv_id = %q: %w", c.AuthServID, err)
		}
	}
	return errors.Join(errs...)
}

// checkMetricsAddr checks metrics_addr: host:port, a port to scrape (not
// 0, which would be a new one at each start), and a host on loopback
// unless public: /metrics and /healthz have no authentication.
func checkMetricsAddr(addr string, public bool) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("not host:port, like 127.0.0.1:9464")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("the port %q is not a number from 1 to 65535", port)
	}
	if public {
		return nil
	}
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || strings.EqualFold(host, "localhost") {
		return nil
	}
	where := "on " + host
	if host == "" || (net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified()) {
		where = "on every interface"
	}
	return fmt.Errorf("it listens %s, beyond loopback, and /metrics has no authentication: use 127.0.0.1:%s (and a proxy with a login in front), or set metrics_public = true to serve it there all the same", where, port)
}

// checkWebAddr checks web_addr: host:port, a port from 1 to 65535 (0,
// a new port at each start, would break every play link sent).
func checkWebAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return errors.New("not host:port, like 127.0.0.1:8080")
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return fmt.Errorf("the port %q is not a number from 1 to 65535", port)
	}
	return nil
}

// checkWebURL checks web_url: the address board mails link to, so an
// http or https URL with a host, and nothing that a link's path could not
// be added to.
func checkWebURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return errors.New("not a URL; write it like https://games.example.org")
	case u.Scheme != "https" && u.Scheme != "http":
		return errors.New("board mails link to it: it begins with https:// (or http://), like https://games.example.org")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("it names no host; write it like https://games.example.org")
	case u.User != nil:
		return errors.New("a user or password does not go in it")
	case u.RawQuery != "" || u.Fragment != "" || strings.ContainsAny(s, "?#"):
		return errors.New("the play pages' paths are added to it: it has no ? or #")
	}
	return nil
}

// checkAuthServID checks auth_serv_id: one authserv-id as the operator's
// mail server writes it first in its Authentication-Results header (RFC
// 8601: a token, usually the server's host name). A value with a space or
// a ';' could never match one, and would quietly verify nobody.
func checkAuthServID(s string) error {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c == 0x7f || strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0 {
			return errors.New(`it is one token (RFC 8601's authserv-id), your mail server's name as its Authentication-Results headers begin, like mx.example.org: no spaces, and none of ; ( ) < > @ , : \ " / [ ] ? =`)
		}
	}
	if !utf8.ValidString(s) {
		return errors.New("it is not valid UTF-8")
	}
	return nil
}

// paths are the settings that name a file, which Load resolves
// against the config file's folder. A new file setting goes here.
func (c *Config) paths() []*string {
	return []*string{&c.Database, &c.SecretFile, &c.IMAP.PasswordFile, &c.SMTP.PasswordFile, &c.IMAP.CAFile, &c.SMTP.CAFile,
		&c.IMAP.OAuth2TokenFile, &c.SMTP.OAuth2TokenFile}
}

// checkAuth checks that a section's login settings fit its auth: a
// password (from password_env or password_file) for auth = "password",
// a token (from oauth2_token_file or oauth2_token_command, exactly one)
// and the account's address as username for an OAuth2 auth.
func checkAuth(section, auth, username, pwEnv, pwFile, tokenFile, tokenCommand string) error {
	switch mailbox.Auth(auth) {
	case "", mailbox.AuthPassword:
		if tokenFile != "" || tokenCommand != "" {
			return fmt.Errorf("%s oauth2_token_file and oauth2_token_command need auth = %q or %q", section, mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer)
		}
		return nil
	case mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer:
	default:
		return fmt.Errorf("%s auth is %q, %q or %q, not %q", section, mailbox.AuthPassword, mailbox.AuthXOAuth2, mailbox.AuthOAuthBearer, auth)
	}
	switch {
	case pwEnv != "" || pwFile != "":
		return fmt.Errorf("%s password_env and password_file are for auth = %q: with auth = %q the login takes a token, from oauth2_token_file or oauth2_token_command", section, mailbox.AuthPassword, auth)
	case tokenFile != "" && tokenCommand != "":
		return fmt.Errorf("%s auth = %q takes the token from oauth2_token_file or from oauth2_token_command, not both", section, auth)
	case tokenFile == "" && tokenCommand == "":
		return fmt.Errorf("%s auth = %q needs oauth2_token_file (a file the token refresher keeps current) or oauth2_token_command", section, auth)
	case username == "":
		return fmt.Errorf("%s auth = %q needs username, the account's address", section, auth)
	}
	return nil
}

// secret reads a secret from an environment variable or a file.
func secret(what, env, file string) (string, error) {
	switch {
	case env != "":
		v, ok := os.LookupEnv(env)
		if !ok || v == "" {
			return "", fmt.Errorf("%s: the environment variable %s is not set", what, env)
		}
		return v, nil
	case file != "":
		b, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) && what == "secret" {
			return "", fmt.Errorf("%s: %w (make one with: icepost secret %s)", what, err, file)
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", what, err)
		}
		return strings.TrimRight(string(b), "\r\n"), nil
	}
	return "", fmt.Errorf("%s: set %s_env or %s_file", what, what, what)
}

// WriteSecretFile writes a new token secret to path for secret_file: 32
// random bytes in base64, in a file only its owner may read. It never
// replaces a file: a new secret makes every reply token in the mails
// already sent invalid.
func WriteSecretFile(path string) error {
	var b [32]byte
	rand.Read(b[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(base64.StdEncoding.EncodeToString(b[:]) + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return err
	}
	return f.Close()
}

// Secret returns the token secret.
func (c *Config) Secret() ([]byte, error) {
	s, err := secret("secret", c.SecretEnv, c.SecretFile)
	if err != nil {
		return nil, err
	}
	if len(s) < 16 {
		return nil, errors.New("secret: use at least 16 characters (for example: head -c 32 /dev/urandom | base64)")
	}
	return []byte(s), nil
}

// isOAuth reports whether auth logs in with an OAuth2 token.
func isOAuth(auth string) bool {
	return mailbox.Auth(auth) == mailbox.AuthXOAuth2 || mailbox.Auth(auth) == mailbox.AuthOAuthBearer
}

// IMAPConfig returns the inbox settings, password included (or where the
// OAuth2 token comes from: it is read at each login).
func (c *Config) IMAPConfig() (mailbox.IMAPConfig, error) {
	cfg := mailbox.IMAPConfig{
		Addr: c.IMAP.Addr, TLS: mailbox.TLSMode(c.IMAP.TLS), CAFile: c.IMAP.CAFile, ServerName: c.IMAP.ServerName,
		Username: c.IMAP.Username, Auth: mailbox.Auth(c.IMAP.Auth),
		OAuth2:  mailbox.OAuth2{TokenFile: c.IMAP.OAuth2TokenFile, TokenCommand: c.IMAP.OAuth2TokenCommand},
		Mailbox: c.IMAP.Mailbox, DoneFolder: c.IMAP.DoneFolder, RejectedFolder: c.IMAP.RejectedFolder,
		DisableIdle: c.IMAP.DisableIdle, PollInterval: c.PollInterval.Duration,
	}
	if isOAuth(c.IMAP.Auth) {
		return cfg, nil
	}
	pw, err := secret("imap password", c.IMAP.PasswordEnv, c.IMAP.PasswordFile)
	if err != nil {
		return mailbox.IMAPConfig{}, err
	}
	cfg.Password = pw
	return cfg, nil
}

// SMTPConfig returns the sender settings, password included (none when no
// username is set, or with an OAuth2 auth, whose token is read at each
// login).
func (c *Config) SMTPConfig() (mailbox.SMTPConfig, error) {
	cfg := mailbox.SMTPConfig{Addr: c.SMTP.Addr, TLS: mailbox.TLSMode(c.SMTP.TLS), CAFile: c.SMTP.CAFile, ServerName: c.SMTP.ServerName,
		Username: c.SMTP.Username, Auth: mailbox.Auth(c.SMTP.Auth),
		OAuth2: mailbox.OAuth2{TokenFile: c.SMTP.OAuth2TokenFile, TokenCommand: c.SMTP.OAuth2TokenCommand}}
	if c.SMTP.Username != "" && !isOAuth(c.SMTP.Auth) {
		pw, err := secret("smtp password", c.SMTP.PasswordEnv, c.SMTP.PasswordFile)
		if err != nil {
			return cfg, err
		}
		cfg.Password = pw
	}
	return cfg, nil
}
