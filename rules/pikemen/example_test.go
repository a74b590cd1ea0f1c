package pikemen_test

import (
	"fmt"

	"icepost/rules"
	"icepost/rules/pikemen"
)

// The 2-seat start after seat 1 lays its small on g4 down pointing NW and
// seat 2 answers by laying its small on c6 down pointing SE, straight at it.
func ExampleGame() {
	s, _ := pikemen.Game.Start(rules.Options{})
	for _, tok := range []string{"g4:NW", "c6:SE"} {
		var err error
		if s, _, err = rules.Play(s, tok); err != nil {
			panic(err)
		}
	}
	fmt.Print(s.Board(0))
	fmt.Println(s.Code())
	// Output:
	//      a     b     c     d     e     f     g     h
	//    +-------------------------------------------------+
	//  8 | 2L U  2L U  2L U  2M U  2S U    .     .     .   | 8
	//  7 | 2L U  2M U  2M U  2S U    .     .     .     .   | 7
	//  6 | 2L U  2M U  2S SE   .     .     .     .     .   | 6
	//  5 | 2M U  2S U    .     .     .     .     .   1S U  | 5
	//  4 | 2S U    .     .     .     .     .   1S NW 1M U  | 4
	//  3 |   .     .     .     .     .   1S U  1M U  1L U  | 3
	//  2 |   .     .     .     .   1S U  1M U  1M U  1L U  | 2
	//  1 |   .     .     .   1S U  1M U  1L U  1L U  1L U  | 1
	//    +-------------------------------------------------+
	//        a     b     c     d     e     f     g     h
	//
	// 1L NE = seat 1's large, lying down and pointing NE: it charges that way.
	// 2M U  = seat 2's medium, standing upright: it cannot charge until a
	//         turn lays it down pointing some way (like c7:SE).
	// S small (1 point), M medium (2), L large (3).
	// N points up the page (to rank 8), S down, E to the right (to file h).
	//
	// Scores: seat 1 0, seat 2 0 (12 wins)
	// Seat 1 to move
	// Pikemen 2 12 L2UL2UL2UM2US2U3/L2UM2UM2US2U4/L2UM2US2SE5/M2US2U5S1U/S2U5S1NWM1U/5S1UM1UL1U/4S1UM1UM1UL1U/3S1UM1UL1UL1UL1U 0:0 1
}

// Move tokens are read against the position, and a wrong mark is refused
// with the right form named.
func ExampleRules_ParsePosition() {
	s, _ := pikemen.Game.ParsePosition("Pikemen 2 12 8/8/4S2SE3/8/6S1NW1/8/8/L1U7 0:0 1")
	for _, tok := range []string{"g4-c8", "g4-f5", "g4xe6", "g4-e6(U)", "a1:U", "a1:n"} {
		m, err := s.ParseMove(tok)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(tok, "is", s.FormatMove(m))
	}
	// Output:
	// g4-c8: the charge from g4 to c8 is blocked by the small on e6; a charge never jumps
	// g4-f5 is g4-f5
	// g4xe6 is g4xe6
	// g4-e6(U): use g4xe6:U: the charge captures the small on e6
	// a1:U: the large on a1 already stands upright; a reorient must change the orientation
	// a1:n is a1:N
}
