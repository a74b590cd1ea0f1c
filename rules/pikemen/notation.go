package pikemen

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"icepost/rules"
)

var sizeNames = [4]string{"?", "small", "medium", "large"}

// squareName returns "a1".."h8" for a square index.
func squareName(sq int) string {
	if sq < 0 || sq >= 64 {
		return "??"
	}
	return string([]byte{'a' + byte(sq%8), '1' + byte(sq/8)})
}

// parseSquare reads a square in any case at the start of s.
func parseSquare(s string) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	f, r := s[0]|0x20, s[1]
	if f < 'a' || f > 'h' || r < '1' || r > '8' {
		return 0, false
	}
	return int(r-'1')*8 + int(f-'a'), true
}

// parseOrientation reads an orientation name in any case.
func parseOrientation(s string) (Orientation, bool) {
	for i, name := range orientNames {
		if strings.EqualFold(s, name) {
			return Orientation(i), true
		}
	}
	return 0, false
}

// FormatMove writes m as its canonical token: h1:NW, g4-e6, g4-e6:U,
// h3xc8, h3xc8:S. A charge's orientation is left out when it is the
// piece's current one.
func (p Position) FormatMove(m rules.Move) string {
	from := int(m.Path[0])
	o := Orientation(m.Arg)
	switch m.Kind {
	case KindReorient:
		return squareName(from) + ":" + o.String()
	case KindCharge, KindCapture:
		sep := "-"
		if m.Kind == KindCapture {
			sep = "x"
		}
		tok := squareName(from) + sep + squareName(int(m.Path[1]))
		if from >= 64 || o != p.orient[from] {
			tok += ":" + o.String()
		}
		return tok
	}
	return fmt.Sprintf("?%d", m.Kind)
}

// describe names the piece on sq for a player: "the upright large on c8".
func (p *Position) describe(sq int, withState bool) string {
	s := "the "
	if withState {
		if p.orient[sq] == U {
			s += "upright "
		} else {
			s += "lying "
		}
	}
	return s + sizeNames[p.size(sq)] + " on " + squareName(sq)
}

// ParseMove decodes a move token against the position: h1:NW, c6:U,
// g4-e6, g4-e6:U, h3xc8, h3xc8:S in any case, a charge suffix that repeats
// the current orientation, and Abstract Play's h1(NW), g4-e6(U).
//
// A replay decodes every ply, so a legal token takes the fast way: decode
// reads it into the one move it can mean and allows tests that move
// against the board (no move list, no string, no allocation). Anything
// else goes to explain, which reads the token again to say what is wrong.
func (p Position) ParseMove(tok string) (rules.Move, error) {
	if kind, from, to, o, ok := p.decode(tok); ok && p.allows(kind, from, to, o) {
		if kind == KindReorient {
			return reorient(from, o), nil
		}
		return charge(kind, from, to, o), nil
	}
	return p.explain(tok)
}

// decode reads a well-formed token (the forms ParseMove accepts, any
// case) into the move it names in p, without asking whether it is legal:
// its kind (from the separator), its squares (to only for a charge) and
// the orientation after it (for a charge without one, the piece's current
// one). It reports false for anything it does not read, and explain gives
// the error.
func (p *Position) decode(tok string) (kind uint8, from, to int, o Orientation, ok bool) {
	from, ok = parseSquare(tok)
	if !ok {
		return 0, 0, 0, 0, false
	}
	rest := tok[2:]
	kind = KindReorient
	if len(rest) >= 3 {
		switch rest[0] {
		case '-':
			kind = KindCharge
		case 'x', 'X':
			kind = KindCapture
		}
		if kind != KindReorient {
			if to, ok = parseSquare(rest[1:]); !ok {
				return 0, 0, 0, 0, false
			}
			rest = rest[3:]
		}
	}
	switch {
	case rest == "":
		if kind == KindReorient {
			return 0, 0, 0, 0, false // "say what the piece does"
		}
		o = p.orient[from]
	case rest[0] == ':':
		o, ok = orientationOf(rest[1:])
	case rest[0] == '(' && rest[len(rest)-1] == ')':
		o, ok = orientationOf(rest[1 : len(rest)-1])
	default:
		ok = false
	}
	if !ok {
		return 0, 0, 0, 0, false
	}
	return kind, from, to, o, true
}

