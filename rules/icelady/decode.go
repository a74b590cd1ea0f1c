package icelady

import (
	"math/bits"

	"icepost/rules"
)

// The fast path of ParseMove: read the token straight into a Move and test
// that one move against the rules, leap by leap, instead of generating
// every legal move and comparing. It accepts a move only when AppendMoves
// would list it (TestDecodeAgreesWithMoves checks both ways); anything
// else goes to the slow path, which lists the moves and says what is wrong.

// readToken reads an ASCII token in the canonical form, any case, "=K" or
// "=L" for a promotion, into a Move. ok is false for anything else, which
// the slow path reads again to name the mistake.
func readToken(tok string) (m rules.Move, ok bool) {
	var sep byte
	i := 0
	for {
		if i+2 > len(tok) || m.N == rules.MaxPath {
			return m, false
		}
		f, r := tok[i]|0x20, tok[i+1]
		if f < 'a' || f > 'h' || r < '1' || r > '8' {
			return m, false
		}
		m.Add((r-'1')*8 + f - 'a')
		i += 2
		if i == len(tok) {
			break
		}
		c := tok[i]
		if c == '=' {
			if i+2 != len(tok) {
				return m, false
			}
			switch tok[i+1] {
			case 'k', 'K', 'l', 'L':
				m.Arg = 1
			default:
				return m, false
			}
			break
		}
		if c == 'X' {
			c = 'x'
		}
		if c != '-' && c != 'x' || sep != 0 && c != sep {
			return m, false
		}
		sep = c
		i++
	}
	if m.N < 2 {
		return m, false
	}
	m.Kind = Step
	if sep == 'x' {
		m.Kind = Capture
	} else if m.N > 2 {
		return m, false
	}
	return m, true
}

// dirTable maps (sign of file step + 1) * 3 + (sign of rank step + 1) to a
// direction; the middle entry, no step, is unused.
var dirTable = [9]int8{dirSW, dirW, dirNW, dirS, -1, dirN, dirSE, dirE, dirNE}

// line returns the direction from a to b and the distance (in king steps)
// when b lies on a rank, file or diagonal through a, else d = -1.
func line(a, b int) (d, dist int) {
	df, dr := b%8-a%8, b/8-a/8
	if df != 0 && dr != 0 && abs(df) != abs(dr) || df == 0 && dr == 0 {
		return -1, 0
	}
	return int(dirTable[(sign(df)+1)*3+sign(dr)+1]), max(abs(df), abs(dr))
}

func hasDir(dirs []int, d int) bool {
	for _, x := range dirs {
		if x == d {
			return true
		}
	}
	return false
}

// isLegal reports whether m, as readToken builds it, is one of
// AppendMoves's moves, without generating them.
func (p Position) isLegal(m rules.Move) bool {
	from := int(m.Path[0])
	c := p.cells[from]
	if c == 0 || ownerOf(c) != p.turn {
		return false
	}
	if m.Kind == Step {
		return p.stepLegal(from, kindOf(c), int(m.Path[1]), m.Arg) && !p.anyCapture()
	}
	return p.chainLegal(&m, from, kindOf(c))
}

// stepLegal is steps and stepTo for the one move from-to.
func (p *Position) stepLegal(from int, kind uint8, to int, arg uint8) bool {
	d, dist := line(from, to)
	if d < 0 {
		return false
	}
	me := p.turn
	ray := &rays[from][d]
	switch kind {
	case small:
		if dist != 1 || !hasDir(smallDirs[me][:], d) {
			return false
		}
	case med:
		if dist != 2 || !hasDir(medDirs[me][:], d) || p.cells[ray[0]] != 0 {
			return false
		}
	default:
		if dist > int(kind) || arg != 0 {
			return false
		}
		for i := 0; i < dist; i++ {
			if p.cells[ray[i]] != 0 {
				return false
			}
		}
		return true
	}
	if tc := p.cells[to]; tc != 0 {
		return arg == 0 && canJoin(me, kind, tc, to)
	}
	return arg == 0 || p.reserve[me-1] > 0 && to/8 == farRank[me]
}

// anyCapture reports whether a piece of the side to move can capture, so
// that a step is not allowed.
func (p *Position) anyCapture() bool {
	for sq := 0; sq < 64; sq++ {
		c := p.cells[sq]
		if c != 0 && ownerOf(c) == p.turn && canLeap(&p.cells, 0, p.turn, kindOf(c), sq) {
			return true
		}
	}
	return false
}

