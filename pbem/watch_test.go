package pbem_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem"
	"icepost/pbem/store"
)

// TestOtherProcessWakesDaemon: a move made on the web site's play pages
// by another process (its own Server on its own connections to the file,
// as icepost web -config runs) reaches the running daemon at once: the
// bot answers and ada gets the board within seconds, while the daemon's
// loops look on their own only once an hour. Then a game between two
// people: bob's board leaves as soon as ada moves on the page.
func TestOtherProcessWakesDaemon(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	w.send("ada", "challenge icesickle bot level=1")
	w.send("ada", "challenge icesickle "+w.sys.Address("bob"))
	w.deliver(w.reply("bob", w.last("bob"), "accept"))
	w.step()
	db, err := store.Open(w.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	web := &pbem.Handler{DB: db, Address: w.srv.Address, Secret: w.srv.Secret, Now: w.clock.Now, ErrorLimit: 100, Archive: testArchive{}}

	w.d = w.newDaemon()
	w.d.Poll, w.d.TickEvery = time.Hour, time.Hour
	ctx, stop := context.WithCancel(w.ctx)
	done := make(chan error, 1)
	go func() { done <- w.d.Run(ctx) }()
	defer func() {
		stop()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	// Once the daemon has started, its first looks are done: wait for
	// the mails of the setup to be sent.
	waitfor.Until(t, "the mails of the setup to be sent", 20*time.Second, func() bool {
		var n int
		w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`).Scan(&n)
		return n == 0
	})
	// The web's move must come after the daemon's first look at the
	// database, or nothing would tell it from the state before.
	select {
	case <-w.d.Watching():
	case <-time.After(20 * time.Second):
		t.Fatal("after 20 s: the daemon does not watch the database")
	}

	before := len(w.inbox("ada"))
	said, err := web.WebAct(w.ctx, w.srv.PlayCapability(1, 1), 0, moveFor(t, w, 1, 0))
	if err != nil || !strings.HasPrefix(said, "Done") {
		t.Fatalf("ada's move on the page: %q, %v", said, err)
	}
	waitfor.Until(t, "ada's board with the bot's answer", 20*time.Second, func() bool {
		in := w.inbox("ada")
		return len(in) > before && strings.Contains(in[len(in)-1].text, "icepost bot level 1 played")
	})
	if g := replay(t, w, 1); g.Ply() != 2 {
		t.Errorf("game 1 at ply %d, want 2", g.Ply())
	}

	before = len(w.inbox("bob"))
	said, err = web.WebAct(w.ctx, w.srv.PlayCapability(2, 1), 0, moveFor(t, w, 2, 0))
	if err != nil || !strings.HasPrefix(said, "Done") {
		t.Fatalf("ada's move in game 2 on the page: %q, %v", said, err)
	}
	waitfor.Until(t, "bob's board", 20*time.Second, func() bool { return len(w.inbox("bob")) > before })
	if !strings.Contains(w.last("bob").text, "YOUR MOVE, bob") {
		t.Errorf("bob's mail:\n%s", w.last("bob").text)
	}
}
