package pbem

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	"icepost/analysis"
	"icepost/notation"
	"icepost/pbem/mailread"
	"icepost/pbem/outmail"
	"icepost/render"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/rules/rulestest"
)

// The text chart: one mark a column at the height of its value, at most
// 78 characters a line, for short and long games of two and four seats.
func TestEvalChart(t *testing.T) {
	report := func(seats, n int) *analysis.Report {
		r := &analysis.Report{Level: 1, Seats: seats}
		for k := range n {
			// The mover's estimate climbs from 0 to 1 over the game.
			r.Moves = append(r.Moves, analysis.Move{Ply: k + 1, Seat: k%seats + 1, After: float64(k) / float64(max(n-1, 1))})
		}
		return r
	}
	for _, c := range []struct {
		seats, n int
		cols     int
		marks    string
	}{
		{2, 1, 4, "*"}, {2, 6, 24, "*"}, {2, 64, 64, "*"}, {2, 200, 64, "*"}, {4, 3, 12, "123"}, {4, 150, 64, "1234"},
	} {
		t.Run(fmt.Sprintf("%d seats, %d moves", c.seats, c.n), func(t *testing.T) {
			chart := EvalChart(report(c.seats, c.n))
			lines := strings.Split(strings.TrimSuffix(chart, "\n"), "\n")
			if len(lines) != ChartHeight+2 {
				t.Fatalf("%d lines:\n%s", len(lines), chart)
			}
			plotted := 0
			for _, l := range lines {
				if len(l) > 78 {
					t.Errorf("a line of %d characters: %q", len(l), l)
				}
				_, plot, ok := strings.Cut(l, "|")
				if !ok {
					continue // the axis and the legend
				}
				for _, r := range plot {
					switch {
					case r == ' ' || r == '-':
					case strings.ContainsRune(c.marks, r):
						plotted++
					default:
						t.Errorf("mark %q in %q", r, l)
					}
				}
			}
			if plotted != c.cols {
				t.Errorf("%d marks, want one a column, %d:\n%s", plotted, c.cols, chart)
			}
			if axis := lines[ChartHeight]; axis != "        +"+strings.Repeat("-", c.cols) {
				t.Errorf("the axis %q, want %d columns", axis, c.cols)
			}
			legend := Plural(c.n, "move", "moves")
			if last := (c.n-1)/c.seats + 1; last > 1 {
				legend += fmt.Sprintf(", numbered 1 to %d in the record", last)
			}
			if !strings.HasPrefix(strings.TrimSpace(lines[ChartHeight+1]), legend) {
				t.Errorf("the legend %q, want %q", lines[ChartHeight+1], legend)
			}
		})
	}
	// Two seats: seat 2's estimate is drawn as seat 1's chance (1 - it).
	r := &analysis.Report{Seats: 2, Moves: []analysis.Move{{Ply: 1, Seat: 1, After: 1}, {Ply: 2, Seat: 2, After: 1}}}
	lines := strings.Split(EvalChart(r), "\n")
	if !strings.HasSuffix(lines[0], "|****") || !strings.HasSuffix(lines[ChartHeight-1], "|    ****") {
		t.Errorf("a won and a lost position:\n%s", strings.Join(lines, "\n"))
	}
}

