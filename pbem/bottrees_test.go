package pbem

import (
	"testing"

	"icepost/engine"
)

func TestBotTreesKeepTheLastGames(t *testing.T) {
	var b botTrees
	players := map[int64]*engine.Player{}
	for id := int64(1); id <= keptTrees+1; id++ {
		p, err := engine.New(engine.Config{Level: 1})
		if err != nil {
			t.Fatal(err)
		}
		players[id] = p
		b.give(id, 1, p)
	}
	if p := b.take(1, 1); p != nil {
		t.Errorf("the least recently used game's player is still kept after %d more", keptTrees)
	}
	if p := b.take(keptTrees+1, 1); p != players[keptTrees+1] {
		t.Errorf("take gave %p, want the player given, %p", p, players[keptTrees+1])
	}
	if p := b.take(keptTrees+1, 1); p != nil {
		t.Error("a player taken is still kept: two searches could share it")
	}
	if p := b.take(2, 3); p != nil {
		t.Error("a player of level 1 was given for level 3")
	}
	if p := b.take(2, 1); p != nil {
		t.Error("a player asked for at the wrong level is still kept")
	}
}
