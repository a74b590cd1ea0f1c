package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem"
	"icepost/pbem/localmail"
	"icepost/sqlitedb"
)

// startServe runs serve in this process until the test ends (or stop is
// called) and waits for line in its output (stdout or stderr).
func startServe(t *testing.T, line string, args ...string) (stop func() int, out, errb *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	out, errb = &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, append([]string{"serve"}, args...), nil, out, errb) }()
	stopped := false
	code := 0
	stop = func() int {
		if !stopped {
			stopped = true
			cancel(fmt.Errorf("test over"))
			select {
			case code = <-done:
			case <-time.After(20 * time.Second):
				t.Error("serve did not stop when its context ended")
			}
		}
		return code
	}
	t.Cleanup(func() { stop() })
	said := waitfor.Within(20*time.Second, func() bool {
		select {
		case code := <-done:
			t.Fatalf("serve ended with exit %d before saying %q:\n%s\n%s", code, line, out.String(), errb.String())
		default:
		}
		return strings.Contains(out.String()+errb.String(), line)
	})
	if !said {
		t.Fatalf("serve did not say %q:\n%s\n%s", line, out.String(), errb.String())
	}
	return stop, out, errb
}

// secondServe runs a serve that should be refused, stopped after a while
// if it is not.
func secondServe(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errb syncBuffer
	code := run(ctx, append([]string{"serve"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func embeddedArgs(db string) []string {
	return []string{"-db", db, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0"}
}

// A second serve on a database is refused at once, names the daemon that
// runs, and writes nothing to the database: its start would have noted
// the time since the running daemon's last heartbeat as an outage that
// pauses every clock.
func TestServeRefusesSecondDaemon(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "icepost.db")
	db, err := openDaemonDB(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	srv := &pbem.Handler{DB: db, Address: "games@club.test", Now: func() time.Time { return time.Now().Add(-30 * time.Second) }}
	if err := srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	state := func() string {
		t.Helper()
		var beat string
		var outages int
		if err := db.QueryRow(`SELECT value FROM pbem_state WHERE key = 'heartbeat'`).Scan(&beat); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM pbem_outages`).Scan(&outages); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("heartbeat %s, %d outages", beat, outages)
	}
	before := state()
	// The running daemon: its last heartbeat was 30 seconds ago.
	lock, err := lockDaemon(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	code, _, errs := secondServe(t, embeddedArgs(path)...)
	want := fmt.Sprintf("another icepost serve (pid %d) is running on %s", os.Getpid(), path)
	if code != exitRunning || !strings.Contains(errs, want) {
		t.Errorf("second serve: exit %d, %q; want exit 1 and %q", code, errs, want)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the refusal took %v", time.Since(start))
	}
	if after := state(); after != before {
		t.Errorf("the refused start wrote to the database: %s, then %s", before, after)
	}
	code, _, errs = secondServe(t, "-config", writeServeConfig(t, "database = "+strconv.Quote(path)))
	if code != exitRunning || !strings.Contains(errs, want) {
		t.Errorf("second serve with a config: exit %d, %q", code, errs)
	}
	lock.release()

	// And with a real daemon running in this process.
	stop, _, _ := startServe(t, "Stop with Ctrl-C", embeddedArgs(path)...)
	if code, _, errs := secondServe(t, embeddedArgs(path)...); code != exitRunning || !strings.Contains(errs, want) {
		t.Errorf("serve beside a running serve: exit %d, %q", code, errs)
	}
	if code := stop(); code != exitOK {
		t.Errorf("the first serve stopped with exit %d", code)
	}
}

// writeServeConfig writes a config for the embedded accounts that names
// no reachable servers; extra is added at the top.
func writeServeConfig(t *testing.T, extra string) string {
	t.Helper()
	return writeFile(t, "icepost.toml", extra+`
address = "games@club.test"
secret_env = "ICEPOST_TEST_NO_SECRET"
[imap]
addr = "127.0.0.1:1"
[smtp]
addr = "127.0.0.1:1"
`)
}

// A daemon killed with kill -9 leaves its lock file, but not its lock: a
// restart is not blocked.
func TestServeRestartAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	path := filepath.Join(t.TempDir(), "icepost.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeLockHelper$")
	cmd.Env = append(os.Environ(), "ICEPOST_LOCK_HELPER_DB="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "Stop with Ctrl-C") {
				ready <- true
			}
		}
		close(ready)
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatal("the child serve ended before it started")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the child serve did not start")
	}
	want := fmt.Sprintf("another icepost serve (pid %d) is running on %s", cmd.Process.Pid, path)
	if code, _, errs := secondServe(t, embeddedArgs(path)...); code != exitRunning || !strings.Contains(errs, want) {
		t.Fatalf("serve beside the child: exit %d, %q; want %q", code, errs, want)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(path + ".lock"); err != nil {
		t.Errorf("the lock file: %v", err)
	}
	stop, _, _ := startServe(t, "Stop with Ctrl-C", embeddedArgs(path)...)
	if code := stop(); code != exitOK {
		t.Errorf("the restart stopped with exit %d", code)
	}
}

// TestServeLockHelper is the child of TestServeRestartAfterKill: a serve
// that runs until it is killed.
func TestServeLockHelper(t *testing.T) {
	db := os.Getenv("ICEPOST_LOCK_HELPER_DB")
	if db == "" {
		t.Skip("the child of TestServeRestartAfterKill")
	}
	os.Exit(run(context.Background(), append([]string{"serve", "-q"}, embeddedArgs(db)...), nil, os.Stdout, os.Stderr))
}

// SIGHUP is logged and does not stop serve; the start line names the
// build.
func TestServeHangup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "icepost.db")
	stop, _, errb := startServe(t, "Stop with Ctrl-C", embeddedArgs(path)...)
	if s := errb.String(); !strings.Contains(s, `msg="icepost serve started" version=`) || !strings.Contains(s, " revision=") {
		t.Errorf("the start line does not name the build:\n%s", s)
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	want := `level=WARN msg="SIGHUP: nothing to reload; restart icepost serve to apply a new config"`
	if !waitfor.Within(10*time.Second, func() bool { return strings.Contains(errb.String(), want) }) {
		t.Fatalf("no line for SIGHUP:\n%s", errb.String())
	}
	if code := stop(); code != exitOK {
		t.Errorf("serve stopped with exit %d after SIGHUP:\n%s", code, errb.String())
	}
}

// With log_format = "json", serve logs one JSON object a line; the
// config's relative paths are read from its folder, wherever serve is
// started.
func TestServeJSONLogAndConfigPaths(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "club.test", Users: map[string]string{"games": "pw-games"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	dir := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metrics := ln.Addr().String()
	ln.Close()
	for name, text := range map[string]string{
		"secret": "0123456789abcdef-json-test\n",
		"pw":     "pw-games\n",
		"icepost.toml": `log_format = "json"
metrics_addr = "` + metrics + `"
database = "state/icepost.db"
secret_file = "secret"
address = "games@club.test"
[imap]
addr = "` + sys.IMAPAddr + `"
tls = "none"
username = "games"
password_file = "pw"
[smtp]
addr = "` + sys.SMTPAddr + `"
tls = "none"
username = "games"
password_file = "pw"
`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "state"), 0o700)
	t.Chdir(t.TempDir())
	stop, _, errb := startServe(t, "icepost serve started", "-config", filepath.Join(dir, "icepost.toml"))
	// metrics_addr: /healthz says ok once the inbox was read, /metrics
	// counts from the database.
	healthy := waitfor.Within(10*time.Second, func() bool {
		resp, err := http.Get("http://" + metrics + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	if !healthy {
		t.Errorf("/healthz never said ok:\n%s", errb.String())
	}
	if resp, err := http.Get("http://" + metrics + "/metrics"); err != nil {
		t.Error(err)
	} else {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), "icepost_imap_connected 1") || !strings.Contains(string(b), `icepost_outbox_mails{state="unsent"} 0`) || !strings.Contains(string(b), "icepost_bot_search_seconds_count 0") {
			t.Errorf("/metrics:\n%s", b)
		}
	}
	if code := stop(); code != exitOK {
		t.Errorf("serve stopped with exit %d:\n%s", code, errb.String())
	}
	started := false
	for _, line := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("not a JSON line: %q (%v)", line, err)
			continue
		}
		if rec["msg"] == "icepost serve started" {
			started = true
			if want := filepath.Join(dir, "state", "icepost.db"); rec["database"] != want {
				t.Errorf("database %v, want %s", rec["database"], want)
			}
			if rec["version"] == nil || rec["revision"] == nil {
				t.Errorf("the start line does not name the build: %v", rec)
			}
		}
	}
	if !started {
		t.Errorf("no start line:\n%s", errb.String())
	}
	fi, err := os.Stat(filepath.Join(dir, "state", "icepost.db"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the database beside the config: %v %v", fi, err)
	}
}

// games and players never make a database: without one they say which
// file they looked for and exit 2.
func TestOperatorNeedsADatabase(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nothing.db")
	cfg := writeServeConfig(t, "database = \"elsewhere.db\"\n")
	t.Setenv("ICEPOST_TEST_NO_SECRET", "0123456789abcdef-no-db-test")
	for _, args := range [][]string{
		{"games", "-db", missing, "list"},
		{"players", "-db", missing, "list"},
		{"games", "-db", missing, "cancel", "1"},
		{"games", "-config", cfg, "list"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			want := missing
			if args[1] == "-config" {
				want = filepath.Join(filepath.Dir(cfg), "elsewhere.db")
			}
			code, _, errs := runOp(t, args...)
			if code != exitUsage || !strings.Contains(errs, "no database at "+want) {
				t.Errorf("%v: exit %d %q; want 2 and the path %s", args, code, errs, want)
			}
			if _, err := os.Stat(want); !os.IsNotExist(err) {
				t.Errorf("%v made %s", args, want)
			}
		})
	}
	t.Chdir(dir)
	if code, _, errs := runOp(t, "games", "list"); code != exitUsage || !strings.Contains(errs, "no database at icepost.db ("+filepath.Join(dir, "icepost.db")+")") {
		t.Errorf("games list: exit %d %q", code, errs)
	}
	if _, err := os.Stat("icepost.db"); !os.IsNotExist(err) {
		t.Error("games list made ./icepost.db")
	}
}

// A backup made while mails are being handled holds every mail handled
// before it began, and passes the integrity check.
func TestBackupWhileHandling(t *testing.T) {
	ctx := context.Background()
	path, srv := operatorDB(t)
	// The mails go on, one after another as fast as they are handled,
	// until the test stops them: at its end whatever becomes of it (a
	// test that fails before it stops them stops them all the same), and
	// after two minutes at the most.
	stopMail := make(chan struct{})
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { close(stopMail) }) }
	var handled atomic.Int64
	mailDone := make(chan error, 1)
	finished := make(chan struct{})
	t.Cleanup(func() {
		stop()
		select {
		case <-finished:
		case <-time.After(time.Minute):
			t.Errorf("the mails went on a minute after the test stopped them (%d handled)", handled.Load())
		}
	})
	go func() {
		defer close(finished)
		limit := time.Now().Add(2 * time.Minute)
		for i := 0; ; i++ {
			select {
			case <-stopMail:
				mailDone <- nil
				return
			default:
			}
			if time.Now().After(limit) {
				mailDone <- fmt.Errorf("the test did not stop the mails in two minutes (%d handled)", i)
				return
			}
			from := []string{"ada", "bob", "cy", "dee"}[i%4]
			body := []string{"help", "digest on", "digest off", "games"}[i/4%4]
			raw := fmt.Sprintf("Authentication-Results: mx.club.test; dmarc=pass header.from=club.test\r\nFrom: %s@club.test\r\nTo: games@club.test\r\nSubject: x\r\nMessage-ID: <backup%d@club.test>\r\nContent-Type: text/plain\r\n\r\n%s\r\n", from, i, body)
			if _, err := srv.Handle(ctx, []byte(raw)); err != nil {
				mailDone <- err
				return
			}
			handled.Add(1)
		}
	}()
	// waitHandled waits, with a deadline, for n mails handled; a mail
	// goroutine that stopped on an error ends the test at once.
	waitHandled := func(n int64) {
		t.Helper()
		waitfor.Until(t, fmt.Sprintf("%d mails handled", n), time.Minute, func() bool {
			select {
			case err := <-mailDone:
				t.Fatalf("the mails stopped after %d: %v", handled.Load(), err)
			default:
			}
			return handled.Load() >= n
		})
	}
	waitHandled(20)
	keys := processedKeys(t, srv.DB)
	atBackup := handled.Load()
	dir := filepath.Join(t.TempDir(), "backups")
	code, out, errs := runOp(t, "backup", "-db", path, dir)
	during := handled.Load() - atBackup
	waitHandled(atBackup + during + 5)
	stop()
	select {
	case err := <-mailDone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("the mails did not stop in a minute (%d handled)", handled.Load())
	}
	if code != exitOK || !strings.Contains(out, path+" -> "+filepath.Join(dir, "icepost.db")+": ") || !strings.Contains(out, "integrity ok") {
		t.Fatalf("backup: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("%d mails handled before the backup, %d while it ran; %s", len(keys), during, strings.TrimSpace(out))
	copyPath := filepath.Join(dir, "icepost.db")
	if err := sqlitedb.Check(ctx, copyPath); err != nil {
		t.Fatal(err)
	}
	cp, err := sqlitedb.OpenReadOnly(ctx, copyPath)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	got := map[string]bool{}
	for _, k := range processedKeys(t, cp) {
		got[k] = true
	}
	for _, k := range keys {
		if !got[k] {
			t.Errorf("mail %s, handled before the backup began, is not in the copy", k)
		}
	}
	if fi, _ := os.Stat(copyPath); fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy's mode is %v", fi.Mode().Perm())
	}
	// The copy is a daemon's database that the operator's commands read.
	if code, out, errs := runOp(t, "games", "-db", copyPath, "list"); code != exitOK || !strings.Contains(out, "ada@club.test") {
		t.Errorf("games list on the copy: exit %d\n%s%s", code, out, errs)
	}
}

func processedKeys(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query(`SELECT mail_key FROM pbem_processed`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var keys []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	return keys
}

// backup with a config copies the database it names, beside it; a
// database that is not there is a failure (exit 1), not a new file.
func TestBackupConfigAndFailure(t *testing.T) {
	path, _ := operatorDB(t)
	cfg := filepath.Join(filepath.Dir(path), "icepost.toml")
	if err := os.WriteFile(cfg, []byte("database = \"icepost.db\"\naddress = \"games@club.test\"\n[imap]\naddr = \"x:1\"\n[smtp]\naddr = \"y:2\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	if code, out, errs := runOp(t, "backup", "-config", cfg, dir); code != exitOK || strings.Count(out, "integrity ok") != 1 {
		t.Errorf("backup -config: exit %d\n%s%s", code, out, errs)
	}
	missing := filepath.Join(t.TempDir(), "gone.db")
	code, out, errs := runOp(t, "backup", "-db", missing, dir)
	if code != exitInvalid || !strings.Contains(errs, missing) || out != "" {
		t.Errorf("backup of a missing database: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Error("backup made the database it was to copy")
	}
	if code, _, errs := runOp(t, "backup", "-db", "a/x.db", "-db", "b/x.db", dir); code != exitUsage || !strings.Contains(errs, "would both be copied") {
		t.Errorf("two files of one name: exit %d %s", code, errs)
	}
}
