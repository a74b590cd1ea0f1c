package icelady

import (
	"encoding/binary"
	"math/bits"

	"icepost/rules"
)

// Directions, as (file, rank) steps: N NE E SE S SW W NW.
var dirFile = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
var dirRank = [8]int{1, 1, 0, -1, -1, -1, 0, 1}

const (
	dirN, dirNE, dirE, dirSE, dirS, dirSW, dirW, dirNW = 0, 1, 2, 3, 4, 5, 6, 7
)

// rays[sq][d] lists the squares from sq (not included) to the edge in
// direction d; rayLen[sq][d] how many there are.
var (
	rays   [64][8][7]uint8
	rayLen [64][8]uint8
)

// rayMask[sq][d] is rays[sq][d] as a bitboard; dist[a][b] is the number of
// king steps from a to b. A king's capture search finds the first piece on
// a ray with them: the lowest square of the ray's occupied ones in the
// directions whose squares rise (N, NE, E, NW), the highest in the others.
var (
	rayMask [64][8]uint64
	dist    [64][64]uint8
	rising  = [8]bool{dirN: true, dirNE: true, dirE: true, dirNW: true}
)

// Directions in which each seat's smalls and mediums move.
var (
	smallDirs = [3][2]int{{}, {dirNW, dirNE}, {dirSW, dirSE}}
	medDirs   = [3][3]int{{}, {dirW, dirN, dirE}, {dirW, dirS, dirE}}
	farRank   = [3]int{0, 7, 0}
)

// leapOver[me][kind][sq], for a small or medium of seat me on sq, is the
// squares it could capture on: the first square of each of its
// directions with room beyond it. A piece with no enemy there has no
// capture, and the capture search skips it.
var leapOver [3][med + 1][64]uint64

// smallStep[me][sq] is the squares a small of seat me on sq steps to on
// an empty board; farRow[me] is seat me's far row.
var (
	smallStep [3][64]uint64
	farRow    [3]uint64
)

func init() {
	for sq := 0; sq < 64; sq++ {
		for d := 0; d < 8; d++ {
			f, r := sq%8, sq/8
			n := 0
			for {
				f, r = f+dirFile[d], r+dirRank[d]
				if f < 0 || f > 7 || r < 0 || r > 7 {
					break
				}
				rays[sq][d][n] = uint8(r*8 + f)
				n++
			}
			rayLen[sq][d] = uint8(n)
			for _, to := range rays[sq][d][:n] {
				rayMask[sq][d] |= 1 << to
			}
		}
		for to := range 64 {
			dist[sq][to] = uint8(max(abs(sq%8-to%8), abs(sq/8-to/8)))
		}
	}
	for me := 1; me <= 2; me++ {
		for sq := range 64 {
			for _, d := range smallDirs[me] {
				if rayLen[sq][d] >= 2 {
					leapOver[me][small][sq] |= 1 << rays[sq][d][0]
				}
			}
			for _, d := range medDirs[me] {
				if rayLen[sq][d] >= 2 {
					leapOver[me][med][sq] |= 1 << rays[sq][d][0]
				}
			}
			for _, d := range smallDirs[me] {
				if rayLen[sq][d] >= 1 {
					smallStep[me][sq] |= 1 << rays[sq][d][0]
				}
			}
			if sq/8 == farRank[me] {
				farRow[me] |= 1 << sq
			}
		}
	}
}

// canJoin reports whether a piece of kind k of seat me may end its move on
// sq, which holds c: its own king or king tree on its far row, with room on
// top for it.
func canJoin(me, k, c uint8, sq int) bool {
	if ownerOf(c) != me || sq/8 != farRank[me] {
		return false
	}
	switch kindOf(c) {
	case king:
		return k == small || k == med
	case treeM:
		return k == small
	}
	return false
}

// joined is the kind of a tree of kind t after a piece of kind k joins it.
func joined(t, k uint8) uint8 {
	if t == king {
		if k == small {
			return treeS
		}
		return treeM
	}
	return treeF // a small onto L+M
}

// gen holds the state of one move generation: a scratch board with the
// moving piece lifted off, the squares a capture left a tree remnant on,
// and the move being built.
type gen struct {
	cells   [64]uint8
	blocked uint64 // tree remnants of this move: no passing, no capturing
	occ     uint64 // the squares of cells that hold a piece
	// land[k] is where a small (k = small) or medium may end a step:
	// an empty square, or its own king or king tree to join.
	land    [med + 1]uint64
	me      uint8
	kind    uint8 // kind of the moving piece
	from    uint8 // its square, for steps
	canProm bool  // the moving piece is S or M and its owner has a large
	mv      rules.Move
	out     []rules.Move
}

