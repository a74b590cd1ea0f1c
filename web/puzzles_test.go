package web

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// withPuzzles adds random games that miss wins (Pikemen to 4 points, Ice
// Lady, IceFrogs on the hex board) to a and finds their puzzles; it
// returns them, the first Pikemen's first.
func withPuzzles(t testing.TB, a *archive.Archive) []*archive.StoredPuzzle {
	t.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(41, 2))
	var b strings.Builder
	for _, v := range []struct {
		game string
		opt  rules.Options
	}{{"Pikemen", rules.Options{Target: 4}}, {"IceLady", rules.Options{}}, {"IceFrogs", rules.Options{Board: "hex"}}} {
		g, _ := games.Lookup(v.game)
		start, err := g.Start(v.opt)
		if err != nil {
			t.Fatal(err)
		}
		tags := []notation.Tag{{Name: "Event", Value: "Puzzle night"}, {Name: "Date", Value: "2026.11.28"},
			{Name: "Player1", Value: "Ada Lovelace <ada@example.org>"}, {Name: "Player2", Value: "Bob"}}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 150))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(rec.String() + "\n")
	}
	if _, err := a.Import(ctx, strings.NewReader(b.String()), "puzzles.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	// A small budget a position keeps the search short (a position it
	// cannot settle gives no puzzle).
	if _, err := a.FindPuzzles(ctx, archive.Query{Event: "Puzzle night"}, archive.PuzzleOptions{Budget: 300_000}); err != nil {
		t.Fatal(err)
	}
	ps, err := a.Puzzles(ctx, archive.PuzzleQuery{})
	if err != nil || len(ps) == 0 {
		t.Fatalf("%d puzzles, %v", len(ps), err)
	}
	for i, p := range ps {
		if p.Game == "Pikemen" {
			ps[0], ps[i] = ps[i], ps[0]
			break
		}
	}
	return ps
}

// ownMoves are the moves of the seat to move in p's solution.
func ownMoves(t testing.TB, p *archive.StoredPuzzle) []string {
	t.Helper()
	s, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	var mine []string
	for _, tok := range p.Solution {
		if s.ToMove() == p.Seat {
			mine = append(mine, tok)
		}
		if s, _, err = rules.Play(s, tok); err != nil {
			t.Fatal(err)
		}
	}
	return mine
}

