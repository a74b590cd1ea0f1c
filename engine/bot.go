package engine

import "strconv"

// Name is the player name of the engine at a level, the same by mail and
// at the terminal: "icepost bot level 3".
func Name(level int) string { return "icepost bot level " + strconv.Itoa(level) }

// DrawMargin: the engine accepts a draw only when its estimate of its own
// result is below what the draw gives it (1/seats) by more than this.
const DrawMargin = 0.15

// RepeatDraw: a position that has stood on the board this many times in a
// game (notation.Game.Repeats) shows a game going round in circles. Ice
// Lady and IceFrogs end only by a win or by agreement, and two sides that
// each guard what the other needs may move back and forth for ever (in
// 200 games between levels 5 and 4 of IceFrogs, six were still going
// after 1,000 plies): there the engine accepts a draw, whatever it
// estimates, as players of chess agree one when a position comes back a
// third time.
const RepeatDraw = 3

// AcceptsDraw says whether the engine, whose estimate of its own result
// is value (Choice.Values), accepts a draw in a game of seats seats whose
// position now has stood on the board repeats times: when it thinks it is
// losing (with two seats, below 0.35), or when the position has come back
// RepeatDraw times. It never offers one and never resigns: a game it
// thinks won it plays out.
func AcceptsDraw(value float64, seats, repeats int) bool {
	return repeats >= RepeatDraw || value < 1/float64(seats)-DrawMargin
}
