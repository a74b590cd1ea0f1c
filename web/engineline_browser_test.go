package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"icepost/rules"
)

// threeKind is an analysed game of three seats (its marks where addGame
// finds a move elsewhere).
var threeKind = gameKind{name: "pikemen-3-graph", game: "Pikemen", options: rules.Options{Seats: 3}, plies: 60, seed: 2}

// shot writes a screenshot of the window into ICEPOST_SCREENSHOTS, when
// set.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ICEPOST_SCREENSHOTS")
	if dir == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name), value(t, ctx, chromedp.CaptureScreenshot()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The engine's line in Chromium, on a phone: "Step through it on the
// board" shows the board after its first move without a reload, → and
// a click on one of its moves step on, ← back, Home back to the game at
// the mistake; the address follows.
func TestBrowserEngineLine(t *testing.T) {
	bctx := browser(t)
	ts, _, a := newTestSite(t, 1, nil)
	ag := addGame(t, a, lineKind, true)
	game := fmt.Sprintf("%s/game/%d?ply=%d", ts.URL, ag.ID, ag.Mistake)
	ctx := tab(t, bctx)
	at := func(line int) chromedp.Action[chromedp.Void] {
		if line == 0 {
			return chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"]:not([data-line])`, ag.Mistake)))
		}
		return chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"][data-line="%d"]`, ag.Mistake, line)))
	}
	address := func(line int) {
		t.Helper()
		want := game
		if line > 0 {
			want += fmt.Sprintf("&line=%d", line)
		}
		if got := value(t, ctx, chromedp.Location()); got != want {
			t.Errorf("the address is %s, want %s", got, want)
		}
	}
	do(t, ctx, viewport(390), chromedp.Navigate(game), at(0), chromedp.Evaluate[chromedp.Void](`window.stayed = true`))
	do(t, ctx, chromedp.ScrollIntoView(css(`#analysis`)))
	shot(t, ctx, "web-line-start-phone.png")
	do(t, ctx, chromedp.Click(css(`#analysis a.line-go`)), at(1))
	address(1)
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight), at(2))
	address(2)
	shot(t, ctx, "web-line-phone.png")
	if st := value(t, ctx, chromedp.Text(css(`#status`))); !strings.Contains(st, fmt.Sprintf("instead of %d. %s, 2 of 4", (ag.Mistake+1)/2, ag.Game.Token(ag.Mistake))) {
		t.Errorf("the status at 2 of 4: %q", st)
	}
	do(t, ctx, chromedp.Click(css(`#analysis a.line-mv[data-line="4"]`)), at(4))
	address(4)
	do(t, ctx, chromedp.KeyEvent(kb.ArrowLeft), at(3))
	do(t, ctx, chromedp.KeyEvent(kb.Home), at(0))
	address(0)
	if !value(t, ctx, chromedp.Evaluate[bool](`window.stayed === true`)) {
		t.Error("stepping through the line reloaded the page")
	}
	// Back at the mistake, the keys step through the game again.
	do(t, ctx, chromedp.KeyEvent(kb.ArrowRight), chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"]`, ag.Mistake+1))))
}

// A graph of three players in Chromium: the first player's line filled
// and the others faint by default; the reader's choice shows another's,
// and stays while stepping through the game; "everyone" shows every line
// alike. No script is needed: the page's style sheet does it.
func TestBrowserGraphSeats(t *testing.T) {
	bctx := browser(t)
	ts, _, a := newTestSite(t, 1, nil)
	ag := addGame(t, a, threeKind, true)
	base := fmt.Sprintf("%s/game/%d?ply=%d", ts.URL, ag.ID, ag.Mistake)
	ctx := tab(t, bctx)
	// look is, for each seat, whether its area shows and its opacity.
	look := func() string {
		t.Helper()
		return value(t, ctx, chromedp.Evaluate[string](`[1, 2, 3].map(s => {
			const g = document.querySelector("svg.eval-graph .eval-seat-" + s);
			return s + ":" + getComputedStyle(g.querySelector(".eval-area")).display + "," + getComputedStyle(g).opacity;
		}).join(" ")`))
	}
	for _, js := range []bool{true, false} {
		t.Run(fmt.Sprintf("script-%v", js), func(t *testing.T) {
			do(t, ctx, viewport(390), scripts(js), chromedp.Navigate(base), chromedp.WaitVisible(css(`svg.eval-graph`)))
			if got, want := look(), "1:inline,1 2:none,0.3 3:none,0.3"; got != want {
				t.Errorf("by default: %s, want %s", got, want)
			}
			if js {
				do(t, ctx, chromedp.ScrollIntoView(css(`#eval-show`)))
				shot(t, ctx, "web-analysis3-phone.png")
			}
			do(t, ctx, chromedp.Click(css(`#eval-show input[value="2"]`)))
			if got, want := look(), "1:none,0.3 2:inline,1 3:none,0.3"; got != want {
				t.Errorf("seat 2 chosen: %s, want %s", got, want)
			}
			if js {
				// The choice stands outside the part a step swaps.
				do(t, ctx, chromedp.Click(css(`#play a[rel="next"]`)), chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"]`, ag.Mistake+1))))
				if got, want := look(), "1:none,0.3 2:inline,1 3:none,0.3"; got != want {
					t.Errorf("seat 2 chosen, a step later: %s, want %s", got, want)
				}
			}
			do(t, ctx, chromedp.Click(css(`#eval-show input[value="all"]`)))
			if got, want := look(), "1:none,1 2:none,1 3:none,1"; got != want {
				t.Errorf("everyone: %s, want %s", got, want)
			}
		})
	}
	do(t, ctx, scripts(true))
	if os.Getenv("ICEPOST_SCREENSHOTS") != "" {
		do(t, ctx, chromedp.EmulateViewport(1280, 1000), chromedp.Navigate(base), chromedp.WaitVisible(css(`svg.eval-graph`)))
		shot(t, ctx, "web-analysis3.png")
		do(t, ctx, colorScheme("dark"), chromedp.Navigate(base), chromedp.WaitVisible(css(`svg.eval-graph`)))
		shot(t, ctx, "web-analysis3-dark.png")
		do(t, ctx, colorScheme("light"))
	}
}

// scripts turns the page's scripts on or off, as a reader may.
func scripts(on bool) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: !on})
		return err
	})
}
