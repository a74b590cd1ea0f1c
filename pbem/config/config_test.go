package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/pbem/config"
	"icepost/pbem/mailbox"
)

func writeConfig(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "icepost.toml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

const baseConfig = `
address = "games@example.org"
secret_env = "ICEPOST_TEST_SECRET"
poll_interval = "30s"
[imap]
addr = "imap.example.org:993"
username = "games"
password_env = "ICEPOST_TEST_IMAP"
[smtp]
addr = "smtp.example.org:587"
tls = "starttls"
`

func TestLoadConfig(t *testing.T) {
	path := writeConfig(t, baseConfig)
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if c.Database != filepath.Join(filepath.Dir(path), "icepost.db") || c.PollInterval.Seconds() != 30 || c.LogFormat != "text" {
		t.Errorf("defaults: %+v", c)
	}
	t.Setenv("ICEPOST_TEST_SECRET", "short")
	if _, err := c.Secret(); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("short secret: %v", err)
	}
	t.Setenv("ICEPOST_TEST_SECRET", "a-long-enough-secret-for-tokens")
	if s, err := c.Secret(); err != nil || string(s) != "a-long-enough-secret-for-tokens" {
		t.Errorf("secret: %q %v", s, err)
	}
	if _, err := c.IMAPConfig(); err == nil || !strings.Contains(err.Error(), "ICEPOST_TEST_IMAP is not set") {
		t.Errorf("missing password: %v", err)
	}
	pw := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pw, []byte("from-a-file\n"), 0o600)
	c.IMAP.PasswordEnv, c.IMAP.PasswordFile = "", pw
	if ic, err := c.IMAPConfig(); err != nil || ic.Password != "from-a-file" {
		t.Errorf("password file: %q %v", ic.Password, err)
	}
}

func TestLoadConfigRefuses(t *testing.T) {
	tests := []struct{ text, want string }{
		{baseConfig + "\n[imap.extra]\n", "unknown settings"},
		{strings.Replace(baseConfig, `username = "games"`, "username = \"games\"\npassword = \"hunter2\"", 1), "secrets never go in the file"},
		{strings.Replace(baseConfig, `address = "games@example.org"`, `address = "games"`, 1), "address must be"},
		{strings.Replace(baseConfig, `poll_interval = "30s"`, `poll_interval = "soon"`, 1), "not a duration"},
		{"address = \"games@example.org\"\n", "addr are required"},
		{"address = [", "icepost.toml"},
		{"log_format = \"xml\"\n" + baseConfig, "log_format is text or json"},
	}
	for _, tt := range tests {
		_, err := config.Load(writeConfig(t, tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load: %v, want an error containing %q", err, tt.want)
		}
	}
}

// A path in the config is read from the config file's folder, whatever
// folder the command runs in; an absolute path stays as it is.
func TestLoadConfigPathsBesideTheFile(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "etc"), 0o700)
	os.WriteFile(filepath.Join(dir, "etc", "secret"), []byte("a-long-enough-secret-for-tokens\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "imap-pw"), []byte("imap\n"), 0o600)
	smtpPW := filepath.Join(t.TempDir(), "smtp-pw")
	os.WriteFile(smtpPW, []byte("smtp\n"), 0o600)
	text := `
database = "../state/icepost.db"
secret_file = "secret"
address = "games@example.org"
log_format = "json"
[imap]
addr = "imap.example.org:993"
username = "games"
password_file = "../imap-pw"
[smtp]
addr = "smtp.example.org:587"
username = "games"
password_file = "` + smtpPW + `"
`
	cfg := filepath.Join(dir, "etc", "icepost.toml")
	if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // anywhere but the config's folder
	c, err := config.Load(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "state", "icepost.db"); c.Database != want {
		t.Errorf("database = %q, want %q", c.Database, want)
	}
	if c.LogFormat != "json" {
		t.Errorf("log_format = %q", c.LogFormat)
	}
	if s, err := c.Secret(); err != nil || string(s) != "a-long-enough-secret-for-tokens" {
		t.Errorf("secret_file beside the config: %q %v", s, err)
	}
	if ic, err := c.IMAPConfig(); err != nil || ic.Password != "imap" {
		t.Errorf("imap password_file: %q %v", ic.Password, err)
	}
	if sc, err := c.SMTPConfig(); err != nil || sc.Password != "smtp" || c.SMTP.PasswordFile != smtpPW {
		t.Errorf("absolute smtp password_file: %q %v (%s)", sc.Password, err, c.SMTP.PasswordFile)
	}
}

// A missing secret_file says how to make one; WriteSecretFile makes a good
// one, readable by its owner only, and never replaces one.
func TestSecretFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret")
	cfgText := strings.Replace(baseConfig, `secret_env = "ICEPOST_TEST_SECRET"`, `secret_file = "`+path+`"`, 1)
	c, err := config.Load(writeConfig(t, cfgText))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Secret(); err == nil || !strings.Contains(err.Error(), "icepost secret "+path) {
		t.Errorf("missing secret file: %v", err)
	}
	if err := config.WriteSecretFile(path); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v %v", fi.Mode(), err)
	}
	s, err := c.Secret()
	if err != nil || len(s) < 32 {
		t.Fatalf("Secret() = %q, %v", s, err)
	}
	if err := config.WriteSecretFile(path); err == nil {
		t.Error("WriteSecretFile replaced a secret")
	}
	if again, _ := c.Secret(); string(again) != string(s) {
		t.Error("the secret changed")
	}
}

