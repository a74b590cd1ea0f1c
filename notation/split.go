package notation

import (
	"bufio"
	"bytes"
	"io"
)

// Splitter cuts a stream of records into the text of one record at a
// time, without reading the stream whole, so that what reads a file
// needs the memory of its largest record, not of the file. It is to a
// record file what bufio.Scanner is to lines:
//
//	sp := notation.NewSplitter(r, limit)
//	for sp.Next() {
//		t := sp.Record() // t.Text, from line t.Line
//	}
//	if err := sp.Err(); err != nil { ... }
//
// A record starts at a line that begins with '[' (after spaces) following
// some movetext, or at any line that is not blank after a line of
// movetext that ends with a result marker, outside a {comment}: where the
// parser starts the next record, so that parsing the records one at a
// time finds what parsing the whole input finds (the archive's import
// splits the same way). The cuts are at line ends: records that follow
// one another on a line are one text (and a record whose tags begin after
// a result marker on the line before theirs is not found whole: no
// formatter writes one). Blank lines and '%' escape lines between records
// belong to neither.
//
// A record longer than the limit is not kept: Next skips the rest of it,
// counting its bytes, and Record says TooLarge with its size, so that a
// gigabyte of garbage on one line costs its read, not its memory.
type Splitter struct {
	br  *bufio.Reader
	max int // bytes a record may have; <= 0 for no limit

	lines int  // lines read
	first bool // no line read yet (a byte-order mark may come)
	eof   bool
	err   error

	cur RecordText
	// The line scan: some movetext seen in the current record; a
	// {comment} open at the end of the last line; the last line of
	// movetext ended with a result marker.
	sawMoves bool
	inBrace  bool
	ended    bool
	// blanks counts the blank lines after the current record's last
	// line: they are its own if more of it follows, nobody's if the next
	// record does.
	blanks     int
	blankBytes int64
	// A line read that starts the next record: its text, its length in
	// the input, its line number.
	pend      []byte
	pendLen   int64
	pendLine  int
	pendClass lineClass
	havePend  bool

	line []byte // the line being read, at most max+1 bytes of it
	buf  []byte // the records' text, reused
}

// RecordText is one record's text as a Splitter cut it from its stream.
type RecordText struct {
	// Text is the record's text, valid until the next call of Next; nil
	// when TooLarge. Lines the parser skips (blank, '%') may stand as
	// empty lines: the line numbers stay those of the input.
	Text []byte
	Line int   // the line of its first byte in the stream, 1-based
	N    int   // its number in the stream, 1-based
	Size int64 // its length in bytes as read, all of it when TooLarge
	// TooLarge says the record is longer than the Splitter's limit: its
	// text was read past, not kept.
	TooLarge bool
	// Followed says another record follows it: its text ends where the
	// next one begins (at its tags, or after this one's result marker),
	// not at the end of the stream.
	Followed bool
}

// NewSplitter returns a Splitter that reads r and refuses records longer
// than max bytes (max <= 0: no limit).
func NewSplitter(r io.Reader, max int) *Splitter {
	return &Splitter{br: bufio.NewReaderSize(r, 64<<10), max: max, first: true}
}

// Record returns the record Next found.
func (s *Splitter) Record() RecordText { return s.cur }

// Err returns the first error reading the stream, nil at its end.
func (s *Splitter) Err() error { return s.err }

// Next finds the next record; it returns false at the end of the stream
// or on an error (Err).
func (s *Splitter) Next() bool {
	if s.first {
		s.first = false
		if b, _ := s.br.Peek(3); bytes.Equal(b, []byte("\uFEFF")) {
			s.br.Discard(3) // as the scanner does: columns count after it
		}
	}
	n := s.cur.N
	s.cur = RecordText{Text: s.buf[:0], N: n + 1}
	s.sawMoves, s.inBrace, s.ended, s.blanks, s.blankBytes = false, false, false, 0, 0
	started := false
	if s.havePend {
		// A line read last time that starts this record: read with no
		// comment open, as at the start of a record.
		s.havePend = false
		s.cur.Line = s.pendLine
		s.take(s.pend, s.pendLen, s.pendClass)
		started = true
	}
	for !s.eof {
		size, c, err := s.readLine(s.inBrace)
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.err = err
			}
		}
		if size == 0 {
			break
		}
		s.lines++
		isTag := c.kind == '[' && !c.startInBrace
		blank := !c.startInBrace && (c.kind == 0 || c.kind == '%')
		if isTag && s.sawMoves || s.ended && !blank {
			// The next record starts here: keep the line for it.
			s.pend, s.line = s.line, s.pend
			s.pendLen, s.pendLine, s.pendClass, s.havePend = size, s.lines, c, true
			break
		}
		if blank {
			// Its own if more of the record follows.
			if started {
				s.blanks++
				s.blankBytes += size
			}
			continue
		}
		if !started {
			s.cur.Line = s.lines
			started = true
		}
		s.addBlanks()
		s.take(s.line, size, c)
	}
	if !started {
		s.cur = RecordText{N: n}
		return false
	}
	if !s.havePend {
		// The end of the stream: its blank lines stay, so that the
		// parser's "end of input" is where it is in the whole.
		s.addBlanks()
	}
	s.buf = s.cur.Text[:0]
	s.cur.Followed = s.havePend
	if s.cur.TooLarge {
		s.cur.Text = nil
	}
	return true
}

var newline = []byte{'\n'}

