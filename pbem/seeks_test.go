package pbem_test

import (
	"strings"
	"testing"
	"time"
)

// TestSeeks: a seek waits and is listed with the line that meets it; the
// same seek from another player starts the game at once, every seat
// accepted; a seek whose rating range leaves the other out waits; a
// player's own seek twice, a seek taken back and a seek run out; bad
// input changes nothing.
func TestSeeks(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w := b.new(t)
			seeks := func() int { return countRows(t, w, `SELECT count(*) FROM pbem_seeks WHERE game_id IS NULL`) }

			w.send("ada", "seek icesickle days=3")
			w.wantLast("ada", "Your seek 1 is posted: IceSickle, seats=2 days=3, your rating 1500.", "unseek")
			w.send("ada", "seek IceSickle days=3")
			w.wantLast("ada", "you seek that already (seek 1")
			if n := seeks(); n != 1 {
				t.Fatalf("%d seeks open after the same seek twice, want 1", n)
			}

			w.send("bob", "seeks")
			w.wantLast("bob", "Open seeks (1)", "Seek 1: IceSickle, seats=2 days=3; ada, rated 1500", "To meet it: seek icesickle seats=2 days=3")

			// Other terms wait beside it.
			w.send("bob", "seek icesickle days=5")
			w.wantLast("bob", "Your seek 2 is posted")
			if n := countRows(t, w, `SELECT count(*) FROM pbem_games`); n != 0 {
				t.Fatalf("%d games from seeks of other terms", n)
			}

			// The line from the list meets ada's seek.
			w.send("bob", "seek icesickle seats=2 days=3")
			for _, p := range []string{"ada", "bob"} {
				w.wantLast(p, "Your seek was met: the game begins.")
			}
			if st, _ := gameStatus(t, w); st != "active" {
				t.Fatalf("the game of the seeks met is %s, want active", st)
			}
			if n := countRows(t, w, `SELECT count(*) FROM pbem_seats WHERE game_id = 1 AND accepted = 1 AND address IN (?, ?)`,
				w.sys.Address("ada"), w.sys.Address("bob")); n != 2 {
				t.Fatalf("%d of ada's and bob's seats accepted, want 2", n)
			}
			if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE record LIKE '%[TimeControl "3d/move"]%'`); n != 1 {
				t.Error("the game does not carry the seek's days per move")
			}
			if n := seeks(); n != 1 {
				t.Fatalf("%d seeks open after the meeting, want bob's other one", n)
			}

			// A range that leaves the other out: both wait.
			w.send("cy", "seek pikemen rating=1600-1700")
			w.wantLast("cy", "opponents rated 1600 to 1700")
			w.send("dee", "seek pikemen")
			w.wantLast("dee", "Your seek 5 is posted")
			if n := seeks(); n != 3 {
				t.Fatalf("%d seeks open, want 3 (bob's, cy's and dee's)", n)
			}

			// Bad input changes nothing.
			before := seeks()
			w.send("eve", "seek chess")
			w.wantLast("eve", `"chess" is not a game I know`, "The games: IceSickle")
			for _, line := range []string{"seek icesickle target=3", "seek pikemen seats=9", "seek pikemen rating=1700-1600"} {
				w.send("eve", line)
				if m := w.last("eve"); !strings.Contains(m.text, "seek") || seeks() != before {
					t.Errorf("%q: %d seeks open, answer:\n%s", line, seeks(), m.text)
				}
			}

			w.send("bob", "unseek")
			w.wantLast("bob", "Your 1 open seek(s) are taken back.")

			// A week on, cy's and dee's run out, each told once.
			w.clock.Advance(7*24*time.Hour + time.Minute)
			w.d.Tick(w.ctx)
			if _, err := w.d.SendOutbox(w.ctx); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{"cy", "dee"} {
				w.wantLast(p, "it is closed")
			}
			if n := countRows(t, w, `SELECT count(*) FROM pbem_seeks WHERE game_id IS NULL`); n != 0 {
				t.Fatalf("%d seeks left after a week", n)
			}
		})
	}
}
