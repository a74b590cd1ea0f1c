// Package icesickle implements IceSickle (Dan Isaac) for two players, as
// shared/RULES.md section 1 settles it: a 5x5 board, one neutral stash of
// 5 small, 5 medium and 5 large pyramids, and two rounds of placing all 15
// pieces and then jumping them to capture.
//
// Squares are indexed rank*5 + file from a1 = 0. A Move is either a
// placement (Kind Place, Size, Path[0] the square) or a jump (Kind Jump,
// Path[0] the start, Path[1] the landing square); the pieces passed over
// follow from the two squares.
//
// # Position code
//
//	IceSickle <board> <stash> <scores> <round> <phase> <to move>
//
// board: ranks 5 down to 1 joined by '/', each five characters, '.' for an
// empty square and S, M or L for a piece; stash: the pieces still to place
// as "S5M5L5"; scores: seat 1's and seat 2's captured pips as "0:0";
// round: 1 or 2; phase: place, jump or end; to move: 1, 2, or - when the
// game is over. The start is
//
//	IceSickle ...../...../...../...../..... S5M5L5 0:0 1 place 1
//
// # Settled points
//
// A round ends when the player to move has no jump (pieces are neutral, so
// then neither has), also right after the last placement. The change of
// round is not a move: round 2 starts with seat 2 placing even if seat 2
// made the last jump of round 1. Equal totals after round 2 are a draw.
package icesickle

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"icepost/rules"
)

// Move kinds.
const (
	Place = 1
	Jump  = 2
)

// Phases.
const (
	phasePlace = 0
	phaseJump  = 1
	phaseEnd   = 2
)

const size = 5

type game struct{}

// Game is IceSickle.
var Game rules.Game = game{}

func (game) Name() string { return "IceSickle" }

// Info describes IceSickle: two seats, no options, placements and jumps.
func (game) Info() rules.Info { return info }

var info = rules.Info{
	Aliases: []string{"Ice Sickle"},
	Seats:   []int{2},
	Summary: `IceSickle (2 players, 5x5 board, 15 neutral pieces): place all pieces one at a
time (L@c3), then jump any piece in a line over at most as many squares as
its pips, passing at least one piece (a1xd4); you score the pips you jump.
Two rounds; the higher total wins.
`,
	Token: rules.TokenShape{Drop: true, Squares: 2, Capture: true}.Read,
}

func (game) Start(o rules.Options) (rules.State, error) {
	if _, err := rules.CheckSeats("IceSickle", o, 2); err != nil {
		return nil, err
	}
	if o.Board != "" || o.Target != 0 {
		return nil, fmt.Errorf("%w: IceSickle has no board or target option", rules.ErrOptions)
	}
	return Start(), nil
}

// Start returns the position before the first placement.
func Start() Position {
	return Position{stash: [4]uint8{0, 5, 5, 5}, round: 1}
}

// Position is an IceSickle position. It is a plain value: copies are
// independent.
type Position struct {
	board  [size * size]uint8 // 0 empty, else the piece's size
	stash  [4]uint8           // pieces left to place, by size (index 1..3)
	score  [2]int16
	round  uint8 // 1 or 2
	phase  uint8
	toMove uint8 // 0 for seat 1, 1 for seat 2
}

var dirs = [8][2]int{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}}

func onBoard(f, r int) bool { return f >= 0 && f < size && r >= 0 && r < size }

// AppendMoves appends the legal moves to buf: placements by square then
// size, or jumps by start square, direction and distance.
func (p Position) AppendMoves(buf []rules.Move) []rules.Move {
	switch p.phase {
	case phasePlace:
		// A Move is large (44 bytes): a square's placements are copied
		// from templates of the sizes left in the stash, in one block.
		var tmpl [3]rules.Move
		n := 0
		for s := uint8(rules.Small); s <= rules.Large; s++ {
			if p.stash[s] > 0 {
				tmpl[n] = rules.Move{Kind: Place, Size: s, N: 1}
				n++
			}
		}
		for sq := range p.board {
			if p.board[sq] != 0 {
				continue
			}
			for i := range n {
				tmpl[i].Path[0] = uint8(sq)
			}
			buf = append(buf, tmpl[:n]...)
		}
	case phaseJump:
		m := rules.Move{Kind: Jump, N: 2}
		for from, to := range p.jumps {
			m.Path[0], m.Path[1] = uint8(from), uint8(to)
			buf = append(buf, m)
		}
	}
	return buf
}

