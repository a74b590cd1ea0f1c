package pbem_test

import (
	"strings"
	"testing"
	"time"

	"icepost/pbem"

	"icepost/pbem/players"
	"icepost/pbem/store"
)

// tick runs the server's tick and sends what it queued.
func (w *world) tick() {
	w.t.Helper()
	if err := w.srv.Tick(w.ctx); err != nil {
		w.t.Fatal(err)
	}
	w.step()
}

// send delivers a mail from a player to the server's plain address (no
// game token) and handles it. A command that acts for its sender (a
// challenge, a vacation) is asked to be confirmed, since a new mail shows
// nothing of who sent it: the player replies to that mail with the same
// line, as a person would.
func (w *world) send(from, body string) {
	w.t.Helper()
	w.deliver(w.write(from, w.srv.Address, "command", "", body))
	w.step()
	if in := w.inbox(from); len(in) > 0 && strings.HasPrefix(in[len(in)-1].header.Get("Subject"), "icepost: please confirm") {
		w.deliver(w.reply(from, in[len(in)-1], body))
		w.step()
	}
}

func (w *world) wantLast(user string, wants ...string) got {
	w.t.Helper()
	m := w.last(user)
	for _, want := range wants {
		if !strings.Contains(flat(m.text), flat(want)) { // lines wrapped anywhere
			w.t.Fatalf("%s's last mail lacks %q:\n%s", user, want, m.text)
		}
	}
	return m
}

// mailCount is how many mails user has received.
func (w *world) mailCount(user string) int { return len(w.inbox(user)) }

func gameStatus(t *testing.T, w *world) (status, record string) {
	t.Helper()
	if err := w.srv.DB.QueryRow(`SELECT status, record FROM pbem_games WHERE id = 1`).Scan(&status, &record); err != nil {
		t.Fatal(err)
	}
	return status, record
}

// TestDeadlineFlow is the whole way of a silent player: reminder, last
// warning, loss on time, archive; on the embedded IMAP server and on a
// real Dovecot.
func TestDeadlineFlow(t *testing.T) {
	for _, b := range []struct {
		name string
		new  func(testing.TB) *world
	}{{"memory", newWorld}, {"dovecot", newDovecotWorld}} {
		t.Run(b.name, func(t *testing.T) {
			w := b.new(t)
			w.srv.Deadlines.DaysPerMove = 3 // the operator's default
			startGame(t, w)
			w.wantLast("ada", "Time control: 3 days per move; you have 3 days left.")
			w.wantLast("bob", "the player to move has 3 days left")
			if _, rec := gameStatus(t, w); !strings.Contains(rec, `[TimeControl "3d/move"]`) {
				t.Fatalf("record:\n%s", rec)
			}
			w.tick()
			w.clock.Advance(47 * time.Hour) // under 2/3 of 72 hours
			w.tick()
			ada, bob := w.mailCount("ada"), w.mailCount("bob")
			w.clock.Advance(2 * time.Hour)
			w.tick()
			w.wantLast("ada", "Reminder: it is your move, and 23 hours of your 3 days for it are left", "YOUR MOVE")
			w.tick() // once only
			if w.mailCount("ada") != ada+1 || w.mailCount("bob") != bob {
				t.Fatalf("after the reminder ada got %d mails and bob %d, want 1 and 0", w.mailCount("ada")-ada, w.mailCount("bob")-bob)
			}
			w.clock.Advance(17 * time.Hour) // 66 of 72 hours: past 90%
			w.tick()
			w.wantLast("ada", "LAST WARNING: 6 hours left for your move", "lose the game on time")
			w.clock.Advance(6 * time.Hour)
			w.tick()
			for _, p := range []string{"ada", "bob"} {
				w.wantLast(p, "ada did not move within the 3 days per move", "Game over: bob wins by time forfeit (0-1).")
			}
			status, rec := gameStatus(t, w)
			if status != pbem.StatusFinished || !strings.Contains(rec, `[Termination "time forfeit"]`) || !strings.Contains(rec, `[Result "0-1"]`) {
				t.Fatalf("status %s, record:\n%s", status, rec)
			}
			var archived int
			if err := w.srv.DB.QueryRow(`SELECT count(*) FROM games`).Scan(&archived); err != nil || archived != 1 {
				t.Fatalf("%d games archived (%v)", archived, err)
			}
		})
	}
}

func TestDeadlines(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	tests := []struct {
		name string
		run  func(*testing.T, *world)
	}{
		{"ChallengeOption", testChallengeDays},
		{"MoveRestartsTheClock", testMoveRestartsClock},
		{"OutageCostsNothing", testOutageCostsNothing},
		{"Vacation", testVacation},
		{"VacationOffAndAllowance", testVacationOff},
		{"Digest", testDigest},
		{"Undo", testUndo},
		{"MoveCancelsUndo", testMoveCancelsUndo},
		{"Blocked", testBlocked},
		{"DryRunTick", testDryRunTick},
		{"ThreeSeatForfeit", testThreeSeatForfeit},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newWorld(t)) })
	}
}