// The answer's worst moves say in words that a move missed a win in
// one, and give the engine's move and the chances it keeps for the
// others.
func TestWorstMovesMissedWin(t *testing.T) {
	g, _ := games.Lookup("IceSickle")
	start, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	moves, win, miss, ok := rulestest.MissedWin(start, 5, 4)
	if !ok {
		t.Fatal("no position with a win in one in 200 random games")
	}
	rec, err := notation.FromMoves(nil, start, append(moves, miss))
	if err != nil {
		t.Fatal(err)
	}
	played, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	rep := &analysis.Report{Level: 1, Seats: 2}
	n := len(played.Moves)
	for i := range played.Moves {
		m := analysis.Move{Ply: i + 1, Seat: played.States[i].ToMove(), Token: played.Token(i + 1), Before: 0.5, After: 0.5}
		if i == n-3 { // a mistake with a better move that does not win
			m.After, m.Mark, m.Better, m.BetterEval = 0.3, analysis.Mistake, played.Token(i+1), 0.5
		}
		if i == n-1 {
			m.Before, m.After, m.Mark = 1, 0.2, analysis.Blunder
			m.Better, m.BetterEval = played.States[i].FormatMove(win), 1
		}
		rep.Moves = append(rep.Moves, m)
	}
	gm := &Game{id: 7, seats: []Seat{{name: "Ada"}, {name: "Bob"}}, play: played}
	mover := rep.Moves[n-1].Seat
	text := SeatAnalysis(gm, rep, mover, mover)
	missed := fmt.Sprintf("Your move %s %s was a blunder (??): it missed a win, %s wins at once.",
		analysis.MoveNumber(n, 2), played.Token(n), played.States[n-1].FormatMove(win))
	other := fmt.Sprintf("Your move %s %s was a mistake (?): ", analysis.MoveNumber(n-2, 2), played.Token(n-2))
	keeps := fmt.Sprintf("The engine prefers %s: it keeps your winning chances at 50%% instead of 30%%.", played.Token(n-2))
	if !strings.Contains(text, missed) || !strings.Contains(text, other) || !strings.Contains(text, keeps) {
		t.Errorf("the worst moves lack %q, %q or %q:\n%s", missed, other, keeps, text)
	}
}

// checkCoachText checks what an analysis mail's text says in words: no
// [%eval] or other record command in it (they are the attached
// record's), the marks counted in good English ("1 inaccuracy", "3
// inaccuracies"), every sentence, paragraph and item beginning with a
// capital letter.
func CheckCoachText(t *testing.T, text string) {
	t.Helper()
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if strings.Contains(text, "[%") {
		t.Errorf("a record's command in the text:\n%s", text)
	}
	words := strings.Fields(text)
	for i := 1; i < len(words); i++ {
		n, err := strconv.Atoi(words[i-1])
		if err != nil {
			continue
		}
		w := strings.TrimRight(words[i], ".,:;)")
		for _, m := range []analysis.Mark{analysis.Inaccuracy, analysis.Mistake, analysis.Blunder} {
			if (w == m.String() && n != 1) || (w == m.Plural() && n == 1) {
				t.Errorf("%q in the text", words[i-1]+" "+words[i])
			}
		}
		if strings.HasSuffix(w, "ys") {
			t.Errorf("%q in the text", words[i])
		}
	}
	// A paragraph or an item (two spaces in) begins with a capital; so
	// does a sentence after one ends (". ", not a move's number "4. ").
	// The prose is the lines not indented, the items and their wrapped
	// lines (four spaces in, after an item); the chart is not prose.
	prev := ""
	var prose []string
	for _, line := range strings.Split(text, "\n") {
		body := strings.TrimLeft(line, " ")
		indent := len(line) - len(body)
		starts := body != "" && ((indent == 0 && prev == "") || indent == 2)
		if starts && !unicode.IsUpper([]rune(body)[0]) {
			t.Errorf("a line begins without a capital: %q", line)
		}
		if body == "" || indent <= 2 || (indent == 4 && prev != "" && len(prose) > 0) {
			prose = append(prose, line)
		} else {
			body = ""
		}
		prev = body
	}
	flatText := oneLine(strings.Join(prose, "\n"))
	for i := 0; i+2 < len(flatText); i++ {
		if flatText[i] != '.' || flatText[i+1] != ' ' || i == 0 {
			continue
		}
		if c := flatText[i-1]; c == '.' || (c >= '0' && c <= '9') {
			continue // a move's number: "4. d2:NW", "4... a8:W"
		}
		if r := []rune(flatText[i+2:])[0]; !unicode.IsUpper(r) {
			t.Errorf("a sentence begins without a capital: %q", flatText[max(0, i-30):min(len(flatText), i+30)])
		}
	}
}

