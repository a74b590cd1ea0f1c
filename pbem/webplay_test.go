package pbem

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestWebLimit: a play link that sent webLimit commands in the last hour
// is told to wait, and plays nothing; another link's commands do not
// count toward it; an hour later it plays again.
func TestWebLimit(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	link := w.srv.PlayCapability(1, 1)
	other := w.srv.PlayCapability(1, 2)
	now := w.clock.Now().Unix()
	for i := range webLimit {
		for j, c := range []string{link, other, other} {
			if _, err := w.srv.DB.Exec(`INSERT INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, 'ada@club.test', 'web: draw')`,
				fmt.Sprintf("web:%s:%d:draw %d", c, i, j), now-60); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The count reads the link's range of the key, not every mail.
	var id, parent, unused int
	var plan string
	if err := w.srv.DB.QueryRow(`EXPLAIN QUERY PLAN `+webCountSQL, "a", "b", 0).Scan(&id, &parent, &unused, &plan); err != nil ||
		!strings.Contains(plan, "SEARCH pbem_processed USING PRIMARY KEY (mail_key>? AND mail_key<?)") {
		t.Errorf("the plan of the count: %q, %v", plan, err)
	}
	move := moveFor(t, w, 1, 0)
	said, err := w.srv.WebAct(w.ctx, link, 0, move)
	if err != nil || !strings.Contains(said, "many commands in the last hour") || replay(t, w, 1).Ply() != 0 {
		t.Fatalf("the link's %d+1st command in an hour: %q, %v; ply %d", webLimit, said, err, replay(t, w, 1).Ply())
	}
	// One command fewer: the other link's do not count.
	if _, err := w.srv.DB.Exec(`DELETE FROM pbem_processed WHERE mail_key = ?`, fmt.Sprintf("web:%s:0:draw 0", link)); err != nil {
		t.Fatal(err)
	}
	w.clock.Advance(time.Second)
	if said, err := w.srv.WebAct(w.ctx, link, 0, move); err != nil || !strings.HasPrefix(said, "Done") || replay(t, w, 1).Ply() != 1 {
		t.Fatalf("with %d commands in the hour: %q, %v", webLimit-1, said, err)
	}
	// Now at the limit again; an hour on, the link plays.
	w.step() // bob's board goes out
	w.deliver(w.reply("bob", w.last("bob"), moveFor(t, w, 1, 0)))
	w.step()
	if replay(t, w, 1).Ply() != 2 {
		t.Fatalf("bob's move by mail: ply %d", replay(t, w, 1).Ply())
	}
	move = moveFor(t, w, 1, 0)
	if said, _ := w.srv.WebAct(w.ctx, link, 2, move); !strings.Contains(said, "many commands") {
		t.Errorf("at the limit again: %q", said)
	}
	w.clock.Advance(time.Hour)
	if said, err := w.srv.WebAct(w.ctx, link, 2, move); err != nil || !strings.HasPrefix(said, "Done") || replay(t, w, 1).Ply() != 3 {
		t.Errorf("an hour later: %q, %v; ply %d", said, err, replay(t, w, 1).Ply())
	}
}
