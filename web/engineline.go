package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"icepost/analysis"
	"icepost/notation"
	"icepost/render"
	"icepost/rules"
)

// The engine's line on an analysed game's page (docs/web.md, "Computer
// analysis"). After a mistake the record holds the engine's better move
// as a variation whose first move's comment says [%engine]: one move, or
// the engine's principal variation, a few plies of it. The page at that
// ply names the line's moves, and ?ply=N&line=K shows the board after K
// of them, played from the position before move N instead of it; the
// step links (and the ← → keys) then step through the line, and "«
// game" goes back to move N. The line is read here from the record, of
// any length up to maxLine, so that the page does not depend on how many
// plies the analysis writes.

// maxLine is the most moves of an engine's line the page steps through.
const maxLine = 12

// engineLine is the engine's line instead of one move of the main line,
// replayed: states[0] is the position before the move, states[i] the
// position after i moves of the line.
type engineLine struct {
	tokens  []string
	moves   []rules.Move
	states  []rules.State
	eval    float64 // the mover's estimate after the line's first move
	hasEval bool
}

// isEngineVariation reports whether a variation is the engine's: its
// first move has a comment with [%engine] (analysis.Annotate's mark of
// it), whatever its length.
func isEngineVariation(l *notation.Line) bool {
	if len(l.Moves) == 0 {
		return false
	}
	for _, c := range l.Moves[0].After {
		if strings.Contains(c, "[%engine]") {
			return true
		}
	}
	return false
}

// readLine returns the engine's line instead of the move that made ply
// in g, nil when the record has none there. Its moves are the legal ones
// from the start of the variation, at most maxLine (a record edited by
// hand may hold one that is not legal: the line stops before it).
func readLine(g *notation.Game, ply int) *engineLine {
	if ply < 1 || ply > len(g.Record.Main.Moves) || ply > len(g.Moves) {
		return nil
	}
	i := slices.IndexFunc(g.Record.Main.Moves[ply-1].Variations, isEngineVariation)
	if i < 0 {
		return nil
	}
	v := g.Record.Main.Moves[ply-1].Variations[i]
	el := &engineLine{states: []rules.State{g.States[ply-1]}}
	for _, c := range v.Moves[0].After {
		if e, ok := evalOf(c); ok {
			el.eval, el.hasEval = e, true
		}
	}
	for _, m := range v.Moves[:min(len(v.Moves), maxLine)] {
		s := el.states[len(el.states)-1]
		if s.Outcome().Over {
			break
		}
		next, mv, err := rules.Play(s, m.Token)
		if err != nil {
			break
		}
		el.tokens = append(el.tokens, s.FormatMove(mv))
		el.moves = append(el.moves, mv)
		el.states = append(el.states, next)
	}
	if len(el.moves) == 0 {
		return nil
	}
	return el
}

// evalOf reads the estimate of a comment's [%eval E].
func evalOf(c string) (float64, bool) {
	_, rest, ok := strings.Cut(c, "[%eval ")
	if !ok {
		return 0, false
	}
	num, _, ok := strings.Cut(rest, "]")
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	return v, err == nil
}

// lineParam reads ?line=K, the moves of the engine's line shown; 0
// (absent) for the game.
func lineParam(r *http.Request) (int, error) {
	p, err := readParams(r, "line")
	if err != nil {
		return 0, err
	}
	n := p.num("line", 0, maxLine, 0)
	return n, p.err()
}

// lineMove is one move of the engine's line in the note under the
// board: a link to the board after it.
type lineMove struct {
	Step    int
	Number  string // as the move list numbers it: "19.", "19…"
	Token   string
	Href    string
	Current bool
}

// lineStep is the board's place in the engine's line, on a page that
// shows it (?line=K).
type lineStep struct {
	Step, Steps int
	Ply         int    // the move of the game the line stands instead of
	Token       string // that move
	Who         string // who played it
	Mark        string // its mark ("mistake")
	Game        string // the page of the game at Ply
}

// lineMoves are the line's moves as links, step cur the current one (0
// for none), numbered from ply as the record numbers its moves.
func (el *engineLine) lineMoves(ply int, at func(int) string, cur int) []lineMove {
	seats := el.states[0].Options().Seats
	var out []lineMove
	for i, t := range el.tokens {
		n := strings.Replace(analysis.MoveNumber(ply+i, seats), "...", "…", 1)
		out = append(out, lineMove{Step: i + 1, Number: n, Token: t, Href: at(i + 1), Current: i+1 == cur})
	}
	return out
}

