package web

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"icepost/internal/waitfor"
)

// TestBrowserTournament: a tournament's page in Chromium follows the
// live stream as the games by mail page does. A move in a game of no
// tournament brings the page again and changes nothing in it (the same
// element, its crosstable scrolled where it was); the tournament's last
// game ending changes it in place, without a reload: the lead, the
// standings, the crosstable. At 360 px the crosstable scrolls in its own
// box and the page does not. ICEPOST_SCREENSHOTS=DIR writes the round
// robin's page at 360 and 1280 px, and the knockout's at 1280.
func TestBrowserTournament(t *testing.T) {
	bctx := browser(t)
	m := newMailGames(t).started(t).withTournaments(t)
	ts, site, _ := newTestSite(t, 4, m)
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
	ctx := tab(t, bctx)
	var revisions, fetched atomic.Int32
	if err := chromedp.Listen(ctx, func(ev any) {
		switch e := ev.(type) {
		case *network.EventEventSourceMessageReceived:
			if e.EventName == "games" {
				revisions.Add(1)
			}
		case *network.EventResponseReceived:
			if strings.HasSuffix(e.Response.URL, "/tournament/1") && e.Type == network.ResourceTypeFetch {
				fetched.Add(1)
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, viewport(360), chromedp.Navigate(ts.URL+"/tournament/1"), chromedp.WaitVisible(css(`table.cross`)))
	o := value(t, ctx, chromedp.Evaluate[overflow](overflowJS+"(360)"))
	if o.ScrollWidth > 360 {
		t.Errorf("the page is %d px wide at 360: %q", o.ScrollWidth, o.Over)
	}
	shot(t, ctx, "web-tournament-phone")
	do(t, ctx, chromedp.Evaluate[chromedp.Void](`window.stayed = true;
		window.liveBefore = document.getElementById("live");
		const box = document.querySelector("table.cross").closest(".scroll");
		box.scrollLeft = 40; window.scrolledTo = box.scrollLeft;`))
	waitfor.Until(t, "the page's stream to bring the games' revision", stepLimit, func() bool { return revisions.Load() > 0 })

	// A move in ada and bob's game, of no tournament: the page is
	// fetched again, and left as it is.
	seen := revisions.Load()
	m.move(t, 1)
	waitfor.Until(t, "the stream to say the games changed, and the page to fetch itself", stepLimit, func() bool {
		return revisions.Load() > seen && fetched.Load() > 0
	})
	same := value(t, ctx, chromedp.Evaluate[bool](`document.getElementById("live") === window.liveBefore &&
		document.querySelector("table.cross").closest(".scroll").scrollLeft === window.scrolledTo`))
	if !same {
		t.Error("a move in another game replaced the tournament's page, or scrolled its crosstable back")
	}

	// The tournament's last game ends, and the tick records it: the page
	// changes in place.
	m.decide(t, m.tourneys.roundRobin, "gus", "bot:1", "bot:1")
	if err := m.events.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.Poll[chromedp.Void](`document.getElementById("live").innerText.includes("Finished: won by")`))
	stayed := value(t, ctx, chromedp.Evaluate[bool](`window.stayed === true`))
	text := value(t, ctx, chromedp.Text(css(`#live`)))
	if !stayed || strings.Contains(text, "Running") || strings.Contains(text, "This page updates") {
		t.Errorf("the page did not update in place (no reload: %v):\n%s", stayed, text)
	}
	// The bot beat gus: it has 2 points (hal and gus beaten), gus and
	// ivy 1½, hal 1.
	if !strings.Contains(text, "Finished: won by bot 1.") {
		t.Errorf("the lead after the last game: %s", between(text, "Finished", "."))
	}

	// The page finished follows no stream: left, a page lets its stream
	// go (six held by pages left in the browser's back-forward cache
	// held up the loading of the next page for a minute).
	do(t, ctx, chromedp.Navigate(ts.URL+"/tournament/1"), chromedp.WaitVisible(css(`main`)))
	waitfor.Until(t, "the streams of the pages left to end", stepLimit, func() bool {
		site.live.mu.Lock()
		defer site.live.mu.Unlock()
		return len(site.live.subs) == 0
	})

	do(t, ctx, viewport(1280), chromedp.Navigate(ts.URL+"/tournament/1"), chromedp.WaitVisible(css(`table.cross`)))
	shot(t, ctx, "web-tournament")
	do(t, ctx, chromedp.Navigate(ts.URL+"/tournament/3"), chromedp.WaitVisible(css(`.bracket`)))
	// From 48em the bracket's rounds stand side by side.
	tops := value(t, ctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll(".bracket-round")].map(r => r.getBoundingClientRect().top)`))
	if len(tops) != 2 || tops[0] != tops[1] {
		t.Errorf("the bracket's rounds at 1280 px start at %v: not side by side", tops)
	}
	shot(t, ctx, "web-tournament-knockout")
}
