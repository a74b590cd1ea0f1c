package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"icepost/internal/waitfor"
)

// syncBuffer is a bytes.Buffer that a running command and the test can
// share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve with no config starts the embedded mail system, says how to
// connect, and stops cleanly when its context ends (SIGINT/SIGTERM).
func TestServeEmbedded(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	db := filepath.Join(t.TempDir(), "icepost.db")
	done := make(chan int, 1) // room for the exit code when the test has given up waiting
	go func() {
		done <- run(ctx, []string{"serve", "-db", db, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0", "-q"}, nil, &out, &errb)
	}()
	if !waitfor.Within(20*time.Second, func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") }) {
		t.Fatalf("serve printed no connection help:\n%s\n%s", out.String(), errb.String())
	}
	for _, want := range []string{"IMAP  127.0.0.1:", "SMTP  127.0.0.1:", "challenge icesickle bob@icepost.localhost"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("serve's help lacks %q:\n%s", want, out.String())
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve stopped with exit %d: %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

func TestServeBadConfig(t *testing.T) {
	cfg := writeFile(t, "icepost.toml", "address = \"games@example.org\"\n[imap]\naddr = \"x:1\"\npassword = \"secret\"\n[smtp]\naddr = \"y:2\"\n")
	code, _, errs := icepost(t, "", "serve", "-config", cfg)
	if code != exitUsage || !strings.Contains(errs, "secrets never go in the file") {
		t.Errorf("serve with a password in the config: %d %s", code, errs)
	}
}

// When its usual ports are taken, serve says loudly where it listens
// instead (even with -q), and it logs a line when it stops on a signal.
func TestServeFallbackPortsAndStop(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	var out, errb syncBuffer
	db := filepath.Join(t.TempDir(), "icepost.db")
	done := make(chan int, 1) // room for the exit code when the test has given up waiting
	go func() {
		done <- run(ctx, []string{"serve", "-db", db, "-imap", taken.Addr().String(), "-smtp", "127.0.0.1:0", "-q"}, nil, &out, &errb)
	}()
	if !waitfor.Within(20*time.Second, func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") }) {
		t.Fatalf("serve printed no connection help:\n%s\n%s", out.String(), errb.String())
	}
	if want := "NOTE: " + taken.Addr().String() + " is taken: IMAP listens on 127.0.0.1:"; !strings.Contains(errb.String(), want) {
		t.Errorf("no loud word of the IMAP port taken (%q):\n%s", want, errb.String())
	}
	if !strings.Contains(out.String(), "log in as ada or ada@icepost.localhost") {
		t.Errorf("the banner does not say both login names work:\n%s", out.String())
	}
	cancel(errors.New("signal interrupt"))
	select {
	case code := <-done:
		if code != exitOK || !strings.Contains(errb.String(), "stopped") || !strings.Contains(errb.String(), "signal interrupt") {
			t.Errorf("serve stopped with exit %d, log:\n%s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

// icepost secret writes a secret that serve's config can name, and never
// replaces one.
func TestSecretCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secret")
	code, out, errs := icepost(t, "", "secret", path)
	if code != exitOK || !strings.Contains(out, "secret_file = \""+path+"\"") {
		t.Fatalf("secret: exit %d\n%s%s", code, out, errs)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 || fi.Size() < 40 {
		t.Errorf("secret file: %v %v", fi, err)
	}
	if code, _, errs := icepost(t, "", "secret", path); code != exitUsage || !strings.Contains(errs, "never replaced") {
		t.Errorf("second secret: exit %d %s", code, errs)
	}
}
