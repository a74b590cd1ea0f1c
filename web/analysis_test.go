package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"icepost/analysis"
	"icepost/archive"
	"icepost/notation"
	"icepost/render"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/rules/rulestest"
)

// analysedGame is a game of Pikemen in the archive whose record holds
// an analysis made by hand (analysis.Annotate with a Report written
// here, so that no engine runs): a mistake at ply 37 and a blunder at
// ply 42, each with a better move that moves a piece from one cell to
// another, and an inaccuracy at ply 45 without one. The record has its
// own comment and NAG on move 3.
type analysedGame struct {
	ID      int64
	Plies   int
	Report  *analysis.Report
	Game    *notation.Game // the record replayed, before the analysis
	Mistake int            // the plies of the marks
	Blunder int
	Inacc   int
}

// graphName is how the graph names the move at ply: "move 19, Ada
// Lovelace" (the record's number: a number a turn of every seat).
func (ag analysedGame) graphName(ply int) string {
	m := ag.Report.Moves[ply-1]
	return fmt.Sprintf("move %d, %s", (ply-1)/ag.Report.Seats+1, []string{"", "Ada Lovelace", "Bob Barker", "Carol Ng", "Dave Ode"}[m.Seat])
}

func addAnalysedGame(t testing.TB, a *archive.Archive) analysedGame {
	t.Helper()
	return addGame(t, a, pikemenKind, true)
}

// gameKind is a game to analyse by hand: a random game of a game and
// options, and the plies of its marks (0: the first ply from 60% of the
// game on with a move elsewhere, five plies later, three after that).
type gameKind struct {
	name, game              string
	options                 rules.Options
	plies                   int
	seed                    uint64
	mistake, blunder, inacc int
	// line is the length of the engine's line at the mistake, written by
	// hand after Annotate's one move (the engine's principal variation,
	// as the record holds it): its better move, then the first legal
	// move of each position after it. 0 or 1: Annotate's one move.
	line int
}

var pikemenKind = gameKind{name: "pikemen", game: "Pikemen", plies: 60, seed: 11, mistake: 37, blunder: 42, inacc: 45}

// addGame adds a game of kind k, with its analysis or without.
func addGame(t testing.TB, a *archive.Archive, k gameKind, analysed bool) analysedGame {
	t.Helper()
	g, _ := games.Lookup(k.game)
	start, err := g.Start(k.options)
	if err != nil {
		t.Fatal(err)
	}
	tags := []notation.Tag{
		{Name: "Event", Value: "Analysed Open " + k.name}, {Name: "Date", Value: "2024.05.04"},
	}
	for i, n := range []string{"Ada Lovelace", "Bob Barker", "Carol Ng", "Dave Ode"}[:start.Options().Seats] {
		tags = append(tags, notation.Tag{Name: fmt.Sprintf("Player%d", i+1), Value: n})
	}
	rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rand.New(rand.NewPCG(k.seed, 3)), k.plies))
	if err != nil {
		t.Fatal(err)
	}
	rec.Main.Moves[2].After = append(rec.Main.Moves[2].After, "a bold start")
	rec.Main.Moves[2].NAGs = append(rec.Main.Moves[2].NAGs, 3) // !!
	played, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	ag := analysedGame{Plies: len(played.Moves), Game: played, Mistake: k.mistake, Blunder: k.blunder, Inacc: k.inacc}
	if ag.Plies < 20 {
		t.Fatalf("the random game has %d plies", ag.Plies)
	}
	if ag.Mistake == 0 {
		ag.Mistake = arrowPly(t, played, ag.Plies*6/10)
		ag.Blunder = arrowPly(t, played, ag.Mistake+5)
		ag.Inacc = ag.Blunder + 3
	}
	// Seat 1's estimate drifts, and each marked move costs its mover
	// what its mark says.
	rep := &analysis.Report{Level: 2, Seats: start.Options().Seats}
	v1 := 0.5
	for i := range played.Moves {
		ply := i + 1
		before := played.States[i]
		seat := before.ToMove()
		mine := func(v float64) float64 { // seat 1's value as the mover's
			if seat == 1 {
				return v
			}
			return 1 - v
		}
		m := analysis.Move{Ply: ply, Seat: seat, Token: played.Token(ply), Before: mine(v1)}
		loss := 0.01 * float64(ply%3)
		switch ply {
		case ag.Mistake:
			m.Mark, loss = analysis.Mistake, 0.15
		case ag.Blunder:
			m.Mark, loss = analysis.Blunder, 0.4
		case ag.Inacc:
			m.Mark, loss = analysis.Inaccuracy, 0.07
		}
		if m.Mark == analysis.Mistake || m.Mark == analysis.Blunder {
			m.Better, m.BetterEval = moveElsewhere(t, before, played.Moves[i]), 0.47
		}
		m.After = max(0.02, m.Before-loss)
		v1 = mine(m.After)
		// The game goes on: the one ahead drifts back toward the middle.
		v1 += (0.5 - v1) * 0.08
		rep.Moves = append(rep.Moves, m)
	}
	if analysed {
		if err := analysis.Annotate(rec, rep); err != nil {
			t.Fatal(err)
		}
		if k.line > 1 {
			lengthenLine(t, rec, played, ag.Mistake, k.line)
		}
	}
	if _, err := a.Import(context.Background(), strings.NewReader(rec.String()), "analysed.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := a.Search(context.Background(), archive.Query{Event: "Analysed Open " + k.name})
	if err != nil || len(found) != 1 {
		t.Fatalf("the analysed game: %v, %d found", err, len(found))
	}
	ag.ID, ag.Report = found[0].ID, rep
	return ag
}

