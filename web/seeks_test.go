package web

import (
	"regexp"
	"strings"
	"testing"
)

// TestSeeksPage: the open seeks, each with its terms in words, the
// seeker by name and the line that meets it, to the server's address
// once the daemon noted it; never a player's address. A seek met leaves
// the page, and with none left the page says what to do. Without games
// by mail there is no page and no link to it.
func TestSeeksPage(t *testing.T) {
	m := newMailGames(t)
	ts, _, _ := newTestSite(t, 4, m)
	page := func() string {
		t.Helper()
		code, body, _ := get(t, ts.URL, "/seeks")
		if code != 200 {
			t.Fatalf("/seeks: status %d\n%s", code, body)
		}
		for _, a := range regexp.MustCompile(`[\w.+-]+@[\w.-]+`).FindAllString(body, -1) {
			if a != "games@club.test" {
				t.Errorf("the page shows an address other than the server's: %s", a)
			}
		}
		return body
	}
	body := page()
	for _, want := range []string{
		"2 open seeks",
		`<a href="/seeks" aria-current="page">Seeks</a>`,
		"send the line under it to the server's address from your own address",
		// eva's seek for IceFrogs first (by game), then dee's.
		"<strong>eva</strong>, rated 1500, seeks 2 opponents of any rating.",
		"<dt>Players</dt><dd>3 (the game starts when 3 players have sought it)</dd>",
		"<dt>Time</dt><dd>no time limit</dd>",
		"<dt>The board</dt><dd>hex</dd>",
		`<code class="line">seek icefrogs board=hex seats=3 days=0</code>`,
		"<strong>dee</strong>, rated 1500, seeks an opponent rated 1200 to 1800.",
		"<dt>Players</dt><dd>2</dd>",
		"<dt>Time</dt><dd>5 days a move</dd>",
		"<dt>The score that wins</dt><dd>9</dd>",
		"<dt>Open until</dt><dd><time datetime=",
		"6 days 23 hours from now",
		`<code class="line">seek pikemen target=9 seats=2 days=5</code>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if i, j := strings.Index(body, "seek icefrogs"), strings.Index(body, "seek pikemen"); i < 0 || j < i {
		t.Errorf("the seeks are not by game: IceFrogs at %d, Pikemen at %d", i, j)
	}
	if strings.Contains(body, "mailto:") {
		t.Errorf("a mail link before the daemon noted its address: %s", between(body, "mailto:", `"`))
	}

	// Once the daemon noted its address, each line is a mail link to it.
	m.started(t)
	body = page()
	for _, want := range []string{
		`send the line under it to <a href="mailto:games@club.test">games@club.test</a>`,
		`<a href="mailto:games@club.test?subject=seek%20pikemen%20target%3D9%20seats%3D2%20days%3D5&amp;body=seek%20pikemen%20target%3D9%20seats%3D2%20days%3D5">write it in a new mail</a>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}

	// fay meets dee's seek with its line: a game starts, and the seek
	// leaves the page.
	m.mail(t, "fay", "seek pikemen target=9 seats=2 days=5")
	body = page()
	if !strings.Contains(body, "1 open seek.") || strings.Contains(body, "seek pikemen") || strings.Contains(body, "dee") {
		t.Errorf("dee's seek met, the page still lists it:\n%s", between(body, "<main>", "</main>"))
	}
	if _, live, _ := get(t, ts.URL, "/live"); !strings.Contains(live, "3 games in progress") {
		t.Errorf("the seek met started no game: %s", between(live, `<p class="count">`, "</p>"))
	}

	// With eva's taken back, none is open: the page says how to post one.
	m.mail(t, "eva", "unseek")
	body = page()
	for _, want := range []string{"No seek is open", `<code class="cmd">challenge GAME bot</code>`, `<code class="line">seek icesickle days=3 rating=1400-1700</code>`} {
		if !strings.Contains(body, want) {
			t.Errorf("no seek open: the page lacks %q", want)
		}
	}
	if strings.Contains(body, `class="card seek"`) {
		t.Error("no seek open, and the page shows one")
	}

	// Without games by mail: no page, and no link to it.
	bare, _, _ := newTestSite(t, 4, nil)
	if code, _, _ := get(t, bare.URL, "/seeks"); code != 404 {
		t.Errorf("/seeks without games by mail: status %d, want 404", code)
	}
	if _, home, _ := get(t, bare.URL, "/"); strings.Contains(home, `href="/seeks"`) {
		t.Error("a site without games by mail links to /seeks")
	}
	if _, home, _ := get(t, ts.URL, "/"); !strings.Contains(home, `<a href="/seeks">Seeks</a>`) {
		t.Error("the site's menu does not link to /seeks")
	}
}
