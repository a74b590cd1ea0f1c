package notation

import (
	"slices"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of variations so that hostile input cannot
// exhaust the stack.
const maxDepth = 200

// Parse reads every record in src. It returns the records that parsed
// (those with errors are left out) and the syntax errors found, in order.
// file names the input in error messages.
func Parse(file string, src []byte) ([]*Record, ErrorList) {
	return parseAt(file, src, 1)
}

// parseAt is Parse on a piece of a file that starts at line.
func parseAt(file string, src []byte, line int) ([]*Record, ErrorList) {
	var recs []*Record
	errs := parseEach(file, src, line, func(rec *Record) { recs = append(recs, rec) })
	return recs, errs
}

// parseEach is parseAt that hands each record that parsed to fn as soon
// as it is read, in input order.
func parseEach(file string, src []byte, line int, fn func(*Record)) ErrorList {
	p := &parser{s: newScanner(file, string(src)), file: file}
	p.s.line = line
	p.next()
	for p.tok.kind != tEOF {
		rec, clean := p.record()
		switch {
		case rec == nil:
			p.recover()
		case clean:
			fn(rec)
		}
	}
	return ErrorList(p.s.errs)
}

type parser struct {
	s    *scanner
	tok  token
	prev Pos // where the token before tok starts
	file string
	// attributed counts the errors that belong to records already read
	// (of those the scanner keeps); attributedAll, of all it found.
	attributed    int
	attributedAll int
	// moves is a stack of the moves of the lines being read, the
	// innermost variation's last; a line takes its own off the top when
	// it ends, in one allocation. The moves themselves are cut from slab,
	// an array allocated for many moves at a time. tags is the record's
	// tags as read. moves and tags are reused from record to record, so
	// that reading allocates per line and per record, not per move or per
	// tag.
	moves []*Move
	slab  []Move
	tags  []Tag
	// followed says the text is one record cut from a stream that goes
	// on with another record's tags (Splitter): its end is read as the
	// next record's first tag, so that errors are those of the whole.
	followed bool
}

// Bounds of the number of moves in a slab: a slab is shared by the
// records read from it, and one record kept keeps it all.
const (
	minSlab = 16
	maxSlab = 512
)

// newMove returns a zero Move from the slab.
func (p *parser) newMove() *Move {
	if len(p.slab) == 0 {
		// A move takes at least two bytes of the input: the rest of the
		// input bounds the moves still to come, and a quarter of it
		// (a four-byte move, a one-byte token and its number are rarer)
		// seldom leaves more than one slab's worth unused.
		n := (len(p.s.src) - p.s.off) / 4
		p.slab = make([]Move, min(maxSlab, max(minSlab, n)))
	}
	m := &p.slab[0]
	p.slab = p.slab[1:]
	return m
}

func (p *parser) next() {
	p.prev = p.tok.pos
	p.tok = p.s.next()
}

func (p *parser) errorf(pos Pos, format string, args ...any) {
	p.s.errorAt(pos, format, args...)
}

// recover skips to the start of the next record after an error in
// movetext: the next tag that begins a line.
func (p *parser) recover() {
	for p.tok.kind != tEOF && (p.tok.kind != tTag || !p.tok.startsLine) {
		p.next()
	}
}

// record parses one record. It returns nil when the record is broken off
// by an error; otherwise the record and whether it is free of errors.
func (p *parser) record() (*Record, bool) {
	rec := &Record{Pos: p.tok.pos, File: p.file}
	// Errors at or after the record's first token are its own: the first
	// token was scanned as the lookahead of the record before, and errors
	// are not always appended in the order of their positions.
	from, fromAll := p.attributed, p.attributedAll
	p.tags = p.tags[:0]
	var seen map[string]bool // when there are many tags
	for p.tok.kind == tTag {
		t := p.tok
		if t.text != "" {
			if p.hasTag(t.text, &seen) {
				p.errorf(t.pos, "tag %s appears twice", cutToken(t.text))
			}
			p.tags = append(p.tags, Tag{Name: t.text, Value: t.value, Pos: t.pos})
		}
		p.next()
	}
	if len(p.tags) > 0 {
		rec.Tags = slices.Clone(p.tags)
	}
	p.moves = p.moves[:0]
	if !p.line(0, rec.Pos, &rec.Main) {
		return nil, false
	}
	switch p.tok.kind {
	case tWord:
		rec.Result, rec.ResultPos = p.tok.text, p.tok.pos
		clean := true
		for _, e := range p.s.errs[from:] {
			if !e.Pos.less(rec.Pos) {
				clean = false
			}
		}
		if p.s.lost > 0 && !p.s.lastLost.less(rec.Pos) {
			clean = false // an error not kept was in this record
		}
		p.attributed, p.attributedAll = len(p.s.errs), p.s.nerrs()
		p.next()
		return rec, clean
	case tClose:
		p.errorf(p.tok.pos, "')' closes no variation")
	case tTag:
		// Reported at the end of this record, not at the next one's tag.
		p.errorf(p.prev, "no result marker before the next record's tags: end this record with 1-0, 0-1, 1/2-1/2 or *")
	case tEOF:
		if p.followed {
			p.errorf(p.prev, "no result marker before the next record's tags: end this record with 1-0, 0-1, 1/2-1/2 or *")
			break
		}
		if p.s.nerrs() == fromAll {
			// Say it only when nothing else broke the record (an
			// unclosed comment swallows the marker, for one).
			p.errorf(p.tok.pos, "the record has no result marker: end it with 1-0, 0-1, 1/2-1/2 or *")
		}
	}
	return nil, false
}

// hasTag reports whether the record has a tag called name already; seen
// takes over from a scan of the tags when there are many.
func (p *parser) hasTag(name string, seen *map[string]bool) bool {
	const scan = 32
	if *seen == nil && len(p.tags) < scan {
		for _, t := range p.tags {
			if t.Name == name {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*scan)
		for _, t := range p.tags {
			(*seen)[t.Name] = true
		}
	}
	dup := (*seen)[name]
	(*seen)[name] = true
	return dup
}

// line reads a line of moves into l; it reports false after an error that
// breaks off the record.
func (p *parser) line(depth int, open Pos, l *Line) bool {
	l.Pos = p.tok.pos
	base := len(p.moves) // l's moves are p.moves[base:]
	var pending []string // comments waiting for the next move
	number, numberPos := 0, Pos{}
	last := -1 // index of the last move in p.moves
	for {
		switch p.tok.kind {
		case tComment:
			if last < 0 || number != 0 {
				pending = append(pending, p.tok.text)
			} else if m := p.moves[last]; len(m.Variations) > 0 {
				// A comment after a variation belongs before the next move.
				pending = append(pending, p.tok.text)
			} else {
				m.After = append(m.After, p.tok.text)
			}
			p.next()
		case tNAG:
			if last < 0 || number != 0 || len(pending) > 0 {
				p.errorf(p.tok.pos, "an annotation must follow a move")
				return false
			}
			if m := p.moves[last]; len(m.After) > 0 || len(m.Variations) > 0 {
				p.errorf(p.tok.pos, "an annotation must follow a move")
				return false
			}
			p.moves[last].NAGs = append(p.moves[last].NAGs, p.tok.nag)
			p.next()
		case tOpen:
			if last < 0 || number != 0 {
				p.errorf(p.tok.pos, "a variation must follow the move it replaces")
				return false
			}
			if depth >= maxDepth {
				p.errorf(p.tok.pos, "variations nest more than %d deep", maxDepth)
				return false
			}
			open := p.tok.pos
			p.next()
			v := new(Line)
			if !p.line(depth+1, open, v) {
				return false
			}
			if p.tok.kind != tClose {
				p.errorf(open, "variation not closed: add ')'")
				return false
			}
			p.next()
			v.Pos = open
			p.moves[last].Variations = append(p.moves[last].Variations, v)
			// Comments before the variation that followed the move are
			// the move's; those after go before the next move.
		case tWord:
			w := p.tok
			if isResultLike(w.text) {
				if number != 0 {
					p.errorf(numberPos, "a move number must be followed by a move")
					return false
				}
				if depth > 0 {
					p.errorf(w.pos, "a result marker inside a variation: close it with ')' first")
					return false
				}
				if !validResult(w.text) {
					p.errorf(w.pos, "%s is not a result: use 1-0, 0-1, 1/2-1/2, * or each seat's points joined by '-' (0-1-0)", quote(w.text))
					return false
				}
				l.Comments = append(l.Comments, pending...)
				l.Moves = p.takeMoves(base)
				return true
			}
			text, pos := w.text, w.pos
			if text[0] >= '0' && text[0] <= '9' {
				if number != 0 {
					p.errorf(w.pos, "two move numbers in a row")
					return false
				}
				n, rest, ok := splitNumber(text)
				if ok && rest != "" && (rest[0] >= '0' && rest[0] <= '9' || isResultLike(rest)) {
					ok = false // a move never starts with a digit
				}
				if !ok {
					p.errorf(w.pos, "%s is not a move number: write it as 12.", quote(text))
					return false
				}
				number, numberPos = n, w.pos
				if rest == "" {
					p.next()
					continue
				}
				text = rest
				pos.Col += len(w.text) - len(rest)
			}
			// Field by field: the slab's move is zero, and most fields stay so.
			m := p.newMove()
			m.Token, m.Pos = text, pos
			if number != 0 {
				m.Number, m.NumberPos = number, numberPos
			}
			if pending != nil {
				m.Before = pending
			}
			p.moves = append(p.moves, m)
			pending = nil
			number, numberPos = 0, Pos{}
			last = len(p.moves) - 1
			p.next()
		case tClose, tTag, tEOF:
			if number != 0 {
				p.errorf(numberPos, "a move number must be followed by a move")
				return false
			}
			l.Comments = append(l.Comments, pending...)
			if p.tok.kind == tClose && depth == 0 {
				p.errorf(p.tok.pos, "')' closes no variation")
				return false
			}
			if p.tok.kind != tClose && depth > 0 {
				p.errorf(open, "variation not closed: add ')'")
				return false
			}
			l.Moves = p.takeMoves(base)
			return true
		default:
			p.errorf(p.tok.pos, "unexpected input")
			return false
		}
	}
}

// takeMoves takes the moves from p.moves[base:] off the stack into a
// line's own slice.
func (p *parser) takeMoves(base int) []*Move {
	ms := p.moves[base:]
	if len(ms) == 0 {
		return nil
	}
	own := slices.Clone(ms)
	p.moves = p.moves[:base]
	return own
}

// isResultLike reports whether a word is meant as a result marker.
func isResultLike(w string) bool {
	if w == "*" {
		return true
	}
	if w[0] < '0' || w[0] > '9' {
		return false
	}
	dash := false
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case '-', '/':
			dash = true
		case '.':
			return false
		}
	}
	return dash
}

// validResult checks a result marker's shape: * or 2 to 4 parts of 0, 1
// or 1/2 joined by '-'.
func validResult(w string) bool {
	if w == "*" {
		return true
	}
	parts := 0
	for rest, more := w, true; more; parts++ {
		var part string
		part, rest, more = strings.Cut(rest, "-")
		if part != "0" && part != "1" && part != "1/2" {
			return false
		}
	}
	return parts >= 2 && parts <= 4
}

// splitNumber reads "12." or "12..." at the start of a word and returns the
// number and the rest of the word.
func splitNumber(w string) (int, string, bool) {
	i := 0
	for i < len(w) && w[i] >= '0' && w[i] <= '9' {
		i++
	}
	j := i
	for j < len(w) && w[j] == '.' {
		j++
	}
	if j == i || (j-i != 1 && j-i != 3) || i > 6 {
		return 0, "", false
	}
	n, err := strconv.Atoi(w[:i])
	if err != nil || n < 1 {
		return 0, "", false
	}
	return n, w[j:], true
}
