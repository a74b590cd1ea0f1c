// Package icefrogs implements IceFrogs (Jason Spears, Erik Oosterwal) for
// two or three players, as shared/RULES.md section 4 settles it: pieces
// enter from each player's supply of 5 small, 5 medium and 5 large onto
// the player's start space and move at once, step onto empty cells or
// pieces the same size or larger, hop in chains over pieces the same size
// or smaller, and win by ending a move on an opponent's start space.
//
// # Boards
//
// Options.Board is "star" (the default, also for "") or "hex". Both have
// 37 cells named by row (a from the bottom) and number in the row (1 from
// the left). The star has rows a..i of 1, 2, 7, 6, 5, 6, 7, 2, 1 cells
// and start spaces a1, i1 (2 seats) or a1, g1, g7 (3 seats); the hexagon
// of side 4 has rows a..g of 4, 5, 6, 7, 6, 5, 4 cells and start spaces
// a1, g4 (2 seats) or a1, g1, d7 (3 seats). The boards are a table of rows
// (geometry.go); neighbours and lines are computed from it.
//
// # Moves
//
// A Move is a board move (Kind Step, Path the cells visited from the
// piece's cell to where it ends), an entry (Kind Enter, Size the piece
// taken from the supply, Path[0] the mover's start space, then the cells
// visited as for a board move), or a pass (Kind Pass, no path). Tokens are
// d2-d3, c3-e3-e5, M@a1-b1, L@a1-c3-c5 and pass; ParseMove takes them in
// any case. Moves lists the board moves by the cell the piece stands on,
// then the entries by size (small, medium, large); each piece's moves
// come in the order a depth-first search finds them (steps first, then
// hop chains, directions counter-clockwise from east).
//
// # Position code
//
//	IceFrogs <board> <seats> <cells> <supplies> <to move>
//
// board: star or hex; seats: 2 or 3; cells: the rows from a (bottom) up,
// joined by '/', each cell from the left as '.' when empty, a piece as its
// seat and size ("1S"), or a stack of several in parentheses, top piece
// first ("(2M1S)": seat 2's medium on seat 1's small); supplies: each
// seat's supply as three digits small, medium, large, joined by '/'; to
// move: the seat, or - when the game is over (the winner is then the
// owner of the piece on an opponent's start space, or nobody when no
// player can move). The star's start is
//
//	IceFrogs star 2 ./../......./....../...../....../......./../. 555/555 1
//
// A code must account for every piece: each seat has 5 of each size on
// the board and in its supply together.
//
// # Settled points
//
// Where RULES.md is silent this package decides, and says so here:
//   - Whether anyone can move is checked after every turn: when the seat
//     to move has no legal turn but another seat has, its only move is
//     pass; when no seat has one, the game ends at once as a draw (code
//     "-" with no winner). That draw cannot actually happen: a small on
//     top of a stack or alone can always step to a neighbour (it lands on
//     anything), and more generally the smallest top piece on the board
//     can step onto any neighbour but its owner's start space; with no
//     piece on the board, entering a piece is possible. The rule is
//     implemented anyway.
//   - While a game is going on every start space is empty (a piece may
//     not end on its own start space, and ending on another's ends the
//     game), so a position code of a game going on with a piece on a start
//     space is refused. An entering piece is therefore always put on an
//     empty start space.
//   - The moving piece is lifted off the board for the whole move; the
//     cell it started from shows the piece beneath. (A hop chain can
//     never hop over its own start cell: hops keep the piece on cells two
//     lines apart, never next to where it began.)
//   - A hop may land on the mover's own start space and go on from there
//     (hop again or step onto a piece); only ending there is forbidden.
//   - Position codes do not check that stacks could have been built (a
//     larger piece on a smaller one); play never builds them.
//
// # For the engine
//
// IceFrogs keeps no score, so the engine's playouts would draw their
// moves blind. Two methods of the Mutable (*Position) tell them more:
// Progress, how near a seat's pieces stand to an opponent's start space,
// which the playouts weigh a move by where other games weigh points, and
// FirstWin, the first of the legal moves that ends on an opponent's
// start space, so that a playout finds a winning move among all of them
// without playing each (docs/engine.md has what they gained).
//
// Nothing is ever captured, so a game could in principle go on for ever
// with pieces shuffling about; RULES.md has no rule against it and this
// package invents none. Random games end quickly all the same (a piece
// soon reaches an opponent's start space): in thousands of random games
// per board and seat count the longest took under 900 plies.
package icefrogs

import (
	"encoding/binary"
	"fmt"

	"icepost/rules"
)

// Move kinds.
const (
	Step  = 1 // a board move: a step, or a chain of hops
	Enter = 2 // a piece from the supply, put on the start space and moved
	Pass  = 3 // no legal turn
)

