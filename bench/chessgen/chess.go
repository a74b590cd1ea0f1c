package main

// A small legal-move chess generator: a 64-square mailbox, pseudo-legal
// moves filtered by "is my king attacked after the move", and SAN with
// disambiguation, captures, castling, en passant, promotion, check and
// mate. It is written for this benchmark's corpus, not for speed or play.

// Pieces; white positive, black negative.
const (
	empty  = 0
	pawn   = 1
	knight = 2
	bishop = 3
	rook   = 4
	queen  = 5
	king   = 6
)

// Castling rights.
const (
	castleWK = 1 << iota
	castleWQ
	castleBK
	castleBQ
)

// Move flags.
const (
	flagCastle = 1 << iota
	flagEP
	flagDouble
)

type move struct {
	from, to int8
	promo    int8 // piece kind, 0 for none
	flags    uint8
}

type position struct {
	b      [64]int8 // a1 = 0, b1 = 1, ..., h8 = 63
	white  bool     // white to move
	castle uint8
	ep     int8 // en passant target square, -1 when none
	half   int  // plies since the last capture or pawn move
	kings  [2]int8
}

func sq(file, rank int) int8 { return int8(rank*8 + file) }

func fileOf(s int8) int { return int(s) & 7 }
func rankOf(s int8) int { return int(s) >> 3 }

func startPosition() position {
	var p position
	back := [8]int8{rook, knight, bishop, queen, king, bishop, knight, rook}
	for f := range 8 {
		p.b[sq(f, 0)] = back[f]
		p.b[sq(f, 1)] = pawn
		p.b[sq(f, 6)] = -pawn
		p.b[sq(f, 7)] = -back[f]
	}
	p.white = true
	p.castle = castleWK | castleWQ | castleBK | castleBQ
	p.ep = -1
	p.kings = [2]int8{sq(4, 0), sq(4, 7)}
	return p
}

var (
	knightSteps = [8][2]int{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}
	kingSteps   = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}
	rookDirs    = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	bishopDirs  = [4][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
	queenDirs   = [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}}
)