func testChallengeDays(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 5
	w.send("ada", "challenge icesickle days=abc "+w.sys.Address("bob"))
	w.wantLast("ada", "days=abc: the days each player has for a move")
	w.send("ada", "challenge icesickle days=none "+w.sys.Address("bob"))
	w.send("ada", "challenge icesickle days=2 "+w.sys.Address("cy"))
	var d1, d2 int
	w.srv.DB.QueryRow(`SELECT days_per_move FROM pbem_games WHERE id = 1`).Scan(&d1)
	w.srv.DB.QueryRow(`SELECT days_per_move FROM pbem_games WHERE id = 2`).Scan(&d2)
	if d1 != 0 || d2 != 2 {
		t.Fatalf("days per move %d and %d, want 0 and 2", d1, d2)
	}
}

func testMoveRestartsClock(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 3
	startGame(t, w)
	w.clock.Advance(50 * time.Hour)
	w.tick()
	w.wantLast("ada", "Reminder")
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	w.wantLast("bob", "ada played L@c3", "you have 3 days left")
	bob := w.mailCount("bob")
	w.clock.Advance(47 * time.Hour)
	w.tick()
	if w.mailCount("bob") != bob {
		t.Fatalf("bob was reminded too soon:\n%s", w.last("bob").text)
	}
	w.clock.Advance(2 * time.Hour)
	w.tick()
	w.wantLast("bob", "Reminder")
}

// The daemon is down for two days: when it starts again, nobody's clock
// has moved.
func testOutageCostsNothing(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 3
	startGame(t, w)
	w.clock.Advance(10 * time.Hour)
	w.tick() // the last heartbeat
	w.clock.Advance(48 * time.Hour)
	// ... a restart:
	if err := w.srv.Resume(w.ctx); err != nil {
		t.Fatal(err)
	}
	ada := w.mailCount("ada")
	w.tick()
	if w.mailCount("ada") != ada {
		t.Fatalf("the outage cost ada time:\n%s", w.last("ada").text)
	}
	w.deliver(w.reply("ada", w.last("ada"), "board"))
	w.step()
	w.wantLast("ada", "you have 2 days 14 hours left")
	// A second restart right away adds nothing; the clock still runs.
	if err := w.srv.Resume(w.ctx); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(39 * time.Hour) // 49 hours of running time
	w.tick()
	w.wantLast("ada", "Reminder")
}

func testVacation(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 3
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	w.clock.Advance(24 * time.Hour) // bob has used a day
	w.send("bob", "vacation 5")
	w.wantLast("bob", "You are on vacation until Sat 28 Nov 2026 12:00 UTC (5 days)", "IceSickle #1", "25 of your 30 vacation days")
	w.wantLast("ada", "bob is on vacation until Sat 28 Nov 2026 12:00 UTC")
	w.clock.Advance(3 * 24 * time.Hour)
	w.tick()
	if st, _ := gameStatus(t, w); st != pbem.StatusActive {
		t.Fatal("bob lost on time on vacation")
	}
	w.deliver(w.reply("ada", w.last("ada"), "board"))
	w.step()
	w.wantLast("ada", "the player to move has 2 days left", "paused")
	w.clock.Advance(2*24*time.Hour + time.Minute)
	w.tick()
	w.wantLast("bob", "your vacation is over", "25 of your 30")
	w.wantLast("ada", "bob is back from vacation")
	w.clock.Advance(24*time.Hour - 2*time.Minute) // 2 days used: under 2/3
	w.tick()
	w.wantLast("ada", "bob is back from vacation")
	w.clock.Advance(2 * time.Hour)
	w.tick()
	w.wantLast("bob", "Reminder")
}

func testVacationOff(t *testing.T, w *world) {
	w.srv.Deadlines.VacationDays = 10
	startGame(t, w)
	w.send("bob", "vacation off")
	w.wantLast("bob", "you are not on vacation")
	w.send("bob", "vacation 11")
	w.wantLast("bob", "you asked for 11 vacation days, but you have 10 of your 10")
	w.send("bob", "vacation 4")
	w.clock.Advance(30 * time.Hour)
	w.send("bob", "vacation off")
	w.wantLast("bob", "Welcome back", "8 of your 10 vacation days")
	w.wantLast("ada", "bob is back from vacation")
	w.send("bob", "vacation 9")
	w.wantLast("bob", "you have 8 of your 10 for this year left")
	w.srv.Deadlines.VacationDays = -1
	w.send("bob", "vacation 1")
	w.wantLast("bob", "this server has no vacations")
}

