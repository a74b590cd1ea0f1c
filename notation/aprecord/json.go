package aprecord

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"icepost/notation"
)

// A record's JSON is read by a small parser of its own, not by
// encoding/json, so that every value keeps where it stands in the file
// (an error names the line and column of AP's move, not just the
// record) and so that a hostile record cannot nest without end.

// kind is a JSON value's type.
type kind uint8

const (
	jNull kind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

var kindNames = [...]string{jNull: "null", jBool: "a boolean", jNumber: "a number", jString: "a string", jArray: "an array", jObject: "an object"}

func (k kind) String() string { return kindNames[k] }

// value is one JSON value and where it starts.
type value struct {
	kind   kind
	pos    notation.Pos
	str    string // a string's text; a number as written
	b      bool
	arr    []*value
	fields []field
}

type field struct {
	name string
	pos  notation.Pos
	val  *value
}

// get returns the field called name, nil when there is none.
func (v *value) get(name string) *value {
	for _, f := range v.fields {
		if f.name == name {
			return f.val
		}
	}
	return nil
}

// maxDepth is how deep a record's JSON may nest; an APGameRecord needs 5.
const maxDepth = 32

// jsonParser reads one JSON value from text, counting lines and columns
// from where text starts in its file.
type jsonParser struct {
	file      string
	text      []byte
	i         int
	line, col int // of text[i]
}

// parseJSON reads text, one JSON value and nothing after it but white
// space; line is the line of its first byte in the file.
func parseJSON(file string, text []byte, line, col int) (*value, error) {
	p := &jsonParser{file: file, text: text, line: line, col: col}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.text) {
		return nil, p.errorf("unexpected %s after the record's closing brace", p.quoteHere())
	}
	return v, nil
}

func (p *jsonParser) pos() notation.Pos { return notation.Pos{Line: p.line, Col: p.col} }

func (p *jsonParser) errorf(format string, args ...any) error {
	return &notation.Error{File: p.file, Pos: p.pos(), Err: kindErrorf(notation.ErrSyntax, "JSON: "+format, args...)}
}

// quoteHere names the byte at the parser, for an error.
func (p *jsonParser) quoteHere() string {
	if p.i >= len(p.text) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(p.text[p.i:])
	return strconv.QuoteRune(r)
}

// advance moves past n bytes, none of them a line end but the last.
func (p *jsonParser) advance(n int) {
	for range n {
		if p.text[p.i] == '\n' {
			p.line++
			p.col = 1
		} else {
			p.col++ // columns count bytes, as the notation's do
		}
		p.i++
	}
}

func (p *jsonParser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case ' ', '\t', '\r', '\n':
			p.advance(1)
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (*value, error) {
	if depth > maxDepth {
		return nil, p.errorf("nested more than %d deep: not an APGameRecord", maxDepth)
	}
	if p.i >= len(p.text) {
		return nil, p.errorf("the record ends where a value belongs")
	}
	v := &value{pos: p.pos()}
	switch c := p.text[p.i]; {
	case c == '{':
		v.kind = jObject
		p.advance(1)
		p.space()
		if p.i < len(p.text) && p.text[p.i] == '}' {
			p.advance(1)
			return v, nil
		}
		for {
			p.space()
			if p.i >= len(p.text) || p.text[p.i] != '"' {
				return nil, p.errorf("%s where a field's name in quotes belongs", p.quoteHere())
			}
			npos := p.pos()
			name, err := p.string()
			if err != nil {
				return nil, err
			}
			if v.get(name) != nil {
				return nil, &notation.Error{File: p.file, Pos: npos, Err: kindErrorf(notation.ErrSyntax, "JSON: field %q given twice", cut(name))}
			}
			p.space()
			if p.i >= len(p.text) || p.text[p.i] != ':' {
				return nil, p.errorf("%s where ':' belongs after %q", p.quoteHere(), cut(name))
			}
			p.advance(1)
			p.space()
			fv, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.fields = append(v.fields, field{name: name, pos: npos, val: fv})
			p.space()
			if p.i < len(p.text) && p.text[p.i] == ',' {
				p.advance(1)
				continue
			}
			if p.i < len(p.text) && p.text[p.i] == '}' {
				p.advance(1)
				return v, nil
			}
			return nil, p.errorf("%s where ',' or '}' belongs", p.quoteHere())
		}
	case c == '[':
		v.kind = jArray
		p.advance(1)
		p.space()
		if p.i < len(p.text) && p.text[p.i] == ']' {
			p.advance(1)
			return v, nil
		}
		for {
			p.space()
			ev, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, ev)
			p.space()
			if p.i < len(p.text) && p.text[p.i] == ',' {
				p.advance(1)
				continue
			}
			if p.i < len(p.text) && p.text[p.i] == ']' {
				p.advance(1)
				return v, nil
			}
			return nil, p.errorf("%s where ',' or ']' belongs", p.quoteHere())
		}
	case c == '"':
		v.kind = jString
		s, err := p.string()
		v.str = s
		return v, err
	case c == 't' || c == 'f' || c == 'n':
		for _, w := range []string{"true", "false", "null"} {
			if len(p.text)-p.i >= len(w) && string(p.text[p.i:p.i+len(w)]) == w {
				p.advance(len(w))
				v.kind, v.b = jBool, w == "true"
				if w == "null" {
					v.kind = jNull
				}
				return v, nil
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		j := p.i
		for j < len(p.text) && (p.text[j] >= '0' && p.text[j] <= '9' || p.text[j] == '-' || p.text[j] == '+' || p.text[j] == '.' || p.text[j]|0x20 == 'e') {
			j++
		}
		num := string(p.text[p.i:j])
		if !json.Valid([]byte(num)) {
			return nil, p.errorf("%q is not a number", cut(num))
		}
		v.kind, v.str = jNumber, num
		p.advance(j - p.i)
		return v, nil
	}
	return nil, p.errorf("%s where a value belongs", p.quoteHere())
}

// string reads a quoted string at the parser, escapes decoded (by
// encoding/json, which knows every escape and UTF-16 pair).
func (p *jsonParser) string() (string, error) {
	j := p.i + 1
	plain := true
	for ; j < len(p.text); j++ {
		c := p.text[j]
		if c == '\\' {
			plain = false
			j++
			continue
		}
		if c == '"' {
			break
		}
		if c < 0x20 {
			p.advance(j - p.i)
			return "", p.errorf("a control character inside a string (a line end must be written \\n)")
		}
	}
	if j >= len(p.text) {
		return "", p.errorf("a string that does not end")
	}
	raw := p.text[p.i : j+1]
	var s string
	if plain && utf8.Valid(raw) {
		s = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &s); err != nil || !utf8.Valid(raw) {
		return "", p.errorf("a string with a bad escape or bytes that are not UTF-8")
	}
	p.advance(j + 1 - p.i)
	return s, nil
}

// kindError joins a sentinel of package notation with a message without
// repeating the sentinel's own text.
type kindError struct {
	kind error
	msg  string
}

func (k *kindError) Error() string { return k.msg }
func (k *kindError) Unwrap() error { return k.kind }

func kindErrorf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// cut shortens what an error quotes to notation.MaxQuote characters.
func cut(s string) string { return notation.Cut(s, notation.MaxQuote) }
