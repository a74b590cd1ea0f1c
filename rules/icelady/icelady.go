// Package icelady implements Ice Lady (Olle Johansson), a variant of Turkish
// draughts (Dama) with Icehouse pyramids, for two players, as
// shared/RULES.md section 3 settles it.
//
// Seat 1 is South (ranks 1..3 at the start) and moves first; seat 2 is
// North. Smalls (S) step one square diagonally forward and capture by
// jumping an adjacent enemy diagonally forward; mediums (M) move exactly two
// squares forward or sideways and capture the piece on the square between;
// kings (a single L) move and capture 1 to 3 squares in any of the 8
// directions, passing over at most one enemy piece, which they capture. A
// king tree (L+S, L+M, L+M+S) moves like a king as far as its pips (4, 5,
// 6) and loses only its top piece when captured. Capture is compulsory and
// a capture goes on while the same piece can capture again; the player
// chooses among all chains. A small or medium ending its move on the far
// row may be promoted to a king from its owner's reserve of 4 larges, or
// may join its own king or king tree standing there. A player with no
// pieces, or no legal move on their turn, loses.
//
// # Squares and moves
//
// Squares are indexed rank*8 + file from a1 = 0 (h8 = 63). A Move has Kind
// Step (a move that captures nothing, token from-to, N = 2) or Capture (a
// chain, token from x landing x landing ..., N = 1 + number of captures);
// Path holds the start square and every landing square. Arg is 1 when the
// moving small or medium is promoted at the end of the move (token suffix
// "=K"), else 0. Size is always 0. Joining a king tree has no mark: the
// landing square holds the king. The pieces a capture takes follow from
// the squares, because every leap passes over exactly one enemy piece.
//
// Tokens are read in any case; "=L" is accepted for "=K".
//
// # Position code
//
//	IceLady <board> <reserve 1> <reserve 2> <to move>
//
// board: ranks 8 down to 1 joined by '/', as in chess's FEN: a digit 1..8
// counts empty squares, a letter is a piece, upper case for seat 1 (South)
// and lower case for seat 2 (North): S small, M medium, L king; a king tree
// is its pieces from the bottom up joined by '+' (L+M+S, l+s). reserve 1
// and 2: the larges (0..4) each seat still has off the board for
// promotion. to move: 1 or 2, the seat whose turn it is (when that seat has
// no legal move, the game is over and the other seat has won). The start
// is
//
//	IceLady 8/2mmmm2/2ssss2/8/8/2SSSS2/2MMMM2/8 4 4 1
//
// A code is refused when it could not arise with the pieces of the game:
// more than 4 smalls or 4 mediums of one colour, more larges on the board
// than the reserve has given out, more smalls and mediums than the
// promotions have left, a tree not stacked larger under smaller, or a
// player to move whose opponent has no piece left (that game ended before).
//
// # Decisions where RULES.md is silent
//
//   - A king or tree that captures may turn in any direction for its next
//     leap, 180 degrees included: RULES.md lets squares emptied by a capture
//     be passed over like any empty square and does not carry over Dama's
//     ban on reversing. (A tree remnant still blocks, so a reversal can only
//     cross squares that a capture emptied.)
//   - A king's chain may end on its own start square (it counts as empty),
//     e.g. a1xc3xc1xa1 around three captured pieces.
//   - The moving piece is off the board for the whole move: its start and
//     every square it landed on count as empty for its later leaps.
//   - The position code of a finished game still names the seat to move:
//     the one that has lost (no piece, or no legal move).
//   - When a promotion is possible, promoting (token with =K) and not
//     promoting (token without) are two distinct legal moves.
package icelady

import (
	"fmt"
	"strconv"
	"strings"

	"icepost/rules"
)

// Move kinds.
const (
	Step    = 1 // a move that captures nothing: from-to
	Capture = 2 // a chain of one or more captures: from x to x ...
)

// Piece kinds of a square's contents. A kind's value is also its pips, and
// so a king or tree's range.
const (
	empty = 0
	small = 1 // S
	med   = 2 // M
	king  = 3 // L
	treeS = 4 // L+S
	treeM = 5 // L+M
	treeF = 6 // L+M+S
)

// A cell holds the owner (1 or 2) in bits 3..4 and the kind in bits 0..2;
// 0 is an empty square.
func cell(owner, kind uint8) uint8 { return owner<<3 | kind }
func ownerOf(c uint8) uint8        { return c >> 3 }
func kindOf(c uint8) uint8         { return c & 7 }

// afterCapture is what stays on a square whose piece is captured: a tree
// loses its top piece, anything else leaves the board.
var afterCapture = [8]uint8{empty, empty, empty, empty, king, king, treeM, empty}

// stackNames spells each kind, bottom piece first.
var stackNames = [8]string{"", "S", "M", "L", "L+S", "L+M", "L+M+S", ""}

// stackNamesLower spells them for seat 2, in lower case.
var stackNamesLower = [8]string{"", "s", "m", "l", "l+s", "l+m", "l+m+s", ""}

