package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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
	gi, _ := mg.read.Game(ctx, 1)
	g, _ := replay([]byte(gi.Record))
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
	// Choose, see the board after it, confirm.
	do(t, ctx, chromedp.Click(css(`button[formmethod="get"]`)), chromedp.WaitVisible(css(`.playform form a`)))
	status := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if !strings.HasPrefix(status, "The board after ") {
		t.Errorf("after See the board after it: %q", status)
	}
	if gi, _ := mg.read.Game(context.Background(), 1); gi.Ply != 3 {
		t.Fatal("seeing the board after a move played it")
	}
	do(t, ctx, chromedp.Click(css(`.playform form button`)), chromedp.WaitVisible(css(`.playform .message`)))
	msg := value(t, ctx, chromedp.Evaluate[string](`document.querySelector(".playform .message").textContent`))
	gi, err := mg.read.Game(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(msg, "Done: move ") || gi.Ply != 4 {
		t.Errorf("after Play: %q, ply %d", msg, gi.Ply)
	}
}
