package icelady

import (
	"fmt"
	"strings"
	"sync"

	"icepost/rules"
)

func squareName(sq int) string {
	return string([]byte{byte('a' + sq%8), byte('1' + sq/8)})
}

// FormatMove writes m's canonical token: c3-d4, c3xe5xc7, e7-f8=K. The
// string is its one allocation: a replay formats every move it plays.
func (p Position) FormatMove(m rules.Move) string {
	var buf [3*rules.MaxPath + 2]byte
	sep := byte('-')
	if m.Kind == Capture {
		sep = 'x'
	}
	b := buf[:0]
	for i, sq := range m.Path[:m.N] {
		if i > 0 {
			b = append(b, sep)
		}
		b = append(b, 'a'+sq%8, '1'+sq/8)
	}
	if m.Arg == 1 {
		b = append(b, '=', 'K')
	}
	return string(b)
}

// token is a move token read for its form alone.
type token struct {
	squares []int
	capture bool // joined by x
	promote bool // =K
}

// parseToken reads the form of a move token: squares joined all by '-' or
// all by 'x', then optionally =K.
func parseToken(tok string) (token, error) {
	var t token
	s := strings.ToLower(tok)
	if i := strings.IndexByte(s, '='); i >= 0 {
		switch s[i+1:] {
		case "k", "l":
			t.promote = true
		default:
			return t, rules.Syntax(tok, "a promotion is written =K after the last square (e7-f8=K)")
		}
		s = s[:i]
	}
	var sep byte
	for len(s) > 0 {
		if len(s) < 2 || s[0] < 'a' || s[0] > 'z' || s[1] < '0' || s[1] > '9' {
			return t, rules.Syntax(tok, "an Ice Lady move is squares joined by - or x, like c3-d4 or c3xe5xc7")
		}
		if s[0] > 'h' || s[1] < '1' || s[1] > '8' || (len(s) > 2 && s[2] >= '0' && s[2] <= '9') {
			n := 2
			for n < len(s) && s[n] >= '0' && s[n] <= '9' {
				n++
			}
			return t, rules.Syntax(tok, "%s is not a square of the board (a1 to h8)", s[:n])
		}
		if len(t.squares) == rules.MaxPath {
			return t, rules.Syntax(tok, "a chain of captures names at most %d squares", rules.MaxPath)
		}
		t.squares = append(t.squares, int(s[1]-'1')*8+int(s[0]-'a'))
		s = s[2:]
		if len(s) == 0 {
			break
		}
		c := s[0]
		if c != '-' && c != 'x' {
			return t, rules.Syntax(tok, "squares are joined by - for a move or x for a capture, not %q", c)
		}
		if sep != 0 && c != sep {
			return t, rules.Syntax(tok, "a move uses - for a plain move or x for a capture, not both")
		}
		sep = c
		s = s[1:]
		if len(s) == 0 {
			return t, rules.Syntax(tok, "a square is missing after the last %c", c)
		}
	}
	if len(t.squares) < 2 {
		return t, rules.Syntax(tok, "a move names its start and where it goes, like c3-d4 or c3xe5")
	}
	t.capture = sep == 'x'
	if !t.capture && len(t.squares) > 2 {
		return t, rules.Syntax(tok, "a plain move has one step, from-to; a chain of captures is joined by x")
	}
	return t, nil
}

// ParseMove decodes tok against the position and returns the legal move it
// names, or an error that says which rule the token breaks.
//
// A well-formed token naming a legal move is decoded without listing the
// legal moves or allocating (decode.go); any other token goes to the slow
// path, which lists them to say what is wrong.
func (p Position) ParseMove(tok string) (rules.Move, error) {
	if m, ok := readToken(tok); ok && p.isLegal(m) {
		return m, nil
	}
	return p.parseMoveSlow(tok)
}

// parseMoveSlow is ParseMove by generating every legal move: the reference
// for the fast path, and the one that explains a refusal.
func (p Position) parseMoveSlow(tok string) (rules.Move, error) {
	bp := movePool.Get().(*[]rules.Move)
	defer movePool.Put(bp)
	legal := p.AppendMoves((*bp)[:0])
	*bp = legal[:0]
	if len(legal) == 0 {
		return rules.Move{}, &rules.MoveError{Token: tok, Reason: "the game is over: " + p.Outcome().String(), Kind: rules.ErrGameOver}
	}
	t, err := parseToken(tok)
	if err != nil {
		return rules.Move{}, err
	}
	m := rules.Move{Kind: Step}
	if t.capture {
		m.Kind = Capture
	}
	if t.promote {
		m.Arg = 1
	}
	for _, sq := range t.squares {
		m.Add(uint8(sq))
	}
	for _, l := range legal {
		if l == m {
			return l, nil
		}
	}
	return rules.Move{}, rules.Illegal(tok, "%s", p.explain(t, m, legal))
}

