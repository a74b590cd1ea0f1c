package notation

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"icepost/rules/games"
)

// LineWidth is the longest line the formatter writes (unless one word is
// longer).
const LineWidth = 79

// Format writes rec in the canonical export form: tags in the standard
// order, one per line, a blank line, then the movetext filled to
// LineWidth, ending with the result marker and a newline. Move tokens are
// written as they stand in rec: Replay first to make them canonical.
func Format(w io.Writer, rec *Record) error {
	_, err := w.Write(AppendFormat(nil, rec))
	return err
}

// FormatAll writes records separated by blank lines.
func FormatAll(w io.Writer, recs []*Record) error {
	var buf []byte
	for i, r := range recs {
		if i > 0 {
			buf = append(buf, '\n')
		}
		buf = AppendFormat(buf, r)
	}
	_, err := w.Write(buf)
	return err
}

// String returns rec in the canonical export form.
func (r *Record) String() string { return string(AppendFormat(nil, r)) }

var standardOrder = []string{"Game", "Event", "Site", "Date", "Round"}

// AppendFormat appends the canonical form of rec to buf.
func AppendFormat(buf []byte, rec *Record) []byte {
	for _, t := range sortedTags(rec) {
		buf = append(buf, '[')
		buf = append(buf, t.Name...)
		buf = append(buf, " \""...)
		for i := 0; i < len(t.Value); i++ {
			if c := t.Value[i]; c == '"' || c == '\\' {
				buf = append(buf, '\\')
			}
			buf = append(buf, t.Value[i])
		}
		buf = append(buf, "\"]\n"...)
	}
	buf = append(buf, '\n')
	f := filler{buf: buf, lineStart: len(buf)}
	f.line(&rec.Main, 0, rec.Seats())
	f.word(rec.Result)
	f.buf = append(f.buf, '\n')
	return f.buf
}

func sortedTags(rec *Record) []Tag {
	rank := func(t Tag) (int, int) {
		if i := slices.Index(standardOrder, t.Name); i >= 0 {
			return i, 0
		}
		if k, ok := playerIndex(t.Name); ok {
			return len(standardOrder), k
		}
		if t.Name == "Result" {
			return len(standardOrder) + 1, 0
		}
		return len(standardOrder) + 2, 0
	}
	tags := slices.Clone(rec.Tags)
	for i := range tags {
		if tags[i].Name == "Game" {
			if g, ok := games.Lookup(tags[i].Value); ok {
				tags[i].Value = g.Name()
			}
		}
	}
	slices.SortStableFunc(tags, func(a, b Tag) int {
		ra, ka := rank(a)
		rb, kb := rank(b)
		if ra != rb {
			return ra - rb
		}
		if ka != kb {
			return ka - kb
		}
		return strings.Compare(a.Name, b.Name)
	})
	return tags
}

// filler writes words separated by single spaces, breaking lines at a space
// so that no line is longer than LineWidth.
type filler struct {
	buf       []byte
	lineStart int
	hardBreak bool // the last word was a ';' comment: a new line must follow
	open      bool // a "(" waits to be written before the next word
}

func (f *filler) word(w string) {
	if f.open {
		// "(" stays with the first word of its variation.
		w = "(" + w
		f.open = false
	}
	n := len(f.buf) - f.lineStart
	switch {
	case n == 0:
	case f.hardBreak || n+1+len(w) > LineWidth:
		f.buf = append(f.buf, '\n')
		f.lineStart = len(f.buf)
	default:
		f.buf = append(f.buf, ' ')
	}
	f.hardBreak = false
	f.buf = append(f.buf, w...)
}

// closeParen writes ")" directly after the last word when it fits.
func (f *filler) closeParen() {
	if f.hardBreak || f.open || len(f.buf)-f.lineStart+1 > LineWidth {
		f.word(")") // "()" for an empty variation
		return
	}
	f.buf = append(f.buf, ')')
}

func (f *filler) comment(c string) {
	if strings.Contains(c, "}") {
		// Only a ';' comment can hold a '}'; it runs to the end of the line.
		f.word(";" + c)
		f.hardBreak = true
		return
	}
	words := strings.Fields(c)
	if len(words) == 0 {
		f.word("{}")
		return
	}
	for i, w := range words {
		if i == 0 {
			w = "{" + w
		}
		if i == len(words)-1 {
			w += "}"
		}
		f.word(w)
	}
}

// line writes a line of play whose first move is ply first (0-based).
func (f *filler) line(l *Line, first, seats int) {
	for i, m := range l.Moves {
		ply := first + i
		for _, c := range m.Before {
			f.comment(c)
		}
		// A move number stays on the line of its move.
		switch {
		case ply%seats == 0:
			f.word(strconv.Itoa(ply/seats+1) + ". " + m.Token)
		case i == 0 || len(l.Moves[i-1].Variations) > 0 || len(l.Moves[i-1].After) > 0 || len(m.Before) > 0:
			// Where the reader's eye lost the count (a new line of play,
			// a comment or a variation), the number says where we are.
			f.word(strconv.Itoa(ply/seats+1) + "... " + m.Token)
		default:
			f.word(m.Token)
		}
		for _, n := range m.NAGs {
			f.word("$" + strconv.Itoa(n))
		}
		for _, c := range m.After {
			f.comment(c)
		}
		for _, v := range m.Variations {
			f.open = true
			f.line(v, ply, seats)
			f.closeParen()
		}
	}
	for _, c := range l.Comments {
		f.comment(c)
	}
}
