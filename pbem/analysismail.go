package pbem

import (
	"bytes"
	"fmt"
	"icepost/analysis"
	"icepost/notation"
	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
	"icepost/render"
	"icepost/rules"
	"math"
	"strings"
)

// The analysis mail: the game's analysis for a seat, in words a
// newcomer knows (docs/engine.md), with the graph of the estimates.

// analysisMail is the answer to analyze: the game's analysis for a seat,
// from the analysed record rec.
func (h *handling) analysisMail(g *game, seatNo int, rec string) (*outmail.Mail, error) {
	recs, errs := notation.Parse(fmt.Sprintf("analysis of game %d", g.id), []byte(rec))
	if len(errs) > 0 || len(recs) != 1 {
		return nil, fmt.Errorf("pbem: the stored analysis of game %d does not read: %w", g.id, errs.Err())
	}
	rep, ok, err := analysis.Read(recs[0])
	if err != nil {
		return nil, fmt.Errorf("pbem: the stored analysis of game %d: %w", g.id, err)
	}
	if !ok {
		return nil, fmt.Errorf("pbem: the stored record of game %d holds no analysis", g.id)
	}
	chart := evalChart(rep)
	text := analysisText(g, rep, seatNo, chart)
	m := h.threadMail(g, seatNo, replytoken.Token{})
	m.Text = text
	m.Reply = true
	m.Attachments = []outmail.Attachment{{Name: analysisFile(g), Type: "text/plain", Data: []byte(rec)}}
	m.Picture = h.evalPicture(g, rep, chart)
	return m, nil
}

// analysisFile is the name of the analysed record's attachment.
func analysisFile(g *game) string { return fmt.Sprintf("game-%d-analysis.txt", g.id) }

// analysisText is the text of the analysis mail for seat reader: the
// players and the result, how to read the analysis, the chart (the
// HTML shows the graph in its place), each seat's moves in words (the
// reader's first) and what the attached record holds. It speaks of
// winning chances in percent and of ground lost, numbers the moves as
// the attached record does ("10.", "10..."), and leaves the record's
// [%eval] comments to the record.
func analysisText(g *game, rep *analysis.Report, reader int, chart string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Computer analysis of %s\n", g.title())
	for i, st := range g.seats {
		fmt.Fprintf(&b, "  Seat %d: %s\n", i+1, st.name)
	}
	fmt.Fprintf(&b, "\n%s\n\n", g.endText())
	fmt.Fprintf(&b, "The engine (level %d) played each position of the game out many times to estimate the players' winning chances (a draw counting as a share), and compared every move with the one it prefers. A move that lost %d points of winning chances or more (out of 100) is marked a blunder (??), %d or more a mistake (?), %d or more an inaccuracy (?!).\n\n",
		rep.Level, percent(analysis.BlunderLoss), percent(analysis.MistakeLoss), percent(analysis.InaccuracyLoss))
	if rep.Seats == 2 {
		fmt.Fprintf(&b, "The chart shows the winning chances of %s (seat 1) after each move: above the middle line, %s is ahead.\n\n",
			g.seats[0].name, g.seats[0].name)
	} else {
		b.WriteString("The chart shows each player's winning chances after each of their own moves, drawn with their seat's number.\n\n")
	}
	b.WriteString(chart)
	b.WriteString("\n")
	order := []int{reader}
	for seatNo := 1; seatNo <= len(g.seats); seatNo++ {
		if seatNo != reader {
			order = append(order, seatNo)
		}
	}
	for _, seatNo := range order {
		b.WriteString(seatAnalysis(g, rep, seatNo, reader))
	}
	fmt.Fprintf(&b, "The whole game is attached (%s), its moves numbered as above: after each move a comment with its chances before and after it, the marks ?!, ? and ??, and after each mistake and blunder the engine's move as a variation. The commands icepost show, validate and fmt read it, and other readers of the record format skip what they do not know.\n",
		analysisFile(g))
	return b.String()
}

