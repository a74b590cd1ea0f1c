package notation

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// token kinds
type kind uint8

const (
	tEOF     kind = iota
	tTag          // [Name "value"]: name in text, value in value
	tWord         // a move, a move number, or a result marker
	tComment      // {...} or ;...: the text, white space folded
	tNAG          // $n or a suffix annotation: the number in nag
	tOpen         // (
	tClose        // )
)

type token struct {
	kind  kind
	pos   Pos
	text  string // tag name, word, or comment text
	value string // tag value
	nag   int
	line  bool // a ';' comment, which runs to the end of its line
	// startsLine is set when the token is the first on its line.
	startsLine bool
}

// scanner splits the input into tokens. It is hand-written so that every
// token carries its position and the scan takes linear time.
type scanner struct {
	src  string
	off  int
	line int
	col  int // column of src[off], 1-based
	bol  bool
	errs []*Error
	file string
	// maxErrs, when above 0, is how many errors errs keeps: the others
	// are counted in lost, the furthest of them at lastLost, so that a
	// megabyte of '}' costs a counter, not a million errors.
	maxErrs  int
	lost     int
	lastLost Pos
}

func newScanner(file, src string) *scanner {
	src = strings.TrimPrefix(src, "\uFEFF")
	return &scanner{src: src, line: 1, col: 1, bol: true, file: file}
}

func (s *scanner) errorAt(p Pos, format string, args ...any) {
	if s.maxErrs > 0 && len(s.errs) >= s.maxErrs {
		s.lost++
		if s.lastLost.less(p) {
			s.lastLost = p
		}
		return
	}
	s.errs = append(s.errs, &Error{File: s.file, Pos: p, Err: errorf(ErrSyntax, format, args...)})
}

// nerrs is the number of errors found, those not kept included.
func (s *scanner) nerrs() int { return len(s.errs) + s.lost }

func (s *scanner) pos() Pos { return Pos{s.line, s.col} }

func (s *scanner) advance() {
	if s.src[s.off] == '\n' {
		s.line++
		s.col = 1
		s.bol = true
	} else {
		s.col++
	}
	s.off++
}

// advanceTo moves to src[end], counting the lines and columns passed over,
// as advance would byte by byte.
func (s *scanner) advanceTo(end int) {
	seg := s.src[s.off:end]
	if i := strings.LastIndexByte(seg, '\n'); i >= 0 {
		s.line += strings.Count(seg, "\n")
		s.col = len(seg) - i
		s.bol = true
	} else {
		s.col += len(seg)
	}
	s.off = end
}

// skipSpace skips white space and '%' escape lines.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '%' && s.col == 1:
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.advance()
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
		default:
			return
		}
	}
}

// notWord holds the bytes that end a word.
var notWord = func() (t [256]bool) {
	for _, c := range []byte(" \t\n\r\f\v{}();[]\"$!?") {
		t[c] = true
	}
	return t
}()

