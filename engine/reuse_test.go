package engine

import (
	"context"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// TestTreeReuse: a Player's next search starts from the part of its tree
// below the moves played since (here the reply it searched most), so its
// tree then holds more nodes than that search added; a new Player's
// holds no more than it added (a search adds at most a node a playout).
func TestTreeReuse(t *testing.T) {
	ctx := context.Background()
	start, _ := icesickle.Game.Start(rules.Options{})
	p, err := New(Config{Level: 3, Seed: 5, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Move(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	kept := p.trees[0].root.children[0] // keep left the chosen move's node alone
	if kept.move != c.Move || len(kept.children) == 0 {
		t.Fatalf("after the move the root keeps %d children", len(p.trees[0].root.children))
	}
	reply := kept.children[0]
	for _, ch := range kept.children {
		if ch.visits > reply.visits {
			reply = ch
		}
	}
	below := count(reply)
	if below < 2 {
		t.Fatalf("the reply searched most has %d nodes below it", below)
	}
	s, _ := start.Play(c.Move)
	s, _ = s.Play(reply.move)
	again, err := p.Move(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if again.Nodes <= again.Playouts+1 {
		t.Errorf("after %d playouts the tree holds %d nodes: the %d below the reply were not kept", again.Playouts, again.Nodes, below)
	}
	fresh, _ := New(Config{Level: 3, Seed: 5, Workers: 1})
	f, err := fresh.Move(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if f.Nodes > f.Playouts+1 {
		t.Errorf("a new tree holds %d nodes after %d playouts", f.Nodes, f.Playouts)
	}
	t.Logf("kept %d nodes; then %d nodes after %d playouts (a new tree: %d after %d)", below, again.Nodes, again.Playouts, f.Nodes, f.Playouts)
}
