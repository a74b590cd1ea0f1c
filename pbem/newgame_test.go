package pbem_test

import (
	"strings"
	"testing"

	"icepost/pbem"

	"icepost/rules/counting"
	"icepost/rules/games"
)

// TestNewGameByMail registers a game that no file outside its own folder
// knows (rules/counting) and plays it by mail from challenge to archive:
// what a fifth game needs is its package and a line in rules/games.
func TestNewGameByMail(t *testing.T) {
	defer games.Register(counting.Game)()
	w := newWorld(t)
	w.deliver(w.write("ada", w.srv.Address, "help", "", "help"))
	w.step()
	// The help lists every game registered, in the registry's order, the
	// new one last: from the registry, so that a sixth game or a longer
	// name (the list wraps) changes nothing here.
	names := games.Names()
	if names[len(names)-1] != "Counting" {
		t.Fatalf("the games %v: Counting, registered last, is not last", names)
	}
	h := w.last("ada").text
	if list := strings.Join(names, ", ") + "; options:"; !strings.Contains(h, "Counting (2-4 players") || !strings.Contains(strings.Join(strings.Fields(h), " "), list) {
		t.Fatalf("the help does not tell of Counting (want the list %q):\n%s", list, h)
	}
	w.send("ada", "challenge counting "+w.sys.Address("bob")+" "+w.sys.Address("cy"))
	for _, p := range []string{"bob", "cy"} {
		inv := w.last(p)
		if !strings.Contains(inv.text, "a game of Counting") || !strings.Contains(inv.text, "whoever brings it to 10 wins") {
			t.Fatalf("%s's invitation:\n%s", p, inv.text)
		}
		w.deliver(w.reply(p, inv, "accept"))
		w.step()
	}
	seats := []string{"ada", "bob", "cy"}
	for ply := 0; ply < 5; ply++ {
		mover := seats[ply%3]
		board := w.last(mover)
		if !strings.Contains(board.text, "YOUR MOVE") {
			t.Fatalf("ply %d: %s is not asked to move:\n%s", ply, mover, board.text)
		}
		w.deliver(w.reply(mover, board, "+2\nup we go"))
		w.step()
	}
	// 2+2+2+2+2 = 10: bob played the fifth move and wins.
	for _, p := range seats {
		if b := w.last(p); !strings.Contains(b.text, "Game over: bob wins") {
			t.Fatalf("%s's last mail:\n%s", p, b.text)
		}
	}
	var status, record string
	if err := w.srv.DB.QueryRow(`SELECT status, record FROM pbem_games WHERE id = 1`).Scan(&status, &record); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Game "Counting"]`, `[Result "0-1-0"]`, `[Termination "normal"]`, "{up we go}"} {
		if !strings.Contains(record, want) {
			t.Errorf("%s missing from the record:\n%s", want, record)
		}
	}
	if status != pbem.StatusFinished {
		t.Errorf("status %s", status)
	}
	var archived int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM games WHERE game = 'Counting'`).Scan(&archived); err != nil || archived != 1 {
		t.Errorf("%d Counting games in the archive (%v), want 1", archived, err)
	}
}
