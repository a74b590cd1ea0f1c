package icefrogs

import (
	"fmt"
	"strings"

	"icepost/rules"
)

// stack returns the pieces on cell c, top first, as "2M1S" (no
// parentheses).
func (p *Position) stack(c uint8) string {
	var buf [2 * maxPieces]byte
	return string(p.appendStack(buf[:0], c))
}

// appendStack appends the pieces on cell c, top first, as "2M1S".
func (p *Position) appendStack(dst []byte, c uint8) []byte {
	for t := p.top[c]; t != 0; t = p.below[t-1] {
		dst = append(dst, '0'+pieceSeat(t-1), sizeLetters[pieceSize(t-1)])
	}
	return dst
}

// sizeLetters are rules.SizeLetter's letters as bytes, by size.
const sizeLetters = "?SML"

func (p *Position) height(c uint8) int {
	n := 0
	for t := p.top[c]; t != 0; t = p.below[t-1] {
		n++
	}
	return n
}

// codeLen is room for most position codes: the prefix, 37 cells, 45
// pieces with some stacks' parentheses, three supplies and the seat.
const codeLen = 192

// Code returns the position code (see the package comment).
func (p Position) Code() string {
	var buf [codeLen]byte // one allocation, the string: the archive codes every position it stores
	return string(p.AppendCode(buf[:0]))
}

// AppendCode appends the position code to dst (see rules.CodeAppender);
// it allocates nothing when dst has room.
func (p Position) AppendCode(dst []byte) []byte {
	g := p.geo()
	dst = append(dst, "IceFrogs "...)
	dst = append(dst, g.name...)
	dst = append(dst, ' ', '0'+p.seats, ' ')
	for r := range g.rows {
		if r > 0 {
			dst = append(dst, '/')
		}
		for c := g.rowFirst[r]; c < g.rowFirst[r+1]; c++ {
			t := p.top[c]
			switch {
			case t == 0:
				dst = append(dst, '.')
			case p.below[t-1] == 0:
				dst = append(dst, '0'+pieceSeat(t-1), sizeLetters[pieceSize(t-1)])
			default:
				dst = append(dst, '(')
				dst = p.appendStack(dst, c)
				dst = append(dst, ')')
			}
		}
	}
	dst = append(dst, ' ')
	for s := range p.seats {
		if s > 0 {
			dst = append(dst, '/')
		}
		sup := &p.supply[s]
		dst = append(dst, '0'+sup[0], '0'+sup[1], '0'+sup[2])
	}
	if p.toMove == 0 {
		return append(dst, ' ', '-')
	}
	return append(dst, ' ', '0'+p.toMove)
}

// AppendKey writes the position's key (rules.KeyAppender): the board and
// seats, each cell's stack from the top as seat and size (a piece's
// number within its seat and size is not part of the position, as in the
// code), each cell ended by 0, the supplies and the seat to move.
func (p Position) AppendKey(dst []byte) []byte {
	// Written into an array first: an append a byte checked the capacity
	// a byte, a third of the time.
	var k [2 + maxCells + maxPieces + 3*3 + 1]byte
	k[0], k[1] = p.board, p.seats
	n := 2
	for c := range p.top {
		for t := p.top[c]; t != 0; t = p.below[t-1] {
			k[n] = pieceSeat(t-1)<<2 | pieceSize(t-1)
			n++
		}
		n++ // k[n] is 0: the cell's end
	}
	for s := range p.seats {
		n += copy(k[n:], p.supply[s][:])
	}
	k[n] = p.toMove
	dst = append(dst, "IceFrogs\x00"...)
	return append(dst, k[:n+1]...)
}

func (game) ParsePosition(code string) (rules.State, error) {
	p, err := ParsePosition(code)
	if err != nil {
		return nil, err
	}
	return p, nil
}

func posErr(format string, args ...any) error {
	return fmt.Errorf("%w: IceFrogs: %s", rules.ErrPosition, fmt.Sprintf(format, args...))
}

