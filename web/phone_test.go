package web

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/mailgames"
)

// What a newcomer met on a phone (issue 39): the answer to a form out
// of sight, a move chosen for them, the line over the board and the
// board disagreeing after the bot's answer, a legend whose words ran
// over each other, a resigned game's board naming a player to move, a
// game by mail with two numbers, and tables cut before their result.

// inViewJS says whether the element sel is wholly in the window (to a
// pixel: a page scrolled to an element may leave it a fraction above).
const inViewJS = `((sel) => {
	const e = document.querySelector(sel);
	if (!e) { return "no " + sel; }
	const r = e.getBoundingClientRect();
	return r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.left >= -1 && r.right <= window.innerWidth + 1 ? "" :
		sel + " is at " + Math.round(r.top) + "–" + Math.round(r.bottom) + " in a window " + window.innerHeight + " high";
})`

// overlapJS measures the words of every board picture on the page
// (getBBox of each SVG text, in the picture's units) and reports those
// that overlap another or stick out of the picture. font, when not "",
// sets the words in that font instead of the picture's own list.
const overlapJS = `((font) => {
	if (font) {
		const st = document.createElement("style");
		st.textContent = "div.board svg text { font-family: '" + font + "' !important; }";
		document.head.appendChild(st);
	}
	const bad = [];
	for (const svg of document.querySelectorAll("div.board svg")) {
		const w = svg.viewBox.baseVal.width;
		const boxes = [...svg.querySelectorAll("text")].filter(t => t.textContent.trim()).map(t => ({t: t.textContent, b: t.getBBox()}));
		for (let i = 0; i < boxes.length; i++) {
			const a = boxes[i].b;
			if (a.x < -0.5 || a.x + a.width > w + 0.5) { bad.push(boxes[i].t + " sticks out of the picture"); }
			for (let j = i + 1; j < boxes.length; j++) {
				const b = boxes[j].b;
				// Lines of one paragraph touch: only ink over ink counts,
				// so each box loses a fifth of its height.
				const ah = a.height * 0.2, bh = b.height * 0.2;
				if (a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y + ah < b.y + b.height - bh && b.y + bh < a.y + a.height - ah) {
					bad.push(boxes[i].t + " overlaps " + boxes[j].t);
				}
			}
		}
	}
	if (font) { document.head.lastChild.remove(); }
	return bad;
})`

// checkWords runs overlapJS on the page in its own fonts and in DejaVu
// Sans, the widest sans-serif a reader is likely to have.
func checkWords(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	for _, font := range []string{"", "DejaVu Sans"} {
		if bad := value(t, ctx, chromedp.Evaluate[[]string](fmt.Sprintf("%s(%q)", overlapJS, font))); len(bad) > 0 {
			t.Errorf("%s, font %q: %q", what, font, bad)
		}
	}
}

func inView(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if msg := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf("%s(%q)", inViewJS, sel))); msg != "" {
		t.Error(msg)
	}
}