// pieceNames names each kind for players.
var pieceNames = [8]string{"", "small", "medium", "king", "king tree L+S", "king tree L+M", "king tree L+M+S", ""}

type game struct{}

// Game is Ice Lady.
var Game rules.Game = game{}

func (game) Name() string { return "IceLady" }

// Info describes Ice Lady: two seats, no options, steps, capture chains
// and promotions.
func (game) Info() rules.Info { return info }

var info = rules.Info{
	Aliases: []string{"Ice Lady"},
	Seats:   []int{2},
	Summary: `Ice Lady (2 players, 8x8, a draughts game): smalls step diagonally forward,
mediums two squares forward or sideways, kings (a large, or a tree stacked
on one) in any direction; capture is compulsory and chains go on
(c3xe5xc7). Reach the far row to promote (e7-f8=K). No pieces or no move
loses.
`,
	Token: rules.TokenShape{Squares: 16, Capture: true, Promote: true}.Read,
}

func (game) Start(o rules.Options) (rules.State, error) {
	if _, err := rules.CheckSeats("IceLady", o, 2); err != nil {
		return nil, err
	}
	if o.Board != "" || o.Target != 0 {
		return nil, fmt.Errorf("%w: IceLady has no board or target option", rules.ErrOptions)
	}
	return Start(), nil
}

