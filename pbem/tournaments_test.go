package pbem_test

import (
	"strings"
	"testing"
	"time"

	"icepost/pbem/daemon"
	"icepost/pbem/events"
	"icepost/rules"
	"icepost/rules/games"
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

			// A field full before its start date, and a tournament that
			// has ended: neither takes a player, and the answer says why.
			full, err := svc.Create(w.ctx, events.Spec{Name: "Club Pair", Game: "icesickle", Format: tournament.Swiss,
				Settings: tournament.Options{Rounds: 1, MaxPlayers: 2}, StartsAt: w.clock.Now().Add(48 * time.Hour), Players: []string{"bot:1"}})
			if err != nil {
				t.Fatal(err)
			}
			w.send("ada", "join 2")
			w.send("eve", "join 2")
			w.wantLast("eve", "Club Pair (tournament 2) is full.")
			ended, err := svc.Create(w.ctx, events.Spec{Name: "Bots' Final", Game: "icesickle", Format: tournament.Swiss,
				Settings: tournament.Options{Rounds: 1}, Players: []string{"bot:1", "bot:2"}})
			if err != nil {
				t.Fatal(err)
			}
			if err := svc.Start(w.ctx, ended); err != nil {
				t.Fatal(err)
			}
			for i := 0; ; i++ {
				ev, err := svc.Show(w.ctx, ended)
				if err != nil {
					t.Fatal(err)
				}
				if ev.Status == events.Finished {
					break
				}
				if i == 500 {
					t.Fatalf("the bots' final is %s after 500 rounds of moves", ev.Status)
				}
				w.runBots()
				w.d.Tick(w.ctx)
			}
			// Its game is in the archive with its event and round, as the
			// archive's search by event finds it.
			if n := countRows(t, w, `SELECT count(*) FROM games WHERE event = 'Bots'' Final' AND round = '1.1'`); n != 1 {
				t.Errorf("%d archived games of the bots' final with its event and round, want 1", n)
			}
			w.send("eve", "join 3")
			w.wantLast("eve", "Bots' Final (tournament 3) is finished: it takes no more players.")
			if ev, err := svc.Show(w.ctx, full); err != nil || len(ev.T.Players) != 2 {
				t.Errorf("Club Pair after eve's join: %v", err)
			}
		})
	}
}

