package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"icepost/internal/waitfor"
	"icepost/pbem"
	"icepost/pbem/mailgames"
	"icepost/pbem/mailread"
	"icepost/rules"
)

// The play page of a board mail's link: the seat's legal moves as a
// form, a move sent through the daemon's own code (the same table and
// transaction as a mail), a form sent twice playing once, and nothing
// for a forged link, another seat, another site's form, or a finished
// game.
func TestPlayPage(t *testing.T) {
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	ctx := context.Background()
	get := func(path string) (int, string) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	post := func(path, origin string, form url.Values) (int, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+path, strings.NewReader(form.Encode()))
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
	ply := func(id int64) int {
		gi, err := mg.read.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return gi.Ply
	}
	// Game 1: bob (seat 2) is to move after 3 moves.
	bob := "/play/" + mg.srv.PlayCapability(1, 2)
	ada := "/play/" + mg.srv.PlayCapability(1, 1)
	code, page := get(bob)
	if code != http.StatusOK || !strings.Contains(page, `<select id="move" name="move">`) || !strings.Contains(page, `name="ply" value="3"`) {
		t.Fatalf("bob's play page: %d\n%s", code, page)
	}
	if _, back := get(bob + "?ply=1"); strings.Contains(back, "<form") || !strings.Contains(back, `data-ply="1"`) {
		t.Error("bob's page stepped back to move 1 shows the forms, or not move 1")
	}
	if strings.Contains(page, "ada@club.test") || strings.Contains(page, "bob@club.test") {
		t.Error("the play page shows a player's address")
	}
	if _, page := get(ada); strings.Contains(page, `<select`) || !strings.Contains(page, "It is not ada's move") {
		t.Errorf("ada's page while bob is to move:\n%s", page)
	}
	_, g := mg.game(t, 1)
	move := g.Final().FormatMove(g.Final().Moves(nil)[0])
	form := url.Values{"ply": {"3"}, "move": {move}}
	// The board after a move, to confirm; nothing played.
	if _, try := get(bob + "?ply=3&move=" + url.QueryEscape(move)); !strings.Contains(try, "The board after "+move) || !strings.Contains(try, "Play "+move) || ply(1) != 3 {
		t.Errorf("the board after %s:\n%s", move, try)
	}
	if _, try := get(bob + "?move=z9z9"); !strings.Contains(try, "z9z9:") {
		t.Errorf("the board after a move that is none: no word of it")
	}
	// Another site's form is refused.
	if code, _ := post(bob, "https://evil.example", form); code != http.StatusForbidden {
		t.Errorf("a form from another site: %d, want 403", code)
	}
	if code, _ := post(bob, "", form); code != http.StatusForbidden {
		t.Errorf("a form without an origin: %d, want 403", code)
	}
	if ply(1) != 3 {
		t.Fatal("a refused form played")
	}
	// ada cannot play bob's move with her link.
	if _, page := post(ada, ts.URL, form); ply(1) != 3 || !strings.Contains(page, "turn") {
		t.Errorf("ada's link played for bob (ply %d):\n%s", ply(1), page)
	}
	var before int
	mg.db.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE recipient = 'ada@club.test'`).Scan(&before)
	code, page = post(bob, ts.URL, form)
	if code != http.StatusOK || ply(1) != 4 || !strings.Contains(page, "Done: move "+move) {
		t.Fatalf("bob's move from the page: %d, ply %d\n%s", code, ply(1), page)
	}
	var after int
	mg.db.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE recipient = 'ada@club.test'`).Scan(&after)
	if after != before+1 {
		t.Errorf("ada's board by mail: %d mails queued, want 1", after-before)
	}
	// The same form again plays nothing.
	if _, page := post(bob, ts.URL, form); ply(1) != 4 || !strings.Contains(page, "sent before") {
		t.Errorf("the same form sent again (ply %d):\n%s", ply(1), page)
	}
	// A forged link, and one of a game that ended.
	forged := "/play/w1-2-" + strings.Repeat("a", 16)
	if code, _ := get(forged); code != http.StatusNotFound {
		t.Errorf("a forged link: %d, want 404", code)
	}
	if code, _ := post(forged, ts.URL, url.Values{"ply": {"4"}, "line": {"resign"}}); code != http.StatusNotFound || ply(1) != 4 {
		t.Errorf("a forged link's resign: %d", code)
	}
	// A link has one spelling: typed otherwise, it is no link.
	capability := strings.TrimPrefix(ada, "/play/")
	for _, typed := range []string{strings.ToUpper(capability), strings.ToUpper(capability[:1]) + capability[1:], "%20" + capability, capability + "%20", "%77" + capability[1:], strings.Replace(capability, "-", "%2D", 1)} {
		if code, _ := get("/play/" + typed); code != http.StatusNotFound {
			t.Errorf("the link typed /play/%s: %d, want 404", typed, code)
		}
		if code, _ := post("/play/"+typed, ts.URL, url.Values{"ply": {"4"}, "line": {"resign"}}); code != http.StatusNotFound || ply(1) != 4 {
			t.Errorf("the link typed /play/%s took a resign: %d", typed, code)
		}
	}
	if _, page := post(ada, ts.URL, url.Values{"ply": {strconv.Itoa(ply(1))}, "line": {"resign"}}); !strings.Contains(page, "Done: resign") {
		t.Fatalf("ada's resignation from the page:\n%s", page)
	}
	if code, page := get(ada); code != http.StatusOK || strings.Contains(page, "<form") {
		t.Errorf("the page of a finished game has a form: %d", code)
	}
	if _, page := post(bob, ts.URL, url.Values{"ply": {strconv.Itoa(ply(1))}, "line": {"draw"}}); !strings.Contains(page, "finished") {
		t.Errorf("a command in a finished game:\n%s", page)
	}
}

