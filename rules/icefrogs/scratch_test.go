package icefrogs

import (
	"fmt"
	"testing"
	"icepost/rules"
)

func TestScratch(t *testing.T) {
	for _, o := range []rules.Options{{}, {Seats: 3}, {Board: "hex"}, {Board: "hex", Seats: 3}} {
		p, err := Start(o)
		if err != nil { panic(err) }
		fmt.Print(p.Board(0))
		fmt.Println(p.Code())
		for d := 1; d <= 4; d++ { fmt.Print(p.Perft(d), " ") }
		fmt.Println()
	}
}