// orientationOf reads an orientation name in ASCII letters of any case:
// the fast path of parseOrientation, which explain still uses.
func orientationOf(s string) (Orientation, bool) {
	switch len(s) {
	case 1:
		switch s[0] | 0x20 {
		case 'n':
			return N, true
		case 'e':
			return E, true
		case 's':
			return S, true
		case 'w':
			return W, true
		case 'u':
			return U, true
		}
	case 2:
		a, b := s[0]|0x20, s[1]|0x20
		switch {
		case a == 'n' && b == 'e':
			return NE, true
		case a == 'n' && b == 'w':
			return NW, true
		case a == 's' && b == 'e':
			return SE, true
		case a == 's' && b == 'w':
			return SW, true
		}
	}
	return 0, false
}

// explain decodes tok the slow way, step by step, to say in a player's
// words why it is not a legal move here; it also accepts what decode
// leaves to it and turns out legal (a name parseOrientation folds that
// orientationOf does not), checked by legal as before.
func (p Position) explain(tok string) (rules.Move, error) {
	if p.over {
		return rules.Move{}, &rules.MoveError{Token: tok, Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	from, ok := parseSquare(tok)
	if !ok {
		return rules.Move{}, rules.Syntax(tok, "a Pikemen move starts with the square of a piece, as in h1:NW, g4-e6 or h3xc8")
	}
	rest := tok[2:]
	sep, to := byte(0), -1
	if len(rest) > 0 && (rest[0] == '-' || rest[0] == 'x' || rest[0] == 'X') {
		sep = rest[0] | 0x20
		if to, ok = parseSquare(rest[1:]); !ok {
			return rules.Move{}, rules.Syntax(tok, "a charge names the square where it stops after %q, as in g4-e6", rest[:1])
		}
		rest = rest[3:]
	}
	o, hasO := Orientation(0), false
	switch {
	case rest == "":
	case rest[0] == ':':
		o, hasO = parseOrientation(rest[1:])
	case rest[0] == '(' && rest[len(rest)-1] == ')':
		o, hasO = parseOrientation(rest[1 : len(rest)-1])
	}
	if rest != "" && !hasO {
		return rules.Move{}, rules.Syntax(tok, "%q is not an orientation: use :N, :NE, :E, :SE, :S, :SW, :W, :NW or :U", rest)
	}
	if sep == 0 && !hasO {
		return rules.Move{}, rules.Syntax(tok, "say what the piece on %s does: turn to a new orientation (%s:NW) or charge (%s-e6)", squareName(from), squareName(from), squareName(from))
	}

	// The token is well formed; now the board decides.
	if p.cell[from] == 0 {
		return rules.Move{}, rules.Illegal(tok, "there is no piece on %s", squareName(from))
	}
	if owner := p.owner(from); owner != int(p.toMove) {
		return rules.Move{}, rules.Illegal(tok, "%s is not your piece: it belongs to seat %d, and seat %d is to move", squareName(from), owner, p.toMove)
	}
	cur := p.orient[from]
	if sep == 0 {
		if o == cur {
			if cur == U {
				return rules.Move{}, rules.Illegal(tok, "%s already stands upright; a reorient must change the orientation", p.describe(from, false))
			}
			return rules.Move{}, rules.Illegal(tok, "%s already points %s; a reorient must change the orientation", p.describe(from, false), cur)
		}
		return p.checked(tok, reorient(from, o))
	}
	if !hasO {
		o = cur
	}
	if cur == U {
		return rules.Move{}, rules.Illegal(tok, "%s stands upright and cannot charge; only a lying piece charges (turn it first, like %s:NE)", p.describe(from, false), squareName(from))
	}
	if to == from {
		return rules.Move{}, rules.Illegal(tok, "a charge moves at least one square")
	}
	ray := rays[from][cur][:rayLen[from][cur]]
	if !slices.Contains(ray, uint8(to)) {
		return rules.Move{}, rules.Illegal(tok, "%s points %s, so it can only charge that way; %s is not on that line", p.describe(from, false), cur, squareName(to))
	}
	for _, sq8 := range ray {
		sq := int(sq8)
		if sq != to {
			if p.cell[sq] != 0 {
				return rules.Move{}, rules.Illegal(tok, "the charge from %s to %s is blocked by %s; a charge never jumps", squareName(from), squareName(to), p.describe(sq, false))
			}
			continue
		}
		if p.cell[sq] == 0 {
			if sep == 'x' {
				right := p.FormatMove(charge(KindCharge, from, to, o))
				return rules.Move{}, rules.Illegal(tok, "use %s: there is nothing to capture on %s", right, squareName(to))
			}
			return p.checked(tok, charge(KindCharge, from, to, o))
		}
		if p.owner(sq) == int(p.toMove) {
			return rules.Move{}, rules.Illegal(tok, "%s holds your own piece; you never capture your own pieces", squareName(to))
		}
		if !p.capturable(sq, p.size(from)) {
			if p.size(sq) == rules.Large {
				return rules.Move{}, rules.Illegal(tok, "%s can never be captured", p.describe(sq, true))
			}
			return rules.Move{}, rules.Illegal(tok, "%s can only be captured by a larger piece, not by %s", p.describe(sq, true), p.describe(from, false))
		}
		if sep == '-' {
			right := p.FormatMove(charge(KindCapture, from, to, o))
			return rules.Move{}, rules.Illegal(tok, "use %s: the charge captures %s", right, p.describe(sq, false))
		}
		return p.checked(tok, charge(KindCapture, from, to, o))
	}
	panic("unreachable")
}

// checked returns m if it is legal; the checks in ParseMove should make
// this always so.
func (p *Position) checked(tok string, m rules.Move) (rules.Move, error) {
	if !p.legal(m) {
		return rules.Move{}, rules.Illegal(tok, "not a legal move here")
	}
	return m, nil
}

// Code returns the position code (see the package comment).
func (p Position) Code() string {
	// The buffer holds any code (at most 36 pieces of 4 bytes, the
	// empties, 7 slashes and the fields: well under 256), so it stays on
	// the stack and the string is the one allocation.
	var buf [256]byte
	return string(p.AppendCode(buf[:0]))
}

// sizeLetters are the size letters of the code, by size (rules.SizeLetter).
const sizeLetters = "?SML"

// AppendCode appends the position code to dst (see rules.CodeAppender):
// Code's bytes, with no allocation beyond dst's growth.
func (p Position) AppendCode(dst []byte) []byte {
	dst = append(dst, "Pikemen "...)
	dst = strconv.AppendUint(dst, uint64(p.seats), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendUint(dst, uint64(p.target), 10)
	dst = append(dst, ' ')
	for rank := 7; rank >= 0; rank-- {
		empty := byte(0)
		for sq := rank * 8; sq < rank*8+8; sq++ {
			c := p.cell[sq]
			if c == 0 {
				empty++
				continue
			}
			if empty > 0 {
				dst = append(dst, '0'+empty)
				empty = 0
			}
			// Byte by byte: a string append would call memmove for each
			// piece.
			name := p.orient[sq].String()
			if len(name) == 1 {
				dst = append(dst, sizeLetters[c&3], '0'+c>>2, name[0])
			} else {
				dst = append(dst, sizeLetters[c&3], '0'+c>>2, name[0], name[1])
			}
		}
		if empty > 0 {
			dst = append(dst, '0'+empty)
		}
		if rank > 0 {
			dst = append(dst, '/')
		}
	}
	dst = append(dst, ' ')
	for i := range int(p.seats) {
		if i > 0 {
			dst = append(dst, ':')
		}
		dst = strconv.AppendUint(dst, uint64(p.scores[i]), 10)
	}
	if p.over {
		return append(dst, ' ', '-')
	}
	return append(dst, ' ', '0'+p.toMove)
}

// AppendKey writes the position's key (rules.KeyAppender): what the code
// writes, as bytes: the options, each square's piece and orientation
// (an empty square's is always 0: Apply clears it, and the conformance
// suite compares the key of a position played to with the key of the
// same position parsed from its code), the scores and the seat to move
// (0xff once over).
func (p Position) AppendKey(dst []byte) []byte {
	dst = append(dst, "Pikemen\x00"...)
	dst = append(dst, p.seats, p.target)
	dst = append(dst, p.cell[:]...)
	dst = append(dst, unsafe.Slice((*byte)(&p.orient[0]), len(p.orient))...)
	dst = append(dst, p.scores[:p.seats]...)
	if p.over {
		return append(dst, 0xff)
	}
	return append(dst, p.toMove)
}

func posErr(format string, args ...any) error {
	return fmt.Errorf("%w: Pikemen: %s", rules.ErrPosition, fmt.Sprintf(format, args...))
}

// ParsePosition reads a position code written by Code.
func ParsePosition(code string) (Position, error) {
	f := strings.Fields(code)
	if len(f) == 0 || !strings.EqualFold(f[0], "Pikemen") {
		return Position{}, posErr("a position code starts with \"Pikemen\"")
	}
	if len(f) != 6 {
		return Position{}, posErr("want 6 fields (Pikemen, seats, target, board, scores, to move), have %d", len(f))
	}
	var p Position
	seats, err := strconv.Atoi(f[1])
	if err != nil || seats < 2 || seats > 4 {
		return Position{}, posErr("seats %q: want 2, 3 or 4", f[1])
	}
	p.seats = uint8(seats)
	target, err := strconv.Atoi(f[2])
	if err != nil || target < 1 || target > 255 {
		return Position{}, posErr("target %q: want a number 1..255", f[2])
	}
	p.target = uint8(target)
	if err := p.parseBoard(f[3]); err != nil {
		return Position{}, err
	}
	scores := strings.Split(f[4], ":")
	if len(scores) != seats {
		return Position{}, posErr("scores %q: want %d numbers joined by \":\"", f[4], seats)
	}
	reached := 0
	for i, s := range scores {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 || n > 255 {
			return Position{}, posErr("score %q of seat %d is not a number 0..255", s, i+1)
		}
		p.scores[i] = uint8(n)
		if n >= target {
			if reached != 0 {
				return Position{}, posErr("seats %d and %d both have reached the target %d", reached, i+1, target)
			}
			reached = i + 1
		}
	}
	alive := p.alive()
	switch {
	case reached != 0:
		p.over, p.winner = true, uint8(reached)
	case alive == 0:
		return Position{}, posErr("there are no pieces on the board")
	case alive == 1:
		p.over, p.winner = true, p.leader()
	}
	if p.over {
		if f[5] != "-" {
			return Position{}, posErr("the game is over here, so the last field must be \"-\", not %q", f[5])
		}
		return p, nil
	}
	toMove, err := strconv.Atoi(f[5])
	if err != nil || toMove < 1 || toMove > seats {
		return Position{}, posErr("to move %q: want a seat 1..%d (or \"-\" when the game is over)", f[5], seats)
	}
	if p.count[toMove-1] == 0 {
		return Position{}, posErr("seat %d is to move but has no pieces", toMove)
	}
	p.toMove = uint8(toMove)
	return p, nil
}

func (p *Position) parseBoard(s string) error {
	ranks := strings.Split(s, "/")
	if len(ranks) != 8 {
		return posErr("board %q: want 8 ranks separated by \"/\", have %d", s, len(ranks))
	}
	var bySize [4][4]int
	for i, row := range ranks {
		rank := 7 - i
		file := 0
		for j := 0; j < len(row); {
			c := row[j]
			if c >= '1' && c <= '8' {
				file += int(c - '0')
				j++
				if file > 8 {
					return posErr("rank %d %q has more than 8 squares", rank+1, row)
				}
				continue
			}
			size, ok := rules.ParseSize(c)
			if !ok || j+2 >= len(row) {
				return posErr("rank %d %q: want a size letter S, M or L, a seat and an orientation at %q", rank+1, row, row[j:])
			}
			if file >= 8 {
				return posErr("rank %d %q has more than 8 squares", rank+1, row)
			}
			seat := int(row[j+1] - '0')
			if seat < 1 || seat > int(p.seats) {
				return posErr("rank %d %q: seat %q is not 1..%d", rank+1, row, row[j+1:j+2], p.seats)
			}
			n := 1
			if k := j + 2; k+1 < len(row) && (row[k] == 'N' || row[k] == 'S') && (row[k+1] == 'E' || row[k+1] == 'W') {
				n = 2
			}
			o, ok := parseOrientation(row[j+2 : j+2+n])
			if !ok || row[j+2] >= 'a' {
				return posErr("rank %d %q: %q is not an orientation (N, NE, E, SE, S, SW, W, NW or U)", rank+1, row, row[j+2:j+2+n])
			}
			sq := rank*8 + file
			p.cell[sq] = uint8(seat<<2 | size)
			p.orient[sq] = o
			p.count[seat-1]++
			bySize[seat-1][size]++
			if bySize[seat-1][size] > stash(int(p.seats)) {
				return posErr("seat %d has more than %d %s pieces", seat, stash(int(p.seats)), sizeNames[size])
			}
			file++
			j += 2 + n
		}
		if file != 8 {
			return posErr("rank %d %q has %d squares, want 8", rank+1, row, file)
		}
	}
	return nil
}

// Matches reports whether written stands for m (rules.TokenMatcher): the
// move it decodes to, or, for a charge written without an orientation,
// the same charge ending in any orientation.
func (p Position) Matches(written string, m rules.Move) bool {
	got, err := p.ParseMove(written)
	if err != nil {
		return false
	}
	if got == m {
		return true
	}
	// A charge's token is its two squares and the separator; what
	// follows is the orientation it ends in, left open when absent.
	open := got.Kind != KindReorient && len(strings.TrimSpace(written)) == 5
	return open && got.Kind == m.Kind && got.Path == m.Path && got.N == m.N
}