// AppendMoves appends the legal moves to buf: every capture chain if any
// piece can capture, else every step. Squares are visited from a1 to h8;
// the order is stable.
func (p Position) AppendMoves(buf []rules.Move) []rules.Move {
	g := gen{cells: p.cells, me: p.turn, out: buf}
	n0 := len(buf)
	own, enemy := p.occ[p.turn-1], p.occ[2-p.turn]
	g.occ = own | enemy
	for b := own; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		c := p.cells[sq]
		g.kind = kindOf(c)
		if g.kind <= med && leapOver[p.turn][g.kind][sq]&enemy == 0 {
			continue // no enemy to leap over
		}
		g.canProm = g.kind <= med && p.reserve[p.turn-1] > 0
		g.cells[sq] = 0 // the moving piece's start counts as empty
		g.occ &^= 1 << sq
		g.mv = rules.Move{Kind: Capture, N: 1}
		g.mv.Path[0] = uint8(sq)
		g.chain(sq)
		g.cells[sq] = c
		g.occ |= 1 << sq
	}
	if len(g.out) > n0 {
		return g.out
	}
	g.land[small], g.land[med] = ^g.occ, ^g.occ
	for b := own & farRow[p.turn]; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		for k := uint8(small); k <= med; k++ {
			if canJoin(p.turn, k, p.cells[sq], sq) {
				g.land[k] |= 1 << sq
			}
		}
	}
	for b := own; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		g.kind = kindOf(p.cells[sq])
		g.canProm = g.kind <= med && p.reserve[p.turn-1] > 0
		g.from = uint8(sq)
		g.steps(sq)
	}
	return g.out
}

// owned returns the squares of seat me's pieces as a bitboard (bit sq
// for square sq), reading the cells eight at a time: a cell is
// owner<<3 | kind, so a cell is me's exactly when its top five bits are
// me, and the bytes where they are are found without a branch a cell
// (SWAR: a zero byte of x is a cell that matches).
func owned(cells *[64]uint8, me uint8) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	pat := uint64(me<<3) * 0x0101010101010101
	var own uint64
	for w := 0; w < 64; w += 8 {
		x := binary.LittleEndian.Uint64(cells[w:])&0xf8f8f8f8f8f8f8f8 ^ pat
		zero := ^((x&lo7 + lo7) | x | lo7) & hi
		// One bit a matching byte, gathered into the byte's square.
		own |= (zero >> 7 * 0x0102040810204080 >> 56) << w
	}
	return own
}

// emit adds the capture built so far, and its promoting twin when the
// moving small or medium ends on its far row and may promote.
func (g *gen) emit(join bool) {
	g.out = append(g.out, g.mv)
	if g.canProm && !join && int(g.mv.Path[g.mv.N-1])/8 == farRank[g.me] {
		m := g.mv
		m.Arg = 1
		g.out = append(g.out, m)
	}
}

// step adds the step from g.from to to, and its promoting twin as emit
// does. The move is written where it goes in out, not built in g.mv and
// copied: a copy's wide reads of bytes just written one at a time wait
// for those writes (a profile put 38% of a perft from the start there).
func (g *gen) step(to uint8, join bool) {
	g.out = append(g.out, rules.Move{})
	m := &g.out[len(g.out)-1]
	m.Kind, m.N = Step, 2
	m.Path[0], m.Path[1] = g.from, to
	if g.canProm && !join && int(to)/8 == farRank[g.me] {
		g.out = append(g.out, rules.Move{})
		m := &g.out[len(g.out)-1]
		m.Kind, m.Arg, m.N = Step, 1, 2
		m.Path[0], m.Path[1] = g.from, to
	}
}

// steps adds the moves of the piece on sq that capture nothing. A small's
// steps come in the order of their squares, which is the order of its
// directions (smallDirs).
func (g *gen) steps(sq int) {
	switch g.kind {
	case small:
		for b := smallStep[g.me][sq] & g.land[small]; b != 0; b &= b - 1 {
			to := uint8(bits.TrailingZeros64(b))
			g.step(to, g.cells[to] != 0)
		}
	case med:
		for _, d := range medDirs[g.me] {
			if rayLen[sq][d] < 2 {
				continue
			}
			over, to := rays[sq][d][0], rays[sq][d][1]
			if g.occ>>over&1 == 0 && g.land[med]>>to&1 != 0 {
				g.step(to, g.cells[to] != 0)
			}
		}
	default:
		rng := int(g.kind)
		for d := 0; d < 8; d++ {
			n := min(int(rayLen[sq][d]), rng)
			for i := 0; i < n; i++ {
				to := rays[sq][d][i]
				if g.cells[to] != 0 {
					break
				}
				g.step(to, true) // a king does not promote
			}
		}
	}
}

