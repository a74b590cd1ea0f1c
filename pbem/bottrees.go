package pbem

import (
	"sync"

	"icepost/engine"
)

// botTrees keeps the engine players of the bot games that moved last, so
// that a bot's next search in a game starts from the tree of its last one
// (engine.Player reuses the part below the moves played since) instead of
// from nothing: at the same level, the same number of new playouts, and
// more behind each move. Only a few games are kept, since a tree holds up
// to engine.Config.MaxNodes nodes; the others, and every game after a
// restart, start afresh, which changes nothing but the strength of one
// move.
type botTrees struct {
	mu    sync.Mutex
	games []botTree // most recently used last
}

type botTree struct {
	game   int64
	level  int
	player *engine.Player
}

// keptTrees is how many games' players botTrees keeps.
const keptTrees = 4

// take removes and returns the player kept for game at level, or nil. A
// player taken is the caller's alone until it gives it back.
func (b *botTrees) take(game int64, level int) *engine.Player {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i, t := range b.games {
		if t.game == game {
			b.games = append(b.games[:i], b.games[i+1:]...)
			if t.level == level {
				return t.player
			}
			return nil
		}
	}
	return nil
}

// give keeps p as game's player at level, dropping the least recently
// used beyond keptTrees.
func (b *botTrees) give(game int64, level int, p *engine.Player) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.games = append(b.games, botTree{game, level, p})
	if len(b.games) > keptTrees {
		b.games = append(b.games[:0], b.games[len(b.games)-keptTrees:]...)
	}
}