// In a real browser, on a phone: the play page's form plays the move
// (the browser sends its Origin, as any does), and the page says so.
func TestPlayPageInBrowser(t *testing.T) {
	bctx := browser(t)
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	ctx := tab(t, bctx)
	bob := ts.URL + "/play/" + mg.srv.PlayCapability(1, 2)
	do(t, ctx, viewport(390), chromedp.Navigate(bob), chromedp.WaitVisible(css(`#move`)))
	width := value(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if width > 390 {
		t.Errorf("the play page is %d px wide on a 390 px phone", width)
	}
	if dir := os.Getenv("ICEPOST_SCREENSHOTS"); dir != "" {
		png := value(t, ctx, chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(dir, "web-play-phone.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Choose, see the board after it, confirm. The list chooses no move
	// by itself: seeing the board after it without a choice says so.
	if chosen := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("move").value`)); chosen != "" {
		t.Errorf("the list has %q chosen before any choice", chosen)
	}
	do(t, ctx, chromedp.Click(css(`button[formmethod="get"]`)), chromedp.WaitVisible(css(`#message`)))
	if msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`)); !strings.Contains(msg, "Choose a move") {
		t.Errorf("See the board after it, no move chosen: %q", msg)
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`(s => s.value = s.options[1].value)(document.getElementById("move"))`),
		chromedp.Click(css(`button[formmethod="get"]`)), chromedp.WaitVisible(css(`.playform form a`)))
	status := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if !strings.HasPrefix(status, "The board after ") {
		t.Errorf("after See the board after it: %q", status)
	}
	if gi, _ := mg.read.Game(context.Background(), 1); gi.Ply != 3 {
		t.Fatal("seeing the board after a move played it")
	}
	do(t, ctx, chromedp.Click(css(`.playform form button`)), chromedp.WaitVisible(css(`#message`)))
	msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
	gi, err := mg.read.Game(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(msg, "Done: move ") || gi.Ply != 4 {
		t.Errorf("after Play: %q, ply %d", msg, gi.Ply)
	}
}

// playLink reads the play link of the latest board mail to who, as the
// player would find it.
func playLink(t *testing.T, mg *mailGames, who, site string) string {
	t.Helper()
	var raw []byte
	if err := mg.db.QueryRow(`SELECT message FROM pbem_outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1`, who+"@club.test").Scan(&raw); err != nil {
		t.Fatalf("no mail to %s: %v", who, err)
	}
	msg, err := mailread.Read(bytes.NewReader(raw), pbem.Language())
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(msg.Text), " ")
	i := strings.Index(text, site+"/play/")
	if i < 0 {
		t.Fatalf("%s's latest mail has no play link:\n%s", who, msg.Text)
	}
	return strings.Fields(text[i:])[0]
}

// outboxTo counts the mails queued to who.
func outboxTo(t *testing.T, mg *mailGames, who string) int {
	t.Helper()
	var n int
	if err := mg.db.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE recipient = ?`, who+"@club.test").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A move picked on the board in a real browser: a board mail's link
// opens the play page, a click on a piece marks where it can go, a click
// on one of those shows the board after the move, and the form's button
// plays it; the opponent gets the board by mail, and from its link plays
// the answer with the keyboard alone (Tab to a cell, Enter, Tab to a
// mark, Enter, Enter). What was played is checked against the rules: a
// legal move from the cell clicked to the cell marked.
func TestPlayPickOnBoard(t *testing.T) {
	bctx := browser(t)
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	mg.srv.WebURL = ts.URL
	mg.mail(t, "ada", "challenge icelady dee@club.test")
	mg.mail(t, "dee", "accept")
	const id = 3
	game := func() mailgames.Game {
		t.Helper()
		gi, err := mg.read.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return gi
	}
	gi := game()
	if gi.Ply != 0 || gi.ToMove == "" {
		t.Fatalf("game %d: ply %d, %q to move", id, gi.Ply, gi.ToMove)
	}
	first, _, _ := strings.Cut(gi.ToMove, "@")
	second := map[string]string{"ada": "dee", "dee": "ada"}[first]

	// checkPlayed says whether the game's last move is the one shown,
	// legal before it and going from one cell to the other.
	checkPlayed := func(ply int, shown, from, to string) {
		t.Helper()
		gi := game()
		g, err := replay([]byte(gi.Record))
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Moves) != ply+1 {
			t.Fatalf("game %d has %d moves, want %d", id, len(g.Moves), ply+1)
		}
		before := g.States[ply]
		if played := before.FormatMove(g.Moves[ply]); played != shown {
			t.Errorf("played %s, the page showed %s", played, shown)
		}
		moves, _ := rules.CellMoves(before)
		if !slices.ContainsFunc(moves, func(m rules.CellMove) bool { return m.Token == shown && m.From() == from && m.To() == to }) {
			t.Errorf("%s is no legal move from %s to %s", shown, from, to)
		}
	}
	playButton := `.playform form button:not([type=button]):not([formmethod])`

	// By mouse (a tap, on a phone).
	ctx := tab(t, bctx)
	link := playLink(t, mg, first, ts.URL)
	do(t, ctx, viewport(390), chromedp.Navigate(link), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("div.board .target, div.board .picked").length`)); n != 0 {
		t.Errorf("%d cells marked before any pick", n)
	}
	from := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board [data-cell][role=button]").dataset.cell`))
	do(t, ctx, chromedp.Click(css(`div.board [data-cell="`+from+`"]`)), chromedp.WaitVisible(css(`div.board .target`)))
	if pressed := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board .picked").getAttribute("aria-pressed")`)); pressed != "true" {
		t.Errorf("the picked cell is not pressed: %q", pressed)
	}
	if dir := os.Getenv("ICEPOST_SCREENSHOTS"); dir != "" {
		png := value(t, ctx, chromedp.Screenshot(css(`#play`)))
		if err := os.WriteFile(filepath.Join(dir, "web-play-pick-phone.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	axeCheck(t, ctx)
	to := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board .target").dataset.cell`))
	do(t, ctx, chromedp.Click(css(`div.board [data-cell="`+to+`"]`)), chromedp.WaitVisible(css(`div.board.after`)))
	shown := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("move").value`))
	status := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if !strings.HasPrefix(status, "The board after "+shown) {
		t.Errorf("after a click on %s then %s: the list says %q, the status %q", from, to, shown, status)
	}
	if game().Ply != 0 {
		t.Fatal("picking a move played it")
	}
	width := value(t, ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if width > 390 {
		t.Errorf("the play page is %d px wide on a 390 px phone", width)
	}
	before := outboxTo(t, mg, second)
	do(t, ctx, chromedp.Click(css(playButton)), chromedp.WaitVisible(css(`#message`)))
	msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
	if msg != "Done: move "+shown+"." {
		t.Errorf("after Play: %q", msg)
	}
	checkPlayed(0, shown, from, to)
	if n := outboxTo(t, mg, second) - before; n != 1 {
		t.Errorf("%s got %d board mails, want 1", second, n)
	}
	// The page now shows the game after the move: no handles to press.
	if plies := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("play").dataset.plies`)); plies != "1" {
		t.Errorf("the page after Play shows %s plies", plies)
	}
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("div.board [role=button]").length`)); n != 0 {
		t.Errorf("%d cells are buttons when it is not %s's move", n, first)
	}

	// By keyboard, from the opponent's new board mail, on a desktop.
	ctx = tab(t, bctx)
	link = playLink(t, mg, second, ts.URL)
	do(t, ctx, viewport(1280), chromedp.Navigate(link), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
	// tabTo presses Tab until the focus is on an element that matches
	// sel, and returns its cell.
	tabTo := func(sel string) string {
		t.Helper()
		for range 200 {
			do(t, ctx, chromedp.KeyEvent(kb.Tab))
			if c := value(t, ctx, chromedp.Evaluate[string](`(e => e.matches(`+strconv.Quote(sel)+`) ? e.dataset.cell : "")(document.activeElement)`)); c != "" {
				return c
			}
		}
		t.Fatalf("Tab never reached %s", sel)
		return ""
	}
	from = tabTo(`div.board [data-cell][role=button]`)
	do(t, ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`div.board .target`)))
	if picked := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board .picked").dataset.cell`)); picked != from {
		t.Fatalf("Enter on %s picked %s", from, picked)
	}
	to = tabTo(`div.board .target`)
	if dir := os.Getenv("ICEPOST_LAYOUT_SHOTS"); dir != "" { // to look at, not for docs/
		png := value(t, ctx, chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(dir, "play-pick-keys-1280.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	do(t, ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`div.board.after`)))
	shown = value(t, ctx, chromedp.Evaluate[string](`document.getElementById("move").value`))
	if focus := value(t, ctx, chromedp.Evaluate[bool](`document.activeElement.matches(`+strconv.Quote(playButton)+`)`)); !focus {
		t.Fatal("after the target's Enter the focus is not on the Play button")
	}
	do(t, ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`#message`)))
	checkPlayed(1, shown, from, to)
}

// axeCheck runs axe-core on the page as it stands, as
// TestBrowserAccessibility does on every kind of page.
func axeCheck(t *testing.T, ctx context.Context) {
	t.Helper()
	axe, err := os.ReadFile(axePath)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("axe-core is not installed (cd web/testdata/axe && npm ci):", err)
		}
		t.Log("!!! axe-core is not installed: the page is not checked (cd web/testdata/axe && npm ci) !!!")
		return
	}
	do(t, ctx, chromedp.Evaluate[chromedp.Void](string(axe)))
	res := value(t, ctx, chromedp.Evaluate[axeResult](axeJS, chromedp.EvalAwaitPromise))
	if res.Passed < 10 {
		t.Errorf("axe-core passed %d checks: did it run?", res.Passed)
	}
	for _, f := range res.Found {
		t.Error(f)
	}
}