// checkNumbering checks that every move the text names ("Your move 2...
// b6:N", "Move 3. d1:N by ada") is named so in the record: an analysed
// record writes its number before every move (after each move's
// comment), so "2... b6:N" stands in it as the text has it.
func CheckNumbering(t *testing.T, text, record string) int {
	t.Helper()
	rec := oneLine(record) + " "
	words := strings.Fields(text)
	n := 0
	for i := 0; i+2 < len(words); i++ {
		if words[i] != "move" && words[i] != "Move" {
			continue
		}
		num := words[i+1]
		digits := strings.TrimRight(num, ".")
		if _, err := strconv.Atoi(digits); err != nil || (num != digits+"." && num != digits+"...") {
			continue
		}
		n++
		if ref := num + " " + words[i+2] + " "; !strings.Contains(rec, ref) {
			t.Errorf("the text names %q, which the record does not:\n%s", ref, record)
		}
	}
	return n
}

// analysedGame is a game by mail of the record text with an analysis
// made by hand: judged gives the analysis of some plies (Before, After,
// Mark, Better, BetterEval), the others lose nothing (0.50 before and
// after). It returns the game, the report and the analysed record as
// the mail attaches it.
func analysedGame(t *testing.T, text string, judged map[int]analysis.Move) (*Game, *analysis.Report, string) {
	t.Helper()
	recs, errs := notation.Parse("known", []byte(text))
	if len(errs) > 0 {
		t.Fatal(errs.Err())
	}
	played, err := notation.Replay(recs[0])
	if err != nil {
		t.Fatal(err)
	}
	rep := &analysis.Report{Level: 3, Seats: played.Options.Seats}
	for i := range played.Moves {
		m, ok := judged[i+1]
		if !ok {
			m = analysis.Move{Before: 0.5, After: 0.5}
		}
		m.Ply, m.Seat, m.Token = i+1, played.States[i].ToMove(), played.Token(i+1)
		rep.Moves = append(rep.Moves, m)
	}
	annotated, _ := notation.Parse("known", []byte(played.Record.String()))
	if err := analysis.Annotate(annotated[0], rep); err != nil {
		t.Fatal(err)
	}
	g := &Game{id: 12, play: played}
	for _, name := range played.Record.Players() {
		g.seats = append(g.seats, Seat{name: name})
	}
	return g, rep, annotated[0].String()
}

// knownGame is a game of Pikemen: bob's 2... b6:N leaves his medium on
// b6 where ada's piece on f2 charges (a4:N would not), and ada does not
// take it (f2xb6:U would).
func knownGame(t *testing.T) (*Game, *analysis.Report, string) {
	t.Helper()
	return analysedGame(t, `[Game "Pikemen"]
[Player1 "ada"]
[Player2 "bob"]
[Result "0-1"]
[Termination "resignation"]

1. h4:NE d8:SW 2. f2:NW b6:N 3. d1:N b6:U 4. d1:NE 0-1
`, map[int]analysis.Move{
		2: {Before: 0.50, After: 0.49},
		3: {Before: 0.52, After: 0.44, Mark: analysis.Inaccuracy},
		4: {Before: 0.55, After: 0.38, Mark: analysis.Mistake, Better: "a4:N", BetterEval: 0.55},
		5: {Before: 0.66, After: 0.41, Mark: analysis.Blunder, Better: "f2xb6:U", BetterEval: 0.66},
		6: {Before: 0.60, After: 0.60},
		7: {Before: 0.42, After: 0.35, Mark: analysis.Inaccuracy},
	})
}