// Marked moves told a seat: its own, and each other seat's.
const (
	ownMovesTold   = 5
	otherMovesTold = 3
)

// seatAnalysis is one seat's moves in words for reader: how many, how
// many the engine marked, the ground lost on average, and its worst
// moves (moveText); "" for a seat that made no move.
func seatAnalysis(g *game, rep *analysis.Report, seatNo, reader int) string {
	if seatNo < 1 || seatNo > len(g.seats) {
		return ""
	}
	mean, n := rep.MeanLoss(seatNo)
	if n == 0 {
		return ""
	}
	var own []analysis.Move
	for _, m := range rep.Marked() {
		if m.Seat == seatNo {
			own = append(own, m)
		}
	}
	var b strings.Builder
	told := otherMovesTold
	if seatNo == reader {
		told = ownMovesTold
		fmt.Fprintf(&b, "You (%s, seat %d) made %s", g.seats[seatNo-1].name, seatNo, plural(n, "move", "moves"))
	} else {
		fmt.Fprintf(&b, "Seat %d, %s, made %s", seatNo, g.seats[seatNo-1].name, plural(n, "move", "moves"))
	}
	switch {
	case len(own) == 0 && n == 1:
		b.WriteString(", and the engine did not mark it.")
	case len(own) == 0:
		b.WriteString(", and the engine marked none of them.")
	case n == 1:
		fmt.Fprintf(&b, ", and the engine marked it as %s.", own[0].Mark.WithArticle())
	case own[0].Mark == own[len(own)-1].Mark && len(own) == 1:
		fmt.Fprintf(&b, ", and the engine marked 1 of them as %s.", own[0].Mark.WithArticle())
	case own[0].Mark == own[len(own)-1].Mark:
		fmt.Fprintf(&b, ", and the engine marked %d of them as %s.", len(own), own[0].Mark.Plural())
	default:
		fmt.Fprintf(&b, ", and the engine marked %d of them: %s.", len(own), analysis.MarkCounts(own))
	}
	lost := "less than 1 point"
	if p := percent(mean); p == 1 {
		lost = "1 point"
	} else if p > 1 {
		lost = fmt.Sprintf("%d points", p)
	}
	fmt.Fprintf(&b, " On average a move lost %s of winning chances (out of 100).\n", lost)
	for i, m := range own {
		if i == told {
			fmt.Fprintf(&b, "  And %d more, marked in the attached record.\n", len(own)-told)
			break
		}
		b.WriteString("  " + moveText(g, rep, m, reader) + "\n")
	}
	b.WriteString("\n")
	return b.String()
}

