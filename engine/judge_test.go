package engine

import (
	"context"
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
	"icepost/rules/pikemen"
)

// TestJudge: Judge measures the move played and the one it prefers by as
// many fresh playouts each, keeps the played move's subtree for the next
// position, refuses a move that is not legal, and gives the one value to
// both when the move played is the one it prefers.
func TestJudge(t *testing.T) {
	ctx := context.Background()
	start, _ := icesickle.Game.Start(rules.Options{})
	p, err := New(Config{Level: 1, Seed: 3, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	legal := start.Moves(nil)
	j, err := p.Judge(ctx, start, legal[0])
	if err != nil {
		t.Fatal(err)
	}
	m := legal[0]
	if j.Best == m {
		m = legal[1]
	}
	p, _ = New(Config{Level: 1, Seed: 3, Workers: 1})
	j, err = p.Judge(ctx, start, m)
	if err != nil {
		t.Fatal(err)
	}
	want := iterations(1, len(legal)) + 2*base[1]
	if j.Best == m || j.Playouts != want || j.BestValue < 0 || j.BestValue > 1 || j.PlayedValue < 0 || j.PlayedValue > 1 {
		t.Fatalf("Judge(%s) = %+v; want %d playouts", start.FormatMove(m), j, want)
	}
	root := p.trees[0].root
	if len(root.children) != 1 || root.children[0].move != m || root.children[0].visits < float64(base[1]) {
		t.Fatalf("after Judge the root keeps %d children", len(root.children))
	}
	kept := root.children[0]
	next, _ := start.Play(m)
	reply := next.Moves(nil)[0]
	if _, err := p.Judge(ctx, next, reply); err != nil {
		t.Fatal(err)
	}
	if p.trees[0].root != kept {
		t.Error("the second Judge did not start from the node the first kept")
	}
	if _, err := p.Judge(ctx, next, m); err == nil {
		t.Errorf("Judge took %s, which is not legal after it was played", start.FormatMove(m))
	}
	p, _ = New(Config{Level: 1, Seed: 3, Workers: 2})
	c, _ := New(Config{Level: 1, Seed: 3, Workers: 2})
	chosen, _ := c.Move(ctx, start)
	same, err := p.Judge(ctx, start, chosen.Move)
	if err != nil {
		t.Fatal(err)
	}
	if same.Best != chosen.Move || same.PlayedValue != same.BestValue {
		t.Errorf("Judge of the move it prefers (%s): %+v", start.FormatMove(chosen.Move), same)
	}
}

// TestTakesTheWin: a move that wins at once is played, with the chance
// 1, whatever the search's visits (Pikemen has no winFinder, so the
// search alone does not prefer it). The position is the first of a
// seeded random Pikemen game to 1 point where a move wins.
func TestTakesTheWin(t *testing.T) {
	ctx := context.Background()
	s, err := pikemen.Game.Start(rules.Options{Target: 1})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for ply := 0; ply < 500 && !s.Outcome().Over; ply++ {
		var win *rules.Move
		for _, m := range s.Moves(nil) {
			if next, _ := s.Play(m); next.Outcome().Over && next.Outcome().Winner == s.ToMove() {
				win = &m
				break
			}
		}
		if win != nil {
			p, _ := New(Config{Level: 1, Seed: 1, Workers: 1})
			c, err := p.Move(ctx, s)
			if err != nil {
				t.Fatal(err)
			}
			next, _ := s.Play(c.Move)
			if o := next.Outcome(); !o.Over || o.Winner != s.ToMove() || c.Win != 1 {
				t.Errorf("with %s winning, the engine played %s (chance %v)", s.FormatMove(*win), s.FormatMove(c.Move), c.Win)
			}
			return
		}
		ms := s.Moves(nil)
		s, _ = s.Play(ms[rng.IntN(len(ms))])
	}
	t.Fatal("no position with a winning move in a random game")
}
