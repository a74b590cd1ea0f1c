package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// Every kind of page on a phone and on a desktop, in Chromium: nothing
// wider than the screen (a wide table scrolls in its own box), the board
// not sticky in one column, move tokens and step links whole; and axe-core
// finds no serious or critical problem, in light and dark.

// pageTypes are one page of every kind, in the club archive of
// newTestSite with the games by mail of newMailGames (its daemon
// started, so the home page and the seeks name its address) and its
// tournaments (withTournaments: one of each format, and one open), two
// regulars (established ratings), one game of four seats (fourSeats) and
// the play page of a seat to move (play, its board's cells buttons),
// and the puzzles (withPuzzles): their list and one to solve.
func pageTypes(four int64, play string, analysed analysedPages) []struct{ name, path string } {
	return []struct{ name, path string }{
		{"game-analysis3", analysed.three},
		{"game-line", analysed.line},
		{"home", "/"},
		{"search", "/search?game=IceSickle"},
		{"game", "/game/1?ply=5"},
		{"game4", fmt.Sprintf("/game/%d", four)},
		{"position", "/position?game=IceSickle"},
		{"players", "/players"},
		{"player", "/player/Ada%20Lovelace"},
		{"ratings", "/ratings"},
		{"ratings-game", "/ratings?game=IceSickle"},
		{"live", "/live"},
		{"live-game", "/live/1"},
		{"seeks", "/seeks"},
		{"tournaments", "/tournaments"},
		{"tournament-roundrobin", "/tournament/1"},
		{"tournament-swiss", "/tournament/2"},
		{"tournament-knockout", "/tournament/3"},
		{"tournament-ladder", "/tournament/4"},
		{"tournament-open", "/tournament/5"},
		{"error", "/search?since=2021.13.45"},
		{"play", play},
		{"puzzles", "/puzzles"},
		{"puzzle", "/puzzle/1"}, // withPuzzles's first
	}
}

// analysedPages are the pages of analysed games that pageTypes adds: a
// game of three seats at its mistake (the graph's choice of whose line)
// and the board two moves into the engine's line of another's mistake.
type analysedPages struct{ three, line string }

// addAnalysedPages adds the games of analysedPages to a.
func addAnalysedPages(t *testing.T, a *archive.Archive) analysedPages {
	t.Helper()
	three := addGame(t, a, threeKind, true)
	line := addGame(t, a, lineKind, true)
	return analysedPages{
		three: fmt.Sprintf("/game/%d?ply=%d", three.ID, three.Mistake),
		line:  fmt.Sprintf("/game/%d?ply=%d&line=2", line.ID, line.Mistake),
	}
}

// fourSeats adds a game of Pikemen for four players with long names
// (whose status line once squeezed the moves) and returns its id.
func fourSeats(t *testing.T, s *Site) int64 {
	t.Helper()
	g, _ := games.Lookup("Pikemen")
	start, err := g.Start(rules.Options{Seats: 4})
	if err != nil {
		t.Fatal(err)
	}
	tags := []notation.Tag{{Name: "Event", Value: "Four-handed Winter Championship"}, {Name: "Date", Value: "2023.02.11"}}
	for k, n := range []string{"Maximiliane Oberhausen", "Bartholomew Fairweather", "Genevieve Castellanos", "Konstantin Vasilievsky"} {
		tags = append(tags, notation.Tag{Name: fmt.Sprintf("Player%d", k+1), Value: n})
	}
	rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rand.New(rand.NewPCG(5, 5)), 60))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.archive.Import(context.Background(), strings.NewReader(rec.String()), "four.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	found, err := s.archive.Search(context.Background(), archive.Query{Event: "Four-handed"})
	if err != nil || len(found) != 1 {
		t.Fatalf("the game of four: %v, %d found", err, len(found))
	}
	return found[0].ID
}

// viewport sets the tab's size: a phone (touch, the page's viewport
// meta obeyed) under 768 px, a desktop from there.
func viewport(w int64) chromedp.Action[chromedp.Void] {
	if w < 768 {
		return chromedp.EmulateViewport(w, 800, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(2))
	}
	return chromedp.EmulateViewport(w, 900)
}

// colorScheme emulates the reader's light or dark setting.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// overflowJS reports what sticks out of the window: the page's width
// against the window's, and the elements whose right edge passes it
// (outside the boxes that scroll on their own).
const overflowJS = `((w) => {
	const sw = document.documentElement.scrollWidth;
	const out = [];
	for (const e of document.querySelectorAll("body *")) {
		const r = e.getBoundingClientRect();
		if (r.right > w + 0.5 && !e.closest(".scroll, pre")) {
			out.push(e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + e.className : "") + " right=" + Math.round(r.right));
		}
	}
	return {width: window.innerWidth, scrollWidth: sw, over: out.slice(0, 5)};
})`

type overflow struct {
	Width       int      `json:"width"`
	ScrollWidth int      `json:"scrollWidth"`
	Over        []string `json:"over"`
}

