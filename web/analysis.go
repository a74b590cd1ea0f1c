package web

import (
	"bytes"
	"html/template"
	"slices"
	"strconv"

	"icepost/analysis"
	"icepost/notation"
	"icepost/render"
	"icepost/rules"
)

// The computer analysis on a game's page (docs/web.md, "Computer
// analysis"). The analysis lives in the record (package analysis): a game
// whose stored record has one gets the graph of the engine's estimates,
// the marks in the move list, and at a marked move the engine's better
// move, in words and as a green arrow on the board. The board at ply N is
// the position after move N, as everywhere on the site; the better move
// belongs to the position before it, and is drawn on the same board
// beside the move played (tinted as the last move), as chess sites show
// an engine's best move: both are moves from the same position.

// analysisView is what the page shows of the analysis.
type analysisView struct {
	Level int
	Graph template.HTML // the SVG, each move a link to its ply
	Move  *evalView     // the move that made the ply shown; nil at the start
	// Seats are the choices of whose line the graph shows, with three or
	// four seats (none with two, which share one line).
	Seats []seatChoice
}

// seatChoice is one player the reader may show the line of in a graph
// of three or four seats: the page's style sheet shows the checked one's
// (render.EvalGraph.SVG's eval-seat-N), the others faint, without a
// script.
type seatChoice struct {
	Seat    int
	Name    string
	Checked bool
}

// evalView is one move's analysis, in words.
type evalView struct {
	Ply           int
	Number        string // the move's number as the move list writes it: "19.", "19..."
	Who           string // the mover
	Token         string
	Before, After string // the mover's estimates, "0.48"
	Mark          string // "mistake", "" for none
	Symbol        string // "?"
	Better        string // the engine's move, "" for none
	BetterEval    string
	MissedWin     bool // Better would have won at once
	Arrow         bool // the better move is drawn on the board
	// Line is the engine's line that begins with Better, each move a link
	// to the board after it, LineStart the first of them; nil without one.
	Line      []lineMove
	LineStart string
}

// readAnalysis returns the analysis in rec, nil when it has none (or one
// that does not fit its moves, which the page then shows without it).
func readAnalysis(rec *notation.Record) *analysis.Report {
	if analysis.Level(rec) == 0 {
		return nil
	}
	r, ok, err := analysis.Read(rec)
	if err != nil || !ok || len(r.Moves) != len(rec.Main.Moves) {
		return nil
	}
	return r
}

// ownMain is rec's main line as its players wrote it, without the
// analysis (its comments, its marks and the engine's variations), for
// the move list, which shows the marks its own way. rec is not changed.
func ownMain(rec *notation.Record) (notation.Line, bool) {
	recs, errs := notation.Parse("", []byte(rec.String()))
	if len(errs) > 0 || len(recs) != 1 {
		return notation.Line{}, false
	}
	analysis.Strip(recs[0])
	// The engine's lines of more than one move too (engineline.go).
	for _, m := range recs[0].Main.Moves {
		m.Variations = slices.DeleteFunc(m.Variations, isEngineVariation)
	}
	return recs[0].Main, true
}

func prob(v float64) string { return strconv.FormatFloat(min(max(v, 0), 1), 'f', 2, 64) }

// newAnalysisView builds the analysis part of g's page at ply; at gives
// the page at a ply, as the step links do; names are the players' names
// to show.
func newAnalysisView(g *notation.Game, r *analysis.Report, ply int, at func(int) string, names []string) *analysisView {
	av := &analysisView{Level: r.Level}
	if r.Seats > 2 {
		// The first player's line first: a reader finds theirs at once.
		for s := 1; s <= r.Seats; s++ {
			av.Seats = append(av.Seats, seatChoice{Seat: s, Name: nameAt(names, s), Checked: s == 1})
		}
	}
	eg := evalGraph(r, names)
	eg.Current, eg.Link = ply, at
	var b bytes.Buffer
	if err := eg.SVG(&b); err == nil {
		av.Graph = template.HTML(b.String())
	}
	if ply >= 1 && ply <= len(r.Moves) {
		m := r.Moves[ply-1]
		ev := &evalView{Ply: ply, Number: analysis.MoveNumber(ply, r.Seats), Who: nameAt(names, m.Seat), Token: g.Token(ply),
			Before: prob(m.Before), After: prob(m.After), Mark: m.Mark.String(), Symbol: m.Mark.Symbol()}
		if m.Better != "" {
			ev.Better, ev.BetterEval = m.Better, prob(m.BetterEval)
			ev.MissedWin = ply-1 < len(g.States) && analysis.MissedWin(g.States[ply-1], m)
		}
		av.Move = ev
	}
	return av
}

// evalGraph is the graph of r's estimates, as render draws it.
func evalGraph(r *analysis.Report, names []string) render.EvalGraph {
	eg := render.EvalGraph{Seats: r.Seats, Names: names, Title: "Computer analysis, level " + strconv.Itoa(r.Level)}
	for _, m := range r.Moves {
		eg.Points = append(eg.Points, render.EvalPoint{Ply: m.Ply, Seat: m.Seat, Value: m.After, Mark: int(m.Mark)})
	}
	return eg
}

// betterArrow is the option that draws the better move of the move that
// made ply on the board, or nil when there is none (or the record's
// better move is not a legal move there: the text still names it).
func betterArrow(g *notation.Game, r *analysis.Report, ply int) render.Option {
	if r == nil || ply < 1 || ply > len(r.Moves) || r.Moves[ply-1].Better == "" {
		return nil
	}
	prev := g.States[ply-1]
	dp, ok := prev.(rules.Drawable)
	if !ok {
		return nil
	}
	m, err := prev.ParseMove(r.Moves[ply-1].Better)
	if err != nil {
		return nil
	}
	return render.BetterMove(dp.LastMove(m))
}
