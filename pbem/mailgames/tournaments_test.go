package mailgames_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"icepost/pbem/events"
	"icepost/pbem/mailgames"
	"icepost/tournament"
)

// TestTournaments: the tournaments as the site reads them, from an open
// one that players join by mail to its end: the summary, the state with
// every player's address replaced by a stand-in and named (two players
// whose addresses give one name told apart, the bots by level), the
// games by mail by their Round tag, the winner; the revision moves with
// a tournament's change alone; an unknown id is ErrNoTournament.
func TestTournaments(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	svc := &events.Service{Handler: c.srv}
	c.srv.Events = svc
	id, err := svc.Create(ctx, events.Spec{Name: "Club Round Robin", Game: "pikemen", Options: map[string]string{"target": "9"},
		Format: tournament.RoundRobin, Days: 5, WhenFull: true, Settings: tournament.Options{MaxPlayers: 5},
		Players: []string{"ada@club.test", "bot:1", "ada@other.test", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := c.read.Tournaments(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("Tournaments: %v, %d listed", err, len(list))
	}
	s := list[0]
	if s.ID != id || s.Name != "Club Round Robin" || s.Game != "Pikemen" || s.Format != tournament.RoundRobin || s.Seats != 2 ||
		s.Status != mailgames.TournamentOpen || s.Players != 4 || s.Days != 5 || !s.WhenFull || s.Settings.MaxPlayers != 5 ||
		s.Options["target"] != "9" || s.Rounds != 0 || s.Winners != nil {
		t.Errorf("the open tournament: %+v", s)
	}

	// bob joins by mail: the field is full, and it starts. Only the
	// tournament changed, and the revision with it.
	before, err := c.read.Revision(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.mail(t, "cy", "tournaments")
	if again, _ := c.read.Revision(ctx); again != before {
		t.Errorf("the revision moved with nothing changed: %s, then %s", before, again)
	}
	c.mail(t, "bob", "join 1")
	tt, err := c.read.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := c.read.Revision(ctx); after == before {
		t.Errorf("a join and the start left the revision at %s", after)
	}
	if tt.Status != mailgames.TournamentRunning || tt.Players != 5 || tt.Rounds != 5 || tt.Paired != 10 || tt.Ended != 0 {
		t.Errorf("after the join that fills it: status %s, %d players, %d rounds, %d games, %d ended; want running, 5, 5, 10, 0",
			tt.Status, tt.Players, tt.Rounds, tt.Paired, tt.Ended)
	}
	want := map[string]string{"p1": "ada", "p2": "bot 1", "p3": "ada (2)", "p4": "bot 1/2", "p5": "bob"}
	if !maps.Equal(tt.Names, want) {
		t.Errorf("names %v, want %v", tt.Names, want)
	}
	state, err := json.Marshal(tt.T)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(state), "@") || strings.Contains(string(state), "bot:") {
		t.Errorf("the state names players by their IDs: %s", state)
	}
	// Five players: ten games in five rounds, a bye each round.
	if len(tt.Games) != 10 {
		t.Errorf("%d games by mail, want 10: %v", len(tt.Games), tt.Games)
	}
	for _, g := range tt.T.Games {
		gm, ok := tt.Games[g.Tag()]
		if g.Bye {
			if ok {
				t.Errorf("the bye %s has a game by mail", g.Tag())
			}
			continue
		}
		if !ok || gm.Status != mailgames.Active || gm.Started.IsZero() {
			t.Errorf("game %s: %+v, %v", g.Tag(), gm, ok)
		}
		for _, p := range g.Players {
			if tt.Names[p] == "" {
				t.Errorf("game %s: player %q has no name", g.Tag(), p)
			}
		}
	}

	// Every game ends, the first seat winning; the tick records them.
	ids := slices.Collect(maps.Values(tt.Games))
	slices.SortFunc(ids, func(a, b mailgames.TournamentGame) int { return int(a.ID - b.ID) })
	for _, g := range ids {
		if err := c.srv.Adjudicate(ctx, g.ID, "1-0"); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	tt, err = c.read.Tournament(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tt.Status != mailgames.Finished || len(tt.Winners) == 0 || tt.Ended != 10 {
		t.Fatalf("after every game: %s, winners %v", tt.Status, tt.Winners)
	}
	top := tt.T.Standings()[0].Rows[0]
	if tt.Winners[0] != tt.Names[top.Player] {
		t.Errorf("winners %v, the table's top %s", tt.Winners, tt.Names[top.Player])
	}
	for tag, g := range tt.Games {
		if g.Status != mailgames.Finished || g.Changed.IsZero() {
			t.Errorf("game %s: %+v", tag, g)
		}
	}
	if list, _ := c.read.Tournaments(ctx); len(list) != 1 || !slices.Equal(list[0].Winners, tt.Winners) {
		t.Errorf("the list: %+v", list)
	}

	if _, err := c.read.Tournament(ctx, id+1); !errors.Is(err, mailgames.ErrNoTournament) {
		t.Errorf("an unknown tournament: %v, want ErrNoTournament", err)
	}
}

// TestTournamentsBeforeTheirTables: a database the daemon has not brought
// up to the tournaments' migration has none, and its revision reads.
func TestTournamentsBeforeTheirTables(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	if _, err := c.db.Exec(`DROP TABLE pbem_event_games; DROP TABLE pbem_events`); err != nil {
		t.Fatal(err)
	}
	if list, err := c.read.Tournaments(ctx); err != nil || len(list) != 0 {
		t.Errorf("Tournaments: %v, %v", list, err)
	}
	if _, err := c.read.Tournament(ctx, 1); !errors.Is(err, mailgames.ErrNoTournament) {
		t.Errorf("Tournament: %v, want ErrNoTournament", err)
	}
	if _, err := c.read.Revision(ctx); err != nil {
		t.Errorf("Revision: %v", err)
	}
}