// phoneJS checks what the issue saw broken on a phone: the board sticky
// over the moves, a move token broken across lines, step links on two
// lines. It returns the problems found.
const phoneJS = `(() => {
	const bad = [];
	const play = document.querySelector(".play");
	const oneColumn = window.innerWidth < 960;
	if (play && oneColumn && getComputedStyle(play).position === "sticky") {
		bad.push("the board is sticky in one column");
	}
	for (const a of document.querySelectorAll("a.mv, .mv")) {
		if (a.getClientRects().length > 1) { bad.push("the move " + a.textContent + " breaks across lines"); break; }
	}
	const step = document.querySelector("nav.step");
	if (step) {
		const rs = [...step.children].map(c => c.getBoundingClientRect());
		if (Math.max(...rs.map(r => r.top)) >= Math.min(...rs.map(r => r.bottom)) || [...step.querySelectorAll("a")].some(a => a.getClientRects().length > 1)) {
			bad.push("the step links take more than one line");
		}
	}
	return bad;
})()`

func TestBrowserLayout(t *testing.T) {
	bctx := browser(t)
	mail := newMailGames(t).started(t).withTournaments(t)
	ts, site, a := newTestSite(t, 60, mail)
	site.Play = mail.srv
	play := "/play/" + mail.srv.PlayCapability(1, 2)
	regulars(t, a, 48)
	withPuzzles(t, a)
	four := fourSeats(t, site)
	analysed := addAnalysedPages(t, a)
	// ICEPOST_LAYOUT_SHOTS=DIR writes every page at every width there,
	// to look at (80 pictures: not for docs/).
	shots := os.Getenv("ICEPOST_LAYOUT_SHOTS")
	ctx := tab(t, bctx)
	for _, w := range []int64{360, 390, 768, 1280} {
		for _, p := range pageTypes(four, play, analysed) {
			t.Run(fmt.Sprintf("%s-%d", p.name, w), func(t *testing.T) {
				do(t, ctx, viewport(w), chromedp.Navigate(ts.URL+p.path), chromedp.WaitVisible(css(`main`)))
				if p.name == "play" || p.name == "puzzle" { // the script makes the board's cells buttons
					do(t, ctx, chromedp.WaitVisible(css(`div.board [role="button"]`)))
				}
				o := value(t, ctx, chromedp.Evaluate[overflow](fmt.Sprintf("%s(%d)", overflowJS, w)))
				if o.ScrollWidth > int(w) || o.Width != int(w) {
					t.Errorf("the page is %d px wide in a window of %d (want %d): %q", o.ScrollWidth, o.Width, w, o.Over)
				}
				if bad := value(t, ctx, chromedp.Evaluate[[]string](phoneJS)); len(bad) > 0 {
					t.Errorf("%q", bad)
				}
				if p.name == "game4" && w == 1280 {
					// The status line of four players must leave the
					// moves a column of their own, side by side.
					mw := value(t, ctx, chromedp.Evaluate[float64](`document.getElementById("moves").getBoundingClientRect().width`))
					if mw < 500 {
						t.Errorf("the moves are %.0f px wide beside the board", mw)
					}
				}
				if shots != "" {
					png := value(t, ctx, chromedp.FullScreenshot(100))
					if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%s-%d.png", p.name, w)), png, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			})
		}
	}
}

// axePath is where .ci/run installs axe-core (npm ci in web/testdata/axe).
const axePath = "testdata/axe/node_modules/axe-core/axe.min.js"

// axeJS runs axe-core on the page and returns how many of its checks
// passed and its serious and critical findings, each with the first few
// elements it names.
const axeJS = `axe.run(document).then(r => ({passed: r.passes.length, found: r.violations
	.filter(v => v.impact === "serious" || v.impact === "critical")
	.map(v => v.impact + " " + v.id + ": " + v.help + " [" + v.nodes.slice(0, 3).map(n => n.target.join(" ") + " (" + (n.any.concat(n.all)[0] || {}).message + ")").join("; ") + "]")}))`

type axeResult struct {
	Passed int      `json:"passed"`
	Found  []string `json:"found"`
}

func TestBrowserAccessibility(t *testing.T) {
	axe, err := os.ReadFile(axePath)
	if err != nil {
		msg := "!!! axe-core is not installed: SKIPPING the accessibility test (cd web/testdata/axe && npm ci) !!!"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg, err)
		}
		t.Skip(msg)
	}
	bctx := browser(t)
	mail := newMailGames(t).started(t).withTournaments(t)
	ts, site, a := newTestSite(t, 60, mail)
	site.Play = mail.srv
	play := "/play/" + mail.srv.PlayCapability(1, 2)
	regulars(t, a, 48)
	withPuzzles(t, a)
	four := fourSeats(t, site)
	analysed := addAnalysedPages(t, a)
	ctx := tab(t, bctx)
	for _, scheme := range []string{"light", "dark"} {
		for _, w := range []int64{390, 1280} {
			for _, p := range pageTypes(four, play, analysed) {
				t.Run(fmt.Sprintf("%s-%s-%d", p.name, scheme, w), func(t *testing.T) {
					do(t, ctx, viewport(w), colorScheme(scheme), chromedp.Navigate(ts.URL+p.path), chromedp.WaitVisible(css(`main`)))
					if p.name == "play" || p.name == "puzzle" {
						do(t, ctx, chromedp.WaitVisible(css(`div.board [role="button"]`)))
					}
					do(t, ctx, chromedp.Evaluate[chromedp.Void](string(axe)))
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
}
