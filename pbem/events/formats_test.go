package events_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"icepost/pbem"
	"icepost/pbem/events"
	"icepost/tournament"
)

// people are n players by mail, who move only when a test says so.
func people(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("p%d@club.test", i+1)
	}
	return out
}

// endGame ends a tournament's game by mail as an adjudication, as if it
// had been played out to result.
func endGame(t *testing.T, h *pbem.Handler, id int64, result string) {
	t.Helper()
	if err := h.Transact(context.Background(), func(tx *pbem.Tx) error { return tx.EndGame(id, result, "The test decides.") }); err != nil {
		t.Fatalf("ending game %d with %s: %v", id, result, err)
	}
}

// show is the tournament as stored.
func show(t *testing.T, svc *events.Service, id int64) *events.Event {
	t.Helper()
	ev, err := svc.Show(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// pairs counts the games each pair of players met in, and per player the
// games at each seat.
func pairs(games []tournament.Game) (met map[[2]string]int, seats map[string][]int) {
	met, seats = map[[2]string]int{}, map[string][]int{}
	for _, g := range games {
		if g.Bye {
			continue
		}
		for i, p := range g.Players {
			if seats[p] == nil {
				seats[p] = make([]int, len(g.Players))
			}
			seats[p][i]++
			for _, q := range g.Players[i+1:] {
				k := [2]string{p, q}
				if k[0] > k[1] {
					k[0], k[1] = k[1], k[0]
				}
				met[k]++
			}
		}
	}
	return met, seats
}

// A double round robin of four at two seats: every pair meets twice,
// once from each seat, and every player has three games at each seat.
func TestDoubleRoundRobinOfFour(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Double", Game: "counting", Format: tournament.RoundRobin,
		Settings: tournament.Options{Double: true}, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := runToTheEnd(t, svc, h, id)
	if len(ev.T.Games) != 12 || len(ev.GameIDs) != 12 {
		t.Fatalf("%d games, %d by mail; want 12 of each", len(ev.T.Games), len(ev.GameIDs))
	}
	met, seats := pairs(ev.T.Games)
	if len(met) != 6 {
		t.Errorf("%d pairs met, want 6", len(met))
	}
	for k, n := range met {
		if n != 2 {
			t.Errorf("%v met %d times, want 2", k, n)
		}
	}
	first := map[[2]string]bool{}
	for _, g := range ev.T.Games {
		k := [2]string{g.Players[0], g.Players[1]}
		if first[k] {
			t.Errorf("%s had seat 1 against %s twice", k[0], k[1])
		}
		first[k] = true
	}
	for p, s := range seats {
		if !slices.Equal(s, []int{3, 3}) {
			t.Errorf("%s's games by seat: %v, want [3 3]", p, s)
		}
	}
}

// A round robin of four at a four-seat table, by rounds: one table a
// round, so the four rounds give each player each seat once.
func TestRoundRobinOfFourByRoundsBalancesSeats(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Table by rounds", Game: "counting", Seats: 4, Format: tournament.RoundRobin,
		Settings: tournament.Options{ByRounds: true}, Players: []string{"bot:1", "bot:1", "bot:1", "bot:1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := runToTheEnd(t, svc, h, id)
	met, seats := pairs(ev.T.Games)
	if len(ev.T.Games) != 4 || len(met) != 6 {
		t.Errorf("%d games, %d pairs met; want 4 and 6", len(ev.T.Games), len(met))
	}
	for p, s := range seats {
		if !slices.Equal(s, []int{1, 1, 1, 1}) {
			t.Errorf("%s's games by seat: %v, want each seat once", p, s)
		}
	}
	for _, g := range ev.T.Games {
		if g.Result == nil || len(g.Result.Places) != 4 {
			t.Errorf("game %s: result %v", g.Tag(), g.Result)
		}
	}
}

// A knockout of eight in which one match is drawn: the two games level,
// a decider starts, with the lower seed in seat 1, and its winner goes
// through; the rest of the bracket plays on to one winner.
func TestKnockoutOfEightWithADrawnMatch(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Cup of eight", Game: "counting", Format: tournament.Knockout, Players: people(8)})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := show(t, svc, id)
	br := ev.T.Bracket()
	if len(br) != 3 || len(br[0].Matches) != 4 {
		t.Fatalf("bracket: %d rounds, first with %d matches; want 3 and 4", len(br), len(br[0].Matches))
	}
	drawn := br[0].Matches[0]
	// Every game of the first round ends: the top player of each match
	// wins both, but the first match's two games are drawn.
	for _, g := range ev.T.Games {
		gid := ev.GameIDs[g.Tag()]
		switch {
		case g.Match == drawn.Match:
			endGame(t, h, gid, "1/2-1/2")
		case g.Players[0] == br[0].Matches[g.Match-1].Players[0]:
			endGame(t, h, gid, "1-0")
		default:
			endGame(t, h, gid, "0-1")
		}
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	ev = show(t, svc, id)
	var decider *tournament.Game
	for i, g := range ev.T.Games {
		if g.Round == 1 && g.Match == drawn.Match && g.Playable() {
			decider = &ev.T.Games[i]
		}
	}
	if decider == nil {
		t.Fatalf("no decider after a drawn match: %+v", ev.T.Games)
	}
	if _, ok := ev.GameIDs[decider.Tag()]; !ok {
		t.Fatalf("the decider %s has no game by mail", decider.Tag())
	}
	// The lower seed (the bracket's second player, seed 8) sits first.
	if decider.Players[0] != drawn.Players[1] {
		t.Errorf("the decider's seats %v; want the lower seed %s in seat 1", decider.Players, drawn.Players[1])
	}
	m := ev.T.Bracket()[0].Matches[0]
	if m.Winner != "" {
		t.Errorf("the drawn match has a winner before its decider: %s", m.Winner)
	}
	// The lower seed wins the decider and goes through.
	endGame(t, h, ev.GameIDs[decider.Tag()], "1-0")
	// The rest: the player in seat 1 wins every game.
	for range 20 {
		if err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		ev = show(t, svc, id)
		if ev.Status == events.Finished {
			break
		}
		for _, g := range ev.T.Games {
			if gid, ok := ev.GameIDs[g.Tag()]; ok && g.Playable() {
				endGame(t, h, gid, "1-0")
			}
		}
	}
	if ev.Status != events.Finished {
		t.Fatalf("the knockout is %s after its games", ev.Status)
	}
	br = ev.T.Bracket()
	if w := br[0].Matches[0].Winner; w != drawn.Players[1] {
		t.Errorf("the drawn match went to %s, want the decider's winner %s", w, drawn.Players[1])
	}
	if len(br[2].Matches) != 1 || br[2].Matches[0].Winner == "" {
		t.Errorf("the final: %+v", br[2].Matches)
	}
}

// Two players leave a Swiss by different doors: one withdraws after one
// game (that game stands, the rest are lost: docs/tournaments.md), one
// runs out of time in round 2 (the game is lost on time, a result like
// any other, and they play on).
func TestWithdrawalAndTimeout(t *testing.T) {
	t.Parallel()
	svc, h, clock := service(t)
	ctx := context.Background()
	ps := people(4)
	id, err := svc.Create(ctx, events.Spec{Name: "Leavers", Game: "counting", Format: tournament.Swiss, Days: 1,
		Settings: tournament.Options{Rounds: 3}, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	// Round 1: seat 1 wins both games.
	ev := show(t, svc, id)
	for _, g := range ev.T.Games {
		endGame(t, h, ev.GameIDs[g.Tag()], "1-0")
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	ev = show(t, svc, id)
	var r2 []tournament.Game
	for _, g := range ev.T.Games {
		if g.Round == 2 {
			r2 = append(r2, g)
		}
	}
	if len(r2) != 2 {
		t.Fatalf("round 2 has %d games, want 2", len(r2))
	}
	// In round 2, the first game's seat 1 withdraws after one game of
	// three: in a Swiss the game played stands, the one under way is
	// lost (docs/tournaments.md), and the player is paired no more.
	leaver := r2[0].Players[0]
	if err := h.Transact(ctx, func(tx *pbem.Tx) error {
		_, err := svc.Withdraw(tx, id, leaver)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var status string
	if err := h.DB.QueryRow(`SELECT status FROM pbem_games WHERE id = ?`, ev.GameIDs[r2[0].Tag()]).Scan(&status); err != nil {
		t.Fatal(err)
	}
	if status != "finished" {
		t.Errorf("the leaver's game under way is %s, want finished (lost)", status)
	}
	for _, g := range show(t, svc, id).T.Games {
		switch {
		case g.Round == 1 && slices.Contains(g.Players, leaver) && (g.Result == nil || g.Annulled):
			t.Errorf("the leaver's round-1 game does not stand: %+v", g)
		case g.Tag() == r2[0].Tag() && (g.Result == nil || g.Result.Places[0] != 2):
			t.Errorf("the leaver's game under way is not lost: %+v", g.Result)
		}
	}
	if err := h.Transact(ctx, func(tx *pbem.Tx) error {
		_, err := svc.Withdraw(tx, id, leaver)
		return err
	}); err == nil {
		t.Error("a second withdrawal was taken")
	}
	// The other game of round 2 runs out of time: two days pass without
	// a move, and the game service's clock ends it.
	late := r2[1]
	var before int
	if err := h.DB.QueryRow(`SELECT count(*) FROM pbem_games WHERE status = 'finished'`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		clock.Add(13 * 3600)
		if err := h.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var term string
	if err := h.DB.QueryRow(`SELECT status, record FROM pbem_games WHERE id = ?`, ev.GameIDs[late.Tag()]).Scan(&status, &term); err != nil {
		t.Fatal(err)
	}
	if status != "finished" || !strings.Contains(term, `[Termination "time forfeit"]`) {
		t.Fatalf("the late game is %s:\n%s", status, term)
	}
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	ev = show(t, svc, id)
	for _, g := range ev.T.Games {
		if g.Round == 2 && g.Board == late.Board {
			late = g
		}
	}
	if late.Result == nil {
		t.Fatalf("the game lost on time has no result in the tournament")
	}
	// The leaver: no game in round 3, and a withdrawn row.
	for _, g := range ev.T.Games {
		if g.Round == 3 && slices.Contains(g.Players, leaver) && !g.Bye {
			t.Errorf("the leaver is paired in round 3: %v", g.Players)
		}
	}
	var gone bool
	for _, p := range ev.T.Players {
		if p.ID == leaver {
			gone = p.Withdrawn
		}
	}
	if !gone {
		t.Errorf("%s is not marked withdrawn", leaver)
	}
	// The player who lost on time plays round 3.
	loser := late.Players[0]
	if late.Result.Places[0] == 1 {
		loser = late.Players[1]
	}
	paired := false
	for _, g := range ev.T.Games {
		if g.Round == 3 && slices.Contains(g.Players, loser) {
			paired = true
		}
	}
	if !paired {
		t.Errorf("the player who lost on time (%s) is not in round 3", loser)
	}
}

// A Swiss with a deadline of ten days: a game still under way ten days
// after it began is ended a draw, its players told, and the next round
// is paired; before the deadline nothing happens.
func TestDeadlineEndsASlowGame(t *testing.T) {
	t.Parallel()
	svc, h, clock := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Slow", Game: "counting", Format: tournament.Swiss,
		Settings: tournament.Options{Rounds: 2, Deadline: 10}, Players: people(4)})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := show(t, svc, id)
	fast := ev.T.Games[0]
	endGame(t, h, ev.GameIDs[fast.Tag()], "1-0")
	clock.Add(10*24*3600 - 60)
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if ev = show(t, svc, id); len(ev.T.Games) != 2 || !ev.T.Games[1].Playable() {
		t.Fatalf("a minute before the deadline: %d games, the slow one %+v", len(ev.T.Games), ev.T.Games[1])
	}
	clock.Add(60)
	if err := svc.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	ev = show(t, svc, id)
	slow := ev.T.Games[1]
	if slow.Result == nil || slow.Result.Places[0] != slow.Result.Places[1] {
		t.Fatalf("at the deadline the slow game's result is %+v, want a draw", slow.Result)
	}
	var record string
	if err := h.DB.QueryRow(`SELECT record FROM pbem_games WHERE id = ?`, ev.GameIDs[slow.Tag()]).Scan(&record); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(record, `[Result "1/2-1/2"]`) {
		t.Errorf("the slow game's record:\n%s", record)
	}
	if len(ev.T.Games) != 4 {
		t.Errorf("%d games after the deadline, want round 2 paired (4)", len(ev.T.Games))
	}
	if _, err := svc.Create(ctx, events.Spec{Name: "Ladder with a deadline", Game: "counting", Format: tournament.Ladder,
		Settings: tournament.Options{Deadline: 3}}); err == nil {
		t.Error("a ladder took a deadline")
	}
}

// A player withdraws from a round robin at tables of three after two of
// their three games: the third is lost, the other two players share
// first place in the tournament, and the game by mail ends (a draw: a
// game by mail has one winner or none).
func TestWithdrawalAtATable(t *testing.T) {
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	ps := people(4)
	id, err := svc.Create(ctx, events.Spec{Name: "Tables", Game: "counting", Seats: 3, Format: tournament.RoundRobin, Players: ps})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx, id); err != nil {
		t.Fatal(err)
	}
	ev := show(t, svc, id)
	leaver := ps[0]
	var played int
	var left tournament.Game
	for _, g := range ev.T.Games {
		if !slices.Contains(g.Players, leaver) {
			continue
		}
		if played == 2 {
			left = g
			continue
		}
		endGame(t, h, ev.GameIDs[g.Tag()], "1-0-0")
		played++
	}
	if err := h.Transact(ctx, func(tx *pbem.Tx) error {
		_, err := svc.Withdraw(tx, id, leaver)
		return err
	}); err != nil {
		t.Fatalf("withdrawing after two games of three: %v", err)
	}
	ev = show(t, svc, id)
	for _, g := range ev.T.Games {
		if g.Tag() != left.Tag() {
			continue
		}
		if g.Result == nil || g.Annulled {
			t.Fatalf("the leaver's last game: %+v, want lost", g)
		}
		at := slices.Index(g.Players, leaver)
		for i, p := range g.Result.Places {
			if want := 1 + 2*boolInt(i == at); p != want {
				t.Errorf("the leaver's last game places %v (leaver at seat %d)", g.Result.Places, at+1)
				break
			}
		}
	}
	var status string
	if err := h.DB.QueryRow(`SELECT status FROM pbem_games WHERE id = ?`, ev.GameIDs[left.Tag()]).Scan(&status); err != nil || status != "finished" {
		t.Errorf("the game by mail is %s (%v), want finished", status, err)
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
