package rules_test

import (
	"fmt"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// A game is started from options, moves are read from tokens against the
// position, and each State is a value that Play never changes.
func Example() {
	start, err := icesickle.Game.Start(rules.Options{})
	if err != nil {
		panic(err)
	}
	s, m, err := rules.Play(start, "l@C3")
	if err != nil {
		panic(err)
	}
	fmt.Println(start.FormatMove(m), "then seat", s.ToMove(), "to move")
	if _, _, err := rules.Play(s, "M@c3"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(start.Code())
	// Output:
	// L@c3 then seat 2 to move
	// M@c3: c3 is occupied
	// IceSickle ...../...../...../...../..... S5M5L5 0:0 1 place 1
}

// CountPerft counts the positions a given number of plies ahead.
func ExampleCountPerft() {
	start, _ := icesickle.Game.Start(rules.Options{})
	for depth := 1; depth <= 2; depth++ {
		fmt.Println(depth, rules.CountPerft(start, depth))
	}
	// Output:
	// 1 75
	// 2 5400
}
