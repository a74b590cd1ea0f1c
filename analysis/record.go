// Package analysis turns the computer opponent into an analyst: for each
// move of a finished game, the engine's estimate of the mover's result
// before and after it, a mark for the moves that lowered it (inaccuracy,
// mistake, blunder) and the move the engine prefers after a mistake.
//
// The analysis lives in the record itself, in the record format's own
// places, so that every reader of a record (the archive, the web site,
// mail, another program) gets it with the game and any reader of the
// format can skip it: an Annotator tag names the level, a comment after
// each move of the main line holds the estimates ([%eval 0.63] [%before
// 0.71], the [%…] command convention of PGN tools), the suffixes ?!, ?
// and ?? are its NAGs, and the better move is a variation. Annotate
// writes a Report into a record and Read reads it back; docs/notation.md
// ("Computer analysis") is the format's one description.
package analysis

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/rules"
)

// Mark is what the analysis says of a move.
type Mark int

// The marks, by how much a move lowered the mover's estimate
// (docs/engine.md, "Analysis", gives the thresholds and how they were
// chosen).
const (
	Good       Mark = iota // no mark
	Inaccuracy             // ?! ($6)
	Mistake                // ? ($2)
	Blunder                // ?? ($4)
)

// NAG returns the mark's numeric annotation, 0 for Good.
func (m Mark) NAG() int {
	return [...]int{0, 6, 2, 4}[m]
}

// Symbol returns the mark as a suffix (?!, ?, ??), "" for Good.
func (m Mark) Symbol() string {
	return [...]string{"", "?!", "?", "??"}[m]
}

// String returns the mark's name: "inaccuracy", "mistake", "blunder", or
// "" for Good.
func (m Mark) String() string {
	return [...]string{"", "inaccuracy", "mistake", "blunder"}[m]
}

// parseMark reads a suffix back.
func parseMark(s string) (Mark, bool) {
	for m := Inaccuracy; m <= Blunder; m++ {
		if m.Symbol() == s {
			return m, true
		}
	}
	return Good, false
}

// Move is the analysis of one move of the main line.
type Move struct {
	Ply   int    // 1 for the first move
	Seat  int    // the seat that played it, from 1
	Token string // the move as the record writes it
	// Before is the mover's estimate before the move (what its best move
	// would have kept), After its estimate after the move played, from 0
	// to 1: its chance of winning, a draw counting as a share (for 3 and
	// 4 seats, its share of the result).
	Before, After float64
	Mark          Mark
	// Better is the move the engine prefers, as a token, set after a
	// mistake or a blunder; BetterEval is the mover's estimate after it.
	Better     string
	BetterEval float64
	// Line is the better move's line, Better first: the engine's
	// principal variation (up to LineLength plies), or the solver's
	// proof of a forced win. An analysis written before lines has
	// Better alone.
	Line []string
	// WinIn is set when Better is a proved forced win (two seats, or a
	// win in one in any game): the mover's moves it takes, Better
	// counted (1 wins at once); Line is then the win with the longest
	// defence.
	WinIn int
}

// Loss is how much the move lowered the mover's estimate, 0 when it did
// not.
func (m Move) Loss() float64 { return max(0, m.Before-m.After) }

// Report is the analysis of one game's main line.
type Report struct {
	Level int    // the engine level that made it
	Seats int    // the number of seats
	Moves []Move // one for each move of the main line, in order
}

// Marked returns the moves with a mark, worst first (by loss, then by
// ply).
func (r *Report) Marked() []Move {
	var out []Move
	for _, m := range r.Moves {
		if m.Mark != Good {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Move) int {
		if a.Mark != b.Mark {
			return int(b.Mark - a.Mark)
		}
		if a.Loss() != b.Loss() {
			if a.Loss() > b.Loss() {
				return -1
			}
			return 1
		}
		return a.Ply - b.Ply
	})
	return out
}

// MeanLoss returns a seat's average loss per move and its number of
// moves (0, 0 when it made none).
func (r *Report) MeanLoss(seat int) (float64, int) {
	sum, n := 0.0, 0
	for _, m := range r.Moves {
		if m.Seat == seat {
			sum += m.Loss()
			n++
		}
	}
	if n == 0 {
		return 0, 0
	}
	return sum / float64(n), n
}

// AnnotatorTag is the tag that names the analysis and its level: the
// PGN tag for who annotated a game. When a record names an annotator of
// its own ("Ada"), the analysis is added after it ("Ada; icepost level
// 3"), and Strip gives the tag back as it was.
const AnnotatorTag = "Annotator"