// The puzzle pages over HTTP: the list; a puzzle's page with its moves;
// a wrong move said wrong and not kept; the solution's moves, each
// answered by the defence, solved; the tries counted in the puzzle's
// row; the JSON of the board's script; a form from another site
// refused; an answer that is not one refused; the record to download
// valid and without addresses.
func TestPuzzlePages(t *testing.T) {
	ts, _, a := newTestSite(t, 4, nil)
	ps := withPuzzles(t, a)
	p := ps[0]
	base := "/puzzle/" + itoa64(p.ID)
	post := func(origin string, form url.Values) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+base, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, list, _ := get(t, ts.URL, "/puzzles")
	if code != http.StatusOK || !strings.Contains(list, `href="`+base+`"`) || !strings.Contains(list, plural(len(ps), "puzzle", "puzzles")) {
		t.Fatalf("/puzzles: %d\n%s", code, list)
	}
	other := ""
	for _, q := range ps {
		if q.Game != "Pikemen" {
			other = q.Game
		}
	}
	if other == "" {
		t.Fatalf("the puzzles are all of Pikemen (%d)", len(ps))
	}
	if code, only, _ := get(t, ts.URL, "/puzzles?game="+strings.ToLower(other)); code != http.StatusOK || strings.Contains(only, "Pikemen, wins in") || !strings.Contains(only, other+", wins in") {
		t.Errorf("/puzzles?game=%s: %d, a Pikemen puzzle listed or none of %s", other, code, other)
	}
	if code, _, _ := get(t, ts.URL, "/puzzles?game=chess"); code != http.StatusBadRequest {
		t.Errorf("/puzzles?game=chess: %d", code)
	}
	code, page, _ := get(t, ts.URL, base)
	if code != http.StatusOK || !strings.Contains(page, `<select id="move" name="move">`) || !strings.Contains(page, `data-moves="`+base+`/at/start/moves.json"`) ||
		!strings.Contains(page, "wins in "+itoa64(int64(p.In))) || strings.Contains(page, "example.org") {
		t.Fatalf("%s: %d\n%s", base, code, page)
	}
	if code, _ := post("http://elsewhere.test", url.Values{"move": {p.Solution[0]}}); code != http.StatusForbidden {
		t.Errorf("a move from another site: %d", code)
	}
	code, page = post(ts.URL, url.Values{"move": {p.Played}, "mine": {""}})
	if code != http.StatusOK || !strings.Contains(page, p.Played+" does not force the win") || !strings.Contains(page, `name="mine" value=""`) {
		t.Fatalf("the move played in the game: %d\n%s", code, page)
	}
	mine := ownMoves(t, p)
	for i := range mine {
		code, page = post(ts.URL, url.Values{"move": {mine[i]}, "mine": {strings.Join(mine[:i], " ")}})
		if code != http.StatusOK {
			t.Fatalf("move %d, %s: %d\n%s", i+1, mine[i], code, page)
		}
		if i < len(mine)-1 && !strings.Contains(page, mine[i]+" is right. The defence: ") {
			t.Fatalf("move %d, %s:\n%s", i+1, mine[i], page)
		}
	}
	if !strings.Contains(page, "Solved: ") || !strings.Contains(page, "The solution as stored: ") {
		t.Fatalf("the solution played:\n%s", page)
	}
	if got, _ := a.Puzzle(context.Background(), p.ID); got.Attempts != 2 || got.Solved != 1 {
		t.Errorf("tried %d, solved %d; want 2 and 1", got.Attempts, got.Solved)
	}
	if code, js, _ := get(t, ts.URL, base+"/at/start/moves.json"); code != http.StatusOK || !strings.Contains(js, `"toMove":true`) || !strings.Contains(js, `"ply":0`) {
		t.Errorf("moves.json: %d %s", code, js)
	}
	after := base + "/at/start/after.json?move=" + url.QueryEscape(mine[0])
	if code, js, _ := get(t, ts.URL, after); code != http.StatusOK || !strings.Contains(js, `"board":"\u003cdiv class=\"board\"`) {
		t.Errorf("after.json: %d %s", code, js)
	}
	wrong := base + "/at/" + url.PathEscape(p.Played) + "/moves.json"
	if code, _, _ := get(t, ts.URL, wrong); code != http.StatusBadRequest {
		t.Errorf("moves.json after a wrong move: %d", code)
	}
	if code, _ := post(ts.URL, url.Values{"move": {mine[0]}, "mine": {p.Played}}); code != http.StatusBadRequest {
		t.Errorf("an answer after a wrong move: %d", code)
	}
	if code, _, _ := get(t, ts.URL, "/puzzle/999999"); code != http.StatusNotFound {
		t.Errorf("no such puzzle: %d", code)
	}
	code, text, h := get(t, ts.URL, base+"/record")
	if code != http.StatusOK || !strings.Contains(h.Get("Content-Disposition"), "attachment") || strings.Contains(text, "example.org") {
		t.Fatalf("the record: %d %v\n%s", code, h, text)
	}
	recs, errs := notation.Parse("puzzle", []byte(text))
	if len(errs) > 0 || notation.Validate(recs[0]) != nil {
		t.Fatalf("the record does not validate: %v\n%s", errs, text)
	}
}

