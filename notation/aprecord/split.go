package aprecord

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"icepost/notation"
)

// IsJSON reports whether an input that begins with head holds JSON
// rather than icepost's records: its first character, after a byte-order
// mark and white space, opens an object, or opens an array whose first
// character inside opens an object or an array or closes it. A record of
// icepost's format begins with a tag, "[Name", or with a move, so the two
// are told apart by content, whatever the file is called.
func IsJSON(head []byte) bool {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 {
		return false
	}
	switch head[0] {
	case '{':
		return true
	case '[':
		rest := bytes.TrimLeft(head[1:], " \t\r\n")
		return len(rest) > 0 && (rest[0] == '{' || rest[0] == ']' || rest[0] == '[')
	}
	return false
}

// Sniff reads the start of br without taking it and reports whether
// the input is JSON (IsJSON).
func Sniff(br *bufio.Reader) bool {
	head, _ := br.Peek(4096)
	return IsJSON(head)
}

// RecordText is one record's JSON as read from a stream.
type RecordText struct {
	Text     []byte // the record's JSON; nil when TooLarge
	N        int    // its number in the stream, 1-based
	Line     int    // the line of its first byte, 1-based
	Col      int    // the column of its first byte
	Offset   int64  // the byte offset of its first byte
	Size     int64  // its length in bytes as read, all of it when TooLarge
	TooLarge bool   // longer than the Splitter's limit: read past, not kept
	Head     []byte // when TooLarge, its first HeadBytes bytes, to show
}

// HeadBytes is how much of a record too large a Splitter keeps (Head).
const HeadBytes = 4096

// A Splitter reads a stream of APGameRecord JSON a record at a time:
// one record (an object), several objects one after another, or an
// array of them, without holding more than one record in memory. A
// record longer than the limit is read past and reported by its size,
// however long it is (a file of 10 MB that is one string costs no more
// than the limit). Line ends inside strings are not allowed by JSON, so
// records are cut by counting braces and brackets outside strings.
type Splitter struct {
	br        *bufio.Reader
	max       int
	line, col int
	offset    int64
	n         int
	started   bool
	inArray   bool
	done      bool
	cur       RecordText
	err       error
	buf       []byte
}

// NewSplitter reads r; max is the longest record kept, in bytes (0: any).
func NewSplitter(r io.Reader, max int) *Splitter {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	return &Splitter{br: br, max: max, line: 1, col: 1}
}

// Record is the record Next read.
func (s *Splitter) Record() RecordText { return s.cur }

// Err is the error that stopped the Splitter, nil at the end of the input.
func (s *Splitter) Err() error { return s.err }

func (s *Splitter) fail(format string, args ...any) bool {
	s.err = &notation.Error{Pos: notation.Pos{Line: s.line, Col: s.col}, Err: kindErrorf(notation.ErrSyntax, "JSON: "+format, args...)}
	s.done = true
	return false
}

// readByte takes one byte, keeping count of lines and columns.
func (s *Splitter) readByte() (byte, bool) {
	c, err := s.br.ReadByte()
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.err = err
		}
		return 0, false
	}
	s.offset++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c, true
}

// peekSpace skips white space (and, at the start, a byte-order mark) and
// returns the next byte without taking it.
func (s *Splitter) peekSpace() (byte, bool) {
	if !s.started {
		s.started = true
		if b, _ := s.br.Peek(3); bytes.Equal(b, []byte("\uFEFF")) {
			s.br.Discard(3)
			s.offset += 3
		}
	}
	for {
		b, err := s.br.Peek(1)
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			return 0, false
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			s.readByte()
		default:
			return b[0], true
		}
	}
}

// Next reads the next record; it returns false at the end of the input
// or at an error (Err).
func (s *Splitter) Next() bool {
	if s.done {
		return false
	}
	c, ok := s.peekSpace()
	if !s.inArray && s.n == 0 {
		switch {
		case !ok:
			s.done = true
			return false
		case c == '[':
			s.readByte()
			s.inArray = true
			c, ok = s.peekSpace()
			if ok && c == ']' {
				s.readByte()
				return s.end()
			}
		case c != '{':
			return s.fail("an APGameRecord file holds a record ({...}) or an array of them ([{...}, ...]), not %q", c)
		}
	} else if s.inArray {
		switch {
		case !ok:
			return s.fail("the array of records does not end (a ']' is missing)")
		case c == ']':
			s.readByte()
			return s.end()
		case c != ',':
			return s.fail("%q after record %d where ',' or ']' belongs", c, s.n)
		}
		s.readByte()
		if _, ok := s.peekSpace(); !ok {
			return s.fail("the array of records ends after a ','")
		}
	} else {
		// Records one after another, not in an array.
		if !ok {
			s.done = true
			return false
		}
		if c != '{' {
			return s.fail("%q after record %d where another record ({...}) or the end belongs", c, s.n)
		}
	}
	return s.value()
}

// end checks that nothing but white space follows the array.
func (s *Splitter) end() bool {
	if c, ok := s.peekSpace(); ok {
		return s.fail("%q after the array of records", c)
	}
	s.done = true
	return false
}

// value reads one JSON value: the next record.
func (s *Splitter) value() bool {
	s.n++
	s.cur = RecordText{N: s.n, Line: s.line, Col: s.col, Offset: s.offset}
	s.buf = s.buf[:0]
	keep := true
	add := func(c byte) {
		if !keep {
			return
		}
		if s.max > 0 && len(s.buf) >= s.max {
			keep = false
			s.buf = s.buf[:min(len(s.buf), HeadBytes)]
			return
		}
		s.buf = append(s.buf, c)
	}
	depth, inString, escaped := 0, false, false
	for {
		b, err := s.br.Peek(1)
		if err != nil || len(b) == 0 {
			if err != nil && !errors.Is(err, io.EOF) {
				s.err = err
				s.done = true
				return false
			}
			if depth == 0 && !inString && s.cur.Offset != s.offset {
				break // a scalar at the end of the input
			}
			return s.fail("the input ends inside record %d (from line %d)", s.n, s.cur.Line)
		}
		c := b[0]
		if !inString && depth == 0 && s.cur.Offset != s.offset {
			if c == ',' || c == ']' || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '{' || c == '[' {
				break // the end of a scalar
			}
		}
		s.readByte()
		add(c)
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			if !inString && depth == 0 {
				goto done
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth <= 0 {
				goto done
			}
		}
	}
done:
	s.cur.Size = s.offset - s.cur.Offset
	if keep {
		s.cur.Text = s.buf
	} else {
		s.cur.TooLarge, s.cur.Head = true, s.buf
	}
	return true
}
