package pbem_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"icepost/pbem"
)

// TestWebLimit: every command a play link sends counts toward its limit,
// refused or not (a line the page does not take, an illegal move, a form
// sent twice); at the limit the link is told to wait and plays nothing;
// the other seat's link is not held up; an hour later it plays again.
// The link in any other spelling is no link at all.
func TestWebLimit(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	link := w.srv.PlayCapability(1, 1)
	other := w.srv.PlayCapability(1, 2)
	for _, typed := range []string{strings.ToUpper(link), strings.ToUpper(link[:1]) + link[1:], " " + link, link + " ", "%20" + link, strings.Replace(link, "-", "%2D", 1)} {
		if _, err := w.srv.WebAct(w.ctx, typed, 0, "draw"); !errors.Is(err, pbem.ErrBadCapability) {
			t.Errorf("the link typed %q: %v, want ErrBadCapability", typed, err)
		}
	}
	move := moveFor(t, w, 1, 0)
	for i := range pbem.WebLimit {
		line := []string{"no such thing", "z9", "undo", "draw"}[i%4]
		if _, err := w.srv.WebAct(w.ctx, link, 0, line); err != nil {
			t.Fatalf("command %d %q: %v", i, line, err)
		}
	}
	if n := replay(t, w, 1).Ply(); n != 0 {
		t.Fatalf("refused commands played: ply %d", n)
	}
	said, err := w.srv.WebAct(w.ctx, link, 0, move)
	if err != nil || !strings.Contains(said, "many commands in the last hour") || replay(t, w, 1).Ply() != 0 {
		t.Fatalf("the link's %d+1st command in an hour: %q, %v; ply %d", pbem.WebLimit, said, err, replay(t, w, 1).Ply())
	}
	// The other seat's link is not held up (it is not its turn: refused,
	// but read).
	if said, err := w.srv.WebAct(w.ctx, other, 0, move); err != nil || strings.Contains(said, "many commands") {
		t.Errorf("the other link: %q, %v", said, err)
	}
	w.clock.Advance(time.Hour)
	if said, err := w.srv.WebAct(w.ctx, link, 0, move); err != nil || !strings.HasPrefix(said, "Done") || replay(t, w, 1).Ply() != 1 {
		t.Errorf("an hour later: %q, %v; ply %d", said, err, replay(t, w, 1).Ply())
	}
	// The rows of the hour before are gone.
	var n int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_web_commands`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d rows counted, want 1 (%v)", n, err)
	}
}
