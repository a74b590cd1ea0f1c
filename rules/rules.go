// Package rules defines what every icepost game offers to the rest of the
// program: starting a position from options, listing and playing legal
// moves, reading and writing move tokens and position codes, telling the
// outcome, and drawing the board as text.
//
// Each game lives in a package of its own below this one (rules/icesickle,
// rules/pikemen, rules/icelady, rules/icefrogs); rules/games lists them.
// Games do no I/O and keep no globals. A State is a value: Play returns a
// new State and never changes the one it was called on, so callers may keep
// any position they have seen.
package rules

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Options choose a variant of a game. The zero value of each field means the
// game's default.
type Options struct {
	Seats  int    // number of players; 0 means 2
	Board  string // board shape where a game has a choice (IceFrogs: "star", "hex")
	Target int    // score that wins, where a game has one (Pikemen; default 12)
}

// Game is one of the games: it names and describes itself and makes
// positions.
type Game interface {
	// Name is the game's canonical name as records spell it ("IceSickle").
	Name() string
	// Info describes the game to the rest of the program: aliases, seat
	// counts, options, the shape of its move tokens, a summary.
	Info() Info
	// Start returns the starting position for the options, with defaults
	// filled in, or an error that says which option is not supported.
	Start(o Options) (State, error)
	// ParsePosition reads a position code written by State.Code.
	ParsePosition(code string) (State, error)
}

// State is one position of a game, with everything needed to go on from it:
// whose turn it is, scores, round and phase, reserves and supplies.
type State interface {
	// Game returns the game this position belongs to.
	Game() Game
	// Options returns the options in force, defaults filled in.
	Options() Options
	// ToMove returns the seat (1..Seats) whose turn it is, or 0 when the
	// game is over.
	ToMove() int
	// Moves appends every legal move to buf[:0] and returns it; the order
	// is the game's own and stable. It returns nothing when the game is over.
	Moves(buf []Move) []Move
	// Play returns the position after m. m must be legal here; if it is
	// not, Play returns an error and a nil State. The receiver is unchanged.
	Play(m Move) (State, error)
	// ParseMove decodes a move token against this position (any accepted
	// spelling) and returns the legal move it names, or an error in words
	// a player understands (see IllegalMoveError).
	ParseMove(tok string) (Move, error)
	// FormatMove writes m as its canonical token.
	FormatMove(m Move) string
	// Outcome tells whether the game is over and who won.
	Outcome() Outcome
	// Scores returns each seat's points so far (index 0 is seat 1), or nil
	// for games without scores.
	Scores() []int
	// Board draws the position as monospace text for people: coordinates
	// on all sides, pieces, scores, whose turn, phase. viewer is the seat
	// whose side of the board is at the bottom; 0 means the game's usual
	// view (seat 1 at the bottom). The text ends with a newline. It names
	// a seat "seat N" ("Seat N" to begin a sentence), so that a caller who
	// knows the players can put their names there (icepost record does).
	Board(viewer int) string
	// Code returns the position code: one line, prefixed by the game's
	// name, that ParsePosition reads back to an equal State.
	Code() string
}

// Outcome is the end of a game as the rules give it.
type Outcome struct {
	Over   bool
	Winner int // the winning seat, or 0 for a draw (or when not over)
}

// String describes the outcome in words.
func (o Outcome) String() string {
	switch {
	case !o.Over:
		return "not over"
	case o.Winner == 0:
		return "draw"
	default:
		return fmt.Sprintf("seat %d wins", o.Winner)
	}
}

// MaxPath is the most squares one Move can name. It bounds the longest
// chain a game can make (an IceFrogs hop chain on 37 cells).
const MaxPath = 40

// Move is one turn of one seat. Its fields mean what each game says; a
// game zeroes the Path entries past N so that equal moves compare equal
// with ==. Moves are plain values so that move generation does not
// allocate.
type Move struct {
	Kind uint8 // kind of move, per game (place, jump, charge, pass, ...)
	Size uint8 // piece size where the move names one (1 S, 2 M, 3 L)
	Arg  uint8 // a further choice, per game (orientation, promotion)
	N    uint8 // number of squares used in Path
	Path [MaxPath]uint8
}

// Squares returns the squares the move names, in order.
func (m *Move) Squares() []uint8 { return m.Path[:m.N] }

// Add appends square sq to the move's path.
func (m *Move) Add(sq uint8) {
	m.Path[m.N] = sq
	m.N++
}

// Sizes.
const (
	Small  = 1
	Medium = 2
	Large  = 3
)

// SizeLetter returns "S", "M" or "L" for a size.
func SizeLetter(size int) string {
	switch size {
	case Small:
		return "S"
	case Medium:
		return "M"
	case Large:
		return "L"
	}
	return "?"
}

// ParseSize reads a size letter in any case.
func ParseSize(b byte) (int, bool) {
	switch b {
	case 'S', 's':
		return Small, true
	case 'M', 'm':
		return Medium, true
	case 'L', 'l':
		return Large, true
	}
	return 0, false
}

// Errors that move decoding wraps, so that callers can tell kinds apart
// with errors.Is.
var (
	// ErrSyntax: the token is not a move of this game in any spelling.
	ErrSyntax = errors.New("not a move")
	// ErrIllegal: the token is well formed but the rules forbid the move
	// here.
	ErrIllegal = errors.New("illegal move")
	// ErrGameOver: no move can be played because the game is over.
	ErrGameOver = errors.New("the game is over")
	// ErrOptions: the options are not supported by the game.
	ErrOptions = errors.New("unsupported options")
	// ErrPosition: a position code could not be read.
	ErrPosition = errors.New("bad position code")
)