var suffixNAG = map[string]int{"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

// orientations that Abstract Play writes in parentheses after a Pikemen
// token, as in h1(NW): the parenthesis then belongs to the word.
func isOrientation(s string) bool {
	switch strings.ToUpper(s) {
	case "N", "NE", "E", "SE", "S", "SW", "W", "NW", "U":
		return true
	}
	return false
}

// next returns the next token.
func (s *scanner) next() token {
again:
	s.skipSpace()
	t := token{pos: s.pos(), startsLine: s.bol}
	s.bol = false
	if s.off >= len(s.src) {
		t.kind = tEOF
		return t
	}
	switch c := s.src[s.off]; c {
	case '[':
		return s.tag(t)
	case '{':
		s.advance()
		start := s.off
		end := strings.IndexByte(s.src[start:], '}')
		if end < 0 {
			s.advanceTo(len(s.src))
			s.errorAt(t.pos, "comment not closed: add '}'")
			t.kind = tComment
			t.text = fold(s.src[start:])
			return t
		}
		s.advanceTo(start + end)
		t.kind, t.text = tComment, fold(s.src[start:s.off])
		s.advance()
		return t
	case ';':
		s.advance()
		start := s.off
		end := strings.IndexByte(s.src[start:], '\n')
		if end < 0 {
			end = len(s.src) - start
		}
		s.advanceTo(start + end)
		t.kind, t.text, t.line = tComment, fold(s.src[start:s.off]), true
		return t
	case '(':
		s.advance()
		t.kind = tOpen
		return t
	case ')':
		s.advance()
		t.kind = tClose
		return t
	case '$':
		s.advance()
		n, digits := 0, 0
		for s.off < len(s.src) && s.src[s.off] >= '0' && s.src[s.off] <= '9' && digits < 4 {
			n = n*10 + int(s.src[s.off]-'0')
			digits++
			s.advance()
		}
		if digits == 0 || n > 255 {
			s.errorAt(t.pos, "an annotation is $ and a number from 0 to 255")
		}
		t.kind, t.nag = tNAG, n
		return t
	case '!', '?':
		start := s.off
		for s.off < len(s.src) && (s.src[s.off] == '!' || s.src[s.off] == '?') {
			s.advance()
		}
		t.kind = tNAG
		if n, ok := suffixNAG[s.src[start:s.off]]; ok {
			t.nag = n
		} else {
			s.errorAt(t.pos, "%s is not an annotation: use !, ?, !!, ??, !? or ?!", quote(s.src[start:s.off]))
		}
		return t
	case ']', '}', '"':
		s.advance()
		s.errorAt(t.pos, "unexpected %q", c)
		goto again // not a call: a megabyte of '}' would be as deep
	}
	start := s.off
	end := start
	for end < len(s.src) && !notWord[s.src[end]] {
		end++
	}
	// A word holds no newline.
	s.col += end - start
	s.off = end
	// Abstract Play's Pikemen form h1(NW): a parenthesised orientation
	// directly after the word.
	if s.off < len(s.src) && s.src[s.off] == '(' {
		if end := strings.IndexByte(s.src[s.off:min(len(s.src), s.off+5)], ')'); end > 0 && isOrientation(s.src[s.off+1:s.off+end]) {
			for range end + 1 {
				s.advance()
			}
		}
	}
	t.kind, t.text = tWord, s.src[start:s.off]
	if t.text[0] == '%' {
		s.errorAt(t.pos, "%s: '%%' starts an escape line only at the start of a line", quote(t.text))
	}
	if !utf8.ValidString(t.text) {
		s.errorAt(t.pos, "the word %s is not valid UTF-8", quote(t.text))
	}
	return t
}

func (s *scanner) tag(t token) token {
	t.kind = tTag
	s.advance() // [
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	start := s.off
	for s.off < len(s.src) && isNameByte(s.src[s.off]) {
		s.advance()
	}
	t.text = s.src[start:s.off]
	if t.text == "" {
		s.errorAt(t.pos, "a tag is [Name \"value\"]: the name is letters, digits and _")
		s.skipLine()
		return t
	}
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	if s.off >= len(s.src) || s.src[s.off] != '"' {
		s.errorAt(s.pos(), "tag %s: the value must be in double quotes", cutToken(t.text))
		s.skipLine()
		return t
	}
	s.advance()
	// Most values have no escape: then the value is the text itself.
	end := s.off
	for end < len(s.src) && s.src[end] != '"' && s.src[end] != '\\' && s.src[end] != '\n' {
		end++
	}
	if end < len(s.src) && s.src[end] == '"' {
		t.value = s.src[s.off:end]
		s.advanceTo(end + 1)
		return s.tagEnd(t)
	}
	var b strings.Builder
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			s.errorAt(t.pos, "tag %s: the value is not closed with '\"' on its line", cutToken(t.text))
			t.value = b.String()
			return t
		}
		c := s.src[s.off]
		if c == '"' {
			s.advance()
			break
		}
		if c == '\\' && s.off+1 < len(s.src) && (s.src[s.off+1] == '"' || s.src[s.off+1] == '\\') {
			s.advance()
			c = s.src[s.off]
		}
		b.WriteByte(c)
		s.advance()
	}
	t.value = b.String()
	return s.tagEnd(t)
}

// tagEnd checks a tag's value and reads the ']' after it.
func (s *scanner) tagEnd(t token) token {
	if !utf8.ValidString(t.value) {
		s.errorAt(t.pos, "tag %s: the value is not valid UTF-8", cutToken(t.text))
	}
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	if s.off >= len(s.src) || s.src[s.off] != ']' {
		s.errorAt(s.pos(), "tag %s: close it with ']'", cutToken(t.text))
		s.skipLine()
		return t
	}
	s.advance()
	return t
}

func (s *scanner) skipLine() {
	for s.off < len(s.src) && s.src[s.off] != '\n' {
		s.advance()
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// fold trims a comment and folds its white space to single spaces, so that
// a comment broken over lines by the formatter reads back the same.
func fold(s string) string {
	if folded(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// folded reports whether fold would return s unchanged: no white space
// at either end, and single spaces between words.
func folded(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if s[i+1] == ' ' {
				return false
			}
		case c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				return false
			}
			i += size - 1
		}
	}
	return true
}
