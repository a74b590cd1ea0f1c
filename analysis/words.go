package analysis

import (
	"fmt"
	"strconv"
	"strings"
)

// The analysis in words, for what a player reads (the mail, the table's
// review, the web site): how a record numbers a move, and the marks
// named and counted in English.

// MoveNumber is the number a record gives the move at ply (from 1) in a
// game of seats: "10." for the first move of its group, "10..." for the
// others (docs/notation.md, "Movetext": a number counts groups of as
// many turns as there are seats, whoever moves). Written before the
// move's token, it is how the record reads: "10. f2:NW", "10... b5:E".
// A record without seats has 2.
func MoveNumber(ply, seats int) string {
	if seats < 1 {
		seats = 2
	}
	if ply < 1 {
		ply = 1
	}
	n := strconv.Itoa((ply-1)/seats + 1)
	if (ply-1)%seats == 0 {
		return n + "."
	}
	return n + "..."
}

// WithArticle is the mark's name after "a" or "an": "an inaccuracy", "a
// mistake", "a blunder"; "" for Good.
func (m Mark) WithArticle() string {
	switch m {
	case Good:
		return ""
	case Inaccuracy:
		return "an " + m.String()
	}
	return "a " + m.String()
}

// Plural is the mark's name for more than one: "inaccuracies",
// "mistakes", "blunders"; "" for Good.
func (m Mark) Plural() string {
	return [...]string{"", "inaccuracies", "mistakes", "blunders"}[m]
}

// Count is n marks in words: "1 inaccuracy", "3 inaccuracies", "0
// blunders".
func (m Mark) Count(n int) string {
	if n == 1 {
		return "1 " + m.String()
	}
	return strconv.Itoa(n) + " " + m.Plural()
}

// MarkCounts says how many of moves have each mark, the worst first,
// leaving out the marks none has: "1 blunder, 2 mistakes and 1
// inaccuracy"; "" when no move is marked.
func MarkCounts(moves []Move) string {
	var n [Blunder + 1]int
	for _, m := range moves {
		if m.Mark > Good && m.Mark <= Blunder {
			n[m.Mark]++
		}
	}
	var parts []string
	for m := Blunder; m >= Inaccuracy; m-- {
		if n[m] > 0 {
			parts = append(parts, m.Count(n[m]))
		}
	}
	return andList(parts)
}

// andList joins words as a list in a sentence: "a", "a and b", "a, b
// and c".
func andList(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// LineText is a better move's line in words: its moves joined by
// ", then " ("h5-h6, then h7-g7, then g6-g7"); the better move alone
// when the record has no line.
func LineText(m Move) string {
	line := m.Line
	if len(line) == 0 && m.Better != "" {
		line = []string{m.Better}
	}
	return strings.Join(line, ", then ")
}

// WinText says a proved forced win of the better move, "wins in 2:
// h5-h6, then h7-g7, then g6-g7" ("wins at once: h5-h6" in one), and ""
// when the better move is not one (WinIn 0).
func WinText(m Move) string {
	switch {
	case m.WinIn == 0 || m.Better == "":
		return ""
	case m.WinIn == 1:
		return "wins at once: " + m.Better
	}
	return fmt.Sprintf("wins in %d: %s", m.WinIn, LineText(m))
}