// lineAt is the address of the page at ply with k moves of its engine's
// line on the board.
func lineAt(base string, ply, k int) string {
	return base + "?ply=" + strconv.Itoa(ply) + "&line=" + strconv.Itoa(k)
}

// showLine turns v, the page of g at ply, into the page of the board
// after k moves of the engine's line instead of move ply: the board,
// the players' scores and whose move, the status, the position code and
// the step links are the line's; the move list and the graph stay at
// ply. The line's next move, when there is one, is the green arrow.
func (v *gameView) showLine(g *notation.Game, el *engineLine, ply, k int, names []string) {
	s, prev, last := el.states[k], el.states[k-1], el.moves[k-1]
	at := func(n int) string { return lineAt(v.Base, ply, n) }
	game := v.Base + "?ply=" + strconv.Itoa(ply)
	ls := &lineStep{Step: k, Steps: len(el.moves), Ply: ply, Token: g.Token(ply), Who: nameAt(names, g.States[ply-1].ToMove()), Game: game}
	if v.Analysis != nil && v.Analysis.Move != nil {
		ls.Mark = v.Analysis.Move.Mark
		v.Analysis.Move.Line = el.lineMoves(ply, at, k)
	}
	v.Line = ls
	scores := s.Scores()
	for i := range v.Players {
		v.Players[i].ToMove = s.ToMove() == i+1 && !s.Outcome().Over
		v.Players[i].Winner = false
		if scores != nil && i < len(scores) {
			v.Players[i].Score = strconv.Itoa(scores[i])
		}
	}
	var extra []render.Option
	if k < len(el.moves) {
		if dp, ok := s.(rules.Drawable); ok {
			extra = append(extra, render.BetterMove(dp.LastMove(el.moves[k])))
		}
	}
	v.Board = boardHTML(s, prev, last, names, extra...)
	parts := []string{"The engine's line instead of " + analysis.MoveNumber(ply, g.States[0].Options().Seats) + " " + g.Token(ply) + ", " + strconv.Itoa(k) + " of " + strconv.Itoa(len(el.moves)) +
		": " + nameAt(names, prev.ToMove()) + " plays " + el.tokens[k-1]}
	if sc := s.Scores(); sc != nil {
		var b []string
		for i, n := range sc {
			b = append(b, nameAt(names, i+1)+" "+strconv.Itoa(n))
		}
		parts = append(parts, "score "+strings.Join(b, ", "))
	}
	if o := s.Outcome(); o.Over {
		parts = append(parts, "the game would be over")
	} else {
		parts = append(parts, nameAt(names, s.ToMove())+" to move")
	}
	v.Status = strings.Join(parts, " · ")
	v.Code = s.Code()
	v.Explore = "/position?code=" + url.QueryEscape(v.Code)
	v.Reached = "/search?position=" + url.QueryEscape(v.Code)
	v.First, v.Prev, v.Next, v.Last = game, game, "", ""
	if k > 1 {
		v.Prev = at(k - 1)
	}
	if k < len(el.moves) {
		v.Next, v.Last = at(k+1), at(len(el.moves))
	}
}

// betterFromLine gives m the better move of its engine's line where the
// report has none (a line of several moves that analysis.Read does not
// read as its better move).
func betterFromLine(m *analysis.Move, el *engineLine) {
	if m.Better != "" || el == nil {
		return
	}
	m.Better = el.tokens[0]
	if el.hasEval {
		m.BetterEval = el.eval
	}
}

// checkLine refuses a page asked for line moves of an engine's line that
// the move at ply does not have.
func (v *gameView) checkLine(ply, line int) error {
	switch {
	case line == 0:
		return nil
	case v.lineSteps == 0:
		return bad("line=%d: move %d has no engine's line to show (give ply a move the analysis marked, or leave line out)", line, ply)
	case v.Line == nil || v.Line.Step != line:
		return bad("line=%d: the engine's line of move %d has %d moves", line, ply, v.lineSteps)
	}
	return nil
}
