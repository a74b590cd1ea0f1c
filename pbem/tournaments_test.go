package pbem_test

import (
	"strings"
	"testing"

	"icepost/pbem/daemon"
	"icepost/pbem/events"
	"icepost/tournament"
)

// withTournaments gives the world's server the tournaments, as serve
// does.
func withTournaments(w *world) *events.Service {
	svc := &events.Service{Handler: w.srv}
	w.srv.Events = svc
	w.d.Services = []daemon.Service{svc}
	return svc
}

// TestTournamentsByMail: the open tournaments listed with the line that
// joins; join, withdraw before the start and join again; a tournament
// that starts when full sends each player their first board; standings;
// bad input (twice, a full or running tournament, none such, not a
// player) answered and changing nothing.
func TestTournamentsByMail(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w := b.new(t)
			svc := withTournaments(w)
			id, err := svc.Create(w.ctx, events.Spec{Name: "Club Swiss", Game: "icesickle", Format: tournament.Swiss, Days: 3,
				Settings: tournament.Options{Rounds: 2, MaxPlayers: 4}, WhenFull: true, Players: []string{"bot:1"}})
			if err != nil || id != 1 {
				t.Fatalf("Create = %d, %v", id, err)
			}
			players := func() int {
				ev, err := svc.Show(w.ctx, 1)
				if err != nil {
					t.Fatal(err)
				}
				return len(ev.T.Players)
			}

			w.send("ada", "tournaments")
			w.wantLast("ada", "Tournament 1: Club Swiss. IceSickle, Swiss of 2 rounds, 3 days a move, 1 of 4 players, starts when full.", "To join: join 1")
			w.send("ada", "join 1")
			w.wantLast("ada", "You joined Club Swiss (tournament 1)", "withdraw 1")
			w.send("ada", "join 1")
			w.wantLast("ada", "you are in Club Swiss (tournament 1) already.")
			w.send("cy", "withdraw 1")
			w.wantLast("cy", "you are not a player of Club Swiss")
			w.send("bob", "join 1")
			w.send("bob", "withdraw 1")
			w.wantLast("bob", "You withdrew from Club Swiss (tournament 1).")
			w.send("bob", "join 99")
			w.wantLast("bob", "there is no tournament 99")
			if n := players(); n != 2 {
				t.Fatalf("%d players after the joins and the withdrawal, want the bot and ada", n)
			}

			w.send("bob", "join 1")
			w.send("cy", "join 1") // the fourth: it starts
			w.wantLast("cy", "The field is full: the tournament starts now.")
			for _, p := range []string{"ada", "bob", "cy"} {
				boards := 0
				for _, m := range w.inbox(p) {
					if strings.Contains(flat(m.text), "Round 1 of Club Swiss: your game begins") {
						boards++
					}
				}
				if boards != 1 {
					t.Errorf("%s got %d first boards of round 1, want 1", p, boards)
				}
			}
			if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE record LIKE '%[Event "Club Swiss"]%' AND record LIKE '%[Round "1._"]%'`); n != 2 {
				t.Fatalf("%d games of round 1, want 2", n)
			}
			w.send("dee", "join 1")
			w.wantLast("dee", "Club Swiss (tournament 1) is running: it takes no more players.")
			w.send("dee", "standings 1")
			w.wantLast("dee", "Club Swiss (tournament 1, running)", "Buchholz", "ada", "bot 1")
			if n := players(); n != 4 {
				t.Fatalf("%d players, want 4", n)
			}

			// bob withdraws while his game runs: in a Swiss it is lost,
			// and his opponent is told why.
			w.send("bob", "withdraw 1")
			w.wantLast("bob", "You withdrew from Club Swiss (tournament 1).")
			if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE status = 'finished' AND record LIKE '%[Event "Club Swiss"]%'`); n != 1 {
				t.Fatalf("%d games of Club Swiss ended after bob withdrew, want his", n)
			}
			w.send("bob", "withdraw 1")
			w.wantLast("bob", "you withdrew from Club Swiss (tournament 1) already.")
		})
	}
}