// A puzzle solved in Chromium on a 360 px phone, by clicks on the board
// (each move picked from its cell to its target, then Play), and its
// first move by keyboard on a desktop; axe-core finds nothing serious.
func TestPuzzleInBrowser(t *testing.T) {
	bctx := browser(t)
	ts, _, a := newTestSite(t, 4, nil)
	p := withPuzzles(t, a)[0]
	link := ts.URL + "/puzzle/" + itoa64(p.ID)
	ctx := tab(t, bctx)
	do(t, ctx, viewport(360), chromedp.Navigate(link), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
	axeCheck(t, ctx)
	if w := value(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > 360 {
		t.Errorf("the puzzle page is %d px wide on a 360 px phone", w)
	}
	s, err := p.Start()
	if err != nil {
		t.Fatal(err)
	}
	playButton := `.playform form button:not([type=button]):not([formmethod])`
	for i, tok := range p.Solution {
		if s.ToMove() != p.Seat {
			if s, _, err = rules.Play(s, tok); err != nil {
				t.Fatal(err)
			}
			continue
		}
		from, to := cellsOf(t, s, tok)
		if i > 0 {
			do(t, ctx, chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
		}
		// A cell whose moves all end on it (a piece turned where it
		// stands) shows its board after at once; else its targets are
		// marked, and the target is picked.
		do(t, ctx, chromedp.Click(css(`div.board [data-cell="`+from+`"]`)))
		if !onlyItself(s, from) {
			do(t, ctx, chromedp.WaitVisible(css(`div.board .target`)), chromedp.Click(css(`div.board [data-cell="`+to+`"]`)))
		}
		do(t, ctx, chromedp.WaitVisible(css(`div.board.after`)), chromedp.SetValue(css(`#move`), tok))
		if dir := os.Getenv("ICEPOST_SCREENSHOTS"); dir != "" && i == 0 {
			png := value(t, ctx, chromedp.FullScreenshot(100))
			if err := os.WriteFile(filepath.Join(dir, "web-puzzle-phone.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// The message of the page before goes, so that the wait is for
		// the page Play brings.
		do(t, ctx, chromedp.Evaluate[chromedp.Void](dropMessage), chromedp.Click(css(playButton)), chromedp.WaitVisible(css(`#message`)))
		msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		if !strings.HasPrefix(msg, tok+" is right") && !strings.HasPrefix(msg, "Solved") {
			t.Fatalf("after %s: %q", tok, msg)
		}
		if s, _, err = rules.Play(s, tok); err != nil {
			t.Fatal(err)
		}
	}
	msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
	if !strings.HasPrefix(msg, "Solved") {
		t.Fatalf("after the solution: %q", msg)
	}
	axeCheck(t, ctx)

	// By keyboard: Tab to the first move's cell, Enter, Tab to its
	// target, Enter, then Enter on Play.
	ctx = tab(t, bctx)
	do(t, ctx, viewport(1280), chromedp.Navigate(link), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
	s, _ = p.Start()
	from, to := cellsOf(t, s, p.Solution[0])
	tabTo := func(cell string) {
		t.Helper()
		for range 300 {
			do(t, ctx, chromedp.KeyEvent(kb.Tab))
			if value(t, ctx, chromedp.Evaluate[string](`document.activeElement.dataset ? document.activeElement.dataset.cell || "" : ""`)) == cell {
				return
			}
		}
		t.Fatalf("Tab never reached %s", cell)
	}
	tabTo(from)
	do(t, ctx, chromedp.KeyEvent(kb.Enter))
	if !onlyItself(s, from) {
		do(t, ctx, chromedp.WaitVisible(css(`div.board .target`)))
		tabTo(to)
		do(t, ctx, chromedp.KeyEvent(kb.Enter))
	}
	do(t, ctx, chromedp.WaitVisible(css(`div.board.after`)), chromedp.SetValue(css(`#move`), p.Solution[0]),
		chromedp.Focus(css(playButton)), chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`#message`)))
	msg = value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
	if !strings.HasPrefix(msg, p.Solution[0]+" is right") && !strings.HasPrefix(msg, "Solved") {
		t.Fatalf("by keyboard, %s: %q", p.Solution[0], msg)
	}
}

// onlyItself reports whether every move from cell ends on it.
func onlyItself(s rules.State, cell string) bool {
	moves, _ := rules.CellMoves(s)
	for _, m := range moves {
		if m.From() == cell && m.To() != cell {
			return false
		}
	}
	return true
}

// dropMessage takes the page's message away.
const dropMessage = `(m => { if (m) { m.remove(); } })(document.getElementById("message"))`

// cellsOf is the cell a move starts from and the one it ends on.
func cellsOf(t *testing.T, s rules.State, tok string) (from, to string) {
	t.Helper()
	moves, _ := rules.CellMoves(s)
	for _, m := range moves {
		if m.Token == tok {
			return m.From(), m.To()
		}
	}
	t.Fatalf("%s is no move from a cell in %s", tok, s.Code())
	return "", ""
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