// ParsePosition reads a position code written by Code.
func ParsePosition(code string) (Position, error) {
	var p Position
	f := strings.Fields(code)
	if len(f) != 6 || !strings.EqualFold(f[0], "IceFrogs") {
		return p, posErr("want 6 fields: IceFrogs board seats cells supplies to-move, got %q", code)
	}
	b, ok := boardIndex(strings.ToLower(f[1]))
	if !ok || f[1] == "" {
		return p, posErr("the board is star or hex, not %q", f[1])
	}
	p.board = b
	g := p.geo()
	switch f[2] {
	case "2", "3":
		p.seats = f[2][0] - '0'
	default:
		return p, posErr("IceFrogs is played by 2 or 3 players, not %q", f[2])
	}

	// Supplies first: piece numbers on the board are handed out from them.
	sup := strings.Split(f[4], "/")
	if len(sup) != int(p.seats) {
		return p, posErr("the supplies need %d seats joined by '/', got %q", p.seats, f[4])
	}
	for s, field := range sup {
		if len(field) != 3 {
			return p, posErr("seat %d's supply is three digits (small, medium, large), got %q", s+1, field)
		}
		for i := range 3 {
			ch := field[i]
			if ch < '0' || ch > '5' {
				return p, posErr("seat %d's supply of %s pieces must be 0 to 5, got %q", s+1, sizeNames[i+1], ch)
			}
			p.supply[s][i] = ch - '0'
		}
	}

	var used [3][3]uint8 // pieces of each seat and size put on the board
	rows := strings.Split(f[3], "/")
	if len(rows) != g.rows {
		return p, posErr("the %s board needs %d rows joined by '/', got %d", g.name, g.rows, len(rows))
	}
	for r, row := range rows {
		c := g.rowFirst[r]
		end := g.rowFirst[r+1]
		for i := 0; i < len(row); {
			if c == end {
				return p, posErr("row %c has %d cells, but %q says more", 'a'+r, end-g.rowFirst[r], row)
			}
			var stack string
			switch row[i] {
			case '.':
				i++
			case '(':
				j := strings.IndexByte(row[i:], ')')
				if j < 0 {
					return p, posErr("row %c: a '(' without its ')'", 'a'+r)
				}
				stack = row[i+1 : i+j]
				i += j + 1
				if stack == "" {
					return p, posErr("cell %s: an empty stack \"()\"; write '.'", g.names[c])
				}
			default:
				if i+2 > len(row) {
					return p, posErr("cell %s: a piece is a seat and a size, like 1S, got %q", g.names[c], row[i:])
				}
				stack = row[i : i+2]
				i += 2
			}
			if len(stack)%2 != 0 {
				return p, posErr("cell %s: a piece is a seat and a size, like 1S, got %q", g.names[c], stack)
			}
			// Pieces are given top first; link them bottom up.
			for k := len(stack) - 2; k >= 0; k -= 2 {
				seat := stack[k] - '0'
				size, ok := rules.ParseSize(stack[k+1])
				if seat < 1 || seat > p.seats || !ok {
					return p, posErr("cell %s: %q is not a piece (a seat 1 to %d and a size S, M or L)", g.names[c], stack[k:k+2], p.seats)
				}
				n := &used[seat-1][size-1]
				*n++
				if *n+p.supply[seat-1][size-1] > 5 {
					return p, posErr("seat %d has more than 5 %s pieces on the board and in the supply", seat, sizeNames[size])
				}
				piece := (seat-1)*15 + uint8(size-1)*5 + *n - 1
				p.below[piece] = p.top[c]
				p.top[c] = piece + 1
			}
			c++
		}
		if c != end {
			return p, posErr("row %c has %d cells, but %q gives %d", 'a'+r, end-g.rowFirst[r], row, c-g.rowFirst[r])
		}
	}
	for s := range p.seats {
		for i := range 3 {
			if used[s][i]+p.supply[s][i] != 5 {
				return p, posErr("seat %d has %d %s pieces on the board and %d in the supply; every player has 5 of each size",
					s+1, used[s][i], sizeNames[i+1], p.supply[s][i])
			}
		}
	}

	p.countBehind()

	// Who is on whose start space decides whether the game is over.
	var winner uint8
	for s := range p.seats {
		c := g.start(int(p.seats), int(s+1))
		t := p.top[c]
		if t == 0 {
			continue
		}
		w := pieceSeat(t - 1)
		if w == s+1 || winner != 0 {
			return p, posErr("the pieces on %s cannot be there: no move ends on its own start space, and the first move to end on another's wins", g.names[c])
		}
		winner = w
	}
	switch f[5] {
	case "-":
		p.winner = winner
		if winner == 0 && (p.canMove(1) || p.canMove(2) || p.seats == 3 && p.canMove(3)) {
			return p, posErr("the game is marked over, but nobody has won and a player can still move")
		}
	case "1", "2", "3":
		p.toMove = f[5][0] - '0'
		if p.toMove > p.seats {
			return p, posErr("seat %d to move, but there are %d seats", p.toMove, p.seats)
		}
		if winner != 0 {
			return p, posErr("seat %d has a piece on an opponent's start space, so the game is over: write - for the seat to move", winner)
		}
		for s := range p.seats {
			if p.canMove(s + 1) {
				return p, nil
			}
		}
		return p, posErr("no player can move, so the game is over as a draw: write - for the seat to move")
	default:
		return p, posErr("the last field is the seat to move or - when the game is over, not %q", f[5])
	}
	return p, nil
}