// lengthenLine makes the engine's line of the move at ply n moves long:
// after its better move, the first legal move of each position.
func lengthenLine(t testing.TB, rec *notation.Record, played *notation.Game, ply, n int) {
	t.Helper()
	vs := rec.Main.Moves[ply-1].Variations
	if len(vs) != 1 || len(vs[0].Moves) != 1 {
		t.Fatalf("move %d has %d variations: want Annotate's one", ply, len(vs))
	}
	s, _, err := rules.Play(played.States[ply-1], vs[0].Moves[0].Token)
	if err != nil {
		t.Fatal(err)
	}
	for len(vs[0].Moves) < n {
		ms := s.Moves(nil)
		if len(ms) == 0 || s.Outcome().Over {
			t.Fatalf("the line ends after %d moves", len(vs[0].Moves))
		}
		vs[0].Moves = append(vs[0].Moves, &notation.Move{Token: s.FormatMove(ms[0])})
		if s, err = s.Play(ms[0]); err != nil {
			t.Fatal(err)
		}
	}
}

// moveElsewhere is a legal move in s other than played, one that goes
// from one cell to another (an arrow, not a ring) where there is one.
func moveElsewhere(t testing.TB, s rules.State, played rules.Move) string {
	t.Helper()
	tok, ok := elsewhere(s, played, true)
	if !ok {
		tok, ok = elsewhere(s, played, false)
	}
	if !ok {
		t.Fatalf("no other move from one cell to another in %s: choose other plies", s.Code())
	}
	return tok
}

// elsewhere is a legal move in s other than played, one that goes from
// one cell to another when arrow is set, as a token.
func elsewhere(s rules.State, played rules.Move, arrow bool) (string, bool) {
	for _, m := range s.Moves(nil) {
		if m == played {
			continue
		}
		if l := s.(rules.Drawable).LastMove(m); len(l.Path) >= 2 && l.Path[0] != l.Path[len(l.Path)-1] || !arrow && len(l.Path) > 0 {
			return s.FormatMove(m), true
		}
	}
	return "", false
}

// arrowPly is the first ply from ply on whose mover had another move
// from one cell to another, or failing that (a game of placements) any
// other move on the board.
func arrowPly(t testing.TB, g *notation.Game, ply int) int {
	t.Helper()
	for _, arrow := range []bool{true, false} {
		for p := ply; p < len(g.Moves); p++ {
			if _, ok := elsewhere(g.States[p-1], g.Moves[p-1], arrow); ok {
				return p
			}
		}
	}
	t.Fatalf("no ply from %d on with another move", ply)
	return 0
}

// page gets a page that must be there.
func page(t *testing.T, base, path string) string {
	t.Helper()
	code, body, _ := get(t, base, path)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, code, body)
	}
	return body
}

// section returns the part of page from the first start (an id="…",
// or a tag's start) to the end of the first closing tag named tag after
// it.
func section(t *testing.T, page, start, tag string) string {
	t.Helper()
	if !strings.HasPrefix(start, "<") {
		start = `id="` + start + `"`
	}
	i := strings.Index(page, start)
	if i < 0 {
		t.Fatalf("no %s in the page", start)
	}
	j := strings.Index(page[i:], "</"+tag+">")
	if j < 0 {
		t.Fatalf("%s does not end", start)
	}
	return page[i : i+j]
}

