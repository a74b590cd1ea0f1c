package pbem_test

import (
	"strings"
	"testing"
	"time"
)

// TestPruneSent: the daemon's tick empties the bodies of the mails sent
// longer ago than KeepSent, and of no other: the rows stay, a mail not yet
// sent or given up keeps its body, and mails handled stay known.
func TestPruneSent(t *testing.T) {
	w := newWorld(t)
	w.d.KeepSent = 48 * time.Hour
	ids := tokenGames(t, w, "bob")
	sentFirst := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NOT NULL`)
	w.clock.Advance(24 * time.Hour)
	firstMoves(t, w, ids) // two boards, sent a day later
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	// A mail given up, and one not yet sent, both older than KeepSent.
	if _, err := w.srv.DB.Exec(`INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at, failed_at) VALUES ('x@club.test', 'given up', ?1, ?1, ?1),
		('y@club.test', 'waiting', ?1, ?2, NULL)`, w.clock.Now().Unix(), w.clock.Now().Add(100*time.Hour).Unix()); err != nil {
		t.Fatal(err)
	}
	kept := func() int { return countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE length(message) > 0`) }
	rows := w.outboxCount()
	processed := countRows(t, w, `SELECT count(*) FROM pbem_processed`)

	w.clock.Advance(23 * time.Hour) // the first mails are 47 hours old
	w.d.Tick(w.ctx)
	if k := kept(); k != rows {
		t.Fatalf("after 47 hours: %d bodies kept of %d", k, rows)
	}
	w.clock.Advance(2 * time.Hour) // the first mails are 49 hours old, the boards 25
	w.d.Tick(w.ctx)
	if k := kept(); k != rows-sentFirst {
		t.Fatalf("after 49 hours: %d bodies kept, want %d", k, rows-sentFirst)
	}
	w.clock.Advance(24 * time.Hour) // the boards are 49 hours old
	w.d.Tick(w.ctx)
	if k := kept(); k != 2 {
		t.Fatalf("after 73 hours: %d bodies kept, want the two never sent", k)
	}
	if n := w.outboxCount(); n != rows {
		t.Errorf("%d outbox rows, want %d: pruning empties, it deletes nothing", n, rows)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_processed`); n != processed {
		t.Errorf("%d mails known as handled, want %d", n, processed)
	}

	// Pruning reads the index, not every body.
	var plan strings.Builder
	r, err := w.srv.DB.Query(`EXPLAIN QUERY PLAN SELECT id FROM pbem_outbox WHERE sent_at IS NOT NULL AND length(message) > 0 AND sent_at < 5 LIMIT 500`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var id, parent, notused int
		var detail string
		r.Scan(&id, &parent, &notused, &detail)
		plan.WriteString(detail + "\n")
	}
	r.Close()
	if !strings.Contains(plan.String(), "pbem_outbox_kept") {
		t.Errorf("pruning does not use its index:\n%s", plan.String())
	}
}
