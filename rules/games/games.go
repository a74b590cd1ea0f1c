// Package games lists every game icepost knows, so that the notation, the
// archive, the mail daemon and the command line can find a game by the name
// a record or a mail gives, and learn from each game's rules.Info what its
// moves look like, what options it takes and how to tell players about it.
//
// A new game is one package below rules and one line in the list here;
// nothing else in the program names a game.
package games

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"icepost/rules"
	"icepost/rules/icefrogs"
	"icepost/rules/icelady"
	"icepost/rules/icesickle"
	"icepost/rules/pikemen"
)

// builtin is the list of games, in the order help texts name them.
var builtin = []rules.Game{
	icesickle.Game,
	icelady.Game,
	pikemen.Game,
	icefrogs.Game,
}

// entry is a game with the keys it is found by.
type entry struct {
	game rules.Game
	keys []string
}

var (
	list atomic.Pointer[[]entry] // read without a lock: lookups are hot
	mu   sync.Mutex              // serializes Register
)

func init() {
	es := make([]entry, 0, len(builtin))
	for _, g := range builtin {
		es = append(es, newEntry(g))
	}
	list.Store(&es)
}

func newEntry(g rules.Game) entry {
	e := entry{game: g, keys: []string{key(g.Name())}}
	for _, a := range g.Info().Aliases {
		e.keys = append(e.keys, key(a))
	}
	return e
}

// key is a name as it is matched: lower case, without "-", "_" and
// spaces, so that "Ice-Sickle", "ice sickle" and "ICESICKLE" are one.
func key(name string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ':
			return -1
		}
		return r
	}, strings.ToLower(name))
}

// Register adds a game after the built-in ones and returns a function
// that removes it again. It is for a program or a test that brings a game
// of its own; it panics when the game's name or an alias is taken.
func Register(g rules.Game) (unregister func()) {
	mu.Lock()
	defer mu.Unlock()
	e := newEntry(g)
	for _, k := range e.keys {
		if old, ok := find(k); ok {
			panic(fmt.Sprintf("games: %s is known already (as %s)", g.Name(), old.Name()))
		}
	}
	es := append(append([]entry(nil), *list.Load()...), e)
	list.Store(&es)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		var kept []entry
		for _, x := range *list.Load() {
			if x.game != g {
				kept = append(kept, x)
			}
		}
		list.Store(&kept)
	}
}

// All returns the games in a fixed order.
func All() []rules.Game {
	es := *list.Load()
	out := make([]rules.Game, len(es))
	for i, e := range es {
		out[i] = e.game
	}
	return out
}

// Lookup finds a game by its name or an alias, in any case, with or
// without "-", "_" and spaces.
func Lookup(name string) (rules.Game, bool) {
	return find(key(name))
}

func find(k string) (rules.Game, bool) {
	for _, e := range *list.Load() {
		for _, ek := range e.keys {
			if ek == k {
				return e.game, true
			}
		}
	}
	return nil, false
}

// Names returns the games' names, for help texts and errors.
func Names() []string {
	es := *list.Load()
	n := make([]string, len(es))
	for i, e := range es {
		n[i] = e.game.Name()
	}
	return n
}

// Token reads a move token of any game without a position (see
// rules.Info.Token) and returns its canonical spelling: what tells a move
// from prose in a mail.
func Token(tok string) (string, bool) {
	for _, e := range *list.Load() {
		if c, ok := e.game.Info().Token(tok); ok {
			return c, true
		}
	}
	return "", false
}

// Grammar is the words of the games as the mail reader needs them: it
// satisfies pbem/mailread.Grammar.
type Grammar struct{}

// Game returns the canonical name of the game a word names.
func (Grammar) Game(word string) (string, bool) {
	g, ok := Lookup(word)
	if !ok {
		return "", false
	}
	return g.Name(), true
}

// Move returns the canonical spelling of a move token of any game.
func (Grammar) Move(tok string) (string, bool) { return Token(tok) }
