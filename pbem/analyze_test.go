package pbem_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/pbem"

	gomail "github.com/emersion/go-message/mail"

	"icepost/analysis"
	"icepost/notation"
)

// quickAnalyses makes the server's analyses fast for tests: level 1, one
// core.
func quickAnalyses(w *world) {
	w.srv.Bots = pbem.Bots{Level: 1, MoveTime: pbem.Duration{2 * time.Second}, Workers: 1, AnalysisLevel: 1}
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
	pbem.CheckCoachText(t, p.text)
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
	pbem.CheckNumbering(t, p.text, string(rec))
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
	n, err := w.srv.RunAnalyses(w.ctx, nil)
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
	t.Parallel() // a long test: it runs beside the other long ones
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
	t.Parallel() // a long test: it runs beside the other long ones
	w := newWorld(t)
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	finishedByMail(t, fw, 1, 6)
	fw.reply("ada", 1, 1, "analyze")
	before := len(w.inbox("ada"))

	// Stopped in the middle: nothing is stored or sent, the job stays.
	stopped, cancel := context.WithCancel(w.ctx)
	w.srv.Log = slog.New(cancelAt{msg: "analysing", cancel: cancel})
	if _, err := w.srv.RunAnalyses(stopped, nil); err == nil {
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
		// Done when the job is gone and the outbox sent: a second mail,
		// were there one, would have been queued with the first.
		waitfor.Within(30*time.Second, func() bool {
			return len(w.inbox("ada")) > before && countRows(t, w, `SELECT count(*) FROM pbem_analysis_jobs`) == 0 &&
				countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`) == 0
		})
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
	if n, err := w.srv.RunAnalyses(w.ctx, nil); err != nil || n != 1 {
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
		b := pbem.Bots{AnalysisLevel: c.level}
		err := b.Check()
		if c.bad {
			if err == nil || !strings.Contains(err.Error(), "analysis_level") {
				t.Errorf("analysis_level = %d: %v, want a refusal naming analysis_level", c.level, err)
			}
			continue
		}
		if err != nil || b.MailAnalysisLevel() != c.want {
			t.Errorf("analysis_level = %d: %v, level %d; want %d", c.level, err, b.MailAnalysisLevel(), c.want)
		}
	}
}