// The analysis mail of a known game, as bob reads it: his moves first,
// numbered as the record numbers them, in words a newcomer knows.
func TestAnalysisMailText(t *testing.T) {
	g, rep, record := knownGame(t)
	chart := EvalChart(rep)
	text := AnalysisText(g, rep, 2, chart)
	if got := mailTextPart(t, text, chart); got != knownGameMail {
		t.Errorf("the mail's text part:\n%s\nwant:\n%s", got, knownGameMail)
	}
	CheckCoachText(t, text)
	if n := CheckNumbering(t, text, record); n != 4 {
		t.Errorf("the text names %d moves, want 4", n)
	}

	// Taken: bob's medium went at once.
	g, rep, _ = analysedGame(t, `[Game "Pikemen"]
[Player1 "ada"]
[Player2 "bob"]

1. h4:NE d8:SW 2. f2:NW b6:N 3. f2xb6:U *
`, map[int]analysis.Move{4: {Before: 0.55, After: 0.38, Mark: analysis.Mistake, Better: "a4:N", BetterEval: 0.55}})
	text = AnalysisText(g, rep, 1, EvalChart(rep))
	CheckCoachText(t, text)
	if want := "Move 2... b6:N by bob was a mistake (?): it gave away bob's medium on b6, which you took at once. The engine prefers a4:N: it keeps bob's winning chances at 55% instead of 38%."; !strings.Contains(text, want) {
		t.Errorf("the mail's text does not say %q:\n%s", want, text)
	}
	// The engine's line, and a forced win missed, with its line.
	g, rep, _ = analysedGame(t, `[Game "Pikemen"]
[Player1 "ada"]
[Player2 "bob"]

1. h4:NE d8:SW 2. f2:NW b6:N 3. f2xb6:U *
`, map[int]analysis.Move{
		3: {Before: 1, After: 0.6, Mark: analysis.Blunder, Better: "h4-h6:N", BetterEval: 1, Line: []string{"h4-h6:N", "d8:S", "h6xd6:W"}, WinIn: 2},
		4: {Before: 0.55, After: 0.38, Mark: analysis.Mistake, Better: "a4:N", BetterEval: 0.55, Line: []string{"a4:N", "f2:N", "a4-a6:N"}}})
	text = AnalysisText(g, rep, 1, EvalChart(rep))
	CheckCoachText(t, text)
	for _, want := range []string{
		"Your move 2. f2:NW was a blunder (??): it missed a forced win, wins in 2: h4-h6:N, then d8:S, then h6xd6:W (with the longest defence).",
		"The engine prefers a4:N: it keeps bob's winning chances at 55% instead of 38%. The engine's line: a4:N, then f2:N, then a4-a6:N.",
	} {
		if !strings.Contains(oneLine(text), want) {
			t.Errorf("the mail's text does not say %q:\n%s", want, text)
		}
	}
}

// With three seats, a number covers three turns: the third seat's first
// move is 1..., the second's second 2....
func TestAnalysisMailNumbersThreeSeats(t *testing.T) {
	g, rep, record := analysedGame(t, `[Game "Pikemen"]
[Player1 "cy"]
[Player2 "dee"]
[Player3 "eve"]

1. a1:N a6:N f6:N 2. a1:NE a6:NE f6:NE 3. a1:N *
`, map[int]analysis.Move{
		3: {Before: 0.40, After: 0.30, Mark: analysis.Mistake, Better: "f6:NE", BetterEval: 0.40},
		5: {Before: 0.40, After: 0.34, Mark: analysis.Inaccuracy},
		7: {Before: 0.60, After: 0.30, Mark: analysis.Blunder, Better: "a1:E", BetterEval: 0.60},
	})
	text := AnalysisText(g, rep, 3, EvalChart(rep))
	CheckCoachText(t, text)
	if n := CheckNumbering(t, text, record); n != 3 {
		t.Errorf("the text names %d moves, want 3:\n%s", n, text)
	}
	for _, want := range []string{"Your move 1... f6:N was a mistake (?)", "Move 2... a6:NE by dee was an inaccuracy (?!)", "Move 3. a1:N by cy was a blunder (??)", "7 moves, numbered 1 to 3 in the record"} {
		if !strings.Contains(text, want) {
			t.Errorf("the mail's text does not say %q:\n%s", want, text)
		}
	}
	if you, dee := strings.Index(text, "You (eve, seat 3)"), strings.Index(text, "Seat 2, dee,"); you < 0 || dee < you {
		t.Errorf("eve's own moves do not come first:\n%s", text)
	}
}

