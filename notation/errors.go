package notation

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors that an *Error wraps, so that callers can tell kinds of
// problems apart with errors.Is.
var (
	ErrSyntax     = errors.New("syntax error")        // the text is not the record format
	ErrTag        = errors.New("bad tag")             // a tag is missing, repeated or has a bad value
	ErrMove       = errors.New("illegal move")        // a move token that the rules refuse
	ErrMoveNumber = errors.New("wrong move number")   // a move number that does not fit the ply
	ErrResult     = errors.New("wrong result")        // a result that the replay contradicts
	ErrScore      = errors.New("wrong score")         // a Score tag that the replay contradicts
	ErrGame       = errors.New("unknown game")        // a Game tag that names no game
	ErrOptions    = errors.New("unsupported options") // options the game refuses
	ErrTooLarge   = errors.New("record too large")    // a record longer than a reader's limit (Splitter)
	ErrTooLong    = errors.New("record too long")     // a record with more plies than a command takes
)

// Pos is a place in the input: 1-based line and byte column.
type Pos struct {
	Line, Col int
}

func (p Pos) less(q Pos) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Error is one problem in a record, with where it is and what it is about.
type Error struct {
	File  string // file name, "" when not known
	Pos   Pos
	Ply   int    // 1-based ply of the move concerned, 0 when not about a move
	Token string // the move token concerned, "" when none
	Err   error  // the reason; wraps one of the sentinel errors
}

// Error formats as file:line:col: ply N, TOKEN: reason.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	b.WriteString(e.Pos.String())
	b.WriteString(": ")
	if e.Ply > 0 {
		fmt.Fprintf(&b, "ply %d: ", e.Ply)
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// kindError joins a sentinel kind with a message without repeating the
// kind's own text: errors.Is finds the kind, Error() shows the message.
type kindError struct {
	kind error
	msg  string
}

func (k *kindError) Error() string { return k.msg }
func (k *kindError) Unwrap() error { return k.kind }

func errorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// ErrorList is a list of errors in input order. Its Err method returns nil
// when the list is empty.
type ErrorList []*Error

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil when l is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Unwrap lets errors.Is and errors.As look at every error in the list.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}