// annotator is icepost's part of the Annotator tag for a level, and
// annotatorSep what joins it to an annotator the record had.
func annotator(level int) string { return "icepost level " + strconv.Itoa(level) }

const annotatorSep = "; "

// splitAnnotator splits an Annotator tag's value into the annotator the
// record had ("" when none) and icepost's level (0 when icepost has not
// analysed it).
func splitAnnotator(v string) (own string, level int) {
	own, ours := "", v
	if i := strings.LastIndex(v, annotatorSep); i >= 0 {
		own, ours = v[:i], v[i+len(annotatorSep):]
	}
	rest, ok := strings.CutPrefix(ours, "icepost level ")
	if !ok {
		return v, 0
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || strconv.Itoa(n) != rest {
		return v, 0
	}
	return own, n
}

// Level returns the level a record was analysed at, 0 when icepost has
// not analysed it.
func Level(rec *notation.Record) int {
	v, ok := rec.Tag(AnnotatorTag)
	if !ok {
		return 0
	}
	_, n := splitAnnotator(v)
	return n
}

// Annotate writes r into rec: the Annotator tag, a comment after each
// move of the main line, the marks as NAGs and the better moves as
// variations. Any earlier analysis by icepost is taken out first (Strip);
// the record's own comments, NAGs and variations stay, and the ones
// Annotate adds come after them. r must be a report of rec's main line.
func Annotate(rec *notation.Record, r *Report) error {
	if len(r.Moves) != len(rec.Main.Moves) {
		return fmt.Errorf("analysis: the report has %d moves, the record %d", len(r.Moves), len(rec.Main.Moves))
	}
	Strip(rec)
	for i, a := range r.Moves {
		m := rec.Main.Moves[i]
		if m.Token != a.Token {
			return fmt.Errorf("analysis: move %d is %s in the record, %s in the report", i+1, m.Token, a.Token)
		}
		c := "[%eval " + prob(a.After) + "] [%before " + prob(a.Before) + "]"
		if a.Mark != Good {
			// A mark the record already gives the move is not given
			// twice; "=" says so, and Strip leaves that NAG.
			if slices.Contains(m.NAGs, a.Mark.NAG()) {
				c += " [%mark =" + a.Mark.Symbol() + "]"
			} else {
				c += " [%mark " + a.Mark.Symbol() + "]"
				m.NAGs = append(m.NAGs, a.Mark.NAG())
			}
		}
		m.After = append(m.After, c)
		if a.Better != "" {
			c := "[%eval " + prob(a.BetterEval) + "]"
			if a.WinIn > 0 {
				c += " [%wins " + strconv.Itoa(a.WinIn) + "]"
			}
			line := &notation.Line{Moves: []*notation.Move{{Token: a.Better, After: []string{c + " [%engine]"}}}}
			if len(a.Line) > 0 && a.Line[0] == a.Better {
				for _, tok := range a.Line[1:] {
					line.Moves = append(line.Moves, &notation.Move{Token: tok})
				}
			}
			m.Variations = append(m.Variations, line)
		}
	}
	if own, ok := rec.Tag(AnnotatorTag); ok && own != "" {
		rec.SetTag(AnnotatorTag, own+annotatorSep+annotator(r.Level))
	} else {
		rec.SetTag(AnnotatorTag, annotator(r.Level))
	}
	return nil
}

// prob writes an estimate with two decimals.
func prob(v float64) string { return strconv.FormatFloat(min(max(v, 0), 1), 'f', 2, 64) }

// Strip takes icepost's analysis out of rec, leaving what the record had
// before Annotate: icepost's part of the Annotator tag, the [%eval]
// comments, the NAG each [%mark] names (once, and not when the record
// gave it before: [%mark =?]), and the variations marked [%engine].
func Strip(rec *notation.Record) {
	if v, ok := rec.Tag(AnnotatorTag); ok {
		if own, level := splitAnnotator(v); level > 0 && own != "" {
			rec.SetTag(AnnotatorTag, own)
		} else if level > 0 {
			rec.DeleteTag(AnnotatorTag)
		}
	}
	for _, m := range rec.Main.Moves {
		var kept []string
		for _, c := range m.After {
			e, ok := parseEval(c)
			if !ok {
				kept = append(kept, c)
				continue
			}
			if e.mark != Good && !e.had {
				if i := slices.Index(m.NAGs, e.mark.NAG()); i >= 0 {
					m.NAGs = slices.Delete(m.NAGs, i, i+1)
				}
			}
		}
		m.After = kept
		m.Variations = slices.DeleteFunc(m.Variations, isEngineLine)
	}
}

// isEngineLine reports whether a variation is one Annotate wrote: its
// first move's comment ends in [%engine] (the moves after it, the
// engine's line, have none; before lines it had one move).
func isEngineLine(l *notation.Line) bool {
	if len(l.Moves) == 0 {
		return false
	}
	for _, c := range l.Moves[0].After {
		if strings.HasSuffix(c, "[%engine]") && strings.HasPrefix(c, "[%eval ") {
			return true
		}
	}
	return false
}

// eval is one move's comment read back.
type eval struct {
	after, before float64
	mark          Mark
	had           bool // the record gave the mark before Annotate did
}

// parseEval reads a comment Annotate wrote: "[%eval A] [%before B]",
// then maybe " [%mark M]" or " [%mark =M]" (the record had M already).
func parseEval(c string) (eval, bool) {
	var e eval
	f := strings.Fields(c)
	if len(f) != 4 && len(f) != 6 {
		return e, false
	}
	num := func(key, v string, want string) (float64, bool) {
		if key != want {
			return 0, false
		}
		v, ok := strings.CutSuffix(v, "]")
		if !ok {
			return 0, false
		}
		x, err := strconv.ParseFloat(v, 64)
		return x, err == nil && x >= 0 && x <= 1
	}
	var ok bool
	if e.after, ok = num(f[0], f[1], "[%eval"); !ok {
		return e, false
	}
	if e.before, ok = num(f[2], f[3], "[%before"); !ok {
		return e, false
	}
	if len(f) == 6 {
		s, ok := strings.CutSuffix(f[5], "]")
		if f[4] != "[%mark" || !ok {
			return e, false
		}
		s, e.had = strings.CutPrefix(s, "=")
		if e.mark, ok = parseMark(s); !ok {
			return e, false
		}
	}
	return e, true
}

// Read returns the analysis Annotate wrote into rec, and false when rec
// has none (no Annotator tag of icepost's, or a move of the main line
// without its comment). It replays the main line for the seat of each
// move (a seat left without pieces is skipped in Pikemen), so it fails
// with the replay's error on a record that does not replay.
func Read(rec *notation.Record) (*Report, bool, error) {
	level := Level(rec)
	if level == 0 {
		return nil, false, nil
	}
	r := &Report{Level: level, Seats: rec.Seats()}
	for i, m := range rec.Main.Moves {
		a := Move{Ply: i + 1, Token: m.Token}
		found := false
		for _, c := range m.After {
			if e, ok := parseEval(c); ok {
				a.After, a.Before, a.Mark, found = e.after, e.before, e.mark, true
			}
		}
		if !found {
			return nil, false, nil
		}
		for _, v := range m.Variations {
			if isEngineLine(v) {
				a.Better, a.Line = v.Moves[0].Token, nil
				for _, lm := range v.Moves {
					a.Line = append(a.Line, lm.Token)
				}
				if e, in, ok := parseBetter(v.Moves[0].After); ok {
					a.BetterEval, a.WinIn = e, in
				}
			}
		}
		r.Moves = append(r.Moves, a)
	}
	w, err := notation.Walk(rec, false, func(ply int, s rules.State) {
		if ply < len(r.Moves) {
			r.Moves[ply].Seat = s.ToMove()
		}
	})
	if err != nil {
		return nil, false, err
	}
	r.Seats = w.Options.Seats
	return r, true, nil
}

// parseBetter reads the estimate of an engine variation's comment,
// "[%eval E] [%engine]", and the forced win's length when it says one,
// "[%eval E] [%wins N] [%engine]".
func parseBetter(after []string) (eval float64, winIn int, ok bool) {
	for _, c := range after {
		f := strings.Fields(c)
		if len(f) != 3 && len(f) != 5 || f[0] != "[%eval" || f[len(f)-1] != "[%engine]" {
			continue
		}
		v, ok := strings.CutSuffix(f[1], "]")
		if !ok {
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			continue
		}
		if len(f) == 5 {
			w, ok := strings.CutSuffix(f[3], "]")
			n, err := strconv.Atoi(w)
			if f[2] != "[%wins" || !ok || err != nil || n < 1 {
				continue
			}
			winIn = n
		}
		return x, winIn, true
	}
	return 0, 0, false
}
