// Package pikemen implements Pikemen (Jacob Davenport) for 2, 3 or 4
// players, as RULES.md section 2 settles it.
//
// # Board and pieces
//
// The board is 8x8, a1..h8, seen from seat 1's side. Squares are indexed
// 0..63 as rank*8+file (a1 = 0, h1 = 7, a8 = 56). Directions are absolute
// compass directions: N toward rank 8, E toward file h. A piece has an
// owner (seat 1..4), a size (S, M, L) and an orientation: N, NE, E, SE, S,
// SW, W, NW (lying down, pointing that way) or U (standing upright).
// Every piece starts upright. Turn order is clockwise: seat 1, 2, 3, (4).
//
// # Moves
//
// A Move has Kind KindReorient, KindCharge or KindCapture; Path holds the
// square of the piece (and, for a charge, the square where it stops); Arg
// is the orientation the piece has after the move (an Orientation). For a
// charge Arg is always the final orientation: keeping the current one and
// setting the same one again are the same move, so every legal move has one
// canonical token:
//
//	h1:NW     reorient the piece on h1 to NW (never to its current one)
//	c6:U      stand the piece on c6 upright
//	g4-e6     charge from g4 to the empty e6, keeping the orientation
//	g4-e6:U   the same charge, ending upright
//	h3xc8     charge from h3 and capture on c8, keeping the orientation
//	h3xc8:S   the same capture, ending pointing S
//
// ParseMove accepts any case, a suffix equal to the current orientation
// (FormatMove leaves it out), and Abstract Play's form with the
// orientation in brackets (h1(NW), g4-e6(U), h3xc8(S)). A "-" on a charge
// that captures, or an "x" on one that does not, is refused with the right
// form named.
//
// # Board
//
// Board draws each cell as seat, size and orientation: "1L NE" is seat 1's
// large lying down and pointing NE (its line of attack), "2M U" is seat 2's
// medium standing upright, "." an empty square. A legend, the scores, the
// seats left without pieces and whose turn it is follow the board.
//
// # Position code
//
//	Pikemen <seats> <target> <board> <scores> <to move>
//
// for example the 2-seat start:
//
//	Pikemen 2 12 L2UL2UL2UM2US2U3/L2UM2UM2US2U4/L2UM2US2U5/M2US2U5S1U/S2U5S1UM1U/5S1UM1UL1U/4S1UM1UM1UL1U/3S1UM1UL1UL1UL1U 0:0 1
//
// The board lists ranks 8 down to 1, separated by "/", each rank from file
// a to h: a digit 1..8 is that many empty squares, a piece is its size
// letter (S, M, L), its seat (1..4) and its orientation (N, NE, E, SE, S,
// SW, W, NW or U). Scores are each seat's points joined by ":". The last
// field is the seat to move, or "-" when the game is over (the outcome
// follows from the board and the scores).
//
// # Decisions where the rules are silent
//
//   - The target may be 1..255; a target that cannot be reached means the
//     game ends only when one player is left with pieces.
//   - Seat 1 moves first ("the tallest player starts" is left to the
//     players' choice of seats).
//   - A position code may hold at most the starting stash of each size for
//     each seat (5, 4 or 3 of each size with 2, 3 or 4 seats). Scores are
//     not checked against the pieces missing, so a Setup may start from any
//     score below the target. Whether the game is over follows from the
//     code: a score at the target, or only one seat with pieces.
//   - A reorient to the piece's current orientation is refused (it would
//     change nothing), while a charge may repeat the current orientation
//     as its suffix: that is the same move as leaving the suffix out.
//   - A player always has a move while they have a piece (a piece can
//     always be reoriented), so no seat is ever stuck and there are no
//     passes.
//   - There is no rule against repeating positions, so a game may go on for
//     ever; records end it by agreement or resignation.
//   - Board(viewer) turns the board 180 degrees for seat 2 in a 2-seat game
//     only; in 3- and 4-seat games every seat sees seat 1's view. The
//     compass letters always mean the same squares (N toward rank 8), so
//     the legend says which way N points on the page.
package pikemen

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"

	"icepost/rules"
)

// Move kinds.
const (
	KindReorient = 1 // turn a piece in place: Path[0], Arg the new orientation
	KindCharge   = 2 // charge to an empty square: Path[0] to Path[1]
	KindCapture  = 3 // charge that captures the enemy on Path[1]
)