// OAuth2 logins: the token's source fits the auth, a relative
// oauth2_token_file is read from the config's folder, and no password is
// looked for.
func TestLoadConfigOAuth2(t *testing.T) {
	const oauth = `
address = "games@example.org"
[imap]
addr = "imap.gmail.com:993"
username = "games@example.org"
auth = "xoauth2"
oauth2_token_file = "token"
[smtp]
addr = "smtp.gmail.com:587"
tls = "starttls"
username = "games@example.org"
auth = "oauthbearer"
oauth2_token_command = "cat /run/icepost/token"
`
	path := writeConfig(t, oauth)
	c, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	ic, err := c.IMAPConfig()
	if err != nil || ic.Auth != mailbox.AuthXOAuth2 || ic.OAuth2.TokenFile != filepath.Join(filepath.Dir(path), "token") || ic.Password != "" {
		t.Errorf("IMAPConfig = %+v, %v", ic, err)
	}
	sc, err := c.SMTPConfig()
	if err != nil || sc.Auth != mailbox.AuthOAuthBearer || sc.OAuth2.TokenCommand != "cat /run/icepost/token" || sc.Password != "" {
		t.Errorf("SMTPConfig = %+v, %v", sc, err)
	}
	if _, err := mailbox.NewSender(sc); err != nil {
		t.Errorf("NewSender = %v", err)
	}

	for _, tc := range []struct{ name, from, to, want string }{
		{"password-and-token", `auth = "xoauth2"`, "auth = \"xoauth2\"\npassword_env = \"PW\"",
			`[imap] password_env and password_file are for auth = "password": with auth = "xoauth2" the login takes a token`},
		{"both-sources", `oauth2_token_file = "token"`, "oauth2_token_file = \"token\"\noauth2_token_command = \"echo x\"",
			`[imap] auth = "xoauth2" takes the token from oauth2_token_file or from oauth2_token_command, not both`},
		{"no-source", `oauth2_token_command = "cat /run/icepost/token"`, "",
			`[smtp] auth = "oauthbearer" needs oauth2_token_file`},
		{"token-without-oauth", `auth = "oauthbearer"`, `auth = "password"`,
			`[smtp] oauth2_token_file and oauth2_token_command need auth = "xoauth2" or "oauthbearer"`},
		{"unknown-auth", `auth = "xoauth2"`, `auth = "oauth"`, `[imap] auth is "password", "xoauth2" or "oauthbearer", not "oauth"`},
		{"no-username", "username = \"games@example.org\"\nauth = \"xoauth2\"", `auth = "xoauth2"`, `[imap] auth = "xoauth2" needs username`},
		{"token-in-the-file", `oauth2_token_file = "token"`, `oauth2_token = "ya29.abc"`, "secrets never go in the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(oauth, tc.from, tc.to, 1)
			if text == oauth {
				t.Fatalf("%q is not in the config", tc.from)
			}
			_, err := config.Load(writeConfig(t, text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want %q", err, tc.want)
			}
		})
	}
}

