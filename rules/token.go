package rules

import "strings"

// TokenShape describes the move tokens of a game built from squares (a
// letter and a number: c3, a10), so that a game can offer Info.Token by
// filling in what its moves may contain. A game whose tokens look
// otherwise writes its own Info.Token.
type TokenShape struct {
	Drop     bool // a piece placed from a reserve: S@c3 (size letter, @, one square)
	DropMove bool // a dropped piece that moves on at once: M@a1-b1, M@a1-b1-c3
	Squares  int  // the most squares a moving token names (a1-b2 is 2); 0: no moving tokens
	Capture  bool // squares may be joined by x as well as -: a1xd4, c3xe5xc7
	Orient   bool // a token of at most two squares may end in an orientation: h1:NW, g4-e6:U, h1(NW)
	Promote  bool // a moving token may end in =K
	Pass     bool // the word pass
}

// maxTokenSquares bounds Squares for any shape: a token longer than this
// is prose.
const maxTokenSquares = 16

// Read reads tok as a token of this shape, in any case, and returns its
// canonical spelling: squares and x in lower case; sizes, orientations and
// =K in upper case; (NW) written :NW.
func (t TokenShape) Read(tok string) (string, bool) {
	if strings.EqualFold(tok, "pass") {
		return "pass", t.Pass
	}
	var b strings.Builder
	i := 0
	dropped := false
	if len(tok) >= 2 && tok[1] == '@' {
		if _, ok := ParseSize(tok[0]); !ok || !(t.Drop || t.DropMove) {
			return "", false
		}
		b.WriteByte(upper(tok[0]))
		b.WriteByte('@')
		i, dropped = 2, true
	}
	most := min(max(t.Squares, 1), maxTokenSquares)
	if dropped {
		most = 1
		if t.DropMove {
			most = min(max(t.Squares, 2), maxTokenSquares)
		}
	}
	n := 0
	for {
		j, ok := scanSquare(tok, i)
		if !ok {
			return "", false
		}
		b.WriteString(strings.ToLower(tok[i:j]))
		i = j
		n++
		if n > most {
			return "", false
		}
		if i+1 < len(tok) && isLetter(tok[i+1]) && (tok[i] == '-' || (t.Capture && !dropped && (tok[i] == 'x' || tok[i] == 'X'))) {
			b.WriteByte(lower(tok[i]))
			i++
			continue
		}
		break
	}
	if i == len(tok) {
		switch {
		case dropped && n == 1:
			return b.String(), t.Drop
		case dropped:
			return b.String(), t.DropMove
		}
		// A single square is a move only when something is placed on it.
		return b.String(), n >= 2 && t.Squares >= 2
	}
	if dropped {
		return "", false
	}
	rest := tok[i:]
	switch {
	case (rest == "=K" || rest == "=k") && t.Promote && n >= 2:
		b.WriteString("=K")
	case rest[0] == ':' && t.Orient && n <= 2:
		o, ok := orientationWord(rest[1:])
		if !ok {
			return "", false
		}
		b.WriteString(":" + o)
	case rest[0] == '(' && rest[len(rest)-1] == ')' && t.Orient && n <= 2:
		o, ok := orientationWord(rest[1 : len(rest)-1])
		if !ok {
			return "", false
		}
		b.WriteString(":" + o)
	default:
		return "", false
	}
	return b.String(), true
}

// scanSquare reads a square (a letter and a number 1-99) at tok[i:].
func scanSquare(tok string, i int) (end int, ok bool) {
	if i >= len(tok) || !isLetter(tok[i]) {
		return 0, false
	}
	j := i + 1
	for j < len(tok) && tok[j] >= '0' && tok[j] <= '9' && j-i <= 2 {
		j++
	}
	if j == i+1 || tok[i+1] == '0' {
		return 0, false
	}
	return j, true
}

func orientationWord(s string) (string, bool) {
	switch u := strings.ToUpper(s); u {
	case "N", "NE", "E", "SE", "S", "SW", "W", "NW", "U":
		return u, true
	}
	return "", false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}