func testDigest(t *testing.T, w *world) {
	w.srv.Deadlines.DigestHour = 7
	startGame(t, w)
	w.send("ada", "digest on")
	w.wantLast("ada", "Daily digests are on: each day at 07:00 UTC")
	w.send("bob", "digest on")
	ada, bob := w.mailCount("ada"), w.mailCount("bob")
	w.tick()
	w.clock.Advance(18 * time.Hour) // 06:00 the next day
	w.tick()
	if w.mailCount("ada") != ada {
		t.Fatal("a digest before the digest hour")
	}
	w.clock.Advance(2 * time.Hour)
	w.tick()
	w.tick()
	w.wantLast("ada", "1 game(s) wait for your move", "IceSickle #1: ada vs bob: your move (move 1)")
	if w.mailCount("ada") != ada+1 || w.mailCount("bob") != bob {
		t.Fatalf("ada got %d digests and bob (not to move) %d", w.mailCount("ada")-ada, w.mailCount("bob")-bob)
	}
	w.send("ada", "digest off")
	ada = w.mailCount("ada")
	w.clock.Advance(24 * time.Hour)
	w.tick()
	if w.mailCount("ada") != ada {
		t.Fatal("a digest after digest off")
	}
}

func testUndo(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 2
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	w.wantLast("ada", "nothing to undo")
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), "undo"))
	w.step()
	w.wantLast("bob", "Only ada, who played the last move (L@c3), may ask")
	w.clock.Advance(30 * time.Hour)
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	w.wantLast("bob", "ada asks to take back their last move (L@c3)", "Waiting for: bob")
	w.deliver(w.reply("bob", w.last("bob"), "undo"))
	w.step()
	for _, p := range []string{"ada", "bob"} {
		w.wantLast(p, "Everyone agreed: ada's move L@c3 is taken back")
	}
	w.wantLast("ada", "YOUR MOVE", "Moves played: 0", "you have 2 days left")
	if plyOf(t, w) != 0 {
		t.Fatalf("ply %d after undo", plyOf(t, w))
	}
}

func testMoveCancelsUndo(t *testing.T, w *world) {
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), "M@a1"))
	w.step()
	var asks int
	w.srv.DB.QueryRow(`SELECT undo_requests FROM pbem_games WHERE id = 1`).Scan(&asks)
	if asks != 0 || plyOf(t, w) != 2 {
		t.Fatalf("undo requests %b, ply %d after a move", asks, plyOf(t, w))
	}
	// bob cannot now agree to the old request and take back his own move.
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	w.wantLast("ada", "Only bob, who played the last move (M@a1)")
}

func testBlocked(t *testing.T, w *world) {
	startGame(t, w)
	if _, err := players.Block(w.ctx, w.srv.DB, w.sys.Address("bob"), true); err != nil {
		t.Fatal(err)
	}
	bob := w.mailCount("bob")
	w.send("bob", "challenge icesickle "+w.sys.Address("cy"))
	w.send("bob", "games")
	if w.mailCount("bob") != bob || w.mailCount("cy") != 0 {
		t.Fatal("a blocked sender was answered")
	}
	if _, err := players.Block(w.ctx, w.srv.DB, w.sys.Address("bob"), false); err != nil {
		t.Fatal(err)
	}
	w.send("bob", "games")
	w.wantLast("bob", "IceSickle #1")
}

func testDryRunTick(t *testing.T, w *world) {
	w.srv.Deadlines.DaysPerMove = 1
	startGame(t, w)
	w.clock.Advance(25 * time.Hour)
	w.srv.DryRun = true
	before := w.outboxCount()
	if err := w.srv.Resume(w.ctx); err != nil {
		t.Fatal(err)
	}
	if err := w.srv.Tick(w.ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := gameStatus(t, w); st != pbem.StatusActive || w.outboxCount() != before {
		t.Fatalf("a dry run changed the game (%s) or queued %d mails", st, w.outboxCount()-before)
	}
	if v, _ := store.State(w.ctx, w.srv.DB, "heartbeat"); v != "" {
		t.Fatalf("a dry run wrote a heartbeat %s", v)
	}
	w.srv.DryRun = false
	w.tick()
	w.wantLast("bob", "Game over: bob wins by time forfeit")
}

// With three seats, a loss on time follows the resignation rule: the
// best score of the others wins, level scores are a draw.
func testThreeSeatForfeit(t *testing.T, w *world) {
	w.send("ada", "challenge pikemen days=1 "+w.sys.Address("bob")+" "+w.sys.Address("cy"))
	for _, p := range []string{"bob", "cy"} {
		w.deliver(w.reply(p, w.last(p), "accept"))
		w.step()
	}
	w.wantLast("cy", "Everyone accepted")
	w.clock.Advance(25 * time.Hour)
	w.tick()
	for _, p := range []string{"ada", "bob", "cy"} {
		w.wantLast(p, "ada did not move within the 1 day per move", "Game over: a draw by time forfeit")
	}
	if _, rec := gameStatus(t, w); !strings.Contains(rec, `[Termination "time forfeit"]`) {
		t.Fatalf("record:\n%s", rec)
	}
}