// take adds a line of the record, of size bytes in the input, and what
// it says of the lines after it.
func (s *Splitter) take(l []byte, size int64, c lineClass) {
	s.add(l, size)
	s.ended = false
	if c.startInBrace || c.kind != '[' {
		s.sawMoves = true
		s.inBrace = c.inBrace
		s.ended = c.endsWithResult()
	}
}

// addBlanks adds the blank lines held back to the current record, each
// as an empty line (the parser reads nothing in them).
func (s *Splitter) addBlanks() {
	s.add(nil, s.blankBytes)
	for ; s.blanks > 0; s.blanks-- {
		s.add(newline, 0)
	}
	s.blankBytes = 0
}

// add appends a line of n bytes in the input (l, or its start when it
// is longer than the limit) to the current record.
func (s *Splitter) add(l []byte, n int64) {
	s.cur.Size += n
	if s.cur.TooLarge {
		return
	}
	if s.max > 0 && s.cur.Size > int64(s.max) {
		s.cur.TooLarge = true
		s.cur.Text = s.cur.Text[:0]
		return
	}
	s.cur.Text = append(s.cur.Text, l...)
}

// readLine reads one line, however long, into s.line, keeping at most
// max+1 bytes of it (enough to know it is too long), and classifies it
// as it reads; it returns the line's length in the input.
func (s *Splitter) readLine(inBrace bool) (int64, lineClass, error) {
	s.line = s.line[:0]
	c := lineClass{startInBrace: inBrace, inBrace: inBrace}
	var n int64
	for {
		frag, err := s.br.ReadSlice('\n')
		c.scan(frag, n == 0)
		n += int64(len(frag))
		keep := len(frag)
		if s.max > 0 {
			keep = min(keep, max(0, s.max+1-len(s.line)))
		}
		s.line = append(s.line, frag[:keep]...)
		if err != bufio.ErrBufferFull {
			return n, c, err
		}
	}
}

// lineClass is what the Splitter learns of a line, read in pieces.
type lineClass struct {
	// kind is the line's first byte that is not white space: '[' (a
	// tag), '%' (an escape line, in column 1 only), 'm' (any other:
	// movetext); 0 while there is none.
	kind byte
	// startInBrace: a {comment} was open before the line. inBrace: one
	// is open after the bytes scanned; inSemi: a ';' comment runs to the
	// end of the line.
	startInBrace, inBrace, inSemi bool
	// tail is the line's last bytes (tailLen of them), where a result
	// marker that ends it would be; cut says the line is longer.
	tail    [32]byte
	tailLen int
	cut     bool
}

// scan reads the next piece of a line; atStart says it is the line's
// first. It jumps from brace to brace (bytes.IndexByte), so that a line
// costs about what it takes to read, however many comments it has.
func (c *lineClass) scan(b []byte, atStart bool) {
	i := 0
	if c.kind == 0 {
		for i < len(b) && isSpaceByte(b[i]) {
			i++
		}
		if i == len(b) {
			return
		}
		switch {
		case b[i] == '%' && atStart && i == 0:
			c.kind = '%'
		case b[i] == '[':
			c.kind = '['
		default:
			c.kind = 'm'
		}
	}
	// Comments count in movetext, and in a line that goes on with a
	// comment (CommentOpen, in jumps).
	if !c.startInBrace && c.kind != 'm' || c.inSemi {
		return
	}
	c.keepTail(b)
	nextOpen, nextSemi := -1, -1 // where the next '{' and ';' are, from i
	for i < len(b) {
		if c.inBrace {
			j := bytes.IndexByte(b[i:], '}')
			if j < 0 {
				return
			}
			i += j + 1
			c.inBrace = false
			continue
		}
		if nextOpen < i {
			if nextOpen = bytes.IndexByte(b[i:], '{'); nextOpen >= 0 {
				nextOpen += i
			} else {
				nextOpen = len(b)
			}
		}
		if nextSemi < i {
			if nextSemi = bytes.IndexByte(b[i:], ';'); nextSemi >= 0 {
				nextSemi += i
			} else {
				nextSemi = len(b)
			}
		}
		switch {
		case nextSemi < nextOpen:
			c.inSemi = true
			return
		case nextOpen < len(b):
			c.inBrace = true
			i = nextOpen + 1
		default:
			return
		}
	}
}

// keepTail keeps the last bytes of the line read so far.
func (c *lineClass) keepTail(b []byte) {
	if len(b) >= len(c.tail) {
		c.cut = c.cut || c.tailLen > 0 || len(b) > len(c.tail)
		c.tailLen = copy(c.tail[:], b[len(b)-len(c.tail):])
		return
	}
	if over := c.tailLen + len(b) - len(c.tail); over > 0 {
		copy(c.tail[:], c.tail[over:c.tailLen])
		c.tailLen -= over
		c.cut = true
	}
	c.tailLen += copy(c.tail[c.tailLen:], b)
}

// endsWithResult reports whether the line scanned ends with a result
// marker outside comments: with no comment open at its end, its last
// word (which no comment's '}' is part of).
func (c *lineClass) endsWithResult() bool {
	if c.inBrace || c.inSemi {
		return false
	}
	t := c.tail[:c.tailLen]
	end := len(t)
	for end > 0 && isSpaceByte(t[end-1]) {
		end--
	}
	start := end
	for start > 0 && !isSpaceByte(t[start-1]) && !notWord[t[start-1]] {
		start--
	}
	if start == end || start == 0 && c.cut {
		return false // no word at the end, or one longer than any marker
	}
	w := t[start:end]
	switch w[0] {
	case '*':
		return len(w) == 1
	case '0', '1':
		return validResult(string(w))
	}
	return false
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
