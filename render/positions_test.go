package render_test

import (
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
)

// A sample is a position to draw: a game and options, played some plies
// from the start by a seeded random player that, on its last move, takes
// the move that shows most (the longest path, the most captures).
type sample struct {
	name    string
	game    string
	options rules.Options
	plies   int
	seed    uint64
	viewer  int
	// code and token, when set, give the position before the last move
	// and the move, instead of a random game.
	code, token string
}

var samples = []sample{
	{name: "icesickle", game: "IceSickle", plies: 19, seed: 1},
	{name: "icesickle-start", game: "IceSickle", plies: 0},
	{name: "pikemen", game: "Pikemen", plies: 40, seed: 3},
	{name: "pikemen-seat2", game: "Pikemen", plies: 40, seed: 3, viewer: 2},
	{name: "pikemen-4", game: "Pikemen", options: rules.Options{Seats: 4}, plies: 60, seed: 2},
	{name: "icelady", game: "IceLady", plies: 30, seed: 5},
	{name: "icelady-seat2", game: "IceLady", plies: 30, seed: 5, viewer: 2},
	{name: "icelady-tree", game: "IceLady", code: "IceLady 3L+M4/2m5/5s2/1l6/3s4/2S5/2M1M3/8 3 3 1", token: "c3xe5xg7"},
	{name: "pikemen-upright", game: "Pikemen", code: "Pikemen 2 12 7S2U/8/8/8/8/2M2U5/8/2L1N5 0:0 1", token: "c1xc3:U"},
	{name: "icelady-toptaken", game: "IceLady", code: "IceLady 8/6s1/8/8/3l+m4/2S5/8/8 3 3 1", token: "c3xe5"},
	{name: "icefrogs", game: "IceFrogs", plies: 24, seed: 7},
	{name: "icefrogs-3", game: "IceFrogs", options: rules.Options{Seats: 3}, plies: 30, seed: 1},
	{name: "icefrogs-hex", game: "IceFrogs", options: rules.Options{Board: "hex"}, plies: 24, seed: 4},
	{name: "icefrogs-hex-seat2", game: "IceFrogs", options: rules.Options{Board: "hex"}, plies: 24, seed: 4, viewer: 2},
	{name: "counting", game: "Counting", options: rules.Options{Seats: 3}, plies: 4, seed: 1},
}

// diagram plays the sample and describes the position reached, with its
// last move.
func (s sample) diagram(t testing.TB) rules.Diagram {
	t.Helper()
	g, ok := games.Lookup(s.game)
	if !ok && s.game == "Counting" {
		g, ok = counting.Game, true
	}
	if !ok {
		t.Fatalf("no game %s", s.game)
	}
	st, err := g.Start(s.options)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(s.seed, 9))
	var prev rules.State
	var last rules.Move
	if s.code != "" {
		if prev, err = g.ParsePosition(s.code); err != nil {
			t.Fatal(err)
		}
		if st, last, err = rules.Play(prev, s.token); err != nil {
			t.Fatal(err)
		}
	}
	for ply := 0; ply < s.plies; ply++ {
		moves := st.Moves(nil)
		if len(moves) == 0 {
			break
		}
		m := moves[rng.IntN(len(moves))]
		if ply == s.plies-1 {
			m = showiest(st, moves, rng)
		}
		next, err := st.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		prev, last, st = st, m, next
	}
	d, ok := rules.DiagramOf(st, s.viewer, prev, last)
	if !ok {
		t.Fatalf("%s: no diagram", s.game)
	}
	return d
}

// showiest picks the move that captures most, then goes furthest.
func showiest(s rules.State, moves []rules.Move, rng *rand.Rand) rules.Move {
	best, score := moves[rng.IntN(len(moves))], -1
	for _, m := range moves {
		l := s.(rules.Drawable).LastMove(m)
		if v := 10*len(l.Captured) + len(l.Path); v > score {
			best, score = m, v
		}
	}
	return best
}
