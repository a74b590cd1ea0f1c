package pbem_test

import (
	"strings"
	"testing"

	"icepost/archive"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
	"icepost/rules/icesickle"
)

// onDisk moves the world's database to path: the daemon's tables and the
// archive, new.
func (w *world) onDisk(path string) {
	t := w.t
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := archive.Migrate(w.ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(w.ctx, db); err != nil {
		t.Fatal(err)
	}
	w.srv.DB = db
}

// tokenGames has ada challenge each opponent to IceSickle and each accept,
// with the reply tokens the harness makes itself; every mail is sent. It
// returns the games' ids.
func tokenGames(t *testing.T, w *world, opponents ...string) []int64 {
	t.Helper()
	var ids []int64
	for _, p := range opponents {
		w.deliver(w.write("ada", adaConfirms(w), "new game", "", "challenge icesickle "+w.sys.Address(p)))
		w.step()
		var id int64
		if err := w.srv.DB.QueryRow(`SELECT max(id) FROM pbem_games`).Scan(&id); err != nil {
			t.Fatal(err)
		}
		tok := replytoken.Token{Kind: 'i', Game: id, Seat: 2}.Sign(w.srv.Secret)
		w.deliver(w.write(p, w.srv.PlusAddress(tok), "Re: invitation", "", "accept"))
		w.step()
		ids = append(ids, id)
	}
	return ids
}

// firstMoves delivers ada's first move in each game, handles them in one
// batch (synced) and sends nothing: two boards a game wait in the outbox.
func firstMoves(t *testing.T, w *world, ids []int64) {
	t.Helper()
	for _, id := range ids {
		s := icesickle.Start()
		tok := replytoken.Token{Kind: 'm', Game: id, Seat: 1, Ply: 0}.Sign(w.srv.Secret)
		w.deliver(w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", s.FormatMove(next(s, 1))))
	}
	if n, err := w.d.ProcessInbox(w.ctx); err != nil || n != len(ids) {
		t.Fatalf("ProcessInbox: %d mails, %v", n, err)
	}
}

// outboxIDs are the Message-IDs of the outbox's mails, by outbox id.
func outboxIDs(t *testing.T, w *world, where string) map[int64]string {
	t.Helper()
	rows, err := w.srv.DB.Query(`SELECT id, message FROM pbem_outbox WHERE ` + where)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var msg []byte
		if err := rows.Scan(&id, &msg); err != nil {
			t.Fatal(err)
		}
		out[id] = messageID(t, string(msg))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// delivered counts, by Message-ID, the mails the players received.
func delivered(w *world) map[string]int {
	n := map[string]int{}
	for _, p := range testPlayers {
		for _, m := range w.inbox(p) {
			n[m.messageID]++
		}
	}
	return n
}

// failRecording makes every write of a sent mail's outcome fail, as a
// full disk would, until the returned function is called.
func failRecording(t *testing.T, w *world) (restore func()) {
	t.Helper()
	if _, err := w.srv.DB.Exec(`CREATE TRIGGER test_full_disk BEFORE UPDATE ON pbem_outbox
		BEGIN SELECT RAISE(ABORT, 'injected: database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	return func() {
		t.Helper()
		if _, err := w.srv.DB.Exec(`DROP TRIGGER test_full_disk`); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnrecordedSendsAreNotSentAgain: the outcome of the mails sent
// cannot be written; the next passes of the outbox send nothing, not even
// a mail queued since, until the outcomes are written, and then each
// mail has gone once. The same when the daemon stops with outcomes not
// written and can write them as it stops.
func TestUnrecordedSendsAreNotSentAgain(t *testing.T) {
	w := newWorld(t)
	ids := tokenGames(t, w, "bob", "cy", "dee")
	before := delivered(w)
	firstMoves(t, w, ids[:2])
	sent := &countingSender{Mailer: w.d.Sender}
	w.d.Sender = sent

	restore := failRecording(t, w)
	if _, err := w.d.SendOutbox(w.ctx); err == nil {
		t.Fatal("SendOutbox could not record and said nothing")
	}
	first := sent.n.Load()
	if first == 0 || w.d.Outbox().Unrecorded() != int(first) {
		t.Fatalf("%d mails sent, %d outcomes kept to write", first, w.d.Outbox().Unrecorded())
	}
	firstMoves(t, w, ids[2:]) // a mail queued since waits too
	for range 3 {
		if _, err := w.d.SendOutbox(w.ctx); err == nil || !strings.Contains(err.Error(), "not yet recorded") {
			t.Fatalf("SendOutbox with outcomes not written: %v", err)
		}
	}
	if n := sent.n.Load(); n != first {
		t.Fatalf("%d more mails sent while outcomes could not be written", n-first)
	}
	restore()
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`); n != 0 {
		t.Fatalf("%d mails unsent", n)
	}

	// The daemon stops with outcomes not written: they are written as the
	// send loop ends, when the database takes them again.
	tok := replytoken.Token{Kind: 'm', Game: ids[0], Seat: 2, Ply: 1}.Sign(w.srv.Secret)
	s, _ := icesickle.Start().Play(next(icesickle.Start(), 1))
	w.deliver(w.write("bob", w.srv.PlusAddress(tok), "Re: game", "", s.FormatMove(next(s, 2))))
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	restore = failRecording(t, w)
	if _, err := w.d.SendOutbox(w.ctx); err == nil || w.d.Outbox().Unrecorded() == 0 {
		t.Fatalf("SendOutbox: %v, %d outcomes kept", err, w.d.Outbox().Unrecorded())
	}
	restore()
	w.d.Outbox().Stop()
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`); n != 0 || w.d.Outbox().Unrecorded() != 0 {
		t.Fatalf("%d mails unsent, %d outcomes kept", n, w.d.Outbox().Unrecorded())
	}

	got := delivered(w)
	for id, mid := range outboxIDs(t, w, `true`) {
		if n := got[mid] - before[mid]; before[mid] == 0 && n != 1 {
			t.Errorf("mail %d (<%s>) delivered %d times, want once", id, mid, n)
		}
	}
	if n, want := sent.n.Load(), int64(countRows(t, w, `SELECT count(*) FROM pbem_outbox`)-len(before)); n != want {
		t.Errorf("%d sends for %d mails", n, want)
	}
}