// The play page on a 360 px phone: no move chosen for the player; the
// answer to every form (a refused command, Play with nothing chosen, a
// move played) in view when the page comes back; a move chosen in the
// list shows the board after it, in view; after a move against the bot
// and its answer, the line over the board and the board name the same
// player to move; the legend's words overlap nowhere, in the page's
// fonts and in DejaVu Sans; a resigned game's board says how it ended.
func TestPlayOnPhone(t *testing.T) {
	bctx := browser(t)
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	site.Play = mg.srv
	mg.srv.Bots = pbem.Bots{Level: 1, MoveTime: pbem.Duration{Duration: 300 * time.Millisecond}, Workers: 1}
	mg.mail(t, "ada", "challenge icesickle bot level=1")
	const botGame = 3
	ctx := tab(t, bctx)
	shots := os.Getenv("ICEPOST_LAYOUT_SHOTS") // to look at, not for docs/
	shot := func(name string) {
		if shots == "" {
			return
		}
		png := value(t, ctx, chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plies := func(id int64) int {
		gi, err := mg.read.Game(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return gi.Ply
	}

	bob := ts.URL + "/play/" + mg.srv.PlayCapability(1, 2)
	do(t, ctx, viewport(360), chromedp.Navigate(bob), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)))
	if chosen := value(t, ctx, chromedp.Evaluate[string](`(s => s.value + "|" + s.options[s.selectedIndex].text)(document.getElementById("move"))`)); chosen != "|choose a move" {
		t.Errorf("the list has %q chosen when the page opens", chosen)
	}
	checkWords(t, ctx, "bob's play page")

	// A command the page refuses: its answer is in view.
	do(t, ctx, chromedp.SendKeys(css(`#line`), "zz9"), chromedp.Click(css(`#line + button`)), chromedp.WaitVisible(css(`#message`)))
	if msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`)); !strings.Contains(msg, `"zz9"`) {
		t.Errorf("the answer to zz9: %q", msg)
	}
	inView(t, ctx, "#message")
	shot("phone-play-refused")
	// Play with no move chosen: nothing is played, and the page says so.
	// (The answer before is taken away, to wait for the next.)
	do(t, ctx, chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)), chromedp.Evaluate[chromedp.Void](`document.getElementById("message").remove()`),
		chromedp.Click(css(`.playform form button:not([formmethod])`)), chromedp.WaitVisible(css(`#message`)))
	if msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`)); !strings.Contains(msg, "Nothing was sent") || plies(1) != 3 {
		t.Errorf("Play with no move chosen: %q, ply %d", msg, plies(1))
	}
	inView(t, ctx, "#message")

	// A move chosen in the list, under the board: the board after it
	// takes the board's place, and the page shows it.
	do(t, ctx, chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)),
		chromedp.Evaluate[chromedp.Void](`(s => { s.scrollIntoView({block: "end"}); s.value = s.options[1].value; s.dispatchEvent(new Event("change", {bubbles: true})); })(document.getElementById("move"))`),
		chromedp.WaitVisible(css(`div.board.after`)))
	inView(t, ctx, "div.board.after")
	inView(t, ctx, "#move")
	shot("phone-play-list-after")
	if plies(1) != 3 {
		t.Fatal("choosing a move in the list played it")
	}
	// "See the board after it" (the form, without the script's help):
	// the page comes back with the board after the move and the button
	// that plays it in view.
	do(t, ctx, chromedp.Navigate(bob), chromedp.WaitVisible(css(`#move`)),
		chromedp.Evaluate[chromedp.Void](`(s => s.value = s.options[1].value)(document.getElementById("move"))`),
		chromedp.Click(css(`button[formmethod="get"]`)), chromedp.WaitVisible(css(`.playform form a`)))
	inView(t, ctx, "div.board svg")
	inView(t, ctx, ".playform form button")
	shot("phone-play-see-after")
	if plies(1) != 3 {
		t.Fatal("seeing the board after a move played it")
	}

	// Against the bot: ada plays from her page; the bot answers; the
	// page follows, the line over the board with the board.
	ada := ts.URL + "/play/" + mg.srv.PlayCapability(botGame, 1)
	do(t, ctx, chromedp.Navigate(ada), chromedp.WaitVisible(css(`div.board [data-cell][role="button"]`)),
		chromedp.Evaluate[chromedp.Void](`(s => s.value = s.options[1].value)(document.getElementById("move"))`),
		chromedp.Click(css(`.playform form button:not([formmethod])`)), chromedp.WaitVisible(css(`#message`)))
	if msg := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`)); !strings.HasPrefix(msg, "Done: move ") || plies(botGame) != 1 {
		t.Fatalf("ada's move against the bot: %q, ply %d", msg, plies(botGame))
	}
	inView(t, ctx, "#message")
	inView(t, ctx, "div.board svg")
	shot("phone-play-done")
	// The bot to move: its long name bold in the legend, beside its
	// points.
	checkWords(t, ctx, "the bot to move")
	lead := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("lead").textContent`))
	if !strings.Contains(lead, "icepost bot level 1 to move") {
		t.Errorf("before the bot's answer the line over the board says %q", lead)
	}
	if n, err := mg.srv.RunBots(context.Background(), nil); err != nil || n != 1 || plies(botGame) != 2 {
		t.Fatalf("the bot's answer: %d jobs, %v, ply %d", n, err, plies(botGame))
	}
	do(t, ctx, chromedp.WaitVisible(css(`#play[data-plies="2"]`)))
	agree := value(t, ctx, chromedp.Evaluate[[]string](`[document.getElementById("lead").textContent, document.getElementById("status").textContent,
		document.querySelector("div.board svg title").textContent, document.getElementById("message").textContent]`))
	for i, what := range []string{"the line over the board", "the status", "the board's words"} {
		if !strings.Contains(agree[i], "ada to move") || strings.Contains(agree[i], "bot level 1 to move") {
			t.Errorf("after the bot's answer, %s says %q", what, agree[i])
		}
	}
	if !strings.HasPrefix(agree[3], "Done: move ") {
		t.Errorf("the answer to ada's move is gone after the bot's: %q", agree[3])
	}
	shot("phone-play-bot-answered")

	// A resigned game: its board says how it ended, in its words and
	// picture, not who would be to move.
	mg.mail(t, "bob", "resign")
	for _, page := range []string{bob, ts.URL + "/live/1"} {
		do(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(css(`div.board svg`)))
		words := value(t, ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("div.board svg title, div.board svg text")].map(e => e.textContent).join(" | ")`))
		if strings.Contains(words, "to move") || !strings.Contains(words, "Game over: ada wins (resignation)") {
			t.Errorf("%s: the board of a resigned game says %q", page, words)
		}
		if lead := value(t, ctx, chromedp.Evaluate[string](`document.getElementById("lead").textContent`)); strings.Contains(lead, "to move") {
			t.Errorf("%s: the line over a resigned game's board says %q", page, lead)
		}
		if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll("ul.players li.tomove").length`)); n != 0 {
			t.Errorf("%s: %d players marked to move in a resigned game", page, n)
		}
		checkWords(t, ctx, page)
	}
	shot("phone-resigned")
}