// Every setting that cannot work is refused when the config is read, by
// serve, serve -check and web -config alike, and the error names its key.
func TestLoadConfigRefusesBadSettings(t *testing.T) {
	set := func(lines string) string {
		return strings.Replace(baseConfig, "[imap]", lines+"\n[imap]", 1)
	}
	for _, tc := range []struct{ name, text, want string }{
		{"poll-negative", strings.Replace(baseConfig, `"30s"`, `"-5s"`, 1), `poll_interval = "-5s"`},
		{"poll-zero", strings.Replace(baseConfig, `"30s"`, `"0s"`, 1), `poll_interval = "0s"`},
		{"poll-too-short", strings.Replace(baseConfig, `"30s"`, `"1ms"`, 1), `poll_interval = "1ms": how often to look for new mail is 1s or more`},
		{"keep-sent-zero", set(`keep_sent = "0s"`), `keep_sent = "0s"`},
		{"keep-sent-negative", set(`keep_sent = "-1h"`), `keep_sent = "-1h0m0s"`},
		{"error-limit-negative", set(`error_limit = -1`), "error_limit = -1"},
		{"error-limit-zero", set(`error_limit = 0`), "error_limit = 0"},
		{"two-addresses", strings.Replace(baseConfig, `"games@example.org"`, `"a@b@club.test"`, 1), "address must be the server's one mail address"},
		{"address-list", strings.Replace(baseConfig, `"games@example.org"`, `"a@club.test, b@club.test"`, 1), "address must be"},
		{"address-with-name", strings.Replace(baseConfig, `"games@example.org"`, `"Games <games@club.test>"`, 1), "address must be"},
		{"starter-not-an-address", set(`starters = ["ada@club.test", "bob"]`), `starters: each is one player's mail address`},
		{"starter-pattern", set(`starters = ["*@club.test x"]`), `starters: `},
		{"both-secrets", set(`secret_file = "secret"`), "secret_env and secret_file are both set"},
		{"both-passwords", strings.Replace(baseConfig, `password_env = "ICEPOST_TEST_IMAP"`, "password_env = \"ICEPOST_TEST_IMAP\"\npassword_file = \"pw\"", 1),
			"[imap] password_env and password_file are both set"},
		{"metrics-not-host-port", set(`metrics_addr = "9464"`), `metrics_addr = "9464": not host:port`},
		{"metrics-bad-port", set(`metrics_addr = "127.0.0.1:http-ish"`), `metrics_addr = "127.0.0.1:http-ish": the port`},
		{"metrics-port-zero", set(`metrics_addr = "127.0.0.1:0"`), `metrics_addr = "127.0.0.1:0": the port`},
		{"metrics-every-interface", set(`metrics_addr = ":9464"`), `metrics_addr = ":9464": it listens on every interface, beyond loopback`},
		{"metrics-unspecified", set(`metrics_addr = "0.0.0.0:9464"`), `it listens on every interface`},
		{"metrics-lan", set(`metrics_addr = "192.0.2.7:9464"`), `it listens on 192.0.2.7, beyond loopback`},
		{"metrics-public-alone", set(`metrics_public = true`), "metrics_public = true needs metrics_addr"},
		{"web-url-javascript", set(`web_url = "javascript:alert(1)"`), `web_url = "javascript:alert(1)": board mails link to it`},
		{"web-url-no-host", set(`web_url = "https:///play"`), `web_url = "https:///play": it names no host`},
		{"web-url-relative", set(`web_url = "games.example.org"`), `web_url = "games.example.org": board mails link to it`},
		{"web-url-query", set(`web_url = "https://games.example.org/?x=1"`), `web_url = "https://games.example.org/?x=1": the play pages' paths`},
		{"auth-serv-id-two-tokens", set(`auth_serv_id = "mx example; x"`), `auth_serv_id = "mx example; x": it is one token`},
		{"auth-serv-id-semicolon", set(`auth_serv_id = "mx.example.org;"`), `auth_serv_id = "mx.example.org;"`},
		{"move-time-zero", baseConfig + "\n[bots]\nmove_time = \"0s\"\n", `bots: move_time = "0s"`},
		{"move-time-negative", baseConfig + "\n[bots]\nmove_time = \"-1s\"\n", `bots: move_time = "-1s"`},
		{"vacation-days-zero", baseConfig + "\n[deadlines]\nvacation_days = 0\n", "deadlines: vacation_days = 0"},
		{"workers-negative", baseConfig + "\n[bots]\nworkers = -2\n", "bots: workers = -2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Load(writeConfig(t, tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Load = %v, want an error containing %q", err, tc.want)
			}
		})
	}

	// All faults at once, each on its line.
	_, err := config.Load(writeConfig(t, set("error_limit = -1\nweb_url = \"ftp://x\"")))
	if err == nil || strings.Count(err.Error(), "\n") != 1 {
		t.Errorf("two faults: %v", err)
	}
}

