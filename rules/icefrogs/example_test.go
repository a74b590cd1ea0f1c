package icefrogs_test

import (
	"fmt"

	"icepost/rules"
	"icepost/rules/icefrogs"
)

// A 2-seat game on the star, three moves in: seat 1's medium entered and
// stepped to b1, seat 2's large entered and stepped to h2, and seat 1's
// small entered and stepped onto the medium (tokens are read in any
// case). Then seat 2 tries to end a move on its own start space.
func Example() {
	s, err := icefrogs.Game.Start(rules.Options{})
	if err != nil {
		panic(err)
	}
	for _, tok := range []string{"M@a1-b1", "L@i1-h2", "s@A1-B1"} {
		if s, _, err = rules.Play(s, tok); err != nil {
			panic(err)
		}
	}
	fmt.Print(s.Board(0))
	fmt.Println(s.Code())
	_, err = s.ParseMove("h2-i1")
	fmt.Println(err)
	// Output:
	// i                     i1                     i
	// h                  h1    2L                  h
	// g   g1    g2    g3    g4    g5    g6    g7   g
	// f      f1    f2    f3    f4    f5    f6      f
	// e         e1    e2    e3    e4    e5         e
	// d      d1    d2    d3    d4    d5    d6      d
	// c   c1    c2    c3    c4    c5    c6    c7   c
	// b                 1S1M   b2                  b
	// a                     a1                     a
	//
	// An empty cell shows its name; a stack shows its pieces top first,
	// as seat and size: 2M1S is seat 2's medium on seat 1's small.
	// Seat 1: start a1, supply 4 S, 4 M, 5 L
	// Seat 2: start i1, supply 5 S, 5 M, 4 L
	// Seat 2 to move
	// IceFrogs star 2 ./(1S1M)./......./....../...../....../......./.2L/. 445/554 2
	// h2-i1: no move may end on your own start space i1
}

// The start of a 3-seat game on the hexagon.
func ExampleGame() {
	s, err := icefrogs.Game.Start(rules.Options{Board: "hex", Seats: 3})
	if err != nil {
		panic(err)
	}
	fmt.Print(s.Board(0))
	fmt.Println(s.Code())
	// Output:
	// g        g1  g2  g3  g4        g
	// f      f1  f2  f3  f4  f5      f
	// e    e1  e2  e3  e4  e5  e6    e
	// d  d1  d2  d3  d4  d5  d6  d7  d
	// c    c1  c2  c3  c4  c5  c6    c
	// b      b1  b2  b3  b4  b5      b
	// a        a1  a2  a3  a4        a
	//
	// An empty cell shows its name; a stack shows its pieces top first,
	// as seat and size: 2M1S is seat 2's medium on seat 1's small.
	// Seat 1: start a1, supply 5 S, 5 M, 5 L
	// Seat 2: start g1, supply 5 S, 5 M, 5 L
	// Seat 3: start d7, supply 5 S, 5 M, 5 L
	// Seat 1 to move
	// IceFrogs hex 3 ..../...../....../......./....../...../.... 555/555/555 1
}