// The game page of an analysed game: the graph over the move list with
// a link to every ply (the last to the page itself, as the step links), the marks in
// the move list apart from the record's own annotations (which stay),
// no analysis comments in the list, and at a marked move the better
// move in words and on the board; at a move without a better one,
// neither. A game without analysis has no trace of it.
func TestGameAnalysis(t *testing.T) {
	ts, _, a := newTestSite(t, 10, nil)
	ag := addAnalysedGame(t, a)
	base := fmt.Sprintf("/game/%d", ag.ID)
	const green = `fill="#5aa00a"`

	p := page(t, ts.URL, base+fmt.Sprintf("?ply=%d", ag.Mistake))
	graph := section(t, p, "moves", "svg")
	for ply := 1; ply <= ag.Plies; ply++ {
		href := fmt.Sprintf("%s?ply=%d", base, ply)
		if ply == ag.Plies {
			href = base
		}
		if !strings.Contains(graph, `href="`+href+`"`) {
			t.Errorf("the graph has no link to ply %d (%s)", ply, href)
		}
	}
	if n := strings.Count(graph, `<a class="eval-move"`); n != ag.Plies {
		t.Errorf("%d links in the graph, want %d", n, ag.Plies)
	}
	m := ag.Report.Moves[ag.Mistake-1]
	names := []string{"", "Ada Lovelace", "Bob Barker"}
	b := ag.Report.Moves[ag.Blunder-1]
	for _, want := range []string{
		fmt.Sprintf(`aria-label="move %d, %s, mistake, %s" aria-current="step"`, (ag.Mistake+1)/2, names[m.Seat], prob(m.After)),
		fmt.Sprintf(`aria-label="move %d, %s, blunder, %s"`, (ag.Blunder+1)/2, names[b.Seat], prob(b.After)),
	} {
		if !strings.Contains(graph, want) {
			t.Errorf("the graph lacks %s", want)
		}
	}
	moves := section(t, p, `<p class="moves">`, "p")
	for _, want := range []string{
		`<span class="mark mistake" title="mistake"><span aria-hidden="true">?</span><span class="sr-only"> mistake</span></span>`,
		`<span class="mark blunder" title="blunder">`,
		`<span class="mark inaccuracy" title="inaccuracy">`,
		`<span class="comment">a bold start</span>`,
		`<span class="nag">!!</span>`,
	} {
		if !strings.Contains(moves, want) {
			t.Errorf("the move list lacks %s", want)
		}
	}
	if n := strings.Count(moves, `class="mark `); n != 3 {
		t.Errorf("%d marks in the move list, want 3", n)
	}
	for _, not := range []string{"[%eval", "[%engine]", m.Better + "</span>"} {
		if strings.Contains(moves, not) {
			t.Errorf("the move list shows the analysis's %q", not)
		}
	}
	if !strings.Contains(p, "[%eval") {
		t.Error("the record section lost the analysis")
	}
	note := section(t, p, "analysis", "p")
	if want := fmt.Sprintf(`Better: %s (0.47)</span>, the green arrow`, m.Better); !strings.Contains(note, want) {
		t.Errorf("the note at the mistake: %s\nwant %s", note, want)
	}
	if want := prob(m.Before) + " → " + prob(m.After); !strings.Contains(note, want) {
		t.Errorf("the note at the mistake lacks the estimates: %s", note)
	}
	board := section(t, p, "play", "svg")
	if !strings.Contains(board, green) {
		t.Error("no green arrow on the board at the mistake")
	}
	// The move after: its estimates, no better move, no arrow.
	p = page(t, ts.URL, base+fmt.Sprintf("?ply=%d", ag.Mistake+1))
	if note := section(t, p, "analysis", "p"); strings.Contains(note, "Better") || strings.Contains(note, "class=\"mark") {
		t.Errorf("the note at an unmarked move: %s", note)
	}
	if strings.Contains(section(t, p, "play", "svg"), green) {
		t.Error("a green arrow at an unmarked move")
	}
	// The inaccuracy: marked, no better move.
	p = page(t, ts.URL, base+fmt.Sprintf("?ply=%d", ag.Inacc))
	if note := section(t, p, "analysis", "p"); !strings.Contains(note, `<span class="mark inaccuracy">?! inaccuracy</span>`) || strings.Contains(note, "Better") {
		t.Errorf("the note at the inaccuracy: %s", note)
	}
	// The start: the graph, no move to speak of.
	p = page(t, ts.URL, base+"?ply=0")
	if note := section(t, p, "analysis", "p"); !strings.Contains(note, `<p class="eval">The start.`) {
		t.Errorf("the note at the start: %s", note)
	}
	// A game without analysis.
	p = page(t, ts.URL, "/game/1")
	for _, not := range []string{"eval-graph", `id="analysis"`, `class="mark`, green} {
		if strings.Contains(p, not) {
			t.Errorf("a game without analysis shows %q", not)
		}
	}
}