// explain says why the well-formed move m (read as t) is not legal.
func (p Position) explain(t token, m rules.Move, legal []rules.Move) string {
	from := t.squares[0]
	fc := p.cells[from]
	if fc == 0 {
		return "there is no piece on " + squareName(from)
	}
	if ownerOf(fc) != p.turn {
		return fmt.Sprintf("%s is not your piece (it is seat %d's %s)", squareName(from), ownerOf(fc), pieceNames[kindOf(fc)])
	}
	kind := kindOf(fc)
	what := fmt.Sprintf("the %s on %s", pieceNames[kind], squareName(from))

	// The same squares with the other joiner, or with(out) =K.
	for _, l := range legal {
		if l.N != m.N || l.Path != m.Path {
			continue
		}
		if l.Kind != m.Kind {
			if l.Kind == Capture {
				return "use " + p.FormatMove(l) + ": the move captures"
			}
			return "use " + p.FormatMove(l) + ": the move captures nothing"
		}
	}
	if !t.capture {
		// A capture written with -: name the capture it starts.
		for _, l := range legal {
			if l.Kind == Capture && int(l.Path[0]) == from && int(l.Path[1]) == t.squares[1] {
				return "use " + p.FormatMove(l) + ": the move captures"
			}
		}
	}
	if kind == small && from/8 == farRank[p.turn] {
		return what + " stands unpromoted on the far row and can no longer move"
	}

	// Walk the move leap by leap on a scratch board.
	cells := p.cells
	cells[from] = 0
	var blocked uint64
	joinedTree := false
	for i := 1; i < len(t.squares); i++ {
		a, b := t.squares[i-1], t.squares[i]
		if joinedTree {
			return "the move ends when the piece joins the king tree on " + squareName(a)
		}
		reason, over, join := p.checkLeap(&cells, blocked, kind, a, b, t.capture)
		if reason != "" {
			if t.capture && len(t.squares) == 2 {
				for _, l := range legal {
					if int(l.Path[0]) == from && int(l.Path[l.N-1]) == b && l.Kind == Capture {
						return reason + " (a chain lists every landing square: " + p.FormatMove(l) + ")"
					}
				}
			}
			return reason
		}
		if over >= 0 {
			rest := afterCapture[kindOf(cells[over])]
			if rest == 0 {
				cells[over] = 0
			} else {
				cells[over] = cell(ownerOf(cells[over]), rest)
				blocked |= 1 << over
			}
		}
		joinedTree = join
	}
	last := t.squares[len(t.squares)-1]
	if t.capture && !joinedTree {
		occ := owned(&cells, 1) | owned(&cells, 2)
		g := gen{cells: cells, occ: occ, blocked: blocked, me: p.turn, kind: kind}
		g.mv = rules.Move{Kind: Capture, N: 1, Path: [rules.MaxPath]uint8{uint8(last)}}
		var more [64]rules.Move
		g.out = more[:0]
		g.chain(last)
		if len(g.out) > 0 {
			for _, l := range legal {
				if l.N > m.N && prefix(l, m) {
					return "the capture must go on from " + squareName(last) + ": " + p.FormatMove(l) + " is available"
				}
			}
			return "the capture must go on from " + squareName(last)
		}
	}
	if !t.capture {
		for _, l := range legal {
			if l.Kind == Capture {
				for _, l2 := range legal {
					if l2.Kind == Capture && int(l2.Path[0]) == from {
						l = l2
						break
					}
				}
				return "capture is compulsory: " + p.FormatMove(l) + " is available"
			}
		}
	}
	if t.promote {
		switch {
		case kind >= king:
			return what + " is already a king; only a small or medium is promoted"
		case joinedTree:
			return "a piece that joins a king tree is not promoted"
		case last/8 != farRank[p.turn]:
			return fmt.Sprintf("only a small or medium that ends its move on the far row (rank %d) is promoted", farRank[p.turn]+1)
		case p.reserve[p.turn-1] == 0:
			return "there is no large left in your reserve to promote with"
		}
	}
	return "not a legal move here"
}

