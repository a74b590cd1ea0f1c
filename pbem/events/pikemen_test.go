package events_test

import (
	"context"
	"slices"
	"testing"

	"icepost/pbem/events"
	"icepost/tournament"
)

// A round robin of four bots at four-seat Pikemen, the real game (to 2
// points, so that it runs in seconds under the race detector): every
// pair meets, each player sits in each seat once, and each game's result
// places all four seats.
func TestRoundRobinAtFourSeatPikemen(t *testing.T) {
	if testing.Short() {
		t.Skip("plays four games of Pikemen")
	}
	t.Parallel()
	svc, h, _ := service(t)
	ctx := context.Background()
	id, err := svc.Create(ctx, events.Spec{Name: "Pikemen table", Game: "pikemen", Options: map[string]string{"target": "2"}, Seats: 4, Format: tournament.RoundRobin,
		Players: []string{"bot:1", "bot:1", "bot:1", "bot:1"}})
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