// BenchmarkGamePageAnalysis: the page of the analysed game at its
// mistake (the graph, the marks, the arrow), against the same game
// without its analysis.
func BenchmarkGamePageAnalysis(b *testing.B) {
	for _, analysed := range []bool{false, true} {
		name := "plain"
		if analysed {
			name = "analysed"
		}
		b.Run(name, func(b *testing.B) {
			_, site, a := newTestSite(b, 1, nil)
			ag := addGame(b, a, pikemenKind, analysed)
			h := site.Handler()
			path := fmt.Sprintf("/game/%d?ply=%d", ag.ID, ag.Mistake)
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
				if w.Code != http.StatusOK {
					b.Fatalf("%s: %d", path, w.Code)
				}
			}
		})
	}
}

// Every game, every seat count, both IceFrogs boards: the page of an
// analysed game has the graph (one line with two seats, one per seat in
// its colour with more), a link a ply, the marks in the move list, and
// the better move on the board at the mistake.
func TestGameAnalysisEveryGame(t *testing.T) {
	ts, _, a := newTestSite(t, 1, nil)
	for _, k := range []gameKind{
		{name: "icesickle", game: "IceSickle", plies: 40, seed: 1},
		{name: "pikemen-3", game: "Pikemen", options: rules.Options{Seats: 3}, plies: 60, seed: 2},
		{name: "pikemen-4", game: "Pikemen", options: rules.Options{Seats: 4}, plies: 80, seed: 3},
		{name: "icelady", game: "IceLady", plies: 50, seed: 4},
		{name: "icefrogs", game: "IceFrogs", plies: 50, seed: 5},
		{name: "icefrogs-3", game: "IceFrogs", options: rules.Options{Seats: 3}, plies: 60, seed: 6},
		{name: "icefrogs-hex", game: "IceFrogs", options: rules.Options{Board: "hex"}, plies: 50, seed: 7},
		{name: "icefrogs-hex-3", game: "IceFrogs", options: rules.Options{Board: "hex", Seats: 3}, plies: 60, seed: 8},
	} {
		t.Run(k.name, func(t *testing.T) {
			ag := addGame(t, a, k, true)
			seats := ag.Report.Seats
			if want := max(k.options.Seats, 2); seats != want {
				t.Fatalf("the report has %d seats, want %d", seats, want)
			}
			p := page(t, ts.URL, fmt.Sprintf("/game/%d?ply=%d", ag.ID, ag.Mistake))
			graph := section(t, p, "moves", "svg")
			if n := strings.Count(graph, `<a class="eval-move"`); n != ag.Plies {
				t.Errorf("%d links in the graph, want %d", n, ag.Plies)
			}
			for s := 1; s <= seats; s++ {
				c := render.SeatColour(s)
				line := fmt.Sprintf(`stroke-linecap="round" stroke="#%02x%02x%02x" stroke-width="2"`, c.R, c.G, c.B)
				if got := strings.Count(graph, line); seats > 2 && got != 1 {
					t.Errorf("seat %d's line: %d in the graph, want 1", s, got)
				} else if seats == 2 && got != 0 {
					t.Errorf("a line in seat %d's colour with two seats", s)
				}
			}
			if seats == 2 && !strings.Contains(graph, `stroke="#333333" stroke-width="1.5"`) {
				t.Error("no line of seat 1's estimate")
			}
			moves := section(t, p, `<p class="moves">`, "p")
			for _, mark := range []string{"mistake", "blunder", "inaccuracy"} {
				if n := strings.Count(moves, `<span class="mark `+mark+`"`); n != 1 {
					t.Errorf("%d %ss in the move list", n, mark)
				}
			}
			if !strings.Contains(section(t, p, "play", "svg"), `="#5aa00a"`) {
				t.Errorf("no green arrow or ring on the board at the mistake (ply %d, better %s)", ag.Mistake, ag.Report.Moves[ag.Mistake-1].Better)
			}
			if note := section(t, p, "analysis", "p"); !strings.Contains(note, "Better: "+ag.Report.Moves[ag.Mistake-1].Better) {
				t.Errorf("the note: %s", note)
			}
		})
	}
}

