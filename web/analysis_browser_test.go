package web

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// An analysed game in Chromium: the graph over the moves, a click on
// one of its moves goes to that ply, the marks in the move list, and at
// the mistake the better move in words and as a green arrow on the
// board; the page fits a phone and axe-core finds nothing serious, in
// light and dark. ICEPOST_SCREENSHOTS=DIR writes it at 1280 and 390 px.
func TestBrowserAnalysis(t *testing.T) {
	bctx := browser(t)
	ts, _, a := newTestSite(t, 10, nil)
	ag := addAnalysedGame(t, a)
	base := fmt.Sprintf("%s/game/%d", ts.URL, ag.ID)
	ctx := tab(t, bctx)
	count := func(sel string) int {
		return value(t, ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
	}

	do(t, ctx, viewport(1280), chromedp.Navigate(base), chromedp.WaitVisible(css(`svg.eval-graph`)))
	if n := count(`svg.eval-graph a.eval-move`); n != ag.Plies {
		t.Errorf("%d moves in the graph, want %d", n, ag.Plies)
	}
	// Beside the board, over the moves: wide and low.
	size := value(t, ctx, chromedp.Evaluate[[]float64](`(r => [r.width, r.height, r.left - document.querySelector("#play").getBoundingClientRect().right, r.top])(document.querySelector("svg.eval-graph").getBoundingClientRect())`))
	if size[0] < 400 || size[1] > 200 || size[1] < 90 || size[2] < 0 || size[3] > 400 {
		t.Errorf("the graph is %.0f×%.0f px, %.0f px right of the board, %.0f px from the top", size[0], size[1], size[2], size[3])
	}
	// A click on the mistake's column goes to its ply, in place (the
	// page's script steps as for the step links: no reload).
	do(t, ctx,
		chromedp.Evaluate[chromedp.Void](`window.stayed = true`),
		chromedp.Click(css(fmt.Sprintf(`svg.eval-graph a[aria-label^="%s,"] rect`, ag.graphName(ag.Mistake)))),
		chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"]`, ag.Mistake))),
	)
	if url := value(t, ctx, chromedp.Location()); !strings.HasSuffix(url, fmt.Sprintf("?ply=%d", ag.Mistake)) {
		t.Errorf("the click went to %s", url)
	}
	if !value(t, ctx, chromedp.Evaluate[bool](`window.stayed === true`)) {
		t.Error("a click on the graph reloaded the page")
	}
	if cur := value(t, ctx, chromedp.AttributeValue(css(`svg.eval-graph a[aria-current="step"]`), "aria-label")); !strings.HasPrefix(cur.Value, ag.graphName(ag.Mistake)+",") {
		t.Errorf("the graph's current move: %q", cur.Value)
	}
	// The marks in the move list, named for screen readers.
	for mark, n := range map[string]int{"mistake": 1, "blunder": 1, "inaccuracy": 1} {
		if got := count(`#moves .mark.` + mark); got != n {
			t.Errorf("%d %ss in the move list, want %d", got, mark, n)
		}
	}
	named := value(t, ctx, chromedp.Evaluate[string](`document.querySelector("#moves .mark.blunder").textContent`))
	if named != "?? blunder" {
		t.Errorf("the blunder's mark reads %q", named)
	}
	better := ag.Report.Moves[ag.Mistake-1].Better
	if note := value(t, ctx, chromedp.Text(css(`#analysis .eval`))); !strings.Contains(note, "Better: "+better+" (0.47), the green arrow") || !strings.Contains(note, "mistake") {
		t.Errorf("the note at the mistake: %q", note)
	}
	if n := count(`#play .board svg path[fill="#5aa00a"]`); n != 1 {
		t.Errorf("%d green arrows on the board at the mistake, want 1", n)
	}
	if shots := os.Getenv("ICEPOST_SCREENSHOTS"); shots != "" {
		// A window tall enough for the board's column (which scrolls on
		// its own in a shorter one) to show the better move in words;
		// on a phone, the board and the note under it.
		write := func(name string, png []byte) {
			if err := os.WriteFile(filepath.Join(shots, name), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		do(t, ctx, chromedp.EmulateViewport(1280, 1000), chromedp.Navigate(fmt.Sprintf("%s?ply=%d", base, ag.Mistake)), chromedp.WaitVisible(css(`svg.eval-graph`)))
		write("web-analysis.png", value(t, ctx, chromedp.CaptureScreenshot()))
		do(t, ctx, viewport(390), chromedp.Navigate(fmt.Sprintf("%s?ply=%d", base, ag.Mistake)), chromedp.WaitVisible(css(`svg.eval-graph`)))
		write("web-analysis-phone.png", value(t, ctx, chromedp.CaptureScreenshot()))
		do(t, ctx, chromedp.ScrollIntoView(css(`#moves`)))
		write("web-analysis-phone-moves.png", value(t, ctx, chromedp.CaptureScreenshot()))
		// The graph as a mail carries it.
		var b bytes.Buffer
		if err := evalGraph(ag.Report, []string{"Ada Lovelace", "Bob Barker"}).PNG(&b); err != nil {
			t.Fatal(err)
		}
		write("analysis-graph.png", b.Bytes())
	}
	// The next move by the keys: the graph follows, the arrow goes.
	do(t, ctx, viewport(1280), chromedp.Navigate(fmt.Sprintf("%s?ply=%d", base, ag.Mistake)), chromedp.WaitVisible(css(`svg.eval-graph`)),
		chromedp.Click(css(`#play a[rel="next"]`)), chromedp.WaitVisible(css(fmt.Sprintf(`#play[data-ply="%d"]`, ag.Mistake+1))))
	if cur := value(t, ctx, chromedp.AttributeValue(css(`svg.eval-graph a[aria-current="step"]`), "aria-label")); !strings.HasPrefix(cur.Value, ag.graphName(ag.Mistake+1)+",") {
		t.Errorf("after next ›, the graph's current move: %q", cur.Value)
	}
	if n := count(`#play .board svg path[fill="#5aa00a"]`); n != 0 {
		t.Errorf("%d green arrows after the mistake", n)
	}

	// On every width: nothing wider than the window.
	for _, w := range []int64{360, 390, 768, 1280} {
		t.Run(fmt.Sprintf("layout-%d", w), func(t *testing.T) {
			do(t, ctx, viewport(w), chromedp.Navigate(fmt.Sprintf("%s?ply=%d", base, ag.Blunder)), chromedp.WaitVisible(css(`main`)))
			o := value(t, ctx, chromedp.Evaluate[overflow](fmt.Sprintf("%s(%d)", overflowJS, w)))
			if o.ScrollWidth > int(w) || o.Width != int(w) {
				t.Errorf("the page is %d px wide in a window of %d: %q", o.ScrollWidth, w, o.Over)
			}
			if bad := value(t, ctx, chromedp.Evaluate[[]string](phoneJS)); len(bad) > 0 {
				t.Errorf("%q", bad)
			}
		})
	}
	axe, err := os.ReadFile(axePath)
	if err != nil {
		msg := "!!! axe-core is not installed: SKIPPING the accessibility check (cd web/testdata/axe && npm ci) !!!"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg, err)
		}
		t.Log(msg)
		return
	}
	for _, scheme := range []string{"light", "dark"} {
		for _, w := range []int64{390, 1280} {
			t.Run(fmt.Sprintf("axe-%s-%d", scheme, w), func(t *testing.T) {
				do(t, ctx, viewport(w), colorScheme(scheme), chromedp.Navigate(fmt.Sprintf("%s?ply=%d", base, ag.Mistake)), chromedp.WaitVisible(css(`main`)),
					chromedp.Evaluate[chromedp.Void](string(axe)))
				res := value(t, ctx, chromedp.Evaluate[axeResult](axeJS, chromedp.EvalAwaitPromise))
				if res.Passed < 10 {
					t.Errorf("axe-core passed %d checks: did it run?", res.Passed)
				}
				for _, f := range res.Found {
					t.Error(f)
				}
			})
		}
	}
}