// maxPieces is the number of pieces in a 3-seat game. Piece p belongs to
// seat p/15+1 and has size (p%15)/5+1.
const maxPieces = 45

type game struct{}

// Game is IceFrogs.
var Game rules.Game = game{}

func (game) Name() string { return "IceFrogs" }

// Info describes IceFrogs: two or three seats, a choice of board, steps,
// hop chains, entries and pass.
func (game) Info() rules.Info { return info }

var info = rules.Info{
	Aliases: []string{"Ice Frogs"},
	Seats:   []int{2, 3},
	Options: []rules.Option{{Name: rules.OptionBoard, Choices: []string{"star", "hex"}, Default: "star", Help: "the board"}},
	Summary: `IceFrogs (2-3 players, a star or hex board of 37 cells): move one of your
pieces that is on top, or enter one from your supply at your start space
and move it at once (M@a1-b1). Step to a neighbour, or hop over pieces no
larger than yours (c3-e3-e5). End a move on an opponent's start space to
win; "pass" only when you cannot move.
`,
	Token: rules.TokenShape{DropMove: true, Squares: 16, Pass: true}.Read,
}

func (game) Start(o rules.Options) (rules.State, error) {
	p, err := Start(o)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Start returns the position before the first move: an empty board, full
// supplies, seat 1 to move.
func Start(o rules.Options) (Position, error) {
	seats, err := rules.CheckSeats("IceFrogs", o, 2, 3)
	if err != nil {
		return Position{}, err
	}
	if o.Target != 0 {
		return Position{}, fmt.Errorf("%w: IceFrogs has no target score", rules.ErrOptions)
	}
	b, ok := boardIndex(o.Board)
	if !ok {
		return Position{}, fmt.Errorf("%w: IceFrogs is played on the star or hex board, not %q", rules.ErrOptions, o.Board)
	}
	p := Position{board: b, seats: uint8(seats), toMove: 1}
	for s := range seats {
		p.supply[s] = [3]uint8{5, 5, 5}
	}
	p.countBehind()
	return p, nil
}

func boardIndex(name string) (uint8, bool) {
	switch name {
	case "", "star":
		return 0, true
	case "hex":
		return 1, true
	}
	return 0, false
}

// Position is an IceFrogs position. It is a plain value: copies are
// independent. Stacks are linked lists through fixed arrays: each cell
// knows its top piece and each piece the one beneath it.
type Position struct {
	top    [maxCells]uint8  // top piece + 1, 0 when empty
	below  [maxPieces]uint8 // the piece beneath + 1, 0 when none
	supply [3][3]uint8      // supply[seat-1][size-1]
	board  uint8            // 0 star, 1 hex
	seats  uint8
	toMove uint8 // 1..seats, 0 when the game is over
	winner uint8 // when over: the winning seat, 0 for a draw
	// behind[seat-1] is minus seat's Progress, kept as pieces move: the
	// engine's playouts ask for it at every move they weigh.
	behind [3]uint8
}

var (
	_ rules.State          = Position{}
	_ rules.MutableMaker   = Position{}
	_ rules.Node[Position] = Position{}
	_ rules.CodeAppender   = Position{}
)

func pieceSeat(p uint8) uint8 { return p/15 + 1 }
func pieceSize(p uint8) uint8 { return (p%15)/5 + 1 }

// topSize and topSeat are pieceSize and pieceSeat as tables indexed by a
// cell's top (piece + 1), 0 for an empty cell: the move search reads them
// for every cell of every position.
var topSize, topSeat = func() (size, seat [maxPieces + 1]uint8) {
	for p := range uint8(maxPieces) {
		size[p+1], seat[p+1] = pieceSize(p), pieceSeat(p)
	}
	return size, seat
}()

func (p *Position) geo() *geometry { return geos[p.board] }

// sizes returns the size of each cell's top piece, 0 for empty cells.
func (p *Position) sizes() (ts [maxCells]uint8) {
	for c, t := range p.top {
		ts[c] = topSize[t]
	}
	return ts
}

// gen searches the moves of one piece. In any mode it stops at the first
// move found.
type gen struct {
	g     *geometry
	ts    [maxCells]uint8 // top sizes with the moving piece lifted off
	own   uint8           // the mover's start space
	size  uint8           // the moving piece's size
	any   bool
	found bool
	m     rules.Move // the move being built; Path past N is kept zero
	head  uint64     // m.Path[:8] as one word
	buf   []rules.Move
}

func (gn *gen) emit() {
	if gn.any {
		gn.found = true
		return
	}
	// The move is written where it belongs in buf, its first eight
	// cells from head (one word), and not copied from gn.m, whose cells
	// were just written a byte at a time: a wide read of narrow writes
	// still in flight waits for them (a profile put 60% of a perft in
	// the copy). Nor is it built in a local and then appended: that
	// copy, too, would read it just after writing it.
	gn.buf = append(gn.buf, rules.Move{})
	m := &gn.buf[len(gn.buf)-1]
	m.Kind, m.Size, m.N = gn.m.Kind, gn.m.Size, gn.m.N
	binary.LittleEndian.PutUint64(m.Path[:8], gn.head)
	for i := 8; i < int(gn.m.N); i++ {
		m.Path[i] = gn.m.Path[i]
	}
}

func (gn *gen) push(c uint8) {
	if gn.m.N < 8 {
		gn.head |= uint64(c) << (8 * gn.m.N)
	}
	gn.m.Path[gn.m.N] = c
	gn.m.N++
}

func (gn *gen) pop() {
	gn.m.N--
	gn.m.Path[gn.m.N] = 0
	if gn.m.N < 8 {
		gn.head &^= 0xff << (8 * gn.m.N)
	}
}

// from finds the moves of the lifted piece from c0: single steps, then
// hop chains.
func (gn *gen) from(c0 uint8) {
	gn.push(c0)
	for _, n := range gn.g.nb[c0] {
		if n == none || n == gn.own {
			continue
		}
		if t := gn.ts[n]; t == 0 || t >= gn.size {
			if gn.any {
				gn.found = true
				break
			}
			// A step is the whole move: written in place, not copied
			// from the move being built byte by byte.
			gn.buf = append(gn.buf, rules.Move{})
			m := &gn.buf[len(gn.buf)-1]
			m.Kind, m.Size, m.N = gn.m.Kind, gn.m.Size, 2
			m.Path[0], m.Path[1] = c0, n
		}
	}
	if !gn.found {
		gn.hops(c0, 1<<c0)
	}
	gn.pop()
}

// hops extends a chain that stands on the empty cell cur, having landed on
// (or started from) the cells in visited.
func (gn *gen) hops(cur uint8, visited uint64) {
	g := gn.g
	for d, over := range g.nb[cur] {
		if over == none {
			continue
		}
		if t := gn.ts[over]; t == 0 || t > gn.size {
			continue
		}
		land := g.nb[over][d]
		if land == none || visited&(1<<land) != 0 {
			continue
		}
		lt := gn.ts[land]
		if lt != 0 && lt < gn.size {
			continue
		}
		gn.push(land)
		if land != gn.own {
			gn.emit()
		}
		if lt == 0 && !gn.found {
			v := visited | 1<<land
			gn.hops(land, v)
			for _, n := range g.nb[land] {
				if gn.found {
					break
				}
				if n == none || v&(1<<n) != 0 || n == gn.own || gn.ts[n] < gn.size {
					continue
				}
				gn.push(n)
				gn.emit()
				gn.pop()
			}
		}
		gn.pop()
		if gn.found {
			return
		}
	}
}

// search runs the move search for seat: board moves by cell, then entries
// by size.
func (p *Position) search(gn *gen, seat uint8) {
	gn.g = p.geo()
	gn.ts = p.sizes()
	gn.own = gn.g.start(int(p.seats), int(seat))
	for c, t := range p.top {
		if topSeat[t] != seat {
			continue
		}
		piece := t - 1
		old := gn.ts[c]
		gn.ts[c] = topSize[p.below[piece]]
		gn.size = pieceSize(piece)
		gn.m = rules.Move{Kind: Step}
		gn.from(uint8(c))
		gn.ts[c] = old
		if gn.found {
			return
		}
	}
	for s := range uint8(3) {
		if p.supply[seat-1][s] == 0 {
			continue
		}
		gn.size = s + 1
		gn.m = rules.Move{Kind: Enter, Size: s + 1}
		gn.from(gn.own)
		if gn.found {
			return
		}
	}
}

// canMove reports whether seat has a legal turn other than passing.
func (p *Position) canMove(seat uint8) bool {
	// A small from the supply can always move: it enters on its empty
	// start space and steps onto any neighbour but that one, empty or
	// not (every piece is the same size or larger). Asked after every
	// turn, this spares most of them a search.
	if p.supply[seat-1][0] > 0 {
		return true
	}
	var gn gen
	gn.any = true
	p.search(&gn, seat)
	return gn.found
}

// AppendMoves appends the legal moves to buf (see the package comment for
// their order).
func (p Position) AppendMoves(buf []rules.Move) []rules.Move {
	if p.toMove == 0 {
		return buf
	}
	var gn gen
	n := len(buf)
	gn.buf = buf
	p.search(&gn, p.toMove)
	buf = gn.buf
	if len(buf) == n {
		buf = append(buf, rules.Move{Kind: Pass})
	}
	return buf
}

// Apply returns the position after m, which must be legal here (it is not
// checked).
func (p Position) Apply(m rules.Move) Position {
	p.play(m)
	return p
}

// play plays m, a legal move, in place: Apply and PlayLegal.
func (p *Position) play(m rules.Move) {
	seat := p.toMove
	if m.Kind != Pass {
		var piece uint8
		c0 := m.Path[0]
		g := p.geo()
		away := &g.away[p.seats-2][seat-1]
		was := away[c0]
		if m.Kind == Enter {
			left := &p.supply[seat-1][m.Size-1]
			piece = (seat-1)*15 + (m.Size-1)*5 + 5 - *left
			*left--
			was++ // from the supply, a step behind the start space
		} else {
			piece = p.top[c0] - 1
			p.top[c0] = p.below[piece]
		}
		dest := m.Path[m.N-1]
		p.below[piece] = p.top[dest]
		p.top[dest] = piece + 1
		p.behind[seat-1] += away[dest] - was
		if g.goals[p.seats-2][seat-1]>>dest&1 != 0 {
			p.toMove, p.winner = 0, seat
			return
		}
	}
	next := seat%p.seats + 1
	p.toMove = next
	if !p.canMove(next) {
		for s := range p.seats {
			if s+1 != next && p.canMove(s+1) {
				return
			}
		}
		p.toMove, p.winner = 0, 0
	}
}

// Perft counts the leaf nodes depth plies below p.
func (p Position) Perft(depth int) uint64 { return rules.Perft(p, depth) }

// Game returns IceFrogs.
func (p Position) Game() rules.Game { return Game }

// Options returns the seats and the board.
func (p Position) Options() rules.Options {
	return rules.Options{Seats: int(p.seats), Board: p.geo().name}
}

// ToMove returns the seat to move, 0 when the game is over.
func (p Position) ToMove() int { return int(p.toMove) }

// Moves appends the legal moves to buf[:0].
func (p Position) Moves(buf []rules.Move) []rules.Move { return p.AppendMoves(buf[:0]) }

// Play returns the position after m, or an error when m is not legal here.
func (p Position) Play(m rules.Move) (rules.State, error) {
	if p.toMove == 0 {
		return nil, &rules.MoveError{Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	if why := p.check(m); why != "" {
		return nil, rules.Illegal(p.FormatMove(m), "%s", why)
	}
	return p.Apply(m), nil
}

// Outcome tells whether the game is over and who won.
func (p Position) Outcome() rules.Outcome {
	if p.toMove != 0 {
		return rules.Outcome{}
	}
	return rules.Outcome{Over: true, Winner: int(p.winner)}
}

// Scores returns nil: IceFrogs has no scores.
func (p Position) Scores() []int { return nil }

// ApplyLegal plays m, which ParseMove or Moves returned for this position,
// without checking it again (see rules.LegalApplier).
func (p Position) ApplyLegal(m rules.Move) rules.State { return p.Apply(m) }

// NewMutable returns a copy of p that plays in place (see rules.Mutable).
func (p Position) NewMutable() rules.Mutable { return &p }

// PlayLegal plays m, a legal move, in place.
func (p *Position) PlayLegal(m rules.Move) { p.play(m) }

// Set makes p a copy of src, a *Position.
func (p *Position) Set(src rules.Mutable) { *p = *src.(*Position) }

// Copy returns p as a value.
func (p *Position) Copy() rules.State { return *p }

// Score returns seat's score without allocating.
func (p *Position) Score(int) int { return 0 }

// FirstWin returns the index in moves, legal moves here, of the first
// that wins at once (that ends on an opponent's start space), or -1 when
// none does.
func (p *Position) FirstWin(moves []rules.Move) int {
	if p.toMove == 0 {
		return -1
	}
	goals := p.geo().goals[p.seats-2][p.toMove-1]
	for i := range moves {
		m := &moves[i]
		if m.N > 0 && goals>>m.Path[m.N-1]&1 != 0 { // a pass has no path
			return i
		}
	}
	return -1
}

// Progress tells how far seat's pieces have come: minus the sum, over
// its 15 pieces, of each one's distance in steps from the nearest
// opponent's start space (a piece in the supply counts one step behind
// its start space). IceFrogs keeps no score; this is what the engine's
// playouts weigh a move by instead, so that they race as players do.
func (p *Position) Progress(seat int) int { return -int(p.behind[seat-1]) }

// countBehind sets behind from the pieces where they stand (15 pieces at
// most one step more than a board's longest distance behind: it fits a
// byte, which build checks).
func (p *Position) countBehind() {
	g := p.geo()
	for s := range p.seats {
		away := &g.away[p.seats-2][s]
		sum := 0
		for c, t := range p.top {
			for t != 0 {
				if topSeat[t] == s+1 {
					sum += int(away[c])
				}
				t = p.below[t-1]
			}
		}
		left := p.supply[s]
		sum += int(left[0]+left[1]+left[2]) * (int(away[g.start(int(p.seats), int(s+1))]) + 1)
		p.behind[s] = uint8(sum)
	}
}