// jumps yields every jump as its start and landing squares, by start
// square, direction and distance: a piece passes over 1 to pips squares in
// a line, at least one of them occupied, and lands on the empty square
// just beyond.
func (p *Position) jumps(yield func(from, to int) bool) {
	for sq, pips := range p.board {
		if pips == 0 {
			continue
		}
		f0, r0 := sq%size, sq/size
		for _, d := range dirs {
			passed := false
			for k := 1; k <= int(pips); k++ {
				f, r := f0+d[0]*k, r0+d[1]*k
				lf, lr := f+d[0], r+d[1]
				if !onBoard(lf, lr) {
					break
				}
				if p.board[r*size+f] != 0 {
					passed = true
				}
				if passed && p.board[lr*size+lf] == 0 {
					if !yield(sq, lr*size+lf) {
						return
					}
				}
			}
		}
	}
}

// hasJump reports whether any jump exists.
func (p *Position) hasJump() bool {
	for range p.jumps {
		return true
	}
	return false
}

// Apply plays m, which must be legal, and returns the new position.
func (p Position) Apply(m rules.Move) Position {
	p.play(m)
	return p
}

// play plays m, a legal move, in place: Apply and PlayLegal.
func (p *Position) play(m rules.Move) {
	switch m.Kind {
	case Place:
		p.board[m.Path[0]] = m.Size
		p.stash[m.Size]--
		p.toMove ^= 1
		if p.stash[1]+p.stash[2]+p.stash[3] == 0 {
			p.phase = phaseJump
			// Round 1: seat 2 jumps first; round 2: seat 1.
			p.toMove = 2 - p.round
		}
	case Jump:
		from, to := int(m.Path[0]), int(m.Path[1])
		f0, r0 := from%size, from/size
		f1, r1 := to%size, to/size
		df, dr := sign(f1-f0), sign(r1-r0)
		for f, r := f0+df, r0+dr; f != f1 || r != r1; f, r = f+df, r+dr {
			p.score[p.toMove] += int16(p.board[r*size+f])
			p.board[r*size+f] = 0
		}
		p.board[to] = p.board[from]
		p.board[from] = 0
		p.toMove ^= 1
	}
	if p.phase == phaseJump && !p.hasJump() {
		if p.round == 1 {
			p.board = [size * size]uint8{}
			p.stash = [4]uint8{0, 5, 5, 5}
			p.round = 2
			p.phase = phasePlace
			p.toMove = 1 // seat 2 places first in round 2
		} else {
			p.phase = phaseEnd
		}
	}
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

// Perft counts leaf nodes depth plies below p.
func (p Position) Perft(depth int) uint64 { return rules.Perft(p, depth) }

// Game returns IceSickle.
func (p Position) Game() rules.Game { return Game }

// Options returns the options in force (IceSickle has none but 2 seats).
func (p Position) Options() rules.Options { return rules.Options{Seats: 2} }

// ToMove returns the seat to move, 0 when the game is over.
func (p Position) ToMove() int {
	if p.phase == phaseEnd {
		return 0
	}
	return int(p.toMove) + 1
}

// Moves appends the legal moves to buf[:0].
func (p Position) Moves(buf []rules.Move) []rules.Move { return p.AppendMoves(buf[:0]) }

// Play returns the position after m, or an error when m is not legal here.
func (p Position) Play(m rules.Move) (rules.State, error) {
	if p.phase == phaseEnd {
		return nil, &rules.MoveError{Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	if !rules.IsLegal(p, m) {
		return nil, rules.Illegal(p.FormatMove(m), "not a legal move here")
	}
	return p.Apply(m), nil
}

// Outcome tells whether the game is over and who won on points.
func (p Position) Outcome() rules.Outcome {
	if p.phase != phaseEnd {
		return rules.Outcome{}
	}
	switch {
	case p.score[0] > p.score[1]:
		return rules.Outcome{Over: true, Winner: 1}
	case p.score[1] > p.score[0]:
		return rules.Outcome{Over: true, Winner: 2}
	}
	return rules.Outcome{Over: true}
}

// Scores returns the pips each seat captured, over both rounds.
func (p Position) Scores() []int { return []int{int(p.score[0]), int(p.score[1])} }

func squareName(sq int) string {
	return string([]byte{byte('a' + sq%size), byte('1' + sq/size)})
}

// FormatMove writes m as L@c3 or a1xd4.
func (p Position) FormatMove(m rules.Move) string {
	switch m.Kind {
	case Place:
		if m.N == 1 && m.Path[0] < size*size {
			return rules.SizeLetter(int(m.Size)) + "@" + squareName(int(m.Path[0]))
		}
	case Jump:
		if m.N == 2 && m.Path[0] < size*size && m.Path[1] < size*size {
			return squareName(int(m.Path[0])) + "x" + squareName(int(m.Path[1]))
		}
	}
	return fmt.Sprintf("?%d", m.Kind)
}

func parseSquare(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	f := int(s[0]|0x20) - 'a'
	r := int(s[1]) - '1'
	if !onBoard(f, r) {
		return 0, false
	}
	return r*size + f, true
}

var sizeNames = [4]string{"", "small", "medium", "large"}

// ParseMove reads a placement (L@c3) or a jump (a1xd4, also a1-d4) in any
// case and returns it if it is legal here; otherwise the error says why.
//
// A legal token is decoded and checked against the board directly,
// without generating moves or allocating; only a refused token goes
// through refuse, which finds the reason in words.
func (p Position) ParseMove(tok string) (m rules.Move, err error) {
	switch {
	case len(tok) == 4 && tok[1] == '@' && p.phase == phasePlace:
		sz, ok := rules.ParseSize(tok[0])
		sq, ok2 := squareAt(tok[2:])
		if !ok || !ok2 || p.stash[sz] == 0 || p.board[sq] != 0 {
			break
		}
		m.Kind, m.Size, m.N, m.Path[0] = Place, uint8(sz), 1, uint8(sq)
		return m, nil
	case len(tok) == 5 && (tok[2] == 'x' || tok[2] == 'X' || tok[2] == '-') && p.phase == phaseJump:
		from, ok := squareAt(tok[:2])
		to, ok2 := squareAt(tok[3:])
		if !ok || !ok2 {
			break
		}
		// A piece passes over 1 to pips squares, at least one of them
		// occupied, and lands on the empty square just beyond.
		dist := int(line[from][to])
		if dist < 2 || dist-1 > int(p.board[from]) || p.board[to] != 0 {
			break
		}
		step := (int(to) - int(from)) / dist
		for sq := int(from) + step; sq != int(to); sq += step {
			if p.board[sq] != 0 {
				m.Kind, m.N, m.Path[0], m.Path[1] = Jump, 2, uint8(from), uint8(to)
				return m, nil
			}
		}
	}
	return p.refuse(tok)
}

// line[from][to] is the distance from one square to another along a
// rank, file or diagonal, or 0 when they are not on one line (or equal).
var line = func() (t [size * size][size * size]uint8) {
	for from := range size * size {
		for to := range size * size {
			df, dr := to%size-from%size, to/size-from/size
			if from != to && (df == 0 || dr == 0 || abs(df) == abs(dr)) {
				t[from][to] = uint8(max(abs(df), abs(dr)))
			}
		}
	}
	return t
}()

// squareAt reads a square such as c3 or C3 from s[0:2].
func squareAt(s string) (uint, bool) {
	f, r := uint(s[0]|0x20)-'a', uint(s[1])-'1'
	return r*size + f, f < size && r < size
}

// refuse is ParseMove's slow path, for a token the fast path did not
// accept: it checks the same rules step by step and returns the reason in
// a player's words. If it finds no fault (a bug: the two paths disagree),
// it still refuses, so that only moves the fast path checked are played.
func (p Position) refuse(tok string) (rules.Move, error) {
	if _, err := p.explain(tok); err != nil {
		return rules.Move{}, err
	}
	return rules.Move{}, rules.Illegal(tok, "not a legal move here")
}

// explain checks tok step by step against the rules, with the reason for
// the first one it breaks.
func (p Position) explain(tok string) (rules.Move, error) {
	if p.phase == phaseEnd {
		return rules.Move{}, &rules.MoveError{Token: tok, Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	if len(tok) == 4 && tok[1] == '@' {
		sz, ok := rules.ParseSize(tok[0])
		sq, ok2 := parseSquare(tok[2:])
		if !ok || !ok2 {
			return rules.Move{}, rules.Syntax(tok, "a placement is a size and a square, like L@c3")
		}
		if p.phase != phasePlace {
			return rules.Move{}, rules.Illegal(tok, "all pieces are placed: move by jumping, like a1xc3")
		}
		if p.stash[sz] == 0 {
			return rules.Move{}, rules.Illegal(tok, "no %s pieces are left to place", sizeNames[sz])
		}
		if p.board[sq] != 0 {
			return rules.Move{}, rules.Illegal(tok, "%s is occupied", squareName(sq))
		}
		m := rules.Move{Kind: Place, Size: uint8(sz), N: 1}
		m.Path[0] = uint8(sq)
		return m, nil
	}
	if len(tok) == 5 && (tok[2] == 'x' || tok[2] == 'X' || tok[2] == '-') {
		from, ok := parseSquare(tok[:2])
		to, ok2 := parseSquare(tok[3:])
		if !ok || !ok2 {
			return rules.Move{}, rules.Syntax(tok, "a jump is two squares, like a1xc3")
		}
		return p.checkJump(tok, from, to)
	}
	return rules.Move{}, rules.Syntax(tok, "not an IceSickle move: place with a size and a square (L@c3) or jump with two squares (a1xc3)")
}

func (p Position) checkJump(tok string, from, to int) (rules.Move, error) {
	if p.phase != phaseJump {
		return rules.Move{}, rules.Illegal(tok, "pieces are still being placed (%d left): place one, like L@c3", p.stash[1]+p.stash[2]+p.stash[3])
	}
	pips := int(p.board[from])
	if pips == 0 {
		return rules.Move{}, rules.Illegal(tok, "there is no piece on %s", squareName(from))
	}
	df, dr := to%size-from%size, to/size-from/size
	dist := max(abs(df), abs(dr))
	if from == to || (df != 0 && dr != 0 && abs(df) != abs(dr)) {
		return rules.Move{}, rules.Illegal(tok, "%s to %s is not a straight line", squareName(from), squareName(to))
	}
	if dist-1 > pips || dist < 2 {
		if dist < 2 {
			return rules.Move{}, rules.Illegal(tok, "a jump passes over at least one square: %s is next to %s", squareName(to), squareName(from))
		}
		return rules.Move{}, rules.Illegal(tok, "the %s on %s jumps over at most %d square(s), not %d", sizeNames[pips], squareName(from), pips, dist-1)
	}
	if p.board[to] != 0 {
		return rules.Move{}, rules.Illegal(tok, "the landing square %s is occupied", squareName(to))
	}
	sf, sr := sign(df), sign(dr)
	passed := false
	for i := 1; i < dist; i++ {
		if p.board[(from/size+sr*i)*size+from%size+sf*i] != 0 {
			passed = true
		}
	}
	if !passed {
		return rules.Move{}, rules.Illegal(tok, "a jump must pass over at least one piece; %s to %s passes over none", squareName(from), squareName(to))
	}
	m := rules.Move{Kind: Jump, N: 2}
	m.Path[0], m.Path[1] = uint8(from), uint8(to)
	return m, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Board draws the 5x5 board with coordinates on all sides, then the
// round, stash, scores and whose turn it is. Viewer 2 sees it turned.
func (p Position) Board(viewer int) string {
	var b strings.Builder
	files := []int{0, 1, 2, 3, 4}
	ranks := []int{4, 3, 2, 1, 0}
	if viewer == 2 {
		files = []int{4, 3, 2, 1, 0}
		ranks = []int{0, 1, 2, 3, 4}
	}
	header := "    "
	for _, f := range files {
		header += "  " + string(rune('a'+f)) + " "
	}
	header = strings.TrimRight(header, " ")
	rule := "    +" + strings.Repeat("---+", size)
	b.WriteString(header + "\n" + rule + "\n")
	for _, r := range ranks {
		fmt.Fprintf(&b, "  %d |", r+1)
		for _, f := range files {
			c := " "
			if s := p.board[r*size+f]; s != 0 {
				c = rules.SizeLetter(int(s))
			}
			b.WriteString(" " + c + " |")
		}
		fmt.Fprintf(&b, " %d\n%s\n", r+1, rule)
	}
	b.WriteString(header + "\n\n")
	phase := [3]string{"placing", "jumping", "finished"}[p.phase]
	fmt.Fprintf(&b, "Round %d of 2, %s.\nPieces are neutral: S small (1), M medium (2), L large (3).\n", p.round, phase)
	fmt.Fprintf(&b, "To place: S %d  M %d  L %d\n", p.stash[1], p.stash[2], p.stash[3])
	fmt.Fprintf(&b, "Score: seat 1 %d, seat 2 %d\n", p.score[0], p.score[1])
	switch {
	case p.phase == phaseEnd:
		o := p.Outcome()
		if o.Winner == 0 {
			b.WriteString("Game over: draw\n")
		} else {
			fmt.Fprintf(&b, "Game over: seat %d wins\n", o.Winner)
		}
	case p.phase == phasePlace:
		fmt.Fprintf(&b, "Seat %d to move: place a piece (like L@c3)\n", p.toMove+1)
	default:
		fmt.Fprintf(&b, "Seat %d to move: jump (like a1xc3)\n", p.toMove+1)
	}
	return b.String()
}

// Code returns the position code (see the package comment).
func (p Position) Code() string {
	var buf [80]byte // longer than any code: one allocation, the string
	return string(p.AppendCode(buf[:0]))
}

var phaseNames = [3]string{"place", "jump", "end"}

// AppendCode appends the position code to dst (see rules.CodeAppender):
// the archive hashes the code of every position it stores, without a
// string.
func (p Position) AppendCode(dst []byte) []byte {
	dst = append(dst, "IceSickle "...)
	for r := size - 1; r >= 0; r-- {
		for _, s := range p.board[r*size : r*size+size] {
			dst = append(dst, ".SML"[s])
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	dst = append(dst, " S"...)
	dst = strconv.AppendUint(dst, uint64(p.stash[1]), 10)
	dst = append(dst, 'M')
	dst = strconv.AppendUint(dst, uint64(p.stash[2]), 10)
	dst = append(dst, 'L')
	dst = strconv.AppendUint(dst, uint64(p.stash[3]), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(p.score[0]), 10)
	dst = append(dst, ':')
	dst = strconv.AppendInt(dst, int64(p.score[1]), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, uint64(p.round), 10)
	dst = append(dst, ' ')
	dst = append(dst, phaseNames[p.phase]...)
	if p.phase == phaseEnd {
		return append(dst, " -"...)
	}
	return append(dst, ' ', '1'+p.toMove)
}

// AppendKey writes the position's key (rules.KeyAppender): the board,
// the stash, the scores, the round, the phase and the seat to move (none
// once the game is over), as bytes.
func (p Position) AppendKey(dst []byte) []byte {
	dst = append(dst, "IceSickle\x00"...)
	dst = append(dst, p.board[:]...)
	dst = append(dst, p.stash[1], p.stash[2], p.stash[3])
	dst = binary.LittleEndian.AppendUint16(dst, uint16(p.score[0]))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(p.score[1]))
	dst = append(dst, p.round, p.phase)
	if p.phase == phaseEnd {
		return dst
	}
	return append(dst, p.toMove)
}

func (game) ParsePosition(code string) (rules.State, error) {
	p, err := ParsePosition(code)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func posErr(format string, args ...any) error {
	return fmt.Errorf("%w: IceSickle: %s", rules.ErrPosition, fmt.Sprintf(format, args...))
}

// ParsePosition reads a position code written by Code.
func ParsePosition(code string) (Position, error) {
	var p Position
	f := strings.Fields(code)
	if len(f) != 7 || !strings.EqualFold(f[0], "IceSickle") {
		return p, posErr("want 7 fields: IceSickle board stash scores round phase to-move, got %q", code)
	}
	rows := strings.Split(f[1], "/")
	if len(rows) != size {
		return p, posErr("the board needs 5 ranks joined by '/', got %q", f[1])
	}
	for i, row := range rows {
		if len(row) != size {
			return p, posErr("rank %d has %d squares, want 5", size-i, len(row))
		}
		for j := 0; j < size; j++ {
			if row[j] == '.' {
				continue
			}
			s, ok := rules.ParseSize(row[j])
			if !ok {
				return p, posErr("rank %d: %q is not '.', S, M or L", size-i, row[j])
			}
			p.board[(size-1-i)*size+j] = uint8(s)
		}
	}
	st := f[2]
	if len(st) != 6 || (st[0]|0x20) != 's' || (st[2]|0x20) != 'm' || (st[4]|0x20) != 'l' {
		return p, posErr("the stash is written S5M5L5, got %q", st)
	}
	for i := 0; i < 3; i++ {
		n := int(st[2*i+1]) - '0'
		if n < 0 || n > 5 {
			return p, posErr("the stash holds 0 to 5 of each size, got %q", st)
		}
		p.stash[i+1] = uint8(n)
	}
	a, b, ok := strings.Cut(f[3], ":")
	s1, err1 := strconv.Atoi(a)
	s2, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || s1 < 0 || s2 < 0 || s1+s2 > 60 {
		return p, posErr("scores are written 3:5 (at most 60 in all), got %q", f[3])
	}
	p.score = [2]int16{int16(s1), int16(s2)}
	switch f[4] {
	case "1", "2":
		p.round = f[4][0] - '0'
	default:
		return p, posErr("the round is 1 or 2, got %q", f[4])
	}
	left := p.stash[1] + p.stash[2] + p.stash[3]
	switch f[5] {
	case "place":
		p.phase = phasePlace
		if left == 0 {
			return p, posErr("phase place with no pieces left to place")
		}
	case "jump":
		p.phase = phaseJump
		if left != 0 {
			return p, posErr("phase jump with %d pieces still to place", left)
		}
		if !p.hasJump() {
			return p, posErr("phase jump but no jump is possible (the round would be over)")
		}
	case "end":
		p.phase = phaseEnd
		if p.round != 2 {
			return p, posErr("the game ends only after round 2")
		}
	default:
		return p, posErr("the phase is place, jump or end, got %q", f[5])
	}
	switch {
	case f[6] == "-" && p.phase == phaseEnd:
	case (f[6] == "1" || f[6] == "2") && p.phase != phaseEnd:
		p.toMove = f[6][0] - '1'
	default:
		return p, posErr("to move is 1 or 2 (or - when the game is over), got %q", f[6])
	}
	return p, nil
}

// ApplyLegal plays m, which ParseMove or Moves returned for this position,
// without checking it again (see rules.LegalApplier).
func (p Position) ApplyLegal(m rules.Move) rules.State { return p.Apply(m) }

var _ rules.MutableMaker = Position{}

// NewMutable returns a copy of p that plays in place (see rules.Mutable).
func (p Position) NewMutable() rules.Mutable { return &p }

// PlayLegal plays m, a legal move, in place.
func (p *Position) PlayLegal(m rules.Move) { p.play(m) }

// Set makes p a copy of src, a *Position.
func (p *Position) Set(src rules.Mutable) { *p = *src.(*Position) }

// Copy returns p as a value.
func (p *Position) Copy() rules.State { return *p }

// Score returns seat's score without allocating.
func (p *Position) Score(seat int) int { return int(p.score[seat-1]) }