// chain extends the capture built so far from sq, where the moving piece
// now stands, by every possible leap; when there is none and the move has
// captured, the move is complete.
func (g *gen) chain(sq int) {
	found := false
	switch g.kind {
	case small, med:
		var dirs []int
		if g.kind == small {
			dirs = smallDirs[g.me][:]
		} else {
			dirs = medDirs[g.me][:]
		}
		for _, d := range dirs {
			if rayLen[sq][d] < 2 {
				continue
			}
			over, to := rays[sq][d][0], rays[sq][d][1]
			oc := g.cells[over]
			if oc == 0 || ownerOf(oc) == g.me || g.blocked&(1<<over) != 0 {
				continue
			}
			tc := g.cells[to]
			join := false
			if tc != 0 {
				if !canJoin(g.me, g.kind, tc, int(to)) {
					continue
				}
				join = true
			}
			found = true
			g.take(over, oc)
			g.mv.Add(to)
			if join {
				g.emit(true)
			} else {
				g.chain(int(to))
			}
			g.mv.N--
			g.mv.Path[g.mv.N] = 0
			g.cells[over] = oc
			g.occ |= 1 << over
			g.blocked &^= 1 << over
		}
	default:
		rng := int(g.kind)
		for d := 0; d < 8; d++ {
			n := min(int(rayLen[sq][d]), rng)
			blockers := g.occ & rayMask[sq][d]
			if blockers == 0 {
				continue
			}
			var over uint8
			if rising[d] {
				over = uint8(bits.TrailingZeros64(blockers))
			} else {
				over = uint8(63 - bits.LeadingZeros64(blockers))
			}
			ray := &rays[sq][d]
			i := int(dist[sq][over]) - 1 // over is ray[i]
			if i+1 >= n {
				continue // the first piece out of range, or no room beyond it
			}
			oc := g.cells[over]
			if ownerOf(oc) == g.me || g.blocked&(1<<over) != 0 || g.cells[ray[i+1]] != 0 {
				continue
			}
			g.take(over, oc)
			for i++; i < n && g.cells[ray[i]] == 0; i++ {
				found = true
				g.mv.Add(ray[i])
				g.chain(int(ray[i]))
				g.mv.N--
				g.mv.Path[g.mv.N] = 0
			}
			g.cells[over] = oc
			g.occ |= 1 << over
			g.blocked &^= 1 << over
		}
	}
	if !found && g.mv.N > 1 {
		g.emit(false)
	}
}

// take captures the piece oc on over for the rest of the move: a tree
// keeps its lower pieces there as an obstacle.
func (g *gen) take(over, oc uint8) {
	rest := afterCapture[kindOf(oc)]
	if rest == 0 {
		g.cells[over] = 0
		g.occ &^= 1 << over
		return
	}
	g.cells[over] = cell(ownerOf(oc), rest)
	g.blocked |= 1 << over
}

// Apply returns the position after m, which must be legal here (it is not
// checked).
func (p Position) Apply(m rules.Move) Position {
	p.play(m)
	return p
}

// play plays m, a legal move, in place: Apply and PlayLegal.
func (p *Position) play(m rules.Move) {
	from := m.Path[0]
	pc := p.cells[from]
	p.cells[from] = 0
	me, them := &p.occ[p.turn-1], &p.occ[2-p.turn]
	*me &^= 1 << from
	if m.Kind == Capture {
		for i := 1; i < int(m.N); i++ {
			a, b := int(m.Path[i-1]), int(m.Path[i])
			step := sign(b/8-a/8)*8 + sign(b%8-a%8)
			for s := a + step; s != b; s += step {
				if c := p.cells[s]; c != 0 {
					if rest := afterCapture[kindOf(c)]; rest != 0 {
						p.cells[s] = cell(ownerOf(c), rest)
					} else {
						p.cells[s] = 0
						*them &^= 1 << s
					}
					break
				}
			}
		}
	}
	to := m.Path[m.N-1]
	*me |= 1 << to
	switch {
	case p.cells[to] != 0:
		t := p.cells[to]
		p.cells[to] = cell(ownerOf(t), joined(kindOf(t), kindOf(pc)))
	case m.Arg == 1:
		p.cells[to] = cell(p.turn, king)
		p.reserve[p.turn-1]--
	default:
		p.cells[to] = pc
	}
	p.turn = 3 - p.turn
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