// Tables and counts on a 360 px phone: a list of games shows its result
// column without scrolling the table, and the home page says its counts
// in words; the boards of a game of four with long names keep their
// words apart.
func TestTablesOnPhone(t *testing.T) {
	bctx := browser(t)
	mg := newMailGames(t)
	ts, site, _ := newTestSite(t, 20, mg)
	four := fourSeats(t, site)
	ctx := tab(t, bctx)
	for _, page := range []string{"/search", "/search?game=IceFrogs", "/player/Ada%20Lovelace"} {
		do(t, ctx, viewport(360), chromedp.Navigate(ts.URL+page), chromedp.WaitVisible(css(`table.games`)))
		res := value(t, ctx, chromedp.Evaluate[[]float64](`(() => {
			const th = [...document.querySelectorAll("table.games th")].find(th => th.textContent === "Result");
			const r = th.getBoundingClientRect();
			return [r.left, r.right, window.innerWidth];
		})()`))
		if res[1] > res[2] {
			t.Errorf("%s: the Result column is at %.0f–%.0f px, past the %.0f px of the phone", page, res[0], res[1], res[2])
		}
	}
	for _, page := range []string{fmt.Sprintf("/game/%d", four), "/live", "/live/2"} {
		do(t, ctx, chromedp.Navigate(ts.URL+page), chromedp.WaitVisible(css(`div.board svg`)))
		checkWords(t, ctx, page)
	}
}

// A game by mail has one number: the one its mails give it (the
// daemon's game number) on /live, on its page, in its feed, and once it
// is archived, on its archived page, in the lists of games and in its
// archived feed; the archived page says its number in the archive and
// links its page by mail. The home page counts in words.
func TestMailNumbers(t *testing.T) {
	ctx := context.Background()
	mg := newMailGames(t)
	mg.srv.Archive = daemonArchive{}
	a, err := archive.Open(ctx, mg.path) // the daemon's own file, as icepost serve keeps it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	// Two games of the club first, so that the archive's numbers are not
	// the mail's.
	if _, err := a.Import(ctx, strings.NewReader(clubRecords(t, 2)), "club.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	mg.mail(t, "bob", "resign") // IceSickle #1 by mail
	mg.mail(t, "cy", "resign")  // Pikemen #2 by mail
	ro, err := sql.Open("sqlite3", "file:"+mg.path+"?mode=ro&_txlock=deferred&_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	site, err := New(a, &mailgames.Reader{DB: ro}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(site.Handler())
	t.Cleanup(ts.Close)
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d\n%s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	found, err := a.Search(ctx, archive.Query{Event: "icepost by mail"})
	if err != nil || len(found) != 2 {
		t.Fatalf("the archived games by mail: %v, %+v", err, found)
	}
	for _, s := range found {
		n := mailNumber(s)
		if n < 1 || n == s.ID {
			t.Fatalf("archive game %d: mail number %d (%q); the test wants them apart", s.ID, n, s.MailGame)
		}
		name := fmt.Sprintf("%s #%d by mail", s.Game, n)
		archived := fmt.Sprintf("/game/%d", s.ID)
		for _, c := range []struct{ path, want string }{
			{fmt.Sprintf("/live/%d", n), "<title>" + name},
			{fmt.Sprintf("/live/%d/feed", n), "<title>" + name},
			{archived, "<h1>" + name},
			{archived, fmt.Sprintf(`game %d of the archive (<a href="/live/%d">its page by mail</a>)`, s.ID, n)},
			{archived + "/feed", "<title>" + name},
			{"/search?game=" + s.Game, fmt.Sprintf(`<td><a href="%s">%d</a></td>`+"\n<td>%s <span class=\"bymail\">by mail</span>", archived, n, s.Game)},
		} {
			if page := get(c.path); !strings.Contains(page, c.want) {
				t.Errorf("%s lacks %q", c.path, c.want)
			}
		}
		// Its board says how it ended.
		if page := get(archived); strings.Contains(page, "to move") || !strings.Contains(page, "wins (resignation)") {
			t.Errorf("%s: the board of a resigned game names a player to move, or not the resignation", archived)
		}
	}
	if home := get("/"); !strings.Contains(home, `4 games: `) || !strings.Contains(home, `>IceSickle</a> games for 2 players`) && !strings.Contains(home, `>IceSickle</a> game for 2 players`) {
		t.Errorf("the home page's counts:\n%s", home)
	}
}

// daemonArchive files finished games by mail into the archive in the
// daemon's own database, as icepost serve's does.
type daemonArchive struct{}

func (daemonArchive) AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error {
	_, _, err := archive.AddGame(ctx, tx, g, archive.Provenance{MailGame: source})
	return err
}
