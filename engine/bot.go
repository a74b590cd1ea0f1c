package engine

import "strconv"

// Name is the player name of the engine at a level, the same by mail and
// at the terminal: "icepost bot level 3".
func Name(level int) string { return "icepost bot level " + strconv.Itoa(level) }

// DrawMargin: the engine accepts a draw only when its estimate of its own
// result is below what the draw gives it (1/seats) by more than this.
const DrawMargin = 0.15

// AcceptsDraw says whether the engine, whose estimate of its own result
// is value (Choice.Values), accepts a draw in a game of seats seats: only
// when it thinks it is losing (with two seats, below 0.35). It never
// offers one and never resigns: a game it thinks won it plays out.
func AcceptsDraw(value float64, seats int) bool {
	return value < 1/float64(seats)-DrawMargin
}
