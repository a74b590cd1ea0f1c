package tournament_test

import (
	"fmt"

	"icepost/tournament"
)

// A Swiss of four over two rounds, driven as a service would: Pair,
// start the games, Record each result, Pair again; then the standings.
func Example() {
	t, err := tournament.New("Spring Swiss", tournament.Swiss, 2, tournament.Options{Rounds: 2})
	if err != nil {
		panic(err)
	}
	for i, id := range []string{"ada@example.org", "bob@example.org", "cy@example.org", "bot:3"} {
		t.Join(tournament.Player{ID: id, Rating: float64(1600 - 50*i)})
	}
	for {
		due, err := t.Pair()
		if err != nil {
			panic(err)
		}
		if len(due) == 0 {
			break
		}
		for _, g := range due {
			fmt.Printf("[Round %q] %v\n", g.Tag(), g.Players)
			// Seat 1 wins every game.
			if err := t.Record(g.Round, g.Board, tournament.ResultOf(1, 0)); err != nil {
				panic(err)
			}
		}
	}
	fmt.Println("done:", t.Done())
	for _, r := range t.Standings()[0].Rows {
		fmt.Printf("%d. %-16s %s  Buchholz %s\n", r.Rank, r.Player, r.Points, r.Buchholz)
	}
	// Output:
	// [Round "1.1"] [ada@example.org cy@example.org]
	// [Round "1.2"] [bot:3 bob@example.org]
	// [Round "2.1"] [bot:3 ada@example.org]
	// [Round "2.2"] [bob@example.org cy@example.org]
	// done: true
	// 1. bot:3            2  Buchholz 2
	// 2. ada@example.org  1  Buchholz 2
	// 2. bob@example.org  1  Buchholz 2
	// 4. cy@example.org   0  Buchholz 2
}
