package pbem

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"

	gomail "github.com/emersion/go-message/mail"

	"icepost/analysis"
	"icepost/notation"
	"icepost/pbem/mailread"
	"icepost/pbem/outmail"
	"icepost/render"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/rules/rulestest"
)

// quickAnalyses makes the server's analyses fast for tests: level 1, one
// core.
func quickAnalyses(w *world) {
	w.srv.Bots = Bots{Level: 1, MoveTime: Duration{2 * time.Second}, Workers: 1, AnalysisLevel: 1}
}

// finishedByMail has ada (seat 1) and bob (seat 2) play game id of
// IceSickle by mail, plies moves, and bob resign.
func finishedByMail(t *testing.T, fw *forgeryWorld, id, plies int) {
	t.Helper()
	fw.game("ada", "bob", id)
	for k := range plies {
		who, seat := "ada", 1
		if k%2 == 1 {
			who, seat = "bob", 2
		}
		fw.reply(who, id, seat, moveFor(t, fw.world, int64(id), k))
	}
	fw.reply("bob", id, 2, "resign")
	if g := replay(t, fw.world, int64(id)); g.Ply() != plies || !g.Over() {
		t.Fatalf("game %d: ply %d, over %v", id, g.Ply(), g.Over())
	}
}

// analysisMail is what a player finds in an analysis mail: its text, the
// attachments by name, and the inline pictures.
type analysisParts struct {
	text     string
	files    map[string][]byte
	pictures [][]byte
}

func readAnalysisMail(t *testing.T, m got) analysisParts {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(m.raw))
	if err != nil {
		t.Fatal(err)
	}
	out := analysisParts{text: m.text, files: map[string][]byte{}}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(p.Body)
		switch h := p.Header.(type) {
		case *gomail.AttachmentHeader:
			name, _ := h.Filename()
			out.files[name] = body
		case *gomail.InlineHeader:
			if ct, _, _ := h.ContentType(); ct == "image/png" {
				out.pictures = append(out.pictures, body)
			}
		}
	}
	return out
}

// checkAnalysis checks an analysis mail of game id with plies moves: the
// annotated record attached reads, validates, is icepost's analysis at
// level 1 with a comment after every move, and comes back the same
// through fmt; the text names each player's moves in words
// (checkCoachText), numbered as the record numbers them.
func checkAnalysis(t *testing.T, m got, id, plies int) {
	t.Helper()
	p := readAnalysisMail(t, m)
	for _, who := range [][2]string{{"You (ada, seat 1) made ", "Seat 1, ada, made "}, {"You (bob, seat 2) made ", "Seat 2, bob, made "}} {
		if !strings.Contains(p.text, who[0]) && !strings.Contains(p.text, who[1]) {
			t.Errorf("the analysis mail's text does not say %q:\n%s", who[1], p.text)
		}
	}
	if !strings.Contains(p.text, "Computer analysis of IceSickle #") || !strings.Contains(p.text, "100%|") {
		t.Errorf("the analysis mail's text:\n%s", p.text)
	}
	checkCoachText(t, p.text)
	name := "game-" + strconv.Itoa(id) + "-analysis.txt"
	rec, ok := p.files[name]
	if !ok {
		t.Fatalf("no attachment %s: %v", name, p.files)
	}
	recs, errs := notation.Parse(name, rec)
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("the attached record does not read: %v\n%s", errs.Err(), rec)
	}
	if err := notation.Validate(recs[0]); err != nil {
		t.Errorf("the attached record does not validate: %v", err)
	}
	checkNumbering(t, p.text, string(rec))
	var b bytes.Buffer
	if err := notation.Format(&b, recs[0]); err != nil {
		t.Fatal(err)
	}
	again, errs := notation.Parse(name, b.Bytes())
	if len(errs) > 0 || again[0].String() != recs[0].String() {
		t.Errorf("fmt changed the analysed record: %v\n%s\ninto\n%s", errs.Err(), recs[0], b.String())
	}
	r, ok, err := analysis.Read(recs[0])
	if err != nil || !ok || r.Level != 1 || len(r.Moves) != plies {
		t.Fatalf("the attached record's analysis: %v, %v, %+v", ok, err, r)
	}
	if len(p.pictures) != 1 {
		t.Fatalf("%d pictures in the analysis mail, want the graph", len(p.pictures))
	}
	if _, err := png.Decode(bytes.NewReader(p.pictures[0])); err != nil {
		t.Errorf("the graph: %v", err)
	}
}

