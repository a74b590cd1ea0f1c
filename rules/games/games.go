// Package games lists every game icepost knows, so that the notation, the
// archive, the mail daemon and the command line can find a game by the name
// a record or a mail gives.
package games

import (
	"strings"

	"icepost/rules"
	"icepost/rules/icefrogs"
	"icepost/rules/icelady"
	"icepost/rules/icesickle"
	"icepost/rules/pikemen"
)

var all = []rules.Game{
	icesickle.Game,
	icelady.Game,
	pikemen.Game,
	icefrogs.Game,
}

// All returns the games in a fixed order.
func All() []rules.Game { return append([]rules.Game(nil), all...) }

// Lookup finds a game by name, in any case.
func Lookup(name string) (rules.Game, bool) {
	for _, g := range all {
		if strings.EqualFold(g.Name(), name) {
			return g, true
		}
	}
	return nil, false
}

// Names returns the games' names, for help texts and errors.
func Names() []string {
	n := make([]string, len(all))
	for i, g := range all {
		n[i] = g.Name()
	}
	return n
}
