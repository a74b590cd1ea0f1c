# engine-row.awk turns the output of one icepost match (bench/engine) into
# a row of the strength table: the first player's wins, draws and losses,
# its score with a 95% interval, the fair share (1/seats), its
# head-to-head score, and its mean and longest time per move.
#
# The head-to-head score counts a game of several seats as a result
# against each other seat, as the archive's ratings do (docs/web.md): a
# win beats every other seat, a loss is a loss to the winner only (the
# seats that did not win are not compared), a draw is drawn with every
# seat. With two seats it is the score. It is what "beats the level below
# it" means when that level sits in two or three seats.
#
# Variables: v (game, seats, board), vs (the match), seats.
NR == 3 {
	w = $2; d = $3; l = $4
	others = seats - 1
	pairs = w * others + d * others + l
	h2h = pairs > 0 ? (w * others + 0.5 * d * others) / pairs : 0
	printf "| %s | %s | %d-%d-%d | %s ± %s | %.2f | %.2f | %s | %s |\n", v, vs, w, d, l, $5, $7, 1 / seats, h2h, $8, $9
}