func (game) ParsePosition(code string) (rules.State, error) {
	p, err := ParsePosition(code)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Position is an Ice Lady position. It is a plain value: copies are
// independent.
type Position struct {
	cells   [64]uint8
	reserve [2]uint8 // larges left off the board, seat 1 and seat 2
	turn    uint8    // 1 or 2
	// occ holds the squares of seat 1's and seat 2's pieces (bit sq for
	// square sq): owned over cells, kept as moves are played because
	// every move search and every "is the game over" starts from them.
	occ [2]uint64
}

// index sets occ from cells, for a position built square by square.
func (p *Position) index() {
	p.occ = [2]uint64{owned(&p.cells, 1), owned(&p.cells, 2)}
}

// Start returns the starting position (RULES.md 3: mediums on c..f of each
// player's second row, smalls on c..f of the third, 4 larges in reserve).
func Start() Position {
	var p Position
	for f := 2; f <= 5; f++ {
		p.cells[1*8+f] = cell(1, med)
		p.cells[2*8+f] = cell(1, small)
		p.cells[6*8+f] = cell(2, med)
		p.cells[5*8+f] = cell(2, small)
	}
	p.reserve = [2]uint8{4, 4}
	p.turn = 1
	p.index()
	return p
}

// Perft counts the leaves of the move tree depth plies deep.
func (p Position) Perft(depth int) uint64 { return rules.Perft(p, depth) }

// Game returns Ice Lady.
func (p Position) Game() rules.Game { return Game }

// Options returns the options in force: two seats.
func (p Position) Options() rules.Options { return rules.Options{Seats: 2} }

// ToMove returns the seat to move, or 0 when the game is over.
func (p Position) ToMove() int {
	if p.over() {
		return 0
	}
	return int(p.turn)
}

// over reports whether the side to move has no legal move: asked after
// every ply of a replay (Outcome), so it looks for one move instead of
// generating them all (decode.go).
func (p Position) over() bool { return !p.hasMove() }

// Moves appends the legal moves to buf[:0].
func (p Position) Moves(buf []rules.Move) []rules.Move { return p.AppendMoves(buf[:0]) }

// Play returns the position after the legal move m.
func (p Position) Play(m rules.Move) (rules.State, error) {
	if p.over() {
		return nil, &rules.MoveError{Token: "", Reason: "the game is over: " + p.Outcome().String(), Kind: rules.ErrGameOver}
	}
	if !rules.IsLegal(p, m) {
		return nil, rules.Illegal(p.safeFormat(m), "not a legal move here")
	}
	return p.Apply(m), nil
}

// safeFormat formats m for an error message even when m is nonsense.
func (p Position) safeFormat(m rules.Move) string {
	if m.N < 2 || int(m.N) > rules.MaxPath {
		return ""
	}
	for _, sq := range m.Path[:m.N] {
		if sq >= 64 {
			return ""
		}
	}
	return p.FormatMove(m)
}

// Outcome tells whether the game is over: the player to move has lost when
// they have no legal move (no pieces left included).
func (p Position) Outcome() rules.Outcome {
	if !p.over() {
		return rules.Outcome{}
	}
	return rules.Outcome{Over: true, Winner: int(3 - p.turn)}
}

// Scores returns nil: Ice Lady has no scores.
func (p Position) Scores() []int { return nil }

// Code returns the position code (see the package comment).
func (p Position) Code() string {
	var buf [96]byte // room for any code: the string is the one allocation
	return string(p.AppendCode(buf[:0]))
}

// AppendCode appends the position code to dst (see rules.CodeAppender):
// the archive hashes the code of every position it stores.
func (p Position) AppendCode(dst []byte) []byte {
	dst = append(dst, "IceLady "...)
	for r := 7; r >= 0; r-- {
		run := byte(0)
		for f := 0; f < 8; f++ {
			c := p.cells[r*8+f]
			if c == 0 {
				run++
				continue
			}
			if run > 0 {
				dst = append(dst, '0'+run)
				run = 0
			}
			if ownerOf(c) == 2 {
				dst = append(dst, stackNamesLower[kindOf(c)]...)
			} else {
				dst = append(dst, stackNames[kindOf(c)]...)
			}
		}
		if run > 0 {
			dst = append(dst, '0'+run)
		}
		if r > 0 {
			dst = append(dst, '/')
		}
	}
	return append(dst, ' ', '0'+p.reserve[0], ' ', '0'+p.reserve[1], ' ', '0'+p.turn)
}

// AppendKey writes the position's key (rules.KeyAppender): the squares
// as they are kept (owner and kind, as the code names them), the
// reserves and the seat to move.
func (p Position) AppendKey(dst []byte) []byte {
	dst = append(dst, "IceLady\x00"...)
	dst = append(dst, p.cells[:]...)
	return append(dst, p.reserve[0], p.reserve[1], p.turn)
}

func posErr(format string, args ...any) error {
	return fmt.Errorf("%w: IceLady: %s", rules.ErrPosition, fmt.Sprintf(format, args...))
}

// ParsePosition reads a position code written by Code.
func ParsePosition(code string) (Position, error) {
	var p Position
	fields := strings.Fields(code)
	if len(fields) == 0 || fields[0] != "IceLady" {
		return p, posErr("a position code starts with IceLady")
	}
	if len(fields) != 5 {
		return p, posErr("want 4 fields after IceLady (board, reserve 1, reserve 2, to move), got %d", len(fields)-1)
	}
	ranks := strings.Split(fields[1], "/")
	if len(ranks) != 8 {
		return p, posErr("the board has %d ranks, want 8 joined by /", len(ranks))
	}
	for i, row := range ranks {
		r := 7 - i
		f := 0
		for j := 0; j < len(row); {
			ch := row[j]
			if ch >= '1' && ch <= '8' {
				f += int(ch - '0')
				j++
				continue
			}
			// A stack: letters joined by '+', all of one case.
			k := j + 1
			for k+1 < len(row) && row[k] == '+' {
				k += 2
			}
			stack := row[j:k]
			j = k
			var owner uint8
			up := strings.ToUpper(stack)
			switch stack {
			case up:
				owner = 1
			case strings.ToLower(stack):
				owner = 2
			default:
				return p, posErr("rank %d: %q mixes upper case (seat 1) and lower case (seat 2)", r+1, stack)
			}
			kind := uint8(0)
			for kk := small; kk <= treeF; kk++ {
				if stackNames[kk] == up {
					kind = uint8(kk)
				}
			}
			if kind == 0 {
				return p, posErr("rank %d: %q is not a piece (S, M, L) or a king tree (L+S, L+M, L+M+S, bottom first)", r+1, stack)
			}
			if f >= 8 {
				return p, posErr("rank %d has more than 8 squares", r+1)
			}
			p.cells[r*8+f] = cell(owner, kind)
			f++
		}
		if f != 8 {
			return p, posErr("rank %d has %d squares, want 8", r+1, f)
		}
	}
	for i := 0; i < 2; i++ {
		n, err := strconv.Atoi(fields[2+i])
		if err != nil || n < 0 || n > 4 {
			return p, posErr("reserve of seat %d is %q, want 0..4 larges", i+1, fields[2+i])
		}
		p.reserve[i] = uint8(n)
	}
	switch fields[4] {
	case "1", "2":
		p.turn = fields[4][0] - '0'
	default:
		return p, posErr("to move is %q, want 1 or 2", fields[4])
	}
	// The pieces must exist: 4 S, 4 M and 4 L a colour, each promotion
	// spending one large and one small or medium.
	for seat := uint8(1); seat <= 2; seat++ {
		var s, m, l int
		for _, c := range p.cells {
			if c == 0 || ownerOf(c) != seat {
				continue
			}
			switch kindOf(c) {
			case small:
				s++
			case med:
				m++
			case king:
				l++
			case treeS:
				l, s = l+1, s+1
			case treeM:
				l, m = l+1, m+1
			case treeF:
				l, m, s = l+1, m+1, s+1
			}
		}
		used := 4 - int(p.reserve[seat-1])
		switch {
		case s > 4:
			return p, posErr("seat %d has %d smalls on the board; there are 4", seat, s)
		case m > 4:
			return p, posErr("seat %d has %d mediums on the board; there are 4", seat, m)
		case l > used:
			return p, posErr("seat %d has %d larges on the board but only %d promotions left the reserve", seat, l, used)
		case s+m > 8-used:
			return p, posErr("seat %d has %d smalls and mediums on the board, but %d were replaced by kings", seat, s+m, used)
		}
		if s+m+l == 0 && seat != p.turn {
			return p, posErr("seat %d has no pieces: the game ended before seat %d's turn", seat, p.turn)
		}
	}
	p.index()
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
func (p *Position) Score(int) int { return 0 }
