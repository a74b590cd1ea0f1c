package events_test

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem"
	"icepost/pbem/events"
	"icepost/pbem/store"
	"icepost/tournament"
)

// The environment that makes the test binary a daemon's stand-in
// (runChild): the database's path, and whether it ticks the tournaments
// or only plays the bots' moves.
const (
	childDB   = "ICEPOST_EVENTS_CHILD_DB"
	childMode = "ICEPOST_EVENTS_CHILD_MODE"
)

var childSecret = []byte("0123456789abcdef-killed")

// runChild is the process killed: it plays the bots' moves and, in mode
// "tick", ticks the tournaments, as the daemon's loops do, until it is
// killed.
func runChild(path, mode string) {
	db, err := store.Open(path)
	if err != nil {
		os.Exit(3)
	}
	h := &pbem.Handler{DB: db, Address: "games@club.test", Secret: childSecret}
	svc := &events.Service{Handler: h}
	h.Events = svc
	ctx := context.Background()
	for {
		if _, err := h.RunBots(ctx, nil); err != nil {
			os.Exit(4)
		}
		if mode == "tick" {
			if err := svc.Tick(ctx); err != nil {
				os.Exit(5)
			}
		}
	}
}

// A tournament survives kill -9: first between the end of round 1's last
// game and the next round's pairing, then at whatever moment the process
// is in when another game has ended, again and again. After each kill
// the database holds every round paired once: each round's games by
// mail are the tournament's, three a round, none started twice.
func TestTournamentSurvivesKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	path := filepath.Join(t.TempDir(), "icepost.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	h := &pbem.Handler{DB: db, Address: "games@club.test", Secret: childSecret}
	svc := &events.Service{Handler: h}
	id, err := svc.Create(ctx, events.Spec{Name: "Killed", Game: "counting", Format: tournament.Swiss,
		Settings: tournament.Options{Rounds: 3}, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	db.Close()

	count := func(q string) int {
		db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=5000")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	finished := func() int { return count(`SELECT count(*) FROM pbem_games WHERE status = 'finished'`) }
	// check: the tournament's games by mail, as stored, are each round's
	// once, and its state names every one of them.
	check := func(when string) *events.Event {
		t.Helper()
		db, err := store.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		ev, err := (&events.Service{Handler: &pbem.Handler{DB: db}}).Show(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var games, linked int
		if err := db.QueryRow(`SELECT count(*) FROM pbem_games`).Scan(&games); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow(`SELECT count(*) FROM pbem_event_games WHERE event_id = ?`, id).Scan(&linked); err != nil {
			t.Fatal(err)
		}
		if games != linked || games != len(ev.GameIDs) || games != len(ev.T.Games) || games%3 != 0 {
			t.Fatalf("%s: %d games by mail, %d linked, %d in the state, %d paired; want all equal, three a round", when, games, linked, len(ev.GameIDs), len(ev.T.Games))
		}
		for r := 1; r <= games/3; r++ {
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM pbem_event_games WHERE event_id = ? AND round = ?`, id, r).Scan(&n); err != nil || n != 3 {
				t.Fatalf("%s: round %d has %d games by mail (%v), want 3", when, r, n, err)
			}
		}
		return ev
	}
	// kill runs the child in mode until cond, then kills it with SIGKILL.
	kill := func(mode, what string, cond func() bool) {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childDB+"="+path, childMode+"="+mode)
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitfor.Until(t, what, 60*time.Second, cond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil || cmd.ProcessState.ExitCode() != -1 {
			t.Fatalf("the child ended by itself (%v) before it was killed", err)
		}
	}

	// Round 1 to its end with no tick, then killed: round 2 not paired.
	kill("bots", "round 1's three games end", func() bool { return finished() == 3 })
	if ev := check("after round 1"); len(ev.T.Games) != 3 {
		t.Fatalf("round 2 was paired with no tick: %d games", len(ev.T.Games))
	}
	// Then killed each time another game ends, wherever it is.
	for kills := 0; ; kills++ {
		done := finished()
		if done == 9 {
			t.Logf("%d kills after round 1", kills)
			break
		}
		if kills == 20 {
			t.Fatalf("%d games of 9 finished after 20 kills", done)
		}
		kill("tick", "another game ends", func() bool { return finished() > done })
		check("after a kill")
	}
	// A last process finishes the tournament: the last result recorded,
	// the end told.
	db, err = store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h = &pbem.Handler{DB: db, Address: "games@club.test", Secret: childSecret}
	svc = &events.Service{Handler: h}
	ev := runToTheEnd(t, svc, h, id)
	if len(ev.T.Games) != 9 {
		t.Errorf("%d games in all, want 9", len(ev.T.Games))
	}
	check("at the end")
}