// prefix reports whether the squares of m begin l's.
func prefix(l, m rules.Move) bool {
	for i := 0; i < int(m.N); i++ {
		if l.Path[i] != m.Path[i] {
			return false
		}
	}
	return true
}

// checkLeap checks one leap of a piece of the given kind from a to b on
// cells (the moving piece lifted off): the piece's way of moving, what
// stands between, and the landing square. It returns a reason when the
// leap is not allowed, else the square captured (-1 for none) and whether
// the piece joins a king tree on b.
func (p Position) checkLeap(cells *[64]uint8, blocked uint64, kind uint8, a, b int, capture bool) (reason string, over int, join bool) {
	over = -1
	df, dr := b%8-a%8, b/8-a/8
	fwd := 1
	if p.turn == 2 {
		fwd = -1
	}
	dist := max(abs(df), abs(dr))
	if dist == 0 {
		return fmt.Sprintf("a move goes somewhere, and %s to %s stays put", squareName(a), squareName(b)), -1, false
	}
	name := pieceNames[kind]
	switch kind {
	case small:
		if dr*fwd <= 0 || abs(df) != abs(dr) {
			return "a small moves only diagonally forward", -1, false
		}
		if !capture && dist != 1 {
			return "a small moves one square diagonally forward", -1, false
		}
		if capture && dist != 2 {
			return "a small captures by jumping over the piece diagonally in front of it to the square just beyond", -1, false
		}
	case med:
		if df != 0 && dr != 0 {
			return "a medium moves in a straight line forward or sideways, never diagonally", -1, false
		}
		if dr*fwd < 0 {
			return "a medium never moves backward", -1, false
		}
		if dist != 2 {
			return "a medium moves exactly two squares (forward or sideways)", -1, false
		}
	default:
		if df != 0 && dr != 0 && abs(df) != abs(dr) {
			what := "a king"
			if kind > king {
				what = "a king tree"
			}
			return what + " moves in a straight line: along a rank, a file or a diagonal", -1, false
		}
		if dist > int(kind) {
			if kind == king {
				return fmt.Sprintf("a king moves at most 3 squares (%s to %s is %d)", squareName(a), squareName(b), dist), -1, false
			}
			return fmt.Sprintf("the %s moves at most %d squares, its pips (%s to %s is %d)", name, kind, squareName(a), squareName(b), dist), -1, false
		}
	}
	step := sign(dr)*8 + sign(df)
	for s := a + step; s != b; s += step {
		c := cells[s]
		switch {
		case c == 0:
		case blocked&(1<<s) != 0:
			return fmt.Sprintf("%s was captured on earlier in this move: a square is captured on only once, and what is left there cannot be passed over", squareName(s)), -1, false
		case ownerOf(c) == p.turn:
			return fmt.Sprintf("no piece jumps over its own pieces (%s holds your %s)", squareName(s), pieceNames[kindOf(c)]), -1, false
		case !capture:
			return fmt.Sprintf("%s is in the way (a move that captures is joined by x)", squareName(s)), -1, false
		case over >= 0:
			return fmt.Sprintf("a leap captures one piece, and %s and %s are both in the way", squareName(over), squareName(s)), -1, false
		default:
			over = s
		}
	}
	if capture && over < 0 {
		return fmt.Sprintf("there is no piece to capture between %s and %s", squareName(a), squareName(b)), -1, false
	}
	if c := cells[b]; c != 0 {
		if kind <= med && ownerOf(c) == p.turn && kindOf(c) >= king {
			if canJoin(p.turn, kind, c, b) {
				return "", over, true
			}
			if b/8 != farRank[p.turn] {
				return fmt.Sprintf("a %s joins a king tree only on the far row (rank %d)", name, farRank[p.turn]+1), -1, false
			}
			if kind == med {
				return fmt.Sprintf("a medium joins only a lone king, and %s holds %s", squareName(b), stackNames[kindOf(c)]), -1, false
			}
			return fmt.Sprintf("a small joins only a lone king or L+M, and %s holds %s", squareName(b), stackNames[kindOf(c)]), -1, false
		}
		return squareName(b) + " is not empty", -1, false
	}
	return "", over, false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// movePool holds parseMoveSlow's buffers of legal moves: a buffer on the stack
// escapes through AppendMoves and cost a 5.6 KB allocation per token, the
// largest cost of replaying a record.
var movePool = sync.Pool{New: func() any {
	b := make([]rules.Move, 0, 128)
	return &b
}}