// The JSON the play page's script reads, for every game and board: the
// legal moves of the seat to move, each once, by the cell it starts
// from and the cell it ends on (cells of the game's diagram), with
// words for each; the board after one. Nothing for the other seat, a
// forged link, a finished game; GET only.
func TestPlayMovesJSON(t *testing.T) {
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	mg.mail(t, "ada", "challenge icelady dee@club.test")
	mg.mail(t, "dee", "accept")
	mg.mail(t, "ada", "challenge icefrogs dee@club.test")
	mg.mail(t, "dee", "accept")
	mg.mail(t, "ada", "challenge icefrogs board=hex dee@club.test")
	mg.mail(t, "dee", "accept")
	get := func(path string, v any) int {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s: Content-Type %q", path, ct)
		}
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return resp.StatusCode
	}
	for id := int64(1); id <= 5; id++ {
		_, g := mg.game(t, id)
		st := g.Final()
		seat := st.ToMove()
		t.Run(fmt.Sprintf("%d-%s-%s", id, g.Rules.Name(), st.Options().Board), func(t *testing.T) {
			cells := map[string]bool{}
			d, _ := rules.DiagramOf(st, 0, nil, rules.Move{})
			for _, c := range d.Cells {
				cells[c.Name] = true
			}
			base := "/play/" + mg.srv.PlayCapability(id, seat)
			var mj movesJSON
			if code := get(base+"/moves.json", &mj); code != http.StatusOK || !mj.ToMove || mj.Ply != len(g.Moves) || mj.Seat != seat {
				t.Fatalf("moves.json: %d %+v", code, mj)
			}
			want := map[string]bool{}
			for _, m := range st.Moves(nil) {
				want[st.FormatMove(m)] = true
			}
			seen := map[string]bool{}
			for _, grp := range mj.Groups {
				if !cells[grp.From] || !strings.HasPrefix(grp.Label, grp.From+", ") {
					t.Errorf("a group from %q, %q", grp.From, grp.Label)
				}
				inTargets := map[string]string{}
				for _, tg := range grp.Targets {
					if !cells[tg.Cell] || !strings.HasPrefix(tg.Label, tg.Cell+", ") || len(tg.Moves) == 0 {
						t.Errorf("from %s: a target %+v", grp.From, tg)
					}
					for _, tok := range tg.Moves {
						inTargets[tok] = tg.Cell
					}
				}
				for _, m := range grp.Moves {
					if seen[m.Token] || !want[m.Token] {
						t.Errorf("%s: listed twice, or not legal", m.Token)
					}
					seen[m.Token] = true
					if m.From != grp.From || m.Path[0] != m.From || m.Path[len(m.Path)-1] != m.To || inTargets[m.Token] != m.To {
						t.Errorf("%s in the group of %s: %+v, target %q", m.Token, grp.From, m, inTargets[m.Token])
					}
				}
				if len(inTargets) != len(grp.Moves) {
					t.Errorf("from %s: %d moves, %d among the targets", grp.From, len(grp.Moves), len(inTargets))
				}
			}
			for _, tok := range mj.Other {
				seen[tok] = true
			}
			if len(seen) != len(want) {
				t.Errorf("%d moves in the JSON, %d legal", len(seen), len(want))
			}
			// The board after the first, as the page draws it.
			tok := mj.Groups[0].Moves[0].Token
			var aj afterJSON
			if code := get(base+"/after.json?move="+url.QueryEscape(tok), &aj); code != http.StatusOK || aj.Move != tok ||
				!strings.Contains(aj.Status, "The board after "+tok) || !strings.HasPrefix(aj.Board, `<div class="board"><svg`) || strings.Contains(aj.Board, "data-cell") {
				t.Errorf("after.json?move=%s: %d %q %q", tok, code, aj.Move, aj.Status)
			}
			var e map[string]string
			if code := get(base+"/after.json?move=z9z9", &e); code != http.StatusBadRequest || !strings.HasPrefix(e["error"], "z9z9: ") {
				t.Errorf("after.json of a move that is none: %d %q", code, e)
			}
			// The other seat has nothing to play now.
			other := "/play/" + mg.srv.PlayCapability(id, 3-seat)
			if code := get(other+"/moves.json", &mj); code != http.StatusOK || mj.ToMove || len(mj.Groups) != 0 || !strings.Contains(mj.Message, "not") {
				t.Errorf("the other seat's moves.json: %d %+v", code, mj)
			}
			if code := get(other+"/after.json?move="+url.QueryEscape(tok), &e); code != http.StatusBadRequest {
				t.Errorf("the other seat's after.json: %d %q", code, e)
			}
		})
	}
	// A forged link, a POST, a finished game.
	var e map[string]string
	if code := get("/play/w1-2-"+strings.Repeat("a", 16)+"/moves.json", &e); code != http.StatusNotFound || e["error"] == "" {
		t.Errorf("a forged link's moves.json: %d %q", code, e)
	}
	bob := "/play/" + mg.srv.PlayCapability(1, 2)
	resp, err := http.Post(ts.URL+bob+"/moves.json", "application/x-www-form-urlencoded", strings.NewReader("ply=3"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("a POST to moves.json: %d", resp.StatusCode)
	}
	mg.mail(t, "bob", "resign")
	var mj movesJSON
	if code := get(bob+"/moves.json", &mj); code != http.StatusOK || mj.ToMove || len(mj.Groups) != 0 || !strings.Contains(mj.Message, "finished") {
		t.Errorf("a finished game's moves.json: %d %+v", code, mj)
	}
	if code := get(bob+"/after.json?move=x", &e); code != http.StatusBadRequest {
		t.Errorf("a finished game's after.json: %d %q", code, e)
	}
}