// canLeap reports whether a piece of seat me and the given kind, standing
// on sq (or lifted off it), can capture from there on cells, where blocked
// marks the tree remnants this move has left: gen.chain's test for going
// on.
func canLeap(cells *[64]uint8, blocked uint64, me, kind uint8, sq int) bool {
	switch kind {
	case small, med:
		dirs := smallDirs[me][:]
		if kind == med {
			dirs = medDirs[me][:]
		}
		for _, d := range dirs {
			if rayLen[sq][d] < 2 {
				continue
			}
			over, to := rays[sq][d][0], rays[sq][d][1]
			oc := cells[over]
			if oc == 0 || ownerOf(oc) == me || blocked&(1<<over) != 0 {
				continue
			}
			if tc := cells[to]; tc == 0 || canJoin(me, kind, tc, int(to)) {
				return true
			}
		}
	default:
		for d := 0; d < 8; d++ {
			n := min(int(rayLen[sq][d]), int(kind))
			ray := &rays[sq][d]
			i := 0
			for i < n && cells[ray[i]] == 0 {
				i++
			}
			if i+1 >= n {
				continue
			}
			over := ray[i]
			if ownerOf(cells[over]) != me && blocked&(1<<over) == 0 && cells[ray[i+1]] == 0 {
				return true
			}
		}
	}
	return false
}

// chainLegal follows the capture m leap by leap as gen.chain would build
// it: each leap captures one enemy piece it may capture, a join ends the
// move, and the move ends only where no further leap is possible.
func (p *Position) chainLegal(m *rules.Move, from int, kind uint8) bool {
	me := p.turn
	cells := p.cells
	cells[from] = 0 // the moving piece is off the board for the whole move
	var blocked uint64
	sq := from
	n := int(m.N)
	for i := 1; i < n; i++ {
		to := int(m.Path[i])
		d, dist := line(sq, to)
		if d < 0 {
			return false
		}
		ray := &rays[sq][d]
		var over uint8
		switch kind {
		case small, med:
			dirs := smallDirs[me][:]
			if kind == med {
				dirs = medDirs[me][:]
			}
			if dist != 2 || !hasDir(dirs, d) {
				return false
			}
			over = ray[0]
			oc := cells[over]
			if oc == 0 || ownerOf(oc) == me || blocked&(1<<over) != 0 {
				return false
			}
			if tc := cells[to]; tc != 0 {
				// Joining its own king ends the move, unpromoted.
				return i == n-1 && m.Arg == 0 && canJoin(me, kind, tc, to)
			}
		default:
			if dist > int(kind) {
				return false
			}
			j := 0
			for j < dist-1 && cells[ray[j]] == 0 {
				j++
			}
			if j >= dist-1 {
				return false // nothing to capture before the landing square
			}
			over = ray[j]
			oc := cells[over]
			if ownerOf(oc) == me || blocked&(1<<over) != 0 {
				return false
			}
			for k := j + 1; k < dist; k++ {
				if cells[ray[k]] != 0 {
					return false
				}
			}
		}
		oc := cells[over]
		if rest := afterCapture[kindOf(oc)]; rest == 0 {
			cells[over] = 0
		} else {
			cells[over] = cell(ownerOf(oc), rest)
			blocked |= 1 << over
		}
		sq = to
	}
	if canLeap(&cells, blocked, me, kind, sq) {
		return false // the capture must go on
	}
	if m.Arg == 1 {
		return kind <= med && p.reserve[me-1] > 0 && sq/8 == farRank[me]
	}
	return true
}

// hasMove reports whether the side to move has a legal move: a piece that
// can step (gen.steps and stepTo) or one that can capture. Capturing is
// compulsory, so a step is legal only when nothing can capture, but
// either means there is a move.
func (p *Position) hasMove() bool {
	me := p.turn
	own := p.occ[me-1]
	// Steps first: nearly always the first piece has one, and a step is
	// cheaper to find than a leap.
	for b := own; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		kind := kindOf(p.cells[sq])
		switch kind {
		case small:
			for _, d := range smallDirs[me] {
				if rayLen[sq][d] >= 1 && p.canLand(kind, rays[sq][d][0]) {
					return true
				}
			}
		case med:
			for _, d := range medDirs[me] {
				if rayLen[sq][d] >= 2 && p.cells[rays[sq][d][0]] == 0 && p.canLand(kind, rays[sq][d][1]) {
					return true
				}
			}
		default:
			for d := 0; d < 8; d++ {
				if rayLen[sq][d] >= 1 && p.cells[rays[sq][d][0]] == 0 {
					return true
				}
			}
		}
	}
	for b := own; b != 0; b &= b - 1 {
		sq := bits.TrailingZeros64(b)
		if canLeap(&p.cells, 0, me, kindOf(p.cells[sq]), sq) {
			return true
		}
	}
	return false
}

// canLand reports whether a small or medium of the side to move may end a
// step on to: empty, or its own king there to join.
func (p *Position) canLand(kind, to uint8) bool {
	c := p.cells[to]
	return c == 0 || canJoin(p.turn, kind, c, int(to))
}
