package icelady_test

import (
	"fmt"

	"icepost/rules"
	"icepost/rules/icelady"
)

// The start of a game: the board as a mail shows it, then a move read from
// a token and a move the rules refuse.
func ExampleGame() {
	s, _ := icelady.Game.Start(rules.Options{})
	fmt.Print(s.Board(0))
	fmt.Println(s.Code())

	s, m, _ := rules.Play(s, "c3-d4")
	fmt.Println("played", s.FormatMove(m))
	_, err := s.ParseMove("d6-d5")
	fmt.Println(err)
	// Output:
	//       a      b      c      d      e      f      g      h
	//    +------+------+------+------+------+------+------+------+
	// 8  |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  8
	// 7  |  .   |  .   |  2M  |  2M  |  2M  |  2M  |  .   |  .   |  7
	// 6  |  .   |  .   |  2S  |  2S  |  2S  |  2S  |  .   |  .   |  6
	// 5  |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  5
	// 4  |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  4
	// 3  |  .   |  .   |  1S  |  1S  |  1S  |  1S  |  .   |  .   |  3
	// 2  |  .   |  .   |  1M  |  1M  |  1M  |  1M  |  .   |  .   |  2
	// 1  |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  .   |  1
	//    +------+------+------+------+------+------+------+------+
	//       a      b      c      d      e      f      g      h
	//
	// 1 = seat 1 (South), 2 = seat 2 (North); S small, M medium, L king,
	// L+M and the like a king tree, bottom piece first.
	// Larges in reserve for promotion: seat 1 has 4, seat 2 has 4
	// Seat 1 to move
	// IceLady 8/2mmmm2/2ssss2/8/8/2SSSS2/2MMMM2/8 4 4 1
	// played c3-d4
	// d6-d5: a small moves only diagonally forward
}

// A position in the middle of a game: a South king tree L+M on d4 must
// capture, and may choose its chain
// (turning back over the squares its captures emptied).
func ExamplePosition_Moves() {
	p, err := icelady.ParsePosition("IceLady 8/8/8/8/1s1L+Ms3/8/8/8 3 4 1")
	if err != nil {
		panic(err)
	}
	for _, m := range p.Moves(nil) {
		fmt.Println(p.FormatMove(m))
	}
	// Unordered output:
	// d4xa4xf4
	// d4xf4xa4
	// d4xg4
	// d4xh4
}
