package tabletop

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// moveGroup is the legal moves that share a start: a piece size to place
// or enter ("L@"), a square they start from ("c3"), or neither ("").
type moveGroup struct {
	key  string
	toks []string
}

// groupMoves sorts tokens into groups a person can read: moves that place
// or enter a piece grouped by size, moves of a piece grouped by the square
// it starts from, and the rest (like pass) on their own. The grouping
// reads the canonical tokens, so it serves every game.
func groupMoves(toks []string) []moveGroup {
	var groups []moveGroup
	for _, t := range toks {
		key := ""
		if i := strings.IndexByte(t, '@'); i > 0 {
			key = t[:i+1]
		} else if i := strings.IndexAny(t, "-x:"); i > 0 {
			key = t[:i]
		}
		j := slices.IndexFunc(groups, func(g moveGroup) bool { return g.key == key })
		if j < 0 {
			groups = append(groups, moveGroup{key: key})
			j = len(groups) - 1
		}
		groups[j].toks = append(groups[j].toks, t)
	}
	rank := func(k string) int {
		switch {
		case strings.HasSuffix(k, "@"):
			return 0
		case k == "":
			return 2
		}
		return 1
	}
	slices.SortFunc(groups, func(a, b moveGroup) int {
		if c := cmp.Compare(rank(a.key), rank(b.key)); c != 0 {
			return c
		}
		// Sizes L, M, S and squares by file then rank.
		return cmp.Compare(a.key, b.key)
	})
	for _, g := range groups {
		slices.Sort(g.toks)
	}
	return groups
}

func (s *Session) listMoves() {
	if s.ending() != "" {
		s.printf("The game is over (%s): no moves.\n", s.describeEnd())
		return
	}
	st := s.current()
	ms := st.Moves(s.buf[:0])
	if len(ms) == 0 {
		s.printf("No legal moves: the game is over (%s).\n", st.Outcome())
		return
	}
	toks := make([]string, len(ms))
	for i, m := range ms {
		toks[i] = st.FormatMove(m)
	}
	s.printf("%d legal moves for %s:\n", len(toks), s.seatName(st.ToMove()))
	for _, g := range groupMoves(toks) {
		label := "other"
		switch {
		case strings.HasSuffix(g.key, "@"):
			label = "place " + strings.TrimSuffix(g.key, "@")
		case g.key != "":
			label = "from " + g.key
		}
		s.printf("%s", wrap(fmt.Sprintf("  %-9s ", label+":"), g.toks, 79))
	}
}

// wrap writes words after head, breaking lines before width and indenting
// the continuation lines under the first word.
func wrap(head string, words []string, width int) string {
	var b strings.Builder
	b.WriteString(head)
	n := len(head)
	indent := strings.Repeat(" ", len(head))
	for i, w := range words {
		if i > 0 && n+1+len(w) > width {
			b.WriteString("\n" + indent)
			n = len(indent)
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}
