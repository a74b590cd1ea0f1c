package events_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"icepost/pbem"
	"icepost/pbem/events"
	"icepost/pbem/store"
	"icepost/rules/counting"
	"icepost/rules/games"
	"icepost/tournament"
)

// The bots' games here are of Counting (package rules/counting), a game
// of ten moves at most: what is tested is the tournaments, not a game.
func TestMain(m *testing.M) {
	unregister := games.Register(counting.Game)
	if path := os.Getenv(childDB); path != "" {
		runChild(path, os.Getenv(childMode))
	}
	code := m.Run()
	unregister()
	os.Exit(code)
}

// service is a game service on a fresh database, its clock a test's, and
// the tournaments beside it. Bots alone play, so no mail system is
// needed: their games run through the bots' jobs.
func service(t *testing.T) (*events.Service, *pbem.Handler, *atomic.Int64) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "icepost.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var clock atomic.Int64
	clock.Store(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC).Unix())
	h := &pbem.Handler{DB: db, Address: "games@club.test", Secret: []byte("0123456789abcdef-events"),
		Now: func() time.Time { return time.Unix(clock.Load(), 0) }}
	svc := &events.Service{Handler: h}
	h.Events = svc
	return svc, h, &clock
}

// runToTheEnd plays the bots' moves and ticks the tournaments until the
// tournament ends, and returns it.
func runToTheEnd(t *testing.T, svc *events.Service, h *pbem.Handler, id int64) *events.Event {
	t.Helper()
	ctx := context.Background()
	for range 2000 {
		if _, err := h.RunBots(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		ev, err := svc.Show(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Status == events.Finished {
			return ev
		}
	}
	t.Fatal("the tournament did not end within 2000 rounds of the bots and the tick")
	return nil
}

// A Swiss of six bots over three rounds runs to the end by itself: no
// rematch, every player once a round, seats balanced within one, the
// points the games' sum, every game by mail tagged with its event and
// round and archived in the tournament's state once.
func TestSwissOfBotsRunsByItself(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Bots Swiss", Game: "counting", Format: tournament.Swiss,
		Settings: tournament.Options{Rounds: 3}, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err == nil {
		t.Error("a running tournament started again")
	}
	ev := runToTheEnd(t, svc, h, id)
	tt := ev.T
	met := map[[2]string]bool{}
	firstSeats := map[string]int{}
	games := map[string]int{}
	for r := 1; r <= 3; r++ {
		seen := map[string]bool{}
		for _, g := range tt.Games {
			if g.Round != r {
				continue
			}
			for _, p := range g.Players {
				if seen[p] {
					t.Errorf("round %d: %s plays twice", r, p)
				}
				seen[p] = true
				games[p]++
			}
			if len(g.Players) == 2 {
				pair := [2]string{g.Players[0], g.Players[1]}
				if pair[0] > pair[1] {
					pair[0], pair[1] = pair[1], pair[0]
				}
				if met[pair] {
					t.Errorf("a rematch: %v", pair)
				}
				met[pair] = true
				firstSeats[g.Players[0]]++
				if g.Result == nil {
					t.Errorf("game %s has no result", g.Tag())
				}
			}
		}
		if len(seen) != 6 {
			t.Errorf("round %d has %d players, want 6", r, len(seen))
		}
	}
	for p, n := range games {
		if d := firstSeats[p]*2 - n; d < -1 || d > 1 {
			t.Errorf("%s played seat 1 %d times in %d games", p, firstSeats[p], n)
		}
	}
	var total float64
	rows := tt.Standings()[0].Rows
	for _, r := range rows {
		total += r.Points.Float()
	}
	if len(rows) != 6 || total != 9 {
		t.Errorf("%d rows, %v points in all; want 6 and 9 (three rounds of three games)", len(rows), total)
	}
	if len(ev.GameIDs) != 9 {
		t.Errorf("%d games by mail, want 9", len(ev.GameIDs))
	}
	var tagged int
	if err := h.DB.QueryRow(`SELECT count(*) FROM pbem_games WHERE record LIKE '%[Event "Bots Swiss"]%' AND record LIKE '%[Round "_._"]%' AND status = 'finished'`).Scan(&tagged); err != nil || tagged != 9 {
		t.Errorf("%d finished games tagged with the event and a round (%v), want 9", tagged, err)
	}
}

// A round robin of four at a four-seat table: every pair meets, and the
// tournament ends once every game has.
func TestRoundRobinAtATableOfFour(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Table", Game: "counting", Seats: 4,
		Format: tournament.RoundRobin, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := runToTheEnd(t, svc, h, id)
	if len(ev.T.Games) == 0 {
		t.Fatal("no games")
	}
	for _, g := range ev.T.Games {
		if len(g.Players) != 4 || g.Result == nil {
			t.Errorf("game %s: %v, result %v", g.Tag(), g.Players, g.Result)
		}
	}
	if !strings.Contains(events.StandingsText(ev), "bot 1/4") {
		t.Errorf("the standings do not name the fourth bot:\n%s", events.StandingsText(ev))
	}
}

// Bad specs are refused with what to do, and create nothing.
func TestCreateRefuses(t *testing.T) {
	svc, _, _ := service(t)
	ctx := context.Background()
	for _, c := range []struct {
		spec events.Spec
		want string
	}{
		{events.Spec{Name: "x", Game: "chess", Format: tournament.Swiss}, "no game"},
		{events.Spec{Name: "", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}}, "name"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss}, "rounds"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}, WhenFull: true}, "needs its number of players"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}, Players: []string{"bot:9"}}, "a level from 1 to 5"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}, Players: []string{"ada"}}, "give a mail address"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}, Options: map[string]string{"target": "1000"}}, "target"},
		{events.Spec{Name: "x", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}, Options: map[string]string{"colour": "red"}}, "colour"},
		{events.Spec{Name: "x", Game: "icefrogs", Seats: 5, Format: tournament.RoundRobin}, "5 seats"},
	} {
		_, err := svc.Create(ctx, c.spec)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Create(%+v) = %v, want an error saying %q", c.spec, err, c.want)
		}
	}
	if evs, err := svc.List(ctx); err != nil || len(evs) != 0 {
		t.Errorf("after refusals: %d tournaments, %v", len(evs), err)
	}
	if _, err := svc.Create(ctx, events.Spec{Name: "Once", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, events.Spec{Name: "Once", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 1}}); err == nil || !strings.Contains(err.Error(), "another name") {
		t.Errorf("a second tournament of one name: %v", err)
	}
}