// runAnalyses makes the due analyses and sends the outbox.
func (w *world) runAnalyses() int {
	w.t.Helper()
	n, err := w.srv.RunAnalyses(w.ctx)
	if err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		w.t.Fatal(err)
	}
	return n
}

// TestAnalyzeByMail, on the embedded mail system and on Dovecot: a
// player of a finished game asks for its analysis in
// a reply to its last board; the answer comes once the queued job has
// run, with the analysed record attached; a second request, the same
// player's while waiting and the other player's, starts no second
// analysis, and each request gets one answer.
func TestAnalyzeByMail(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { scenarioAnalyzeByMail(t, b.new(t)) })
	}
}

func scenarioAnalyzeByMail(t *testing.T, w *world) {
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	finishedByMail(t, fw, 1, 6)

	before := len(w.inbox("ada"))
	fw.reply("ada", 1, 1, "analyze")
	if got := len(w.inbox("ada")) - before; got != 0 {
		t.Fatalf("ada got %d mails before the analysis was made (no acknowledgement when none waits): %s", got, w.last("ada").text)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs WHERE game_id = 1 AND level = 1`); n != 1 {
		t.Fatalf("%d jobs, want 1", n)
	}
	// ada again, while it waits: told so, and answered once in the end.
	fw.reply("ada", 1, 1, "analyze")
	if got := w.last("ada").text; !strings.Contains(got, "You asked for this analysis already") {
		t.Fatalf("ada's second request:\n%s", got)
	}
	// bob, while it waits: the same job.
	fw.reply("bob", 1, 2, "analyze")
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`); n != 1 {
		t.Fatalf("%d jobs, want 1", n)
	}
	adaBefore, bobBefore := len(w.inbox("ada")), len(w.inbox("bob"))
	if n := w.runAnalyses(); n != 1 {
		t.Fatalf("%d analyses done, want 1", n)
	}
	if got := len(w.inbox("ada")) - adaBefore; got != 1 {
		t.Fatalf("ada got %d mails, want her analysis", got)
	}
	if got := len(w.inbox("bob")) - bobBefore; got != 1 {
		t.Fatalf("bob got %d mails, want his analysis", got)
	}
	checkAnalysis(t, w.last("ada"), 1, 6)
	checkAnalysis(t, w.last("bob"), 1, 6)
	if n, _ := w.srv.Analyses(); n != 1 {
		t.Fatalf("%d analyses made, want 1", n)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`) + countRows(t, w, `SELECT count(*) FROM pbem_analysis_requests`); n != 0 {
		t.Fatalf("%d jobs and requests left", n)
	}
	// The archived game has it too, for the web site and the searches.
	if n := countRows(t, w, `SELECT count(*) FROM analysis an JOIN games g ON g.id = an.game_id WHERE g.mail_game = 'mail game 1' AND an.level = 1`); n != 1 {
		t.Fatalf("the archive has %d analyses of the game, want 1", n)
	}
	if n := countRows(t, w, `SELECT count(*) FROM analysis_seats s JOIN games g ON g.id = s.game_id WHERE g.mail_game = 'mail game 1'`); n != 2 {
		t.Fatalf("the archive has the analysis of %d seats, want 2", n)
	}

	// Asked again: answered at once from the stored analysis.
	fw.reply("ada", 1, 1, "analyze")
	if got := len(w.inbox("ada")) - adaBefore; got != 2 {
		t.Fatalf("ada got %d mails, want a second analysis", got)
	}
	checkAnalysis(t, w.last("ada"), 1, 6)
	if n := w.runAnalyses(); n != 0 {
		t.Fatalf("%d analyses done after a request for a stored one", n)
	}
	if n, _ := w.srv.Analyses(); n != 1 {
		t.Fatalf("%d analyses made, want 1", n)
	}
}

// TestAnalyzeN: analyze N names the game, from a reply to any mail the
// server sent the player (the proof), or from a new mail after one more
// reply; a game still going, an unknown game and another's game are
// refused with the reason.
func TestAnalyzeN(t *testing.T) {
	w := newWorld(t)
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	finishedByMail(t, fw, 1, 4)
	fw.game("ada", "cy", 2) // still going

	// A new mail: not proof, so the answer is the game's board, to reply
	// to with the same line.
	w.send("bob", "analyze 1")
	board := w.last("bob")
	if !strings.Contains(board.text, `"analyze 1"`) || countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`) != 0 {
		t.Fatalf("bob's answer to a new mail:\n%s", board.text)
	}
	w.deliver(w.reply("bob", board, "analyze 1"))
	w.step()
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_requests WHERE seat = 2`); n != 1 {
		t.Fatalf("%d requests of bob's after his reply", n)
	}
	before := len(w.inbox("bob"))
	w.runAnalyses()
	if len(w.inbox("bob")) != before+1 {
		t.Fatalf("bob got %d mails, want his analysis", len(w.inbox("bob"))-before)
	}
	checkAnalysis(t, w.last("bob"), 1, 4)

	// From a reply to game 2's board, ada names game 1: answered at once.
	fw.reply("ada", 2, 1, "analyze 1")
	checkAnalysis(t, w.last("ada"), 1, 4)

	for _, c := range []struct{ line, want string }{
		{"analyze", "Game 2 is still going: analyze it after it ends"},
		{"analyze 2", "Game 2 is still going: analyze it after it ends"},
		{"analyze 99", "game 99 does not exist"},
	} {
		fw.reply("ada", 2, 1, c.line)
		if got := w.last("ada").text; !strings.Contains(got, c.want) {
			t.Errorf("ada's %q: the answer does not say %q:\n%s", c.line, c.want, got)
		}
	}
	fw.reply("cy", 2, 2, "analyze 1")
	if got := w.last("cy").text; !strings.Contains(got, "has no seat in game 1") {
		t.Errorf("cy's analyze 1:\n%s", got)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`); n != 0 {
		t.Errorf("%d jobs after the refusals", n)
	}
}