func onBoard(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// own reports whether piece pc belongs to the side white.
func own(pc int8, white bool) bool {
	if white {
		return pc > 0
	}
	return pc < 0
}

// attacked reports whether square s is attacked by the side byWhite.
func (p *position) attacked(s int8, byWhite bool) bool {
	f, r := fileOf(s), rankOf(s)
	sign := int8(1)
	if !byWhite {
		sign = -1
	}
	// Pawns attack diagonally forward: a white pawn on (f±1, r-1).
	pr := r - 1
	if !byWhite {
		pr = r + 1
	}
	for _, df := range [2]int{-1, 1} {
		if onBoard(f+df, pr) && p.b[sq(f+df, pr)] == sign*pawn {
			return true
		}
	}
	for _, d := range knightSteps {
		if onBoard(f+d[0], r+d[1]) && p.b[sq(f+d[0], r+d[1])] == sign*knight {
			return true
		}
	}
	for _, d := range kingSteps {
		if onBoard(f+d[0], r+d[1]) && p.b[sq(f+d[0], r+d[1])] == sign*king {
			return true
		}
	}
	for _, d := range rookDirs {
		for nf, nr := f+d[0], r+d[1]; onBoard(nf, nr); nf, nr = nf+d[0], nr+d[1] {
			pc := p.b[sq(nf, nr)]
			if pc == empty {
				continue
			}
			if pc == sign*rook || pc == sign*queen {
				return true
			}
			break
		}
	}
	for _, d := range bishopDirs {
		for nf, nr := f+d[0], r+d[1]; onBoard(nf, nr); nf, nr = nf+d[0], nr+d[1] {
			pc := p.b[sq(nf, nr)]
			if pc == empty {
				continue
			}
			if pc == sign*bishop || pc == sign*queen {
				return true
			}
			break
		}
	}
	return false
}

func (p *position) inCheck() bool {
	k := p.kings[1]
	if p.white {
		k = p.kings[0]
	}
	return p.attacked(k, !p.white)
}

// pseudo appends the pseudo-legal moves (own king possibly left attacked).
func (p *position) pseudo(buf []move) []move {
	white := p.white
	fwd, startRank, promoRank := 1, 1, 7
	if !white {
		fwd, startRank, promoRank = -1, 6, 0
	}
	addPawn := func(from, to int8, flags uint8) {
		if rankOf(to) == promoRank {
			for _, k := range [4]int8{queen, rook, bishop, knight} {
				buf = append(buf, move{from: from, to: to, promo: k, flags: flags})
			}
			return
		}
		buf = append(buf, move{from: from, to: to, flags: flags})
	}
	for s := int8(0); s < 64; s++ {
		pc := p.b[s]
		if pc == empty || !own(pc, white) {
			continue
		}
		f, r := fileOf(s), rankOf(s)
		kind := pc
		if kind < 0 {
			kind = -kind
		}
		switch kind {
		case pawn:
			if onBoard(f, r+fwd) && p.b[sq(f, r+fwd)] == empty {
				addPawn(s, sq(f, r+fwd), 0)
				if r == startRank && p.b[sq(f, r+2*fwd)] == empty {
					buf = append(buf, move{from: s, to: sq(f, r+2*fwd), flags: flagDouble})
				}
			}
			for _, df := range [2]int{-1, 1} {
				if !onBoard(f+df, r+fwd) {
					continue
				}
				t := sq(f+df, r+fwd)
				if q := p.b[t]; q != empty && !own(q, white) {
					addPawn(s, t, 0)
				} else if t == p.ep {
					buf = append(buf, move{from: s, to: t, flags: flagEP})
				}
			}
		case knight, king:
			steps := knightSteps
			if kind == king {
				steps = kingSteps
			}
			for _, d := range steps {
				if !onBoard(f+d[0], r+d[1]) {
					continue
				}
				t := sq(f+d[0], r+d[1])
				if q := p.b[t]; q == empty || !own(q, white) {
					buf = append(buf, move{from: s, to: t})
				}
			}
		default:
			var dirs [][2]int
			switch kind {
			case bishop:
				dirs = bishopDirs[:]
			case rook:
				dirs = rookDirs[:]
			default:
				dirs = queenDirs[:]
			}
			for _, d := range dirs {
				for nf, nr := f+d[0], r+d[1]; onBoard(nf, nr); nf, nr = nf+d[0], nr+d[1] {
					t := sq(nf, nr)
					q := p.b[t]
					if q != empty && own(q, white) {
						break
					}
					buf = append(buf, move{from: s, to: t})
					if q != empty {
						break
					}
				}
			}
		}
	}
	// Castling: rights, empty squares between, king not in check and not
	// passing an attacked square.
	rank := 0
	kRight, qRight := uint8(castleWK), uint8(castleWQ)
	if !white {
		rank, kRight, qRight = 7, castleBK, castleBQ
	}
	e := sq(4, rank)
	if p.castle&(kRight|qRight) != 0 && !p.attacked(e, !white) {
		if p.castle&kRight != 0 && p.b[sq(5, rank)] == empty && p.b[sq(6, rank)] == empty &&
			!p.attacked(sq(5, rank), !white) && !p.attacked(sq(6, rank), !white) {
			buf = append(buf, move{from: e, to: sq(6, rank), flags: flagCastle})
		}
		if p.castle&qRight != 0 && p.b[sq(3, rank)] == empty && p.b[sq(2, rank)] == empty && p.b[sq(1, rank)] == empty &&
			!p.attacked(sq(3, rank), !white) && !p.attacked(sq(2, rank), !white) {
			buf = append(buf, move{from: e, to: sq(2, rank), flags: flagCastle})
		}
	}
	return buf
}

// legal appends the legal moves.
func (p *position) legal(buf []move) []move {
	all := p.pseudo(buf)
	out := all[:0]
	for _, m := range all {
		q := p.apply(m)
		// After the move it is the other side's turn: the mover's king
		// must not be attacked by it.
		k := q.kings[0]
		if !p.white {
			k = q.kings[1]
		}
		if !q.attacked(k, q.white) {
			out = append(out, m)
		}
	}
	return out
}

// apply returns the position after m (legal or pseudo-legal).
func (p *position) apply(m move) position {
	q := *p
	pc := q.b[m.from]
	captured := q.b[m.to]
	q.b[m.to] = pc
	q.b[m.from] = empty
	kind := pc
	if kind < 0 {
		kind = -kind
	}
	if m.flags&flagEP != 0 {
		// The captured pawn stands beside the mover, on the from rank.
		q.b[sq(fileOf(m.to), rankOf(m.from))] = empty
		captured = pawn
	}
	if m.promo != 0 {
		if pc > 0 {
			q.b[m.to] = m.promo
		} else {
			q.b[m.to] = -m.promo
		}
	}
	if m.flags&flagCastle != 0 {
		r := rankOf(m.from)
		if fileOf(m.to) == 6 {
			q.b[sq(5, r)], q.b[sq(7, r)] = q.b[sq(7, r)], empty
		} else {
			q.b[sq(3, r)], q.b[sq(0, r)] = q.b[sq(0, r)], empty
		}
	}
	if kind == king {
		if pc > 0 {
			q.kings[0] = m.to
		} else {
			q.kings[1] = m.to
		}
	}
	for _, s := range [2]int8{m.from, m.to} {
		switch s {
		case sq(4, 0):
			q.castle &^= castleWK | castleWQ
		case sq(7, 0):
			q.castle &^= castleWK
		case sq(0, 0):
			q.castle &^= castleWQ
		case sq(4, 7):
			q.castle &^= castleBK | castleBQ
		case sq(7, 7):
			q.castle &^= castleBK
		case sq(0, 7):
			q.castle &^= castleBQ
		}
	}
	q.ep = -1
	if m.flags&flagDouble != 0 {
		q.ep = (m.from + m.to) / 2
	}
	if kind == pawn || captured != empty {
		q.half = 0
	} else {
		q.half++
	}
	q.white = !q.white
	return q
}

func squareName(s int8) string {
	return string([]byte{byte('a' + fileOf(s)), byte('1' + rankOf(s))})
}

const pieceLetters = "  NBRQK"

// san writes m, a legal move of p, in Standard Algebraic Notation; legal is
// p's legal moves (for disambiguation) and replies the opponent's legal
// moves after m (to tell check from mate).
func (p *position) san(m move, legal []move, next *position, replies int) string {
	var b []byte
	pc := p.b[m.from]
	kind := pc
	if kind < 0 {
		kind = -kind
	}
	capture := p.b[m.to] != empty || m.flags&flagEP != 0
	switch {
	case m.flags&flagCastle != 0:
		if fileOf(m.to) == 6 {
			b = append(b, "O-O"...)
		} else {
			b = append(b, "O-O-O"...)
		}
	case kind == pawn:
		if capture {
			b = append(b, byte('a'+fileOf(m.from)), 'x')
		}
		b = append(b, squareName(m.to)...)
		if m.promo != 0 {
			b = append(b, '=', pieceLetters[m.promo])
		}
	default:
		b = append(b, pieceLetters[kind])
		ambiguous, sameFile, sameRank := false, false, false
		for _, o := range legal {
			if o.to != m.to || o.from == m.from || p.b[o.from] != pc {
				continue
			}
			ambiguous = true
			if fileOf(o.from) == fileOf(m.from) {
				sameFile = true
			}
			if rankOf(o.from) == rankOf(m.from) {
				sameRank = true
			}
		}
		if ambiguous {
			switch {
			case !sameFile:
				b = append(b, byte('a'+fileOf(m.from)))
			case !sameRank:
				b = append(b, byte('1'+rankOf(m.from)))
			default:
				b = append(b, squareName(m.from)...)
			}
		}
		if capture {
			b = append(b, 'x')
		}
		b = append(b, squareName(m.to)...)
	}
	if next.inCheck() {
		if replies == 0 {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	return string(b)
}

// insufficient reports a position where neither side can mate: kings
// alone, or kings and one minor piece.
func (p *position) insufficient() bool {
	minors := 0
	for _, pc := range p.b {
		switch pc {
		case empty, king, -king:
		case knight, -knight, bishop, -bishop:
			minors++
		default:
			return false
		}
	}
	return minors <= 1
}