// The settings that work: addresses kept in their canonical form,
// metrics on loopback or, said so, beyond it.
func TestLoadConfigGoodSettings(t *testing.T) {
	text := strings.Replace(baseConfig, `"games@example.org"`, `"Games@Example.ORG"`, 1)
	text = strings.Replace(text, "[imap]", `starters = ["Ada@Club.Test", "bob@club.test"]
metrics_addr = "[::1]:9464"
web_url = "https://games.example.org/club"
auth_serv_id = "mx.example.org"
error_limit = 3
keep_sent = "24h"
[bots]
move_time = "2s"
workers = 0
[imap]`, 1)
	c, err := config.Load(writeConfig(t, text))
	if err != nil {
		t.Fatal(err)
	}
	if c.Address != "games@example.org" || strings.Join(c.Starters, " ") != "ada@club.test bob@club.test" {
		t.Errorf("address %q, starters %q: want the canonical forms", c.Address, c.Starters)
	}
	for _, addr := range []string{"127.0.0.1:9464", "localhost:9464"} {
		if _, err := config.Load(writeConfig(t, strings.Replace(text, "[::1]:9464", addr, 1))); err != nil {
			t.Errorf("metrics_addr = %q: %v", addr, err)
		}
	}
	public := strings.Replace(text, `"[::1]:9464"`, "\":9464\"\nmetrics_public = true", 1)
	if _, err := config.Load(writeConfig(t, public)); err != nil {
		t.Errorf("metrics_addr on every interface with metrics_public = true: %v", err)
	}
}

func TestKeepSentConfig(t *testing.T) {
	c, err := config.Load(writeConfig(t, baseConfig))
	if err != nil || c.KeepSent.Duration != 720*time.Hour {
		t.Fatalf("default keep_sent: %v, %v", c.KeepSent, err)
	}
	c, err = config.Load(writeConfig(t, "keep_sent = \"48h\"\n"+baseConfig))
	if err != nil || c.KeepSent.Duration != 48*time.Hour {
		t.Fatalf("keep_sent = 48h: %v, %v", c.KeepSent, err)
	}
	for text, want := range map[string]string{"-1h": "negative", "a month": "not a duration"} {
		if _, err := config.Load(writeConfig(t, "keep_sent = \""+text+"\"\n"+baseConfig)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("keep_sent = %q: %v, want %q", text, err, want)
		}
	}
}