// moveText says what a marked move did, for reader, in sentences: the
// move as the record numbers it, its mark in words, what it gave away
// when the positions show it (analysis.Explain: a win let to the next
// seat, a piece left to be taken), else the ground it lost, and the
// engine's move with the winning chances it keeps:
//
//	Your move 10. f2:NW was a blunder (??): it gave away your medium on
//	f2, which bob took at once. The engine prefers f2:N: it keeps your
//	winning chances at 63% instead of 41%.
func moveText(g *game, rep *analysis.Report, m analysis.Move, reader int) string {
	name := func(seatNo int) string {
		if seatNo == reader {
			return "you"
		}
		if seatNo >= 1 && seatNo <= len(g.seats) {
			return g.seats[seatNo-1].name
		}
		return fmt.Sprintf("seat %d", seatNo)
	}
	possessive := func(seatNo int) string {
		if seatNo == reader {
			return "your"
		}
		return name(seatNo) + "'s"
	}
	piece := func(c *analysis.Capture) string {
		return possessive(c.Owner) + " " + sizeWords[min(max(c.Size, 0), len(sizeWords)-1)] + " on " + c.Cell
	}
	head := fmt.Sprintf("Move %s %s by %s", analysis.MoveNumber(m.Ply, rep.Seats), m.Token, name(m.Seat))
	if m.Seat == reader {
		head = fmt.Sprintf("Your move %s %s", analysis.MoveNumber(m.Ply, rep.Seats), m.Token)
	}
	head += fmt.Sprintf(" was %s (%s)", m.Mark.WithArticle(), m.Mark.Symbol())
	chances := possessive(m.Seat) + " winning chances"

	var before rules.State
	if m.Ply >= 1 && m.Ply-1 < len(g.play.States) {
		before = g.play.States[m.Ply-1]
	}
	if m.WinIn >= 2 {
		// A forced win the solver proved: said with its line.
		return fmt.Sprintf("%s: it missed a forced win, %s (with the longest defence).", head, analysis.WinText(m))
	}
	if before != nil && analysis.MissedWin(before, m) {
		s := fmt.Sprintf("%s: it missed a win, %s wins at once.", head, m.Better)
		if m.After >= 1 {
			s += fmt.Sprintf(" The win was only put off a turn: whatever the others played, %s could still win at once on the next turn.", name(m.Seat))
		}
		return s
	}
	reply := ""
	if m.Ply < len(g.play.Moves) {
		reply = g.play.Token(m.Ply + 1)
	}
	e := analysis.Explain(before, m, reply)
	var what string
	switch {
	case e.Lets != "":
		what = fmt.Sprintf("it let %s win at once with %s", name(e.LetsSeat), e.Lets)
	case e.Exposed != nil && e.Took:
		what = fmt.Sprintf("it gave away %s, which %s took at once", piece(e.Exposed), name(e.Taker))
	case e.Exposed != nil:
		what = fmt.Sprintf("it left %s for %s to take at once", piece(e.Exposed), name(e.Taker))
	case e.BetterTakes != nil && m.Better != "" && m.BetterEval > m.After:
		what = fmt.Sprintf("it missed the chance to take %s", piece(e.BetterTakes))
	default:
		what = [...]string{"", "it lost a little ground", "it lost ground", "it lost a lot of ground"}[m.Mark]
	}
	s := head + ": " + what + "."
	switch {
	case m.Better != "" && m.BetterEval > m.After && e.BetterTakes != nil:
		takes := piece(e.BetterTakes)
		if e.Exposed == nil && e.Lets == "" {
			takes = "it" // the piece the sentence before named
		}
		s += fmt.Sprintf(" The engine prefers %s, which takes %s and keeps %s at %s instead of %s.",
			m.Better, takes, chances, percentText(m.BetterEval), percentText(m.After))
	case m.Better != "" && m.BetterEval > m.After:
		s += fmt.Sprintf(" The engine prefers %s: it keeps %s at %s instead of %s.",
			m.Better, chances, percentText(m.BetterEval), percentText(m.After))
	default:
		s += fmt.Sprintf(" The best move would have kept %s at %s; this one left %s.",
			chances, percentText(m.Before), percentText(m.After))
	}
	if len(m.Line) > 1 {
		s += " The engine's line: " + analysis.LineText(m) + "."
	}
	return s
}

// sizeWords name the pieces' sizes (rules.Small, Medium, Large).
var sizeWords = [...]string{"piece", "small", "medium", "large"}

// percent is an estimate from 0 to 1 in points out of 100, rounded.
func percent(v float64) int { return int(math.Round(100 * min(max(v, 0), 1))) }

// percentText is an estimate as a percentage: "63%".
func percentText(v float64) string { return fmt.Sprintf("%d%%", percent(v)) }

// Chart's size: its plot is at most chartWidth columns (up to four a
// move in a short game, several moves a column in a long one) and
// chartHeight rows.
const (
	chartWidth  = 64
	chartHeight = 9
)