// MoveError explains why a token was refused: the token, the reason in a
// player's words, and the kind (one of the Err values above) for errors.Is.
type MoveError struct {
	Token  string
	Reason string
	Kind   error
}

func (e *MoveError) Error() string {
	if e.Token == "" {
		return e.Reason
	}
	return e.Token + ": " + e.Reason
}

func (e *MoveError) Unwrap() error { return e.Kind }

// Illegal returns a MoveError of kind ErrIllegal.
func Illegal(tok, format string, args ...any) error {
	return &MoveError{Token: tok, Reason: fmt.Sprintf(format, args...), Kind: ErrIllegal}
}

// Syntax returns a MoveError of kind ErrSyntax.
func Syntax(tok, format string, args ...any) error {
	return &MoveError{Token: tok, Reason: fmt.Sprintf(format, args...), Kind: ErrSyntax}
}

// Play decodes tok against s and plays it: the usual way to apply a move
// read from a person or a record.
func Play(s State, tok string) (State, Move, error) {
	m, err := s.ParseMove(tok)
	if err != nil {
		return nil, Move{}, err
	}
	if a, ok := s.(LegalApplier); ok {
		// ParseMove returns only legal moves: no need to check again.
		return a.ApplyLegal(m), m, nil
	}
	next, err := s.Play(m)
	return next, m, err
}

// LegalApplier is a State that can play a move known to be legal (one
// that its ParseMove or Moves returned) without checking it again, which
// would cost a move generation. Play uses it when a game offers it.
type LegalApplier interface {
	ApplyLegal(m Move) State
}

// IsLegal reports whether m is among s's legal moves. Games use it to check
// Play's argument; it costs one move generation.
func IsLegal(s State, m Move) bool {
	buf := getMoves()
	defer putMoves(buf)
	*buf = s.Moves((*buf)[:0])
	for _, l := range *buf {
		if l == m {
			return true
		}
	}
	return false
}

// movePool holds move buffers for IsLegal and FindMove. A buffer on the
// stack would escape through the State interface and cost a 11 KB
// allocation, cleared, per call: the largest cost of replaying a record.
var movePool = sync.Pool{New: func() any {
	b := make([]Move, 0, 256)
	return &b
}}

func getMoves() *[]Move { return movePool.Get().(*[]Move) }

func putMoves(b *[]Move) { movePool.Put(b) }

// FindMove returns the legal move of s whose canonical token is tok (already
// in canonical spelling), so that games can decode by generating moves.
func FindMove(s State, tok string) (Move, bool) {
	buf := getMoves()
	defer putMoves(buf)
	*buf = s.Moves((*buf)[:0])
	for _, l := range *buf {
		if s.FormatMove(l) == tok {
			return l, true
		}
	}
	return Move{}, false
}

// CheckSeats returns the seat count of o (2 when unset) or an ErrOptions
// error when it is not among allowed.
func CheckSeats(game string, o Options, allowed ...int) (int, error) {
	n := o.Seats
	if n == 0 {
		n = 2
	}
	for _, a := range allowed {
		if a == n {
			return n, nil
		}
	}
	strs := make([]string, len(allowed))
	for i, a := range allowed {
		strs[i] = fmt.Sprint(a)
	}
	return 0, fmt.Errorf("%w: %s is played by %s players, not %d", ErrOptions, game, strings.Join(strs, " or "), n)
}

// CodeAppender is a State that can write its position code into a buffer:
// AppendCode(dst) returns append(dst, s.Code()...) without making the
// string. The archive hashes a code for every position it indexes, and
// uses this when a game offers it. The conformance suite checks that the
// two agree.
type CodeAppender interface {
	AppendCode(dst []byte) []byte
}

// KeyAppender is a State that writes a key of its position: a byte string
// equal for two positions exactly when their codes are, starting with the
// game's name and a 0 byte so that no two games share one, and cheaper to
// write than the code (the fields the code is made of, copied, instead
// of text). The archive indexes positions by a hash of their keys.
type KeyAppender interface {
	AppendKey(dst []byte) []byte
}

// AppendKey appends s's position key to dst: its KeyAppender's, or else
// its position code (which is a key too, only slower to write).
func AppendKey(dst []byte, s State) []byte {
	if a, ok := s.(KeyAppender); ok {
		return a.AppendKey(dst)
	}
	return AppendCode(dst, s)
}

// AppendCode appends s's position code to dst, through CodeAppender when
// s offers it.
func AppendCode(dst []byte, s State) []byte {
	if a, ok := s.(CodeAppender); ok {
		return a.AppendCode(dst)
	}
	return append(dst, s.Code()...)
}

// TokenMatcher is a State whose move tokens may leave out a part of the
// move the writer leaves open: a Pikemen charge written without its
// final orientation, "c6xc1", stands for the charge ending in any
// orientation. Conditional moves by mail ("if c6xc1 then g2:W") match
// with it. A game without it matches a token to the one move it decodes
// to.
type TokenMatcher interface {
	// Matches reports whether the token written stands for m, a legal
	// move in this position.
	Matches(written string, m Move) bool
}

// Matches reports whether the token written stands for m, a legal move
// of s: the game's TokenMatcher when it has one, else the move the token
// decodes to in s is m. A token that does not decode matches nothing.
func Matches(s State, written string, m Move) bool {
	if tm, ok := s.(TokenMatcher); ok {
		return tm.Matches(written, m)
	}
	got, err := s.ParseMove(written)
	return err == nil && got == m
}