// TestLadderByMail: a challenge not answered in time is lost by the
// defender, on the tick; a challenge answered starts its game, and its
// winner takes the higher place (or keeps it); the bot
// takes a challenge at once; a player joins a running ladder at the
// bottom; bad challenges are refused.
func TestLadderByMail(t *testing.T) {
	w := newWorld(t)
	svc := withTournaments(w)
	id, err := svc.Create(w.ctx, events.Spec{Name: "Club Ladder", Game: "icesickle", Format: tournament.Ladder,
		Settings: tournament.Options{Reach: 2, Days: 3}, Players: []string{w.sys.Address("ada"), w.sys.Address("bob"), w.sys.Address("cy"), "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(w.ctx, id); err != nil {
		t.Fatal(err)
	}
	ladder := func() string {
		ev, err := svc.Show(w.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range ev.T.Ladder {
			names = append(names, strings.SplitN(p, "@", 2)[0])
		}
		return strings.Join(names, " ")
	}
	if got := ladder(); got != "ada bob cy bot:1" {
		t.Fatalf("the ladder: %s", got)
	}

	w.send("cy", "climb 1 1")
	w.wantLast("cy", "You challenged ada (place 1) on the ladder Club Ladder: challenge 1.", "3 days to answer")
	w.wantLast("ada", "cy challenges you on the ladder Club Ladder", "defend 1")
	w.send("bob", "climb 1 1")
	w.wantLast("bob", "is already in a challenge")
	w.send("bob", "climb 1 3")
	w.wantLast("bob", "is not above")

	// ada does not answer: three days on, cy has her place.
	w.clock.Advance(3*24*time.Hour + time.Minute)
	w.d.Tick(w.ctx)
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	w.wantLast("ada", "was not answered in time: cy takes ada's place")
	if got := ladder(); got != "cy ada bob bot:1" {
		t.Fatalf("the ladder after the expiry: %s", got)
	}

	// bob challenges ada, who answers: their game begins.
	w.send("bob", "climb 1 2")
	w.send("ada", "defend 1")
	w.wantLast("ada", "You took challenge 2 on the ladder Club Ladder")
	w.wantLast("bob", "Challenge 2 on the ladder Club Ladder: your game begins.")
	w.send("ada", "defend 1")
	w.wantLast("ada", "nobody challenges you")
	// ada resigns their game: bob, the challenger, wins and takes her
	// place.
	w.send("ada", "resign") // the board comes back, to confirm from
	w.deliver(w.reply("ada", w.last("ada"), "resign"))
	w.step()
	w.d.Tick(w.ctx)
	if got := ladder(); got != "cy bob ada bot:1" {
		t.Fatalf("the ladder after the challenger won: %s", got)
	}
	// ada challenges bob back and loses: nothing moves.
	w.send("ada", "climb 1 2")
	w.send("bob", "defend 1")
	w.send("ada", "resign") // the board comes back, to confirm from
	w.deliver(w.reply("ada", w.last("ada"), "resign"))
	w.step()
	w.d.Tick(w.ctx)
	if got := ladder(); got != "cy bob ada bot:1" {
		t.Fatalf("the ladder after the challenger lost: %s", got)
	}

	// dee joins at the bottom, and the bot takes her challenge at once.
	w.send("dee", "join 1")
	w.send("dee", "climb 1 4")
	w.wantLast("dee", "The bot takes it")
	if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE record LIKE '%[Event "Club Ladder"]%'`); n != 3 {
		t.Errorf("%d games of the ladder, want 3", n)
	}
	w.send("eve", "climb 1 1")
	w.wantLast("eve", "is not on the ladder")
	w.send("eve", "standings 1")
	w.wantLast("eve", "Club Ladder (tournament 1, running)")
}

// TestRoundRobinOneMailEach: a round robin whose games all start at once
// sends each player one mail with all their boards, not one a game. A
// move sent to a game's address in that mail is played in that game; a
// reply to the mail itself, when one game waits, plays there.
func TestRoundRobinOneMailEach(t *testing.T) {
	w := newWorld(t)
	svc := withTournaments(w)
	people := []string{"ada", "bob", "cy"}
	var players []string
	for _, p := range people {
		players = append(players, w.sys.Address(p))
	}
	id, err := svc.Create(w.ctx, events.Spec{Name: "Club All-Play-All", Game: "icesickle", Format: tournament.RoundRobin,
		Players: append(players, "bot:1")})
	if err != nil {
		t.Fatal(err)
	}
	before := map[string]int{}
	for _, p := range people {
		before[p] = w.mailCount(p)
	}
	if err := svc.Start(w.ctx, id); err != nil {
		t.Fatal(err)
	}
	w.step()
	rg, _ := games.Lookup("icesickle")
	start, err := rg.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	move := start.FormatMove(start.Moves(nil)[0])
	for _, p := range people {
		if n := w.mailCount(p) - before[p]; n != 1 {
			t.Fatalf("%s got %d mails at the start, want 1", p, n)
		}
		m := w.wantLast(p, "Club All-Play-All begins: your 3 games start at once", "seat 1:", "Position: ")
		if n := strings.Count(m.text, "IceSickle #"); n < 6 {
			t.Errorf("%s's mail names its games %d times, want each in the list and over its board:\n%s", p, n, m.text)
		}
	}
	// A reply to the mail with a move, two games waiting: each game's
	// board comes back to reply to, and nothing is played.
	m := w.last("ada")
	n := w.mailCount("ada")
	w.deliver(w.reply("ada", m, move))
	w.step()
	if got := w.mailCount("ada") - n; got != 2 {
		t.Errorf("a move in a reply to the round's mail brought %d mails, want the 2 boards that wait", got)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE ply > 0`); n != 0 {
		t.Errorf("a move meant for no one game was played in %d", n)
	}
	// ada moves in each game that waits for her, each at its address.
	var moved int
	for _, f := range strings.Fields(m.text) {
		if !strings.HasPrefix(f, "games+m") {
			continue
		}
		w.deliver(w.write("ada", f, "my move", "", move))
		w.step()
		moved++
	}
	if moved == 0 {
		t.Fatalf("ada's mail gives no game's address to move at:\n%s", m.text)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE ply = 1 AND id IN (SELECT game_id FROM pbem_seats WHERE address = ? AND seat = 1)`, w.sys.Address("ada")); n != moved {
		t.Errorf("ada's moves played in %d games, want %d", n, moved)
	}
}

// TestOrganizeByMail: a player the settings name as a starter creates a
// tournament by mail; nobody else may, and with no starters named nobody
// may. Bad settings are answered and create nothing.
func TestOrganizeByMail(t *testing.T) {
	w := newWorld(t)
	svc := withTournaments(w)
	count := func() int { return countRows(t, w, `SELECT count(*) FROM pbem_events`) }
	line := "organize icesickle swiss rounds=2 max=4 start=full days=3 Club Spring Swiss"
	w.send("ada", line)
	w.wantLast("ada", "only the players the server names as starters may organize a tournament by mail")
	w.srv.Starters = []string{w.sys.Address("ada")}
	w.send("bob", line)
	w.wantLast("bob", "only the players the server names as starters")
	for _, c := range []struct{ line, want string }{
		{"organize icesickle swiss rounds=2 Club Spring Swiss", "say when Club Spring Swiss starts"},
		{"organize icesickle swiss rounds=2 start=yesterday Club Spring Swiss", "write start=full, or a date"},
		{"organize icesickle swiss rounds=2 start=2020-01-01 Club Spring Swiss", "is not in the future"},
		{"organize icesickle swiss start=full max=4 Club Spring Swiss", "rounds"},
		{"organize icesickle swiss rounds=2 start=full Club Spring Swiss", "needs its number of players"},
		{"organize pikemen swiss rounds=2 max=4 start=full target=1000 Club Spring Swiss", "target must be 1..255"},
		{"organize icesickle swiss rounds=many max=4 start=full Club Spring Swiss", "rounds=many: give a number"},
		{"organize icesickle roundrobin double=perhaps max=4 start=full Club Spring Swiss", "write double=yes or double=no"},
	} {
		w.send("ada", c.line)
		w.wantLast("ada", c.want)
		if n := count(); n != 0 {
			t.Fatalf("%q created %d tournaments", c.line, n)
		}
	}
	w.send("ada", line)
	w.wantLast("ada", "You organized Club Spring Swiss: tournament 1.", "IceSickle, Swiss of 2 rounds, 3 days a move, 0 of 4 players, starts when full", "join 1")
	w.send("ada", line)
	w.wantLast("ada", `a tournament is named "Club Spring Swiss" already`)
	for _, p := range []string{"ada", "bob", "cy", "dee"} {
		w.send(p, "join 1")
	}
	ev, err := svc.Show(w.ctx, 1)
	if err != nil || ev.Status != events.Running || ev.Days != 3 {
		t.Fatalf("the tournament organized by mail after four joins: %+v, %v", ev, err)
	}
}