// evalChart draws the estimates as text, for the text part (the HTML
// shows the picture in its place): with two seats, the first seat's
// winning chances after each move (100% at the top, 0% at the bottom, a
// line in the middle); with more, the mover's after each move, drawn
// with its seat's number. Code lines (pbem/outmail), each at most 78
// characters.
func evalChart(rep *analysis.Report) string {
	n := len(rep.Moves)
	per := max(1, min(4, chartWidth/max(n, 1))) // columns a move
	cols := min(n*per, chartWidth)
	grid := make([][]byte, chartHeight)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(" ", cols))
		if rep.Seats == 2 && r == chartHeight/2 {
			grid[r] = []byte(strings.Repeat("-", cols))
		}
	}
	for c := range cols {
		// A column shows its move, or the last of the moves it covers.
		k := c / per
		if n > chartWidth {
			k = (c+1)*n/cols - 1
		}
		m := rep.Moves[min(k, n-1)]
		v, mark := m.After, byte('0'+m.Seat)
		if rep.Seats == 2 {
			if m.Seat != 1 {
				v = 1 - v
			}
			mark = '*'
		}
		row := chartHeight - 1 - int(v*float64(chartHeight-1)+0.5)
		grid[min(max(row, 0), chartHeight-1)][c] = mark
	}
	var b strings.Builder
	for r, line := range grid {
		label := "    "
		switch r {
		case 0:
			label = "100%"
		case chartHeight / 2:
			label = " 50%"
		case chartHeight - 1:
			label = "  0%"
		}
		fmt.Fprintf(&b, "    %s|%s\n", label, strings.TrimRight(string(line), " "))
	}
	// The moves as the record numbers them: a number covers a turn of
	// each seat.
	legend := plural(n, "move", "moves")
	if last := (n-1)/max(rep.Seats, 1) + 1; last > 1 {
		legend += fmt.Sprintf(", numbered 1 to %d in the record", last)
	}
	if n > chartWidth {
		legend += fmt.Sprintf(", about %d a column", (n+cols-1)/cols)
	}
	fmt.Fprintf(&b, "        +%s\n         %s\n", strings.Repeat("-", cols), legend)
	return b.String()
}

// plural is n and a noun, singular or plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// evalPicture is the graph of the estimates as a PNG (render.EvalGraph),
// which the HTML part shows in place of chart, the text part's drawing of
// it. A graph that fails to draw leaves the text chart in the HTML.
func (h *handling) evalPicture(g *game, rep *analysis.Report, chart string) *outmail.Picture {
	pic := &outmail.Picture{Board: chart}
	graph := render.EvalGraph{Seats: rep.Seats, Title: fmt.Sprintf("%s #%d: computer analysis, level %d", g.gameName(), g.id, rep.Level)}
	for _, st := range g.seats {
		graph.Names = append(graph.Names, st.name)
	}
	for _, m := range rep.Moves {
		graph.Points = append(graph.Points, render.EvalPoint{Ply: m.Ply, Seat: m.Seat, Value: m.After, Mark: int(m.Mark)})
	}
	var b bytes.Buffer
	if err := graph.PNG(&b); err != nil {
		h.s.log().Error("drawing an analysis graph failed: the mail shows the text chart", "game", g.id, "err", err)
		return pic
	}
	marks := analysis.MarkCounts(rep.Moves)
	if marks == "" {
		marks = "no move marked"
	}
	after := fmt.Sprintf("each of the %d moves", len(rep.Moves))
	if len(rep.Moves) == 1 {
		after = "the one move"
	}
	pic.Alt = fmt.Sprintf("A graph of the winning chances after %s, as the engine estimates them: %s.", after, marks)
	pic.Image = outmail.InlineImage{ContentID: fmt.Sprintf("analysis-%d-%d.%s@%s", g.id, rep.Level, outmail.RandomID(), h.s.domain()),
		Name: fmt.Sprintf("game-%d-analysis.png", g.id), Type: "image/png", Data: b.Bytes()}
	return pic
}
