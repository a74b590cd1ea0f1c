package engine_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"icepost/engine"
	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
	"icepost/rules/icesickle"
)

// midgame plays plies random moves from the start of g, for a position
// with something to think about.
func midgame(t testing.TB, g rules.Game, o rules.Options, plies int) rules.State {
	t.Helper()
	s, err := g.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	r := engine.NewRandom(3)
	for range plies {
		if s.Outcome().Over {
			break
		}
		c, _ := r.Move(context.Background(), s)
		s, _ = s.Play(c.Move)
	}
	return s
}

// TestLegal: every game, every seat count, a few moves at level 1 are
// legal, and a chosen move's estimate is a probability.
func TestLegal(t *testing.T) {
	for _, g := range append(games.All(), counting.Game) {
		for _, seats := range g.Info().Seats {
			s := midgame(t, g, rules.Options{Seats: seats}, 6)
			p, err := engine.New(engine.Config{Level: 1, Seed: 1, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				if s.Outcome().Over {
					break
				}
				c, err := p.Move(context.Background(), s)
				if err != nil {
					t.Fatalf("%s/%d: %v", g.Name(), seats, err)
				}
				if !rules.IsLegal(s, c.Move) {
					t.Fatalf("%s/%d: %s is not legal at %s", g.Name(), seats, s.FormatMove(c.Move), s.Code())
				}
				if c.Win < 0 || c.Win > 1 || c.Playouts == 0 {
					t.Errorf("%s/%d: win %v after %d playouts", g.Name(), seats, c.Win, c.Playouts)
				}
				sum := 0.0
				for _, v := range c.Values {
					sum += v
				}
				if len(c.Values) != seats || sum < 0.999 || sum > 1.001 {
					t.Errorf("%s/%d: values %v do not share 1 among the seats", g.Name(), seats, c.Values)
				}
				s, _ = s.Play(c.Move)
			}
		}
	}
}

// TestSeed: the same seed gives the same moves, a game long; another
// seed may not.
func TestSeed(t *testing.T) {
	play := func(seed uint64) []rules.Move {
		start, _ := icesickle.Game.Start(rules.Options{})
		a, _ := engine.New(engine.Config{Level: 1, Seed: seed, Workers: 2})
		b, _ := engine.New(engine.Config{Level: 1, Seed: seed + 100, Workers: 2})
		moves, _, err := engine.PlayGame(context.Background(), start, []engine.Mover{a, b}, 12)
		if err != nil {
			t.Fatal(err)
		}
		return moves
	}
	one, two := play(7), play(7)
	if len(one) != len(two) {
		t.Fatalf("%d moves, then %d", len(one), len(two))
	}
	for i := range one {
		if one[i] != two[i] {
			t.Fatalf("ply %d differs with the same seed", i+1)
		}
	}
}

// TestBudget: the time budget and the context stop a search that would
// run long, and the move found is still legal; the node cap holds.
func TestBudget(t *testing.T) {
	s := midgame(t, icesickle.Game, rules.Options{}, 4)
	p, _ := engine.New(engine.Config{Level: engine.MaxLevel, Seed: 1, Workers: 1, MoveTime: 50 * time.Millisecond, MaxNodes: 500})
	c, err := p.Move(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Stopped || !rules.IsLegal(s, c.Move) {
		t.Errorf("stopped %v, legal %v", c.Stopped, rules.IsLegal(s, c.Move))
	}
	if c.Nodes > 500 {
		t.Errorf("%d nodes, cap 500", c.Nodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Move(ctx, s); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

func TestErrors(t *testing.T) {
	if _, err := engine.New(engine.Config{Level: 0}); !errors.Is(err, engine.ErrLevel) {
		t.Errorf("level 0: %v", err)
	}
	if _, err := engine.New(engine.Config{Level: engine.MaxLevel + 1}); !errors.Is(err, engine.ErrLevel) {
		t.Errorf("level 6: %v", err)
	}
	for _, bad := range []string{"bot:0", "bot:6", "bot", "human", ""} {
		if _, err := engine.ParseSpec(bad); err == nil {
			t.Errorf("ParseSpec(%q) accepted", bad)
		}
	}
	p, _ := engine.New(engine.Config{Level: 1})
	s := midgame(t, counting.Game, rules.Options{}, 20)
	if _, err := p.Move(context.Background(), s); !errors.Is(err, rules.ErrGameOver) {
		t.Errorf("a move in a finished game: %v", err)
	}
}

// TestMatch: a short match rotates the seats, counts every game, and the
// bot beats random at Counting, where playing +2 to reach 10 is plain.
func TestMatch(t *testing.T) {
	start, _ := counting.Game.Start(rules.Options{Seats: 2})
	seen := map[int]bool{}
	m := engine.Match{Players: []engine.Spec{"bot:2", "random"}, Games: 10, Seed: 1, Config: engine.Config{Workers: 1}, MaxPlies: 100,
		Each: func(g int, seatOf []int, moves []rules.Move, final rules.State) error {
			seen[seatOf[0]] = true
			if !final.Outcome().Over {
				t.Errorf("game %d not over", g)
			}
			return nil
		}}
	ts, err := m.Play(context.Background(), start, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !seen[1] || !seen[2] {
		t.Errorf("the bot sat in seats %v, want both", seen)
	}
	if ts[0].Games() != 10 || ts[1].Games() != 10 || ts[0].Wins+ts[1].Wins != 10 {
		t.Errorf("tallies %+v", ts)
	}
	if ts[0].Wins < 7 {
		t.Errorf("bot:2 won %d of 10 against random at Counting", ts[0].Wins)
	}
}

// TestMatchParallel: played four games at a time, a match plays the same
// games as one after another, tells Each of them in order, and stops at
// the first error Each returns.
func TestMatchParallel(t *testing.T) {
	start, _ := counting.Game.Start(rules.Options{Seats: 3})
	type game struct {
		n     int
		moves []rules.Move
	}
	play := func(parallel int, stopAt int) ([]game, []engine.Tally, error) {
		var gs []game
		m := engine.Match{Players: []engine.Spec{"bot:1", "random", "bot:2"}, Games: 12, Seed: 9, Config: engine.Config{Workers: 1}, MaxPlies: 100,
			Parallel: parallel,
			Each: func(g int, seatOf []int, moves []rules.Move, final rules.State) error {
				gs = append(gs, game{g, moves})
				if g == stopAt {
					return errors.New("stop")
				}
				return nil
			}}
		ts, err := m.Play(context.Background(), start, nil)
		return gs, ts, err
	}
	one, ts1, err := play(1, -1)
	if err != nil {
		t.Fatal(err)
	}
	four, ts4, err := play(4, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(one) != 12 || len(four) != 12 {
		t.Fatalf("%d and %d games told", len(one), len(four))
	}
	for i := range one {
		if one[i].n != i || four[i].n != i || !slices.Equal(one[i].moves, four[i].moves) {
			t.Errorf("game %d: one at a time told game %d (%d moves), four at a time game %d (%d moves, not the same)", i, one[i].n, len(one[i].moves), four[i].n, len(four[i].moves))
		}
	}
	for j := range ts1 {
		a, b := ts1[j], ts4[j]
		if a.Wins != b.Wins || a.Draws != b.Draws || a.Losses != b.Losses || a.Points != b.Points || a.Moves != b.Moves {
			t.Errorf("player %d: one at a time %+v, four at a time %+v", j+1, a, b)
		}
	}
	stopped, ts, err := play(4, 5)
	if err == nil || err.Error() != "stop" || len(stopped) != 6 || stopped[5].n != 5 {
		t.Errorf("Each failing at game 5: error %v, %d games told", err, len(stopped))
	}
	if ts[0].Games() != 6 {
		t.Errorf("%d games counted after the stop at game 5, want 6", ts[0].Games())
	}
}

// TestAcceptsDraw: the engine accepts a draw only when it thinks it is
// losing, or when the position has come back RepeatDraw times.
func TestAcceptsDraw(t *testing.T) {
	for _, c := range []struct {
		value   float64
		seats   int
		repeats int
		want    bool
	}{
		{0.5, 2, 1, false}, {0.4, 2, 1, false}, {0.3, 2, 1, true}, {0.25, 3, 1, false}, {0.1, 3, 1, true}, {0.2, 4, 1, false}, {0.05, 4, 1, true},
		{0.9, 2, 2, false}, {0.9, 2, 3, true}, {0.9, 3, 4, true},
	} {
		if got := engine.AcceptsDraw(c.value, c.seats, c.repeats); got != c.want {
			t.Errorf("AcceptsDraw(%v, %d, %d) = %v", c.value, c.seats, c.repeats, got)
		}
	}
}