// cancelAt is a log that ends a context at the first line with a
// message: the daemon stopping at that point of its work.
type cancelAt struct {
	msg    string
	cancel context.CancelFunc
}

func (c cancelAt) Enabled(context.Context, slog.Level) bool { return true }
func (c cancelAt) Handle(_ context.Context, r slog.Record) error {
	if r.Message == c.msg {
		c.cancel()
	}
	return nil
}
func (c cancelAt) WithAttrs([]slog.Attr) slog.Handler { return c }
func (c cancelAt) WithGroup(string) slog.Handler      { return c }

// TestAnalysisAcrossRestarts: the daemon stops in the middle of an
// analysis; the next process makes it and ada gets one answer. Then the
// next analysis is committed and the process stops before sending: the
// next sends it once.
func TestAnalysisAcrossRestarts(t *testing.T) {
	w := newWorld(t)
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	finishedByMail(t, fw, 1, 6)
	fw.reply("ada", 1, 1, "analyze")
	before := len(w.inbox("ada"))

	// Stopped in the middle: nothing is stored or sent, the job stays.
	stopped, cancel := context.WithCancel(w.ctx)
	w.srv.Log = slog.New(cancelAt{msg: "analysing", cancel: cancel})
	if _, err := w.srv.RunAnalyses(stopped); err == nil {
		t.Fatal("an analysis stopped in the middle reported no error")
	}
	w.srv.Log = nil
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`); n != 1 {
		t.Fatalf("%d jobs after a stopped analysis, want 1", n)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_analyses`) + countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`); n != 0 {
		t.Fatalf("a stopped analysis stored or queued %d things", n)
	}

	// A new process: its daemon's own loop makes the analysis.
	w.d = w.newDaemon()
	w.d.Poll = 50 * time.Millisecond
	run := func() {
		ctx, stop := context.WithCancel(w.ctx)
		done := make(chan error, 1)
		go func() { done <- w.d.Run(ctx) }()
		deadline := time.Now().Add(30 * time.Second)
		for len(w.inbox("ada")) == before && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // room for a second mail, were there one
		stop()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	run()
	if got := len(w.inbox("ada")) - before; got != 1 {
		t.Fatalf("after the restart ada got %d mails, want 1", got)
	}
	checkAnalysis(t, w.last("ada"), 1, 6)

	// Committed, then the process dies before sending: the next sends it
	// once, and analyses nothing again.
	finishedByMail(t, fw, 2, 4)
	fw.reply("bob", 2, 2, "analyze")
	bobBefore := len(w.inbox("bob"))
	if n, err := w.srv.RunAnalyses(w.ctx); err != nil || n != 1 {
		t.Fatalf("RunAnalyses: %d, %v", n, err)
	}
	made, _ := w.srv.Analyses()
	w.d = w.newDaemon()
	w.step()
	w.runAnalyses()
	w.step()
	if got := len(w.inbox("bob")) - bobBefore; got != 1 {
		t.Errorf("after the restart bob got %d mails, want 1", got)
	}
	checkAnalysis(t, w.last("bob"), 2, 4)
	if n, _ := w.srv.Analyses(); n != made {
		t.Errorf("%d analyses made after the restart, want none", n-made)
	}
}

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
			chart := evalChart(report(c.seats, c.n))
			lines := strings.Split(strings.TrimSuffix(chart, "\n"), "\n")
			if len(lines) != chartHeight+2 {
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
			if axis := lines[chartHeight]; axis != "        +"+strings.Repeat("-", c.cols) {
				t.Errorf("the axis %q, want %d columns", axis, c.cols)
			}
			legend := plural(c.n, "move", "moves")
			if last := (c.n-1)/c.seats + 1; last > 1 {
				legend += fmt.Sprintf(", numbered 1 to %d in the record", last)
			}
			if !strings.HasPrefix(strings.TrimSpace(lines[chartHeight+1]), legend) {
				t.Errorf("the legend %q, want %q", lines[chartHeight+1], legend)
			}
		})
	}
	// Two seats: seat 2's estimate is drawn as seat 1's chance (1 - it).
	r := &analysis.Report{Seats: 2, Moves: []analysis.Move{{Ply: 1, Seat: 1, After: 1}, {Ply: 2, Seat: 2, After: 1}}}
	lines := strings.Split(evalChart(r), "\n")
	if !strings.HasSuffix(lines[0], "|****") || !strings.HasSuffix(lines[chartHeight-1], "|    ****") {
		t.Errorf("a won and a lost position:\n%s", strings.Join(lines, "\n"))
	}
}

// An analysis queued behind another's gets a short note that it may take
// a while; the first, which starts at once, gets none; each gets its
// analysis once. The game-over board tells the players how to ask.
func TestAnalysisQueuedBehindAnother(t *testing.T) {
	w := newWorld(t)
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	finishedByMail(t, fw, 1, 2)
	finishedByMail(t, fw, 2, 2)
	if over := fw.latest("ada", 2, 1).text; !strings.Contains(over, "Game over") || !strings.Contains(over, "reply analyze") {
		t.Fatalf("the game-over board does not say how to ask for the analysis:\n%s", over)
	}
	adaBefore, bobBefore := len(w.inbox("ada")), len(w.inbox("bob"))
	fw.reply("ada", 1, 1, "analyze")
	fw.reply("bob", 2, 2, "analyze")
	if n := len(w.inbox("ada")) - adaBefore; n != 0 {
		t.Errorf("ada, first in the queue, got %d mails before her analysis", n)
	}
	if n := len(w.inbox("bob")) - bobBefore; n != 1 || !strings.Contains(w.last("bob").text, "queued behind 1 analysis") {
		t.Fatalf("bob, second in the queue, got %d mails, the last:\n%s", n, w.last("bob").text)
	}
	if n := w.runAnalyses(); n != 2 {
		t.Fatalf("%d analyses made, want 2", n)
	}
	checkAnalysis(t, w.last("ada"), 1, 2)
	checkAnalysis(t, w.last("bob"), 2, 2)
	if a, b := len(w.inbox("ada"))-adaBefore, len(w.inbox("bob"))-bobBefore; a != 1 || b != 2 {
		t.Errorf("ada got %d mails, bob %d; want 1 and 2 (the note and the analysis)", a, b)
	}
}

// [bots] analysis_level: 0 is the default level, 1 to 5 are taken, others
// refused with a message that names the key.
func TestAnalysisLevelSetting(t *testing.T) {
	for _, c := range []struct {
		level, want int
		bad         bool
	}{{0, analysis.DefaultLevel, false}, {1, 1, false}, {5, 5, false}, {6, 0, true}, {-1, 0, true}} {
		b := Bots{AnalysisLevel: c.level}
		err := b.Check()
		if c.bad {
			if err == nil || !strings.Contains(err.Error(), "analysis_level") {
				t.Errorf("analysis_level = %d: %v, want a refusal naming analysis_level", c.level, err)
			}
			continue
		}
		if err != nil || b.analysisLevel() != c.want {
			t.Errorf("analysis_level = %d: %v, level %d; want %d", c.level, err, b.analysisLevel(), c.want)
		}
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
	gm := &game{id: 7, seats: []seat{{name: "Ada"}, {name: "Bob"}}, play: played}
	mover := rep.Moves[n-1].Seat
	text := seatAnalysis(gm, rep, mover, mover)
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
func checkCoachText(t *testing.T, text string) {
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
	flatText := flat(strings.Join(prose, "\n"))
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
func checkNumbering(t *testing.T, text, record string) int {
	t.Helper()
	rec := flat(record) + " "
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
func analysedGame(t *testing.T, text string, judged map[int]analysis.Move) (*game, *analysis.Report, string) {
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
	g := &game{id: 12, play: played}
	for _, name := range played.Record.Players() {
		g.seats = append(g.seats, seat{name: name})
	}
	return g, rep, annotated[0].String()
}

// knownGame is a game of Pikemen: bob's 2... b6:N leaves his medium on
// b6 where ada's piece on f2 charges (a4:N would not), and ada does not
// take it (f2xb6:U would).
func knownGame(t *testing.T) (*game, *analysis.Report, string) {
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
	chart := evalChart(rep)
	text := analysisText(g, rep, 2, chart)
	if got := mailTextPart(t, text, chart); got != knownGameMail {
		t.Errorf("the mail's text part:\n%s\nwant:\n%s", got, knownGameMail)
	}
	checkCoachText(t, text)
	if n := checkNumbering(t, text, record); n != 4 {
		t.Errorf("the text names %d moves, want 4", n)
	}

	// Taken: bob's medium went at once.
	g, rep, _ = analysedGame(t, `[Game "Pikemen"]
[Player1 "ada"]
[Player2 "bob"]

1. h4:NE d8:SW 2. f2:NW b6:N 3. f2xb6:U *
`, map[int]analysis.Move{4: {Before: 0.55, After: 0.38, Mark: analysis.Mistake, Better: "a4:N", BetterEval: 0.55}})
	text = analysisText(g, rep, 1, evalChart(rep))
	checkCoachText(t, text)
	if want := "Move 2... b6:N by bob was a mistake (?): it gave away bob's medium on b6, which you took at once. The engine prefers a4:N: it keeps bob's winning chances at 55% instead of 38%."; !strings.Contains(text, want) {
		t.Errorf("the mail's text does not say %q:\n%s", want, text)
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
	text := analysisText(g, rep, 3, evalChart(rep))
	checkCoachText(t, text)
	if n := checkNumbering(t, text, record); n != 3 {
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

	h := &handling{s: &Server{Address: "icepost@example.org"}}
	g, rep, _ := knownGame(t)
	if pic := h.evalPicture(g, rep, evalChart(rep)); pic.Alt != "A graph of the winning chances after each of the 7 moves, as the engine estimates them: 1 blunder, 1 mistake and 2 inaccuracies." {
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
