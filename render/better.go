package render

import "icepost/rules"

// BetterMove draws another move than the last one over the board, as a
// green arrow from its first cell through its landings to its last (a
// ring round the cell of a placement or a turn in place): the engine's
// better move on the board of a game's analysis. l describes the move as
// rules.Drawable.LastMove does, asked of the position before it; the page
// shows it on the board after the move played, so that both moves from
// the same position are seen at once (the played one tinted, the better
// one green), as chess sites show an engine's best move. Cells outside
// the board are ignored.
func BetterMove(l rules.LastMove) Option {
	return func(o *options) { o.better = &l }
}

// betterColour is the better move's arrow: a yellowish green, apart from
// the last move's dark arrow and yellow tint and from the seats' colours
// (seat 3's is a bluish green).
var betterColour = alpha(rgb(0x5a, 0xa0, 0x0a), 0xc8)

// drawBetter draws o.better over the board b.
func drawBetter(sc *scene, b *board, l *rules.LastMove) {
	var pts []pt
	for _, c := range l.Path {
		if c >= 0 && c < len(b.d.Cells) {
			pts = append(pts, b.centre(c))
		}
	}
	u := b.unit
	switch {
	case len(pts) == 0:
		return
	case len(pts) == 1:
		sc.circle(pts[0], 0.40*u, none, betterColour, 0.10*u)
		return
	}
	w := 0.13 * u
	end := pts[len(pts)-1]
	dir := end.sub(pts[len(pts)-2]).unit()
	tip := end.sub(dir.mul(0.12 * u))
	neck := tip.sub(dir.mul(0.32 * u))
	n := dir.perp().mul(0.24 * u)
	polys := [][]pt{wind([]pt{tip, neck.add(n), neck.sub(n)})}
	for i := 0; i+1 < len(pts); i++ {
		a, z := pts[i], pts[i+1]
		if i+2 == len(pts) {
			z = neck.add(dir.mul(1))
		}
		if z.sub(a).len() > 1e-9 {
			polys = append(polys, segment(a, z, w))
		}
		if i > 0 {
			polys = append(polys, disc(a, w/2, 16))
		}
	}
	// One shape, so that the overlaps of its parts are not darker.
	sc.poly(betterColour, none, 0, polys...)
}