// Orientation is where a piece points: one of the eight compass directions
// (lying down) or U (upright).
type Orientation uint8

// Orientations, in the order moves are listed.
const (
	N Orientation = iota
	NE
	E
	SE
	S
	SW
	W
	NW
	U
)

var orientNames = [9]string{"N", "NE", "E", "SE", "S", "SW", "W", "NW", "U"}

func (o Orientation) String() string {
	if o <= U {
		return orientNames[o]
	}
	return "?"
}

// DefaultTarget is the score that wins when the options set none.
const DefaultTarget = 12

// Rules is the type of Game.
type Rules struct{}

// Game is Pikemen.
var Game Rules

// Name returns "Pikemen".
func (Rules) Name() string { return "Pikemen" }

// Info describes Pikemen: two to four seats, a target score, reorients
// and charges.
func (Rules) Info() rules.Info { return info }

var info = rules.Info{
	Seats:   []int{2, 3, 4},
	Options: []rules.Option{{Name: rules.OptionTarget, Default: strconv.Itoa(DefaultTarget), Help: "the score that wins"}},
	Summary: `Pikemen (2-4 players, 8x8): each turn reorient one of your pieces (h1:NW, or
:U to stand it up) or charge a lying piece along its direction (g4-e6, with
an optional new orientation g4-e6:U), capturing the first enemy it meets if
it may (h3xc8). Captured pips score; the first to the target wins.
`,
	Token: rules.TokenShape{Squares: 2, Capture: true, Orient: true}.Read,
}

