package counting_test

import (
	"testing"

	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/rulestest"
)

func TestConformance(t *testing.T) {
	rulestest.Run(t, counting.Game,
		rulestest.Case{Name: "2 seats", Options: rules.Options{Seats: 2}, Perft: []uint64{2, 4, 8}},
		rulestest.Case{Name: "4 seats", Options: rules.Options{Seats: 4}, Perft: []uint64{2, 4, 8}},
	)
}