// A record whose analysis does not fit it (its Annotator tag is
// icepost's, but a move lost its comment) is shown without analysis.
func TestGameHalfAnalysis(t *testing.T) {
	ts, _, a := newTestSite(t, 1, nil)
	k := pikemenKind
	k.name = "half"
	g, _ := games.Lookup(k.game)
	start, _ := g.Start(k.options)
	rec, err := notation.FromMoves([]notation.Tag{{Name: "Event", Value: "Half analysed"}}, start,
		notation.RandomGame(start, rand.New(rand.NewPCG(k.seed, 9)), 20))
	if err != nil {
		t.Fatal(err)
	}
	rep := &analysis.Report{Level: 3, Seats: 2}
	st := start
	for i, m := range rec.Main.Moves {
		rep.Moves = append(rep.Moves, analysis.Move{Ply: i + 1, Seat: st.ToMove(), Token: m.Token, Before: 0.5, After: 0.5})
		if st, _, err = rules.Play(st, m.Token); err != nil {
			t.Fatal(err)
		}
	}
	if err := analysis.Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	rec.Main.Moves[4].After = nil
	if _, err := a.Import(context.Background(), strings.NewReader(rec.String()), "half.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := a.Search(context.Background(), archive.Query{Event: "Half analysed"})
	if err != nil || len(found) != 1 {
		t.Fatalf("%v, %d found", err, len(found))
	}
	p := page(t, ts.URL, fmt.Sprintf("/game/%d?ply=3", found[0].ID))
	for _, not := range []string{"eval-graph", `id="analysis"`} {
		if strings.Contains(p, not) {
			t.Errorf("a record with half an analysis shows %q", not)
		}
	}
	if !strings.Contains(p, `id="moves"`) {
		t.Error("no move list")
	}
}

// A move that missed a win in one says so in words, whatever its
// estimates (a win put off a turn reads 1.00 → 1.00): "Missed a win:
// X wins at once".
func TestGameAnalysisMissedWin(t *testing.T) {
	ts, _, a := newTestSite(t, 10, nil)
	g, _ := games.Lookup("IceSickle")
	start, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A random game up to a position where the mover can win at once,
	// and a move that does not.
	moves, win, miss, ok := rulestest.MissedWin(start, 5, 4)
	if !ok {
		t.Fatal("no position with a win in one in 200 random games")
	}
	tags := []notation.Tag{{Name: "Event", Value: "Missed win"}, {Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}
	rec, err := notation.FromMoves(tags, start, append(moves, miss))
	if err != nil {
		t.Fatal(err)
	}
	played, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	rep := &analysis.Report{Level: 1, Seats: 2}
	for i := range played.Moves {
		m := analysis.Move{Ply: i + 1, Seat: played.States[i].ToMove(), Token: played.Token(i + 1), Before: 0.5, After: 0.5}
		if i == len(played.Moves)-1 {
			m.Before, m.After, m.Mark = 1, 1, analysis.Blunder
			m.Better, m.BetterEval = played.States[i].FormatMove(win), 1
		}
		rep.Moves = append(rep.Moves, m)
	}
	if err := analysis.Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Import(context.Background(), strings.NewReader(rec.String()), "missed.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := a.Search(context.Background(), archive.Query{Event: "Missed win"})
	if err != nil || len(found) != 1 {
		t.Fatalf("the game: %v, %d found", err, len(found))
	}
	p := page(t, ts.URL, fmt.Sprintf("/game/%d", found[0].ID))
	want := "Missed a win: " + played.States[len(moves)].FormatMove(win) + " wins at once"
	if !strings.Contains(p, want) || strings.Contains(p, "Better: ") {
		t.Errorf("the page of a missed win lacks %q, or says Better:\n%s", want, section(t, p, `<p class="eval">`, "p"))
	}
}
