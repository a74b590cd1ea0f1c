package pbem_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/notation"
	"icepost/pbem"
	"icepost/rules/games"
)

// quickBots makes the server's bots fast and repeatable for tests.
func quickBots(w *world) {
	w.srv.Bots = pbem.Bots{Level: 1, MoveTime: pbem.Duration{2 * time.Second}, Workers: 1}
}

// replay reads game id's stored record.
func replay(t *testing.T, w *world, id int64) *notation.Game {
	t.Helper()
	var rec string
	if err := w.srv.DB.QueryRow(`SELECT record FROM pbem_games WHERE id = ?`, id).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	gs, errs := notation.Check("stored", []byte(rec))
	if len(errs) > 0 || len(gs) != 1 {
		t.Fatalf("the stored record does not replay: %v\n%s", errs.Err(), rec)
	}
	return gs[0]
}

// runBots does the bots' due jobs and sends the outbox.
func (w *world) runBots() int {
	w.t.Helper()
	n, err := w.srv.RunBots(w.ctx, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		w.t.Fatal(err)
	}
	return n
}

func (w *world) jobs() int {
	var n int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_bot_jobs`).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// moveFor picks a legal move for the player to move in game id.
func moveFor(t *testing.T, w *world, id int64, k int) string {
	s := replay(t, w, id).Final()
	ms := s.Moves(nil)
	return s.FormatMove(ms[(k*7)%len(ms)])
}

// scenarioBotGame: ada plays a whole game of IceSickle against the bot by
// mail, every bot move made by the daemon's bot jobs, recorded and shown
// in her boards; the game is archived with the bot's name, and no mail
// goes to the bot's seat.
func scenarioBotGame(t *testing.T, w *world) {
	quickBots(w)
	w.send("ada", "challenge icesickle bot level=1")
	first := w.last("ada")
	ice, _ := games.Lookup("icesickle")
	summary, _, _ := strings.Cut(ice.Info().Summary, "\n")
	if !strings.Contains(first.text, "The game begins.") || !strings.Contains(first.text, "YOUR MOVE, ada") ||
		!strings.Contains(first.text, "icepost bot level 1") || !strings.Contains(first.text, summary) {
		t.Fatalf("ada's first board:\n%s", first.text)
	}
	for k := 0; ; k++ {
		g := replay(t, w, 1)
		if g.Over() {
			break
		}
		if k > 200 {
			t.Fatal("the game does not end")
		}
		if g.Final().ToMove() != 1 {
			t.Fatalf("ply %d: seat %d to move, but no bot job ran", g.Ply(), g.Final().ToMove())
		}
		tok := moveFor(t, w, 1, k)
		w.deliver(w.reply("ada", w.last("ada"), tok+"\nyour move, bot"))
		w.step()
		if replay(t, w, 1).Over() {
			break
		}
		if w.jobs() != 1 {
			t.Fatalf("after ada's %s: %d bot jobs, want 1", tok, w.jobs())
		}
		// The bot may have two moves in a row (a new round).
		for i := 0; w.jobs() > 0; i++ {
			if n := w.runBots(); n != 1 || i > 3 {
				t.Fatalf("%d bot jobs done, want 1", n)
			}
		}
		if b := w.last("ada").text; !strings.Contains(b, "icepost bot level 1 played") {
			t.Fatalf("ada's board after the bot's move:\n%s", b)
		}
	}
	g := replay(t, w, 1)
	if v, _ := g.Record.Tag("Player2"); v != "icepost bot level 1" {
		t.Errorf("Player2 %q", v)
	}
	if v, _ := g.Record.Tag("Termination"); v != "normal" {
		t.Errorf("Termination %q", v)
	}
	if !strings.Contains(w.last("ada").text, "Game over") {
		t.Errorf("ada's last mail:\n%s", w.last("ada").text)
	}
	var archived, toServer int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM games WHERE game = 'IceSickle'`).Scan(&archived); err != nil || archived != 1 {
		t.Errorf("%d games archived (%v), want 1", archived, err)
	}
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE recipient = ?`, w.srv.Address).Scan(&toServer); err != nil || toServer != 0 {
		t.Errorf("%d mails to the bot's seat (%v)", toServer, err)
	}
	if w.jobs() != 0 {
		t.Errorf("%d bot jobs left", w.jobs())
	}
}

// TestBotRestartWithPendingJob: the daemon stops after ada's move, with
// the bot's job queued (and one search cut short by the stop); a new
// daemon's own loop picks the job up and the bot moves once.
func TestBotRestartWithPendingJob(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	w.send("ada", "challenge icelady bot")
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 0)))
	w.step()
	if w.jobs() != 1 {
		t.Fatalf("%d jobs after ada's move, want 1", w.jobs())
	}
	// A search stopped by the end of the process changes nothing.
	stopped, cancel := context.WithCancel(w.ctx)
	cancel()
	if _, err := w.srv.RunBots(stopped, nil); err == nil {
		t.Fatal("a stopped bot run reported no error")
	}
	if w.jobs() != 1 || replay(t, w, 1).Ply() != 1 {
		t.Fatalf("after a stopped run: %d jobs, ply %d", w.jobs(), replay(t, w, 1).Ply())
	}
	before := len(w.inbox("ada"))
	// A new process: its daemon loop does the job.
	w.d = w.newDaemon()
	w.d.Poll = 50 * time.Millisecond
	ctx, stop := context.WithCancel(w.ctx)
	done := make(chan error, 1)
	go func() { done <- w.d.Run(ctx) }()
	waitfor.Within(20*time.Second, func() bool { return len(w.inbox("ada")) > before })
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	g := replay(t, w, 1)
	if g.Ply() != 2 || w.jobs() != 0 {
		t.Fatalf("after the restart: ply %d, %d jobs; want 2 and 0", g.Ply(), w.jobs())
	}
	if got := len(w.inbox("ada")) - before; got != 1 || !strings.Contains(w.last("ada").text, "icepost bot level 1 played") {
		t.Fatalf("ada got %d mails, the last:\n%s", got, w.last("ada").text)
	}
}

// scenarioBotCrashBetweenCommitAndSend: the bot's move is committed and
// its boards queued, and the process dies before sending them. The next
// process sends them once, and the bot does not move again.
func scenarioBotCrashBetweenCommitAndSend(t *testing.T, w *world) {
	quickBots(w)
	w.send("ada", "challenge icesickle bot level=1")
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 0)))
	w.step()
	before := len(w.inbox("ada"))
	if n, err := w.srv.RunBots(w.ctx, nil); err != nil || n != 1 {
		t.Fatalf("RunBots: %d, %v", n, err)
	}
	// ... the process dies here. A new one starts:
	w.d = w.newDaemon()
	w.step()
	w.runBots()
	w.step()
	if got := len(w.inbox("ada")) - before; got != 1 {
		t.Errorf("after the restart ada got %d mails, want 1", got)
	}
	if g := replay(t, w, 1); g.Ply() != 2 {
		t.Errorf("ply %d, want 2", g.Ply())
	}
}

// TestBotStaleJobAndUndo: a job whose game moved on is dropped; undo
// against the bot takes back ada's move and the bot's answer.
func TestBotStaleJobAndUndo(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	w.send("ada", "challenge icesickle bot level=1")
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 0)))
	w.step()
	w.runBots()
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	if g := replay(t, w, 1); g.Ply() != 0 || !strings.Contains(w.last("ada").text, "Everyone agreed") {
		t.Fatalf("after undo: ply %d\n%s", g.Ply(), w.last("ada").text)
	}
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 1)))
	w.step()
	w.deliver(w.reply("ada", w.last("ada"), "resign"))
	w.step()
	if w.jobs() != 1 {
		t.Fatalf("%d jobs", w.jobs())
	}
	if n := w.runBots(); w.jobs() != 0 {
		t.Errorf("a stale job: %d done, %d left", n, w.jobs())
	}
	if g := replay(t, w, 1); g.Ply() != 1 || g.Record.Result != "0-1" {
		t.Errorf("ply %d, result %s", g.Ply(), g.Record.Result)
	}
}

// TestBotDrawAndThreeSeats: in a three-seat game with bob and a bot, the
// bot accepts at once and plays its seat; a draw offer it does not think
// it is losing, it declines.
func TestBotDrawAndThreeSeats(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	// The bot in seat 1: ada names herself among the seats.
	w.send("ada", "challenge icefrogs bot level=1 "+w.sys.Address("ada")+" "+w.sys.Address("bob"))
	inv := w.last("bob")
	if !strings.Contains(inv.text, "icepost bot level 1 vs ada vs bob") {
		t.Fatalf("bob's invitation:\n%s", inv.text)
	}
	w.deliver(w.reply("bob", inv, "accept"))
	w.step()
	if w.jobs() != 1 {
		t.Fatalf("%d jobs at the start, the bot in seat 1", w.jobs())
	}
	w.runBots()
	if g := replay(t, w, 1); g.Ply() != 1 {
		t.Fatalf("ply %d", g.Ply())
	}
	w.deliver(w.reply("ada", w.last("ada"), "draw"))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), "draw"))
	w.step()
	w.runBots()
	if b := w.last("bob").text; !strings.Contains(b, "declines the draw") {
		t.Fatalf("bob's board after the draw offers:\n%s", b)
	}
}

// TestBotBadChallenges: each gets a reply that says what is wrong.
func TestBotBadChallenges(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	for _, c := range []struct{ cmd, want string }{
		{"challenge icesickle bot level=9", "a bot's level is a whole number from 1"},
		{"challenge icesickle level=2 " + w.sys.Address("bob"), "names none"},
		{"challenge icesickle bot bot", "2 players"},
		{"challenge icesickle " + w.srv.Address, "write the word bot"},
	} {
		w.send("ada", c.cmd)
		if b := w.last("ada").text; !strings.Contains(b, c.want) {
			t.Errorf("%s: the reply says\n%s", c.cmd, b)
		}
	}
	var n int
	w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_games`).Scan(&n)
	if n != 0 {
		t.Errorf("%d games made", n)
	}
}