// Every game and board in the browser: a click on the first cell with
// moves, then (unless its only target is itself, as a piece put on an
// empty cell) on its first target, shows the board after a move and
// leaves in the list exactly the legal moves from that cell to that one
// (Pikemen's orientations, IceFrogs' sizes), to choose among.
func TestPlayPickEveryGame(t *testing.T) {
	bctx := browser(t)
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	mg.mail(t, "ada", "challenge icelady dee@club.test")
	mg.mail(t, "dee", "accept")
	mg.mail(t, "ada", "challenge icefrogs dee@club.test")
	mg.mail(t, "dee", "accept")
	mg.mail(t, "ada", "challenge icefrogs board=hex dee@club.test")
	mg.mail(t, "dee", "accept")
	ctx := tab(t, bctx)
	for id := int64(1); id <= 5; id++ {
		_, g := mg.game(t, id)
		st := g.Final()
		t.Run(fmt.Sprintf("%d-%s-%s", id, g.Rules.Name(), st.Options().Board), func(t *testing.T) {
			do(t, ctx, viewport(390), chromedp.Navigate(ts.URL+"/play/"+mg.srv.PlayCapability(id, st.ToMove())),
				chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
			from := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board [data-cell][role=button]").dataset.cell`))
			do(t, ctx, chromedp.Click(css(`div.board [data-cell="`+from+`"]`)))
			// The board after a move (the cell was its only target), or
			// a target other than the cell itself to click.
			var next string
			if !waitfor.Within(10*time.Second, func() bool {
				next = value(t, ctx, chromedp.Evaluate[string](`document.querySelector("div.board.after") ? "after" :
					(document.querySelector("div.board .target:not(.picked)") || {dataset: {}}).dataset.cell || ""`))
				return next != ""
			}) {
				t.Fatalf("a click on %s marks no target and shows no board after a move", from)
			}
			to := from
			if next != "after" {
				to = next
				if dir := os.Getenv("ICEPOST_LAYOUT_SHOTS"); dir != "" {
					png := value(t, ctx, chromedp.FullScreenshot(100))
					if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("play-pick-%d.png", id)), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				do(t, ctx, chromedp.Click(css(`div.board [data-cell="`+to+`"]`)))
			}
			do(t, ctx, chromedp.WaitVisible(css(`div.board.after`)))
			listed := value(t, ctx, chromedp.Evaluate[[]string](`[...document.getElementById("move").options].map(o => o.value)`))
			var want []string
			moves, _ := rules.CellMoves(st)
			for _, m := range moves {
				if m.From() == from && m.To() == to {
					want = append(want, m.Token)
				}
			}
			slices.Sort(want)
			if !slices.Equal(listed, want) || len(want) == 0 {
				t.Errorf("from %s to %s the list has %q, want %q", from, to, listed, want)
			}
			status := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
			if !strings.HasPrefix(status, "The board after "+listed[0]) {
				t.Errorf("status %q", status)
			}
			// Back to the board: the list has every move again, none chosen.
			do(t, ctx, chromedp.Click(css(`.playform .pickback`)), chromedp.WaitNotPresent(css(`div.board.after`)))
			if n := value(t, ctx, chromedp.Evaluate[int](`[...document.getElementById("move").options].filter(o => o.value).length`)); n != len(moves) {
				t.Errorf("back to the board, the list has %d moves of %d", n, len(moves))
			}
			if chosen := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("move").value`)); chosen != "" {
				t.Errorf("back to the board, the list has %q chosen", chosen)
			}
		})
	}
}