// Start returns the starting position for 2, 3 or 4 seats with the given
// target (default 12).
func (Rules) Start(o rules.Options) (rules.State, error) {
	p, err := StartPosition(o)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// ParsePosition reads a position code written by Position.Code.
func (Rules) ParsePosition(code string) (rules.State, error) {
	p, err := ParsePosition(code)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// setups lists each seat's pieces by size for 2, 3 and 4 seats.
var setups = map[int][][3]string{
	2: {
		{"h1 g1 f1 h2 h3", "e1 g2 f2 g3 h4", "d1 e2 f3 g4 h5"},
		{"a8 b8 c8 a7 a6", "d8 b7 c7 b6 a5", "e8 d7 c6 b5 a4"},
	},
	3: {
		{"a1 b1 a2 b2", "c1 c2 a3 b3", "d1 d2 c3 d3"},
		{"a8 b8 a7 b7", "c8 c7 a6 b6", "d8 d7 c6 d6"},
		{"g4 h4 g5 h5", "g3 h3 g6 h6", "f3 f4 f5 f6"},
	},
	4: {
		{"a1 b1 a2", "c1 b2 a3", "c2 b3 c3"},
		{"a8 b8 a7", "c8 b7 a6", "c7 b6 c6"},
		{"h8 g8 h7", "f8 g7 h6", "f7 g6 f6"},
		{"h1 g1 h2", "f1 g2 h3", "f2 g3 f3"},
	},
}

// stash is how many pieces of each size a seat has with n seats.
func stash(seats int) int { return 7 - seats }

// Position is a Pikemen position. It is a value: copying it makes an
// independent position.
type Position struct {
	cell   [64]uint8 // owner<<2 | size; 0 when empty
	orient [64]Orientation
	scores [4]uint8
	count  [4]uint8 // pieces on the board per seat
	seats  uint8
	target uint8
	toMove uint8 // 0 when the game is over
	winner uint8 // when over: the winning seat, 0 for a draw
	over   bool
}

func (p *Position) owner(sq int) int { return int(p.cell[sq] >> 2) }
func (p *Position) size(sq int) int  { return int(p.cell[sq] & 3) }

// StartPosition returns the start for the options.
func StartPosition(o rules.Options) (Position, error) {
	seats, err := rules.CheckSeats("Pikemen", o, 2, 3, 4)
	if err != nil {
		return Position{}, err
	}
	if o.Board != "" {
		return Position{}, fmt.Errorf("%w: Pikemen has one board, not %q", rules.ErrOptions, o.Board)
	}
	target := o.Target
	if target == 0 {
		target = DefaultTarget
	}
	if target < 1 || target > 255 {
		return Position{}, fmt.Errorf("%w: the Pikemen target must be 1..255, not %d", rules.ErrOptions, o.Target)
	}
	var p Position
	p.seats = uint8(seats)
	p.target = uint8(target)
	p.toMove = 1
	for i, bySize := range setups[seats] {
		seat := i + 1
		for j, list := range bySize {
			size := rules.Large - j
			for k := 0; k < len(list); k += 3 {
				sq, _ := parseSquare(list[k : k+2])
				p.cell[sq] = uint8(seat<<2 | size)
				p.orient[sq] = U
				p.count[i]++
			}
		}
	}
	return p, nil
}

// rays[sq][d] lists the squares from sq outward in direction d.
var rays, rayLen = makeRays()

func makeRays() (r [64][8][7]uint8, n [64][8]uint8) {
	df := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	dr := [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	for sq := range 64 {
		for d := range 8 {
			f, rk := sq%8+df[d], sq/8+dr[d]
			for f >= 0 && f < 8 && rk >= 0 && rk < 8 {
				r[sq][d][n[sq][d]] = uint8(rk*8 + f)
				n[sq][d]++
				f, rk = f+df[d], rk+dr[d]
			}
		}
	}
	return r, n
}

// capturable reports whether a piece of size size may capture the piece on
// sq (which belongs to someone else).
func (p *Position) capturable(sq, size int) bool {
	return p.orient[sq] != U || p.size(sq) < size
}

func reorient(from int, o Orientation) rules.Move {
	m := rules.Move{Kind: KindReorient, Arg: uint8(o), N: 1}
	m.Path[0] = uint8(from)
	return m
}

func charge(kind uint8, from, to int, o Orientation) rules.Move {
	m := rules.Move{Kind: kind, Arg: uint8(o), N: 2}
	m.Path[0] = uint8(from)
	m.Path[1] = uint8(to)
	return m
}

// AppendMoves appends the legal moves to buf: square by square from a1 to
// h8, for each own piece first its reorients, then its charges from the
// nearest square outward, each with the orientations N..NW, U.
func (p Position) AppendMoves(buf []rules.Move) []rules.Move {
	if p.over {
		return buf
	}
	me := p.toMove
	// A Move is large (44 bytes) and a piece's moves differ only in the
	// orientation and the square reached: they are copied in blocks from
	// templates of the nine orientations, one copy a destination instead
	// of nine appends.
	var reo, chg [9]rules.Move
	for o := range reo {
		reo[o] = reorient(0, Orientation(o))
		chg[o] = charge(KindCharge, 0, 0, Orientation(o))
	}
	for sq := range mine(&p.cell, me) {
		cur := p.orient[sq]
		for o := range reo {
			reo[o].Path[0] = uint8(sq)
		}
		buf = append(buf, reo[:cur]...)
		buf = append(buf, reo[cur+1:]...)
		if cur == U {
			continue
		}
		size := p.size(sq)
		ray := &rays[sq][cur]
		for o := range chg {
			chg[o].Kind = KindCharge
			chg[o].Path[0] = uint8(sq)
		}
		for i := range rayLen[sq][cur] {
			to := ray[i]
			capture := false
			if c := p.cell[to]; c != 0 {
				if c>>2 == me || !p.capturable(int(to), size) {
					break
				}
				capture = true
			}
			for o := range chg {
				chg[o].Path[1] = to
				if capture {
					chg[o].Kind = KindCapture
				}
			}
			buf = append(buf, chg[:]...)
			if capture {
				break
			}
		}
	}
	return buf
}

// mine yields the squares of seat me's pieces, a1 to h8, finding them
// eight cells at a time: a cell is owner<<2 | size, so a cell is me's
// exactly when its top six bits are me, and the bytes where they are
// are found without a branch a cell (SWAR: a zero byte of x is a cell
// that matches).
func mine(cell *[64]uint8, me uint8) func(yield func(int) bool) {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	pat := uint64(me<<2) * 0x0101010101010101
	return func(yield func(int) bool) {
		for w := 0; w < 64; w += 8 {
			x := binary.LittleEndian.Uint64(cell[w:])&0xfcfcfcfcfcfcfcfc ^ pat
			zero := ^((x&lo7 + lo7) | x | lo7) & hi
			for zero != 0 {
				if !yield(w + bits.TrailingZeros64(zero)/8) {
					return
				}
				zero &= zero - 1
			}
		}
	}
}

// Apply plays m, which must be legal, and returns the new position.
func (p Position) Apply(m rules.Move) Position {
	p.play(&m)
	return p
}

// play plays *m, a legal move, in place: Apply and PlayLegal. It takes
// the move by its address: a rules.Move is 44 bytes, and the playouts
// play five moves a ply.
func (p *Position) play(m *rules.Move) {
	from := int(m.Path[0])
	me := int(p.toMove)
	captured := false
	if m.Kind == KindReorient {
		p.orient[from] = Orientation(m.Arg)
	} else {
		to := int(m.Path[1])
		if m.Kind == KindCapture {
			victim := p.owner(to)
			p.count[victim-1]--
			p.scores[me-1] += uint8(p.size(to))
			captured = true
		}
		p.cell[to] = p.cell[from]
		p.orient[to] = Orientation(m.Arg)
		p.cell[from] = 0
		p.orient[from] = 0
	}
	p.settle(me, captured)
}

// settle ends the game or passes the turn after seat me has moved,
// capturing or not: only a capture can leave one seat with pieces (a
// game not over has two at least).
func (p *Position) settle(me int, captured bool) {
	if p.scores[me-1] >= p.target {
		p.over, p.winner, p.toMove = true, uint8(me), 0
		return
	}
	if captured && p.alive() <= 1 {
		p.over, p.toMove = true, 0
		p.winner = p.leader()
		return
	}
	next := me
	for {
		next = next%int(p.seats) + 1
		if p.count[next-1] > 0 {
			break
		}
	}
	p.toMove = uint8(next)
}

// alive counts the seats with pieces on the board.
func (p *Position) alive() int {
	n := 0
	for i := range int(p.seats) {
		if p.count[i] > 0 {
			n++
		}
	}
	return n
}

// leader returns the seat with the highest score, or 0 when it is shared.
func (p *Position) leader() uint8 {
	best, who := -1, uint8(0)
	for i := range int(p.seats) {
		switch s := int(p.scores[i]); {
		case s > best:
			best, who = s, uint8(i+1)
		case s == best:
			who = 0
		}
	}
	return who
}

// legal reports whether m is one of p's legal moves, without listing them.
func (p *Position) legal(m rules.Move) bool {
	if m.N < 1 || m.N > 2 || m.Arg > uint8(U) || m.Path[0] >= 64 {
		return false
	}
	from, o := int(m.Path[0]), Orientation(m.Arg)
	switch m.Kind {
	case KindReorient:
		return m == reorient(from, o) && p.allows(KindReorient, from, 0, o)
	case KindCharge, KindCapture:
		to := int(m.Path[1])
		return m == charge(m.Kind, from, to, o) && p.allows(m.Kind, from, to, o)
	}
	return false
}

// allows reports whether the move of the kind from square from (to square
// to, for a charge) leaving the piece at o is legal in p: the test of the
// board alone, for a move known to be well formed (from and to on the
// board, kind a move kind, o an orientation).
func (p *Position) allows(kind uint8, from, to int, o Orientation) bool {
	if p.over || p.cell[from]>>2 != p.toMove {
		return false
	}
	cur := p.orient[from]
	if kind == KindReorient {
		return o != cur
	}
	if cur == U {
		return false
	}
	ray := &rays[from][cur]
	for i := range rayLen[from][cur] {
		sq := int(ray[i])
		if c := p.cell[sq]; c != 0 {
			return sq == to && kind == KindCapture && c>>2 != p.toMove && p.capturable(sq, p.size(from))
		}
		if sq == to {
			return kind == KindCharge
		}
	}
	return false
}

// Perft counts the leaf nodes depth plies below p.
func (p Position) Perft(depth int) uint64 { return rules.Perft(p, depth) }

// Game returns Game.
func (Position) Game() rules.Game { return Game }

// Options returns the seats and target in force.
func (p Position) Options() rules.Options {
	return rules.Options{Seats: int(p.seats), Target: int(p.target)}
}

// ToMove returns the seat to move, or 0 when the game is over.
func (p Position) ToMove() int { return int(p.toMove) }

// Moves appends the legal moves to buf[:0]. A buffer too small for
// most positions (nil, as the engine's tree passes) is replaced by one
// of the exact size, counted first, instead of growing it by doubling.
func (p Position) Moves(buf []rules.Move) []rules.Move {
	if cap(buf) < 128 {
		if n := p.countMoves(); cap(buf) < n {
			buf = make([]rules.Move, 0, n)
		}
	}
	return p.AppendMoves(buf[:0])
}

// countMoves returns the number of legal moves.
func (p *Position) countMoves() int {
	if p.over {
		return 0
	}
	occ := occupied(&p.cell)
	n := 0
	for sq := range mine(&p.cell, p.toMove) {
		n += int(U)
		if cur := p.orient[sq]; cur != U {
			reach, _ := p.reachIn(occ, sq, cur, p.toMove)
			n += int(U+1) * int(reach)
		}
	}
	return n
}

// Play returns the position after m, or an error if m is not legal here.
func (p Position) Play(m rules.Move) (rules.State, error) {
	if p.over {
		return nil, &rules.MoveError{Token: p.FormatMove(m), Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	if !p.legal(m) {
		return nil, rules.Illegal(p.FormatMove(m), "not a legal move for seat %d here", p.toMove)
	}
	return p.Apply(m), nil
}

// Outcome tells whether the game is over and who won.
func (p Position) Outcome() rules.Outcome {
	return rules.Outcome{Over: p.over, Winner: int(p.winner)}
}

// Scores returns each seat's points.
func (p Position) Scores() []int {
	s := make([]int, p.seats)
	for i := range s {
		s[i] = int(p.scores[i])
	}
	return s
}

// pieceAt returns the owner (0 when empty), size and orientation of the
// piece on square sq (0..63, a1 = 0).
func (p Position) pieceAt(sq int) (owner, size int, o Orientation) {
	return p.owner(sq), p.size(sq), p.orient[sq]
}

// ApplyLegal plays m, which ParseMove or Moves returned for this position,
// without checking it again (see rules.LegalApplier).
func (p Position) ApplyLegal(m rules.Move) rules.State { return p.Apply(m) }

var _ rules.MutableMaker = Position{}

// NewMutable returns a copy of p that plays in place (see rules.Mutable).
func (p Position) NewMutable() rules.Mutable { return &Mutable{Position: p} }

// PlayLegal plays m, a legal move, in place.
func (p *Position) PlayLegal(m rules.Move) { p.play(&m) }

// Set makes p a copy of src, a *Position or a *Mutable.
func (p *Position) Set(src rules.Mutable) {
	if m, ok := src.(*Mutable); ok {
		*p = m.Position
		return
	}
	*p = *src.(*Position)
}

// Copy returns p as a value.
func (p *Position) Copy() rules.State { return *p }

// Score returns seat's score without allocating.
func (p *Position) Score(seat int) int { return int(p.scores[seat-1]) }

// Mutable is the position NewMutable returns: a Position that plays in
// place (rules.Mutable) and can list its moves by index (IndexMoves and
// MoveAt) without writing them all.
//
// The engine's playouts list every legal move of a ply to draw four of
// them, and a rules.Move is 44 bytes: writing a position's 100 to 200
// moves was two thirds of the time of a Pikemen analysis. IndexMoves
// counts each piece's moves instead (its eight reorients, and nine for
// each square its charge reaches) and MoveAt builds the move of an index
// from the counts, the very move Moves lists at that index.
type Mutable struct {
	Position
	n     int               // the moves IndexMoves counted
	pcs   int               // the pieces in ix
	ix    [3 * 5]pieceMoves // the mover's pieces, a1 to h8 (at most 5 of each size)
	ready bool              // ix is for the position as it is now
}

// pieceMoves is what MoveAt needs of one of the mover's pieces.
type pieceMoves struct {
	end     int32 // the index after the piece's last move
	sq      uint8
	reach   uint8 // squares the charge reaches, the captured one included
	capture bool  // the last of them is a capture
}

// PlayLegal plays m, a legal move, in place.
func (m *Mutable) PlayLegal(mv rules.Move) {
	m.ready = false
	m.play(&mv)
}

// Set makes m a copy of src, a *Mutable or a *Position.
func (m *Mutable) Set(src rules.Mutable) {
	m.ready = false
	m.Position.Set(src)
}

// Outcome is Position's, without copying the position (a value
// receiver through the interface would): the playouts ask it at every
// ply and of every move they try.
func (m *Mutable) Outcome() rules.Outcome {
	return rules.Outcome{Over: m.over, Winner: int(m.winner)}
}

// ToMove is Position's, without copying the position.
func (m *Mutable) ToMove() int { return int(m.toMove) }

// IndexMoves returns the number of legal moves, len(Moves(nil)), and
// readies MoveAt for the position as it is now (until it plays or is
// Set).
func (m *Mutable) IndexMoves() int {
	p := &m.Position
	m.n, m.pcs, m.ready = 0, 0, true
	if p.over {
		return 0
	}
	me := p.toMove
	occ := occupied(&p.cell)
	n := 0
	for sq := range mine(&p.cell, me) {
		pm := &m.ix[m.pcs]
		m.pcs++
		pm.sq, pm.reach, pm.capture = uint8(sq), 0, false
		n += int(U) // the reorients: every orientation but the current one
		if cur := p.orient[sq]; cur != U {
			pm.reach, pm.capture = p.reachIn(occ, sq, cur, me)
			n += int(U+1) * int(pm.reach)
		}
		pm.end = int32(n)
	}
	m.n = n
	return n
}

// MoveAt returns the move at index i of Moves's list (0 <= i < the
// number IndexMoves returned), which IndexMoves must have readied.
func (m *Mutable) MoveAt(i int) rules.Move {
	if !m.ready || i < 0 || i >= m.n {
		panic("pikemen: MoveAt without IndexMoves, or out of range")
	}
	k := 0
	for int(m.ix[k].end) <= i {
		k++
	}
	pm := &m.ix[k]
	start := int(pm.end) - int(U) - int(U+1)*int(pm.reach)
	j := i - start
	sq := int(pm.sq)
	cur := m.orient[sq]
	if j < int(U) {
		o := Orientation(j)
		if o >= cur {
			o++
		}
		return reorient(sq, o)
	}
	j -= int(U)
	step, o := j/int(U+1), Orientation(j%int(U+1))
	kind := uint8(KindCharge)
	if pm.capture && step == int(pm.reach)-1 {
		kind = KindCapture
	}
	return charge(kind, sq, int(rays[sq][cur][step]), o)
}

// rayMask[sq][d] has a bit for each square of rays[sq][d]; rayStep[a][b]
// is the index in its ray from a of square b (when b is on one).
var rayMask, rayStep = func() (m [64][8]uint64, st [64][64]uint8) {
	for sq := range 64 {
		for d := range 8 {
			for i := range rayLen[sq][d] {
				to := rays[sq][d][i]
				m[sq][d] |= 1 << to
				st[sq][to] = i
			}
		}
	}
	return m, st
}()

// occupied returns a word with bit sq set for each square with a piece,
// eight cells at a time as mine finds them.
func occupied(cell *[64]uint8) uint64 {
	const lo7, hi = 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	var occ uint64
	for w := 0; w < 64; w += 8 {
		x := binary.LittleEndian.Uint64(cell[w:])
		nz := ((x&lo7 + lo7) | x) & hi // the top bit of each byte not zero
		// Gather the eight top bits into one byte, cell w first.
		occ |= (nz >> 7) * 0x0102040810204080 >> 56 << w
	}
	return occ
}

// reachIn is reach with the board's occupied squares known (occupied):
// the first piece on the ray is found in one step, not square by square.
func (p *Position) reachIn(occ uint64, sq int, cur Orientation, me uint8) (n uint8, capture bool) {
	block := occ & rayMask[sq][cur]
	if block == 0 {
		return rayLen[sq][cur], false
	}
	var first int
	if cur <= E || cur == NW { // toward higher squares: N +8, NE +9, E +1, NW +7
		first = bits.TrailingZeros64(block)
	} else {
		first = 63 - bits.LeadingZeros64(block)
	}
	n = rayStep[sq][first]
	if c := p.cell[first]; c>>2 == me || !p.capturable(first, p.size(sq)) {
		return n, false
	}
	return n + 1, true
}

// reach returns how many squares the charge of the piece on sq, seat
// me's, pointing cur (not U), reaches, and whether the last of them is a
// capture: AppendMoves's walk along the ray, without the moves.
func (p *Position) reach(sq int, cur Orientation, me uint8) (n uint8, capture bool) {
	size := p.size(sq)
	ray := &rays[sq][cur]
	for i := range rayLen[sq][cur] {
		to := ray[i]
		if c := p.cell[to]; c != 0 {
			if c>>2 == me || !p.capturable(int(to), size) {
				return n, false
			}
			return n + 1, true
		}
		n++
	}
	return n, false
}