// The process stops between the end of a round's last game and the
// pairing of the next: a new process pairs it on its first tick, once,
// however often it ticks.
func TestRoundPairedOnceAcrossRestarts(t *testing.T) {
	t.Parallel()
	svc, h, clock := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Restart", Game: "counting", Format: tournament.Swiss,
		Settings: tournament.Options{Rounds: 2}, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	count := func(db interface {
		QueryRow(string, ...any) *sql.Row
	}, q string) int {
		var n int
		if err := db.QueryRow(q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Round 1 played to its end, with no tick.
	for range 500 {
		if count(h.DB, `SELECT count(*) FROM pbem_games WHERE status = 'active'`) == 0 {
			break
		}
		if _, err := h.RunBots(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(h.DB, `SELECT count(*) FROM pbem_games WHERE status = 'finished'`); n != 2 {
		t.Fatalf("%d games of round 1 finished, want 2", n)
	}
	// A new process on the same file.
	path := ""
	if err := h.DB.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		t.Fatal(err)
	}
	h.DB.Close()
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	h2 := &pbem.Handler{DB: db, Address: h.Address, Secret: h.Secret, Now: h.Now, Bots: h.Bots}
	svc2 := &events.Service{Handler: h2}
	for range 3 {
		if err := svc2.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		clock.Add(60)
	}
	if n := count(db, `SELECT count(*) FROM pbem_event_games WHERE round = 2`); n != 2 {
		t.Fatalf("%d games of round 2, want 2 (paired once)", n)
	}
	if n := count(db, `SELECT count(*) FROM pbem_games`); n != 4 {
		t.Fatalf("%d games by mail, want 4", n)
	}
	ev := runToTheEnd(t, svc2, h2, id)
	if len(ev.T.Games) != 4 {
		t.Errorf("%d games in the tournament, want 4", len(ev.T.Games))
	}
}

// A tournament whose start time comes with too few players is called
// off once, not tried again every minute.
func TestTooFewAtTheStartTime(t *testing.T) {
	svc, _, clock := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Lonely", Game: "pikemen", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 2},
		StartsAt: time.Unix(clock.Load()+3600, 0), Players: []string{"ada@club.test"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if ev, _ := svc.Show(ctx, id); ev.Status != events.Open {
		t.Fatalf("before its start time the tournament is %s", ev.Status)
	}
	clock.Add(3600)
	if err := svc.Tick(ctx); err != nil {
		t.Fatalf("the tick at the start time: %v", err)
	}
	if ev, _ := svc.Show(ctx, id); ev.Status != events.Cancelled {
		t.Fatalf("with one player at its start time the tournament is %s, want cancelled", ev.Status)
	}
	if err := svc.Start(ctx, id); err == nil {
		t.Error("a cancelled tournament started")
	}
}

// A knockout of four bots runs to its final by itself: matches of two
// games with the seats swapped, a decider where they are level, one
// winner.
func TestKnockoutOfBotsRunsByItself(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	bots := []string{"bot:1", "bot:1", "bot:1", "bot:1"}
	id, err := svc.Create(ctx, events.Spec{Name: "Cup", Game: "counting", Format: tournament.Knockout, Players: bots})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := runToTheEnd(t, svc, h, id)
	rounds := ev.T.Bracket()
	if len(rounds) != 2 {
		t.Fatalf("%d rounds in the bracket, want 2", len(rounds))
	}
	final := rounds[1].Matches
	if len(final) != 1 || final[0].Winner == "" {
		t.Fatalf("the final: %+v", final)
	}
	for _, g := range ev.T.Games {
		if g.Playable() {
			t.Errorf("game %s was never played", g.Tag())
		}
		if _, ok := ev.GameIDs[g.Tag()]; !ok && !g.Bye {
			t.Errorf("game %s has no game by mail", g.Tag())
		}
	}
}
