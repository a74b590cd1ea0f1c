package icefrogs_test

import (
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
	"icepost/rules/rulestest"
)

func TestConformance(t *testing.T) {
	rulestest.Run(t, icefrogs.Game,
		rulestest.Case{Name: "star 2 seats", Options: rules.Options{}, Perft: []uint64{6, 36, 396}},
		rulestest.Case{Name: "star 3 seats", Options: rules.Options{Seats: 3}, Perft: []uint64{6, 36, 216}},
		rulestest.Case{Name: "hex 2 seats", Options: rules.Options{Board: "hex"}, Perft: []uint64{9, 81, 1188}},
		rulestest.Case{Name: "hex 3 seats", Options: rules.Options{Board: "hex", Seats: 3}, Perft: []uint64{9, 81, 729}},
	)
}