// knownGameMail is the text part of bob's analysis mail of knownGame.
const knownGameMail = `Computer analysis of Pikemen #12: ada vs bob
  Seat 1: ada
  Seat 2: bob

Game over: bob wins by resignation (0-1).

The engine (level 3) played each position of the game out many times to
estimate the players' winning chances (a draw counting as a share), and
compared every move with the one it prefers. A move that lost 20 points of
winning chances or more (out of 100) is marked a blunder (??), 10 or more a
mistake (?), 5 or more an inaccuracy (?!).

The chart shows the winning chances of ada (seat 1) after each move: above
the middle line, ada is ahead.

    100%|
        |
        |
        |            ****
     50%|************----------------
        |                ************
        |
        |
      0%|
        +----------------------------
         7 moves, numbered 1 to 4 in the record

You (bob, seat 2) made 3 moves, and the engine marked 1 of them as a
mistake. On average a move lost 6 points of winning chances (out of 100).
  Your move 2... b6:N was a mistake (?): it left your medium on b6 for ada
    to take at once. The engine prefers a4:N: it keeps your winning chances
    at 55% instead of 38%.

Seat 1, ada, made 4 moves, and the engine marked 3 of them: 1 blunder and 2
inaccuracies. On average a move lost 10 points of winning chances (out of
100).
  Move 3. d1:N by ada was a blunder (??): it missed the chance to take your
    medium on b6. The engine prefers f2xb6:U, which takes it and keeps ada's
    winning chances at 66% instead of 41%.
  Move 2. f2:NW by ada was an inaccuracy (?!): it lost a little ground. The
    best move would have kept ada's winning chances at 52%; this one left
    44%.
  Move 4. d1:NE by ada was an inaccuracy (?!): it lost a little ground. The
    best move would have kept ada's winning chances at 42%; this one left
    35%.

The whole game is attached (game-12-analysis.txt), its moves numbered as
above: after each move a comment with its chances before and after it, the
marks ?!, ? and ??, and after each mistake and blunder the engine's move as
a variation. The commands icepost show, validate and fmt read it, and other
readers of the record format skip what they do not know.
`

// The graph's description (the SVG's desc, the PNG's words) and the
// mail's alt text count the marks in English: "1 inaccuracy", "3
// inaccuracies", never "inaccuracys".
func TestGraphCountsMarks(t *testing.T) {
	graph := render.EvalGraph{Seats: 2, Names: []string{"Ada", "Bob"}}
	for i, mark := range []analysis.Mark{analysis.Inaccuracy, analysis.Good, analysis.Inaccuracy, analysis.Mistake, analysis.Inaccuracy, analysis.Blunder, analysis.Blunder} {
		graph.Points = append(graph.Points, render.EvalPoint{Ply: i + 1, Seat: i%2 + 1, Value: 0.5, Mark: int(mark)})
	}
	var b bytes.Buffer
	if err := graph.SVG(&b); err != nil {
		t.Fatal(err)
	}
	desc := b.String()
	if i, j := strings.Index(desc, "<desc>"), strings.Index(desc, "</desc>"); i >= 0 && j > i {
		desc = desc[i:j]
	}
	if !strings.Contains(desc, "marked: 2 blunders, 1 mistake, 3 inaccuracies.") {
		t.Errorf("the graph's description: %s", desc)
	}

	h := &Handling{s: &Handler{Address: "icepost@example.org"}}
	g, rep, _ := knownGame(t)
	if pic := h.evalPicture(g, rep, EvalChart(rep)); pic.Alt != "A graph of the winning chances after each of the 7 moves, as the engine estimates them: 1 blunder, 1 mistake and 2 inaccuracies." {
		t.Errorf("the mail's alt text: %q", pic.Alt)
	}
}

// mailTextPart is the text part of a mail with this text and board, as
// icepost reads it back.
func mailTextPart(t *testing.T, text, board string) string {
	t.Helper()
	m := &outmail.Mail{From: "games@club.test", To: "bob@club.test", Subject: "icepost: analysis",
		MessageID: "a.1@club.test", Text: text, Date: time.Unix(0, 0), Picture: &outmail.Picture{Board: board}}
	raw, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	msg, err := mailread.Read(bytes.NewReader(raw), Language())
	if err != nil {
		t.Fatal(err)
	}
	return msg.Text
}

// oneLine is s with its runs of white space one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
