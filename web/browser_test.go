package web

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"icepost/archive"
	"icepost/internal/waitfor"
	"icepost/rules/games"
)

// The site in a real browser: headless Chromium driven through the
// DevTools protocol (chromedp). Without Chromium these tests skip with a
// loud message, and fail when the environment variable CI is "true" (as
// the Dovecot tests do). ICEPOST_SCREENSHOTS=DIR also writes a picture
// of each page into DIR (docs/ holds the ones the docs show).

func findChromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts headless Chromium for the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	path := findChromium()
	if path == "" {
		const msg = "!!! Chromium is not installed: SKIPPING the browser tests (apt-get install chromium) !!!"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // root in containers and CI has no sandbox
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-dev-shm-usage", true),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	// Start the browser now, so that a failure to start says so.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// stepLimit is how long a browser step may take: ample, since the steps
// that play a move draw board pictures and wait for the database, and
// under -race on a loaded machine (CI's) one took over 20 s.
const stepLimit = 60 * time.Second

// do runs browser steps with a time limit.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepLimit)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// value runs one browser action that gives a value, with a time limit.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, stepLimit)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type css = chromedp.CSS

// tab opens a new tab. It is opened here, on a context without a time
// limit: chromedp binds a tab to the context of the first call on it, so
// a tab first used under do's time limit would close with it.
func tab(t *testing.T, bctx context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func TestBrowser(t *testing.T) {
	bctx := browser(t)
	mail := newMailGames(t)
	ts, _, a := newTestSite(t, 60, mail)
	shots := os.Getenv("ICEPOST_SCREENSHOTS")
	shot := func(t *testing.T, ctx context.Context, name string) {
		if shots == "" {
			return
		}
		png := value(t, ctx, chromedp.FullScreenshot(100))
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("search finds a known game", func(t *testing.T) {
		ctx := tab(t, bctx)
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/"),
			chromedp.SendKeys(css(`input[name="player"]`), "Ada Lovelace"),
			chromedp.SendKeys(css(`input[name="text"]`), "famous"),
			chromedp.Click(css(`form.search button`)),
			chromedp.WaitVisible(css(`#count`)),
		)
		url := value(t, ctx, chromedp.Location())
		rows := value(t, ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.games tbody tr")].map(r => r.innerText)`))
		if !strings.Contains(url, "player=Ada+Lovelace") || !strings.Contains(url, "text=famous") {
			t.Errorf("the address does not hold the search: %s", url)
		}
		if len(rows) != 1 || !strings.HasPrefix(rows[0], "1\t") || !strings.Contains(rows[0], "Bob Barker") {
			t.Fatalf("rows: %q", rows)
		}
		shot(t, ctx, "web-search")
		do(t, ctx, chromedp.Click(css(`table.games a[href="/game/1"]`)), chromedp.WaitVisible(css(`#play`)))
		if title := value(t, ctx, chromedp.Title()); !strings.Contains(title, "IceSickle #1") {
			t.Errorf("title %q", title)
		}
	})

	t.Run("the arrow keys step through a game", func(t *testing.T) {
		ctx := tab(t, bctx)
		board := func() string {
			return value(t, ctx, chromedp.Evaluate[string](`document.querySelector("#play .board").innerHTML`))
		}
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/game/1?ply=0"),
			chromedp.WaitVisible(css(`#play`)),
			// A mark that a reload would wipe: stepping must not reload.
			chromedp.Evaluate[chromedp.Void](`window.stayed = true`),
		)
		board0 := board()
		do(t, ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.WaitVisible(css(`#play[data-ply="1"]`)))
		board1 := board()
		url := value(t, ctx, chromedp.Location())
		cur := value(t, ctx, chromedp.AttributeValue(css(`#moves a.cur`), "data-ply"))
		if board0 == board1 {
			t.Error("the board did not change after →")
		}
		if !strings.HasSuffix(url, "/game/1?ply=1") || cur.Value != "1" {
			t.Errorf("after →: address %s, current move %q", url, cur.Value)
		}
		do(t, ctx,
			chromedp.KeyEvent(kb.ArrowRight),
			chromedp.WaitVisible(css(`#play[data-ply="2"]`)),
			chromedp.KeyEvent(kb.ArrowLeft),
			chromedp.WaitVisible(css(`#play[data-ply="1"]`)),
		)
		board2 := board()
		stayed := value(t, ctx, chromedp.Evaluate[bool](`window.stayed === true`))
		if board2 != board1 || !stayed {
			t.Errorf("← did not come back to ply 1 in place (same board: %v, no reload: %v)", board2 == board1, stayed)
		}
		do(t, ctx, chromedp.Navigate(ts.URL+"/game/1?ply=5"), chromedp.WaitVisible(css(`#play`)))
		shot(t, ctx, "web-game")
		// The same on a phone: what fits on its screen.
		if shots != "" {
			do(t, ctx, viewport(390), chromedp.Navigate(ts.URL+"/game/1?ply=5"), chromedp.WaitVisible(css(`#play`)))
			png := value(t, ctx, chromedp.CaptureScreenshot())
			if err := os.WriteFile(filepath.Join(shots, "web-game-phone.png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
			do(t, ctx, chromedp.EmulateViewport(1280, 900))
		}
		// The links do the same as the keys.
		do(t, ctx, chromedp.Navigate(ts.URL+"/game/1?ply=3"), chromedp.WaitVisible(css(`#play`)),
			chromedp.Click(css(`#play a[rel="next"]`)), chromedp.WaitVisible(css(`#play[data-ply="4"]`)))
	})

	t.Run("after a step the focus stays and the move is announced", func(t *testing.T) {
		ctx := tab(t, bctx)
		focused := func() string {
			return value(t, ctx, chromedp.Evaluate[string](`(e => e.dataset.rel || "ply " + e.dataset.ply)(document.activeElement)`))
		}
		announced := func() string {
			return value(t, ctx, chromedp.Evaluate[string](`document.getElementById("announce").textContent`))
		}
		do(t, ctx, chromedp.Navigate(ts.URL+"/game/1?ply=3"), chromedp.WaitVisible(css(`#play`)),
			chromedp.Focus(css(`#play a[rel="next"]`)), chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`#play[data-ply="4"]`)))
		if f := focused(); f != "next" {
			t.Errorf("after Enter on next ›, the focus is on %q", f)
		}
		if a := announced(); !strings.HasPrefix(a, "Ply 4 of ") {
			t.Errorf("the live region says %q", a)
		}
		if polite := value(t, ctx, chromedp.AttributeValue(css(`#announce`), "aria-live")); polite.Value != "polite" {
			t.Errorf("#announce is aria-live=%q", polite.Value)
		}
		// Again from the kept focus, then on a move of the list.
		do(t, ctx, chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(css(`#play[data-ply="5"]`)))
		if f := focused(); f != "next" {
			t.Errorf("after a second Enter, the focus is on %q", f)
		}
		do(t, ctx, chromedp.Click(css(`#moves a[data-ply="2"]`)), chromedp.WaitVisible(css(`#play[data-ply="2"]`)))
		if f, a := focused(), announced(); f != "ply 2" || !strings.HasPrefix(a, "Ply 2 of ") {
			t.Errorf("after a click on move 2: focus on %q, announced %q", f, a)
		}
		// At the end, the focus stays where next › was, on the end.
		do(t, ctx, chromedp.Click(css(`#play a[rel="last"]`)), chromedp.WaitNotPresent(css(`#play a[rel="last"]`)))
		if f := focused(); f != "last" {
			t.Errorf("after end », the focus is on %q", f)
		}
	})

	t.Run("the explorer's counts match the archive", func(t *testing.T) {
		ctx := tab(t, bctx)
		g, _ := games.Lookup("IceSickle")
		start, _ := g.Start(archiveOptions())
		want, err := a.Explore(context.Background(), archive.Query{}, start)
		if err != nil {
			t.Fatal(err)
		}
		do(t, ctx, chromedp.Navigate(ts.URL+"/position?game=IceSickle"), chromedp.WaitVisible(css(`#explorer`)))
		rows := value(t, ctx, chromedp.Evaluate[[][]string](`[...document.querySelectorAll("#explorer tbody tr")].map(r => [...r.cells].slice(0, 6).map(c => c.innerText.trim()))`))
		if len(rows) != len(want) || len(want) == 0 {
			t.Fatalf("%d rows, the archive has %d moves", len(rows), len(want))
		}
		for i, m := range want {
			exp := []string{m.Move, strconv.Itoa(m.Games), strconv.Itoa(m.Wins), strconv.Itoa(m.Draws), strconv.Itoa(m.Losses), strconv.Itoa(m.Undone)}
			if strings.Join(rows[i], " ") != strings.Join(exp, " ") {
				t.Errorf("row %d: %q, want %q", i, rows[i], exp)
			}
		}
		// One step down the tree.
		do(t, ctx, chromedp.Click(css(`#explorer tbody tr:first-child a`)), chromedp.WaitVisible(css(`nav.trail strong`)))
		if trail := value(t, ctx, chromedp.Text(css(`nav.trail`))); !strings.Contains(trail, "start › "+want[0].Move) {
			t.Errorf("trail %q", trail)
		}
		shot(t, ctx, "web-explorer")
	})

	t.Run("the games by mail update when a move lands", func(t *testing.T) {
		ctx := tab(t, bctx)
		// The page swaps its games when the stream says they changed,
		// that is, from the second revision it reads: the move must land
		// after the page has read the first. The browser tells each
		// message of the stream, and the page's script reads them in
		// order.
		var revisions atomic.Int32
		if err := chromedp.Listen(ctx, func(ev any) {
			if m, ok := ev.(*network.EventEventSourceMessageReceived); ok && m.EventName == "games" {
				revisions.Add(1)
			}
		}); err != nil {
			t.Fatal(err)
		}
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/live"),
			chromedp.WaitVisible(css(`#live`)),
			chromedp.Evaluate[chromedp.Void](`window.stayed = true`),
		)
		before := value(t, ctx, chromedp.Text(css(`#live`)))
		waitfor.Until(t, "the page's stream to bring the games' revision", stepLimit, func() bool { return revisions.Load() > 0 })
		tok := mail.move(t, 1)
		do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("live").innerText.includes("last `+tok+`") && document.getElementById("live").innerText !== `+strconv.Quote(before)))
		after := value(t, ctx, chromedp.Text(css(`#live`)))
		stayed := value(t, ctx, chromedp.Evaluate[bool](`window.stayed === true`))
		if after == before || !stayed {
			t.Errorf("the page did not update in place (changed: %v, no reload: %v)", after != before, stayed)
		}
		shot(t, ctx, "web-live")
	})

	t.Run("players and ratings", func(t *testing.T) {
		ctx := tab(t, bctx)
		do(t, ctx,
			chromedp.Navigate(ts.URL+"/players"),
			chromedp.Click(css(`a[href="/player/Ada%20Lovelace"]`)),
			chromedp.WaitVisible(css(`table`)),
		)
		if h1 := value(t, ctx, chromedp.Text(css(`h1`))); h1 != "Ada Lovelace" {
			t.Errorf("h1 %q", h1)
		}
		shot(t, ctx, "web-player")
		do(t, ctx, chromedp.Navigate(ts.URL+"/ratings"), chromedp.WaitVisible(css(`table.ratings`)))
		shot(t, ctx, "web-ratings")
		do(t, ctx, chromedp.Navigate(ts.URL+"/search?since=yesterday"), chromedp.WaitVisible(css(`#error`)))
		if msg := value(t, ctx, chromedp.Text(css(`#error`))); !strings.Contains(msg, "YYYY") {
			t.Errorf("error page: %q", msg)
		}
		shot(t, ctx, "web-error")
	})
}
