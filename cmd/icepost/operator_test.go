package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/pbem"
	"icepost/pbem/store"
)

// operatorDB makes a daemon database with two games by mail, as the
// embedded daemon leaves it: game 1 (ada vs bob, 2 days per move) active,
// game 2 (ada vs cy) invited.
func operatorDB(t *testing.T) (string, *pbem.Handler) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "icepost.db")
	db, err := openDaemonDB(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	secret, err := store.Secret(ctx, db, func() string { return "0123456789abcdef-operator-test" })
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now() // the commands read the real clock
	// The club's mail server vouches for its senders, so that a new mail
	// acts at once.
	srv := &pbem.Handler{DB: db, Address: "games@club.test", Secret: []byte(secret), Archive: archiveAdder{},
		Now: func() time.Time { return start }, AuthServID: "mx.club.test"}
	if err := srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	n := 0
	mail := func(from, body string) {
		t.Helper()
		n++
		raw := fmt.Sprintf("Authentication-Results: mx.club.test; dmarc=pass header.from=club.test\r\nFrom: %s@club.test\r\nTo: games@club.test\r\nSubject: x\r\nMessage-ID: <op%d@club.test>\r\nContent-Type: text/plain\r\n\r\n%s\r\n", from, n, body)
		if _, err := srv.Handle(ctx, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	mail("ada", "challenge icesickle days=2 bob@club.test")
	mail("bob", "accept")
	mail("ada", "challenge icesickle cy@club.test")
	mail("cy", "digest on")
	return path, srv
}

func runOp(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func outboxTo(t *testing.T, srv *pbem.Handler, addr string) int {
	t.Helper()
	var n int
	if err := srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE recipient = ?`, addr).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestOperatorGames(t *testing.T) {
	db, srv := operatorDB(t)
	code, out, errs := runOp(t, "games", "-db", db, "list")
	if code != exitOK || !strings.HasPrefix(out, "ID") {
		t.Fatalf("list: exit %d\n%s%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "invited") || !strings.Contains(lines[2], "active") ||
		!strings.Contains(lines[2], "ada@club.test, bob@club.test") || !strings.Contains(lines[2], "2d00h of 2d") {
		t.Fatalf("list:\n%s", out)
	}
	code, out, _ = runOp(t, "games", "-db", db, "show", "1")
	if code != exitOK || !strings.Contains(out, `[TimeControl "2d/move"]`) || !strings.Contains(out, "To move: ada@club.test (2d00h left of 2 days per move)") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	if code, _, errs := runOp(t, "games", "-db", db, "show", "9"); code != exitInvalid || !strings.Contains(errs, "no such game") {
		t.Errorf("show 9: exit %d %s", code, errs)
	}
	if code, _, _ := runOp(t, "games", "-db", db, "show"); code != exitUsage {
		t.Errorf("show without an id: exit %d", code)
	}
	if code, _, _ := runOp(t, "games", "-db", db, "frobnicate"); code != exitUsage {
		t.Errorf("unknown subcommand: exit %d", code)
	}

	cy := outboxTo(t, srv, "cy@club.test")
	if code, out, errs := runOp(t, "games", "-db", db, "cancel", "2"); code != exitOK || !strings.Contains(out, "game 2 cancelled") {
		t.Fatalf("cancel: exit %d %s%s", code, out, errs)
	}
	if outboxTo(t, srv, "cy@club.test") != cy+1 {
		t.Error("cy was not told of the cancelled game")
	}
	if code, _, errs := runOp(t, "games", "-db", db, "cancel", "2"); code != exitInvalid || !strings.Contains(errs, "game 2 is cancelled") {
		t.Errorf("cancel twice: exit %d %s", code, errs)
	}

	if code, _, errs := runOp(t, "games", "-db", db, "adjudicate", "1", "2-1"); code != exitInvalid || !strings.Contains(errs, "is not a result for 2 seats") {
		t.Errorf("adjudicate 2-1: exit %d %s", code, errs)
	}
	bob := outboxTo(t, srv, "bob@club.test")
	if code, out, errs := runOp(t, "games", "-db", db, "adjudicate", "1", "0-1"); code != exitOK || !strings.Contains(out, "adjudicated 0-1 and archived") {
		t.Fatalf("adjudicate: exit %d %s%s", code, out, errs)
	}
	if outboxTo(t, srv, "bob@club.test") != bob+1 {
		t.Error("bob was not told of the adjudication")
	}
	var record string
	srv.DB.QueryRow(`SELECT record FROM pbem_games WHERE id = 1`).Scan(&record)
	if !strings.Contains(record, `[Termination "abandoned"]`) || !strings.Contains(record, `[Result "0-1"]`) {
		t.Errorf("record:\n%s", record)
	}
	var archived int
	if srv.DB.QueryRow(`SELECT count(*) FROM games`).Scan(&archived); archived != 1 {
		t.Errorf("%d games archived", archived)
	}
	code, out, _ = runOp(t, "games", "-db", db, "list")
	if code != exitOK || !strings.Contains(out, "finished") || !strings.Contains(out, "cancelled") {
		t.Errorf("list after:\n%s", out)
	}
}

func TestOperatorPlayers(t *testing.T) {
	db, _ := operatorDB(t)
	code, out, errs := runOp(t, "players", "-db", db, "list")
	if code != exitOK {
		t.Fatalf("list: exit %d %s", code, errs)
	}
	want := []string{"ada@club.test  1      30d", "bob@club.test  1      30d", "cy@club.test   0      30d            yes     no"}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("players list lacks %q:\n%s", w, out)
		}
	}
	if code, out, _ := runOp(t, "players", "-db", db, "block", "Bob@club.test"); code != exitOK || !strings.Contains(out, "bob@club.test blocked") {
		t.Fatalf("block: exit %d %s", code, out)
	}
	if _, out, _ := runOp(t, "players", "-db", db, "list"); !strings.Contains(out, "bob@club.test  1      30d            no      yes") {
		t.Errorf("after block:\n%s", out)
	}
	if code, _, _ := runOp(t, "players", "-db", db, "unblock", "bob@club.test"); code != exitOK {
		t.Fatal("unblock")
	}
	if _, out, _ := runOp(t, "players", "-db", db, "list"); !strings.Contains(out, "bob@club.test  1      30d            no      no") {
		t.Errorf("after unblock:\n%s", out)
	}
	if code, _, _ := runOp(t, "players", "-db", db, "block", "nobody"); code != exitUsage {
		t.Errorf("block nobody: exit %d", code)
	}
}

// Without the server's address and secret, nothing that mails players
// is done.
func TestOperatorNeedsIdentity(t *testing.T) {
	db := filepath.Join(t.TempDir(), "empty.db")
	d, err := openDaemonDB(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if code, out, _ := runOp(t, "games", "-db", db, "list"); code != exitOK || strings.Count(out, "\n") != 1 {
		t.Errorf("list of nothing: exit %d %q", code, out)
	}
	if code, _, errs := runOp(t, "games", "-db", db, "cancel", "1"); code != exitUsage || !strings.Contains(errs, "give -config FILE") {
		t.Errorf("cancel: exit %d %s", code, errs)
	}
}
