package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/pbem/localmail"
	"icepost/pbem/mailtest"
)

// settingsSetup is a config that works: the embedded mail system's IMAP
// and SMTP on loopback (tls = "none"), a secret file, no database yet.
type settingsSetup struct {
	dir string
	sys *localmail.System
}

func newSettingsSetup(t *testing.T) *settingsSetup {
	t.Helper()
	sys, err := localmail.Start(context.Background(), localmail.Config{Domain: "club.test", Users: map[string]string{"games": "pw-games"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	s := &settingsSetup{dir: t.TempDir(), sys: sys}
	for name, text := range map[string]string{"secret": "0123456789abcdef-test-secret\n", "pw": "pw-games\n"} {
		if err := os.WriteFile(filepath.Join(s.dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// config writes the working config with lines changed: "key = value"
// replaces the key of the section it follows ("[imap]" or "[smtp]"
// lines switch section, top-level first), or adds it; "key =" removes
// it. Lines under "[bots]" or "[deadlines]" go in that table.
func (s *settingsSetup) config(t *testing.T, lines string) string {
	t.Helper()
	sections := []string{"", "imap", "smtp", "bots", "deadlines"}
	keys := map[string][][2]string{
		"": {{"database", fmt.Sprintf("%q", filepath.Join(s.dir, "icepost.db"))}, {"address", `"games@club.test"`},
			{"secret_file", fmt.Sprintf("%q", filepath.Join(s.dir, "secret"))}},
		"imap": {{"addr", fmt.Sprintf("%q", s.sys.IMAPAddr)}, {"tls", `"none"`}, {"username", `"games"`},
			{"password_file", fmt.Sprintf("%q", filepath.Join(s.dir, "pw"))}},
		"smtp": {{"addr", fmt.Sprintf("%q", s.sys.SMTPAddr)}, {"tls", `"none"`}, {"username", `"games"`},
			{"password_file", fmt.Sprintf("%q", filepath.Join(s.dir, "pw"))}},
	}
	section := ""
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		kv := keys[section]
		i := 0
		for i < len(kv) && kv[i][0] != k {
			i++
		}
		switch {
		case v == "" && i < len(kv):
			kv = append(kv[:i], kv[i+1:]...)
		case i < len(kv):
			kv[i][1] = v
		default:
			kv = append(kv, [2]string{k, v})
		}
		keys[section] = kv
	}
	var b strings.Builder
	for _, sec := range sections {
		if sec != "" && len(keys[sec]) == 0 {
			continue
		}
		if sec != "" {
			fmt.Fprintf(&b, "\n[%s]\n", sec)
		}
		for _, kv := range keys[sec] {
			fmt.Fprintf(&b, "%s = %s\n", kv[0], kv[1])
		}
	}
	path := filepath.Join(t.TempDir(), "icepost.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// check runs serve -check on the config, within a deadline well under
// the timeouts of a connection that hangs: a check that hangs fails.
func (s *settingsSetup) check(t *testing.T, config string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	var out, errb syncBuffer
	code := run(ctx, []string{"serve", "-check", "-config", config}, nil, &out, &errb)
	if ctx.Err() != nil {
		t.Errorf("serve -check ran into the test's deadline:\n%s%s", out.String(), errb.String())
	}
	return code, out.String() + errb.String()
}

// implicitTLSPort listens on loopback as a port of implicit TLS does
// (465, 993): each connection waits for the client's TLS handshake, and
// says nothing before it.
func implicitTLSPort(t *testing.T) string {
	t.Helper()
	cert := mailtest.NewCA(t).Issue(t, "127.0.0.1")
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert.TLS}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(time.Minute))
				if c.(*tls.Conn).Handshake() == nil {
					c.Read(make([]byte, 1))
				}
			}()
		}
	}()
	return ln.Addr().String()
}

// Every setting that cannot work makes serve -check exit 1 and name its
// key (each was passed before, and the daemon then spun, mailed nobody,
// or served /metrics to the world); a config that works exits 0.
func TestServeCheckSettings(t *testing.T) {
	s := newSettingsSetup(t)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { taken.Close() })
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	freeAddr := free.Addr().String()
	free.Close()
	tlsPort := implicitTLSPort(t)

	for _, tc := range []struct {
		name, lines string
		want        []string // in the output; the first names the key
	}{
		{"works", `metrics_addr = "` + freeAddr + `"`, []string{
			"config    ok: ", "metrics   ok: " + freeAddr, "IMAP      ok: ", "SMTP      ok: "}},
		{"poll-interval-negative", `poll_interval = "-5s"`, []string{`config    FAILED: `, `poll_interval = "-5s"`}},
		{"address-two-at-signs", `address = "a@b@club.test"`, []string{`address must be the server's one mail address`, `"a@b@club.test" is not an address`}},
		{"error-limit-negative", `error_limit = -1`, []string{"error_limit = -1"}},
		{"both-secret-settings", `secret_env = "ICEPOST_SECRET"`, []string{"secret_env and secret_file are both set"}},
		{"metrics-addr-invalid", `metrics_addr = "localhost"`, []string{`metrics_addr = "localhost": not host:port`}},
		{"metrics-addr-in-use", `metrics_addr = "` + taken.Addr().String() + `"`, []string{
			"metrics   FAILED: metrics_addr " + taken.Addr().String() + " is in use by another program"}},
		{"metrics-addr-every-interface", `metrics_addr = ":9464"`, []string{`metrics_addr = ":9464": it listens on every interface, beyond loopback`, "metrics_public = true"}},
		{"web-url-javascript", `web_url = "javascript:alert(document.cookie)"`, []string{`web_url = "javascript:alert(document.cookie)": board mails link to it: it begins with https://`}},
		{"auth-serv-id-not-one-token", `auth_serv_id = "mx example; x"`, []string{`auth_serv_id = "mx example; x": it is one token`}},
		{"starters-unknown-name", `starters = ["ada@club.test", "bob"]`, []string{`starters: each is one player's mail address`, `"bob" is not an address`}},
		{"move-time-zero", "[bots]\nmove_time = \"0s\"", []string{`bots: move_time = "0s"`}},
		{"smtp-starttls-on-implicit-tls-port", "[smtp]\naddr = \"" + tlsPort + "\"\ntls = \"starttls\"", []string{
			"SMTP      FAILED: SMTP server at " + tlsPort + ` speaks TLS at once: set [smtp] tls = "tls"`}},
		{"smtp-none-on-implicit-tls-port", "[smtp]\naddr = \"" + tlsPort + "\"", []string{
			"SMTP      FAILED: SMTP server at " + tlsPort + ` speaks TLS at once: set [smtp] tls = "tls"`}},
		{"imap-none-on-implicit-tls-port", "[imap]\naddr = \"" + tlsPort + "\"", []string{
			"IMAP      FAILED: IMAP server at " + tlsPort + ` speaks TLS at once: set [imap] tls = "tls"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out := s.check(t, s.config(t, tc.lines))
			want := exitInvalid
			if tc.name == "works" {
				want = exitOK
			}
			if code != want {
				t.Errorf("exit %d, want %d\n%s", code, want, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(s.dir, "icepost.db")); err == nil {
			t.Error("serve -check made the database")
		}
	})
}

// serve and web -config read the settings through the same check: a bad
// setting stops them before they start, with its key named.
func TestBadSettingStopsServeAndWeb(t *testing.T) {
	s := newSettingsSetup(t)
	config := s.config(t, `poll_interval = "-5s"`)
	for _, cmd := range []string{"serve", "web"} {
		// Should the command start, it is stopped, and fails the test.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		var out, errb syncBuffer
		code := run(ctx, []string{cmd, "-config", config, "-q"}, nil, &out, &errb)
		cancel()
		if code != exitUsage || !strings.Contains(errb.String(), `poll_interval = "-5s"`) {
			t.Errorf("%s with poll_interval = \"-5s\": exit %d, %q", cmd, code, errb.String())
		}
	}
}