// TestBotDrawInACircle: a game of Ice Lady against the bot whose start
// position has come back (the moves written into the stored game, as the
// bot would not walk back on cue): offered a draw where the position
// stands for the second time, the bot declines and says when it would
// accept; where it stands for the third time, the board says so, the bot
// accepts, and the game ends drawn and goes to the archive.
func TestBotDrawInACircle(t *testing.T) {
	for _, c := range []struct {
		moves  string
		accept bool
	}{
		{"c2-a2 f7-h7 a2-c2 h7-f7", false},
		{"c2-a2 f7-h7 a2-c2 h7-f7 c2-a2 f7-h7 a2-c2 h7-f7", true},
	} {
		w := newWorld(t)
		quickBots(w)
		w.send("ada", "challenge icelady bot level=1")
		g := replay(t, w, 1)
		for _, tok := range strings.Fields(c.moves) {
			if _, err := g.PlayToken(tok, ""); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.srv.DB.Exec(`UPDATE pbem_games SET record = ?, ply = ? WHERE id = 1`, g.Record.String(), g.Ply()); err != nil {
			t.Fatal(err)
		}
		w.deliver(w.reply("ada", w.last("ada"), "board"))
		w.step()
		if board := w.last("ada").text; strings.Contains(board, "stood on the board 3 times") != c.accept {
			t.Errorf("after %s, ada's board says (or does not say) the position came back:\n%s", c.moves, board)
		}
		w.deliver(w.reply("ada", w.last("ada"), "draw"))
		w.step()
		w.runBots()
		after := replay(t, w, 1)
		last := w.last("ada").text
		switch {
		case c.accept && (after.Record.Result != "1/2-1/2" || !strings.Contains(last, "accepted the draw")):
			t.Errorf("after %s: result %s, ada's last mail:\n%s", c.moves, after.Record.Result, last)
		case !c.accept && (after.Record.Result != "*" || !strings.Contains(last, "declines the draw") || !strings.Contains(last, "come back 3 times")):
			t.Errorf("after %s: result %s, ada's last mail:\n%s", c.moves, after.Record.Result, last)
		}
		var archived int
		if err := w.srv.DB.QueryRow(`SELECT count(*) FROM games WHERE game = 'IceLady'`).Scan(&archived); err != nil || (archived == 1) != c.accept {
			t.Errorf("after %s: %d games archived (%v)", c.moves, archived, err)
		}
	}
}
