package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"icepost/archive"
	"icepost/rules/games"
)

func get(t *testing.T, base, path string) (int, string, http.Header) {
	t.Helper()
	resp, err := http.Get(base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b), resp.Header
}

func TestPages(t *testing.T) {
	ts, _, a := newTestSite(t, 40, newMailGames(t))
	ctx := context.Background()
	start, _ := games.All()[0].Start(archiveOptions())
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"40 games", `action="/search"`, `name="position"`, `name="moves"`, `name="text"`}},
		{"/search?player=Ada+Lovelace&game=IceSickle", []string{"Ada Lovelace", `href="/game/1"`, "Download"}},
		{"/search?player=ada", []string{"No player is called", `href="/search?player=Ada&#43;Lovelace"`}},
		{"/search?text=famous", []string{"1 game", `href="/game/1"`}},
		{"/search?sort=longest&per=5&page=2", []string{"6 to 10 shown", `rel="prev"`, `rel="next"`}},
		{"/game/1", []string{"Ada Lovelace", "Bob Barker", "the famous one", `rel="first"`, "Position code", `href="/game/1/record"`, `class="nag">!`, "also good"}},
		{"/game/1?ply=0", []string{"Start", `rel="next" title="the next move (→)"`, `href="/game/1?ply=1"`}},
		{"/position?game=IceSickle", []string{"Moves played from here", `id="explorer"`, "Games that reached it"}},
		{"/position?code=" + url.QueryEscape(start.Code()), []string{"Moves played from here"}},
		{"/players", []string{"8 players", `href="/player/Ada%20Lovelace"`}},
		{"/players?q=bob", []string{"1 player", "Bob Barker"}},
		{"/players?q=garcia", []string{"1 player", "Eva García"}},
		{"/search?player=garcia", []string{"No player is called", "Eva García"}},
		// Links as messengers and newsletters share them: parameters the
		// page does not take are ignored, even unreadable ones.
		{"/game/1?ply=3&fbclid=IwAR0abc-xyz_123", []string{`id="play" class="play" data-ply="3"`}},
		{"/search?player=Ada+Lovelace&utm_source=newsletter&utm_medium=email&x=%zz;y", []string{`href="/game/1"`}},
		{"/?fbclid=1", []string{`action="/search"`}},
		{"/search?sort=date", []string{`<option value="newest" selected>`}},
		{"/player/Ada%20Lovelace", []string{"By game", "Opponents", "Latest games", `class="n rating"`}},
		{"/player/ada%20LOVELACE", []string{"<h1>Ada Lovelace</h1>"}},
		{"/ratings", []string{"Glicko-2", "IceSickle", "Pikemen"}},
		{"/ratings?game=pikemen", []string{"<h2>Pikemen</h2>"}},
		{"/live", []string{"2 games in progress", `href="/live/1"`, `href="/live/2"`, " days", " left", "ada", "bob", "cy"}},
		{"/live/1", []string{"IceSickle #1 by mail", "to move", "left"}},
		{"/seeks", []string{"2 open seeks", "dee", "eva", "5 days a move", "seek pikemen target=9 seats=2 days=5", "seek icefrogs board=hex seats=3 days=0"}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			code, body, h := get(t, ts.URL, tc.path)
			if code != 200 {
				t.Fatalf("status %d\n%s", code, body)
			}
			if ct := h.Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("Content-Type %q", ct)
			}
			if h.Get("Content-Security-Policy") == "" {
				t.Error("no Content-Security-Policy")
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("the page lacks %q", w)
				}
			}
			for _, addr := range []string{"ada@", "bob@", "cy@", "dee@", "eva@"} {
				if strings.Contains(body, addr) {
					t.Errorf("the page shows a player's mail address (%s...)", addr)
				}
			}
		})
	}
	// Newest first is by the Date tag, and so are a player's latest games.
	for _, path := range []string{"/search?per=100", "/search?sort=oldest&per=100", "/player/Ada%20Lovelace"} {
		_, body, _ := get(t, ts.URL, path)
		dates := regexp.MustCompile(`<td class="date">(\d{4}\.\d\d\.\d\d)</td>`).FindAllStringSubmatch(body, -1)
		if len(dates) < 5 {
			t.Fatalf("%s: %d dates", path, len(dates))
		}
		for i := 1; i < len(dates); i++ {
			p, c := dates[i-1][1], dates[i][1]
			if strings.Contains(path, "oldest") && p > c || !strings.Contains(path, "oldest") && p < c {
				t.Errorf("%s: %s before %s", path, p, c)
				break
			}
		}
	}
	// The explorer's total is the games that went on from the start.
	g, _ := games.Lookup("IceSickle")
	s, _ := g.Start(archiveOptions())
	moves, err := a.Explore(ctx, archive.Query{}, s)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range moves {
		total += m.Games
	}
	_, body, _ := get(t, ts.URL, "/position?game=IceSickle")
	if !strings.Contains(body, `id="explorer-total">`+strconv.Itoa(total)+"<") {
		t.Errorf("the explorer's total is not %d", total)
	}
}

func TestBadRequests(t *testing.T) {
	ts, _, _ := newTestSite(t, 8, nil)
	tests := []struct {
		path string
		code int
		want string
	}{
		{"/search?since=2021.13.45", 400, "there is no month 13"},
		{"/search?until=2023.02.29", 400, "2023.02 has days 01 to 28"},
		{"/game/1?ply=x&fbclid=IwAR0abc", 400, "ply=&#34;x&#34;: give a whole number"},
		{"/game/1?ply=%zz", 400, "parameter &#34;ply&#34; cannot be read"},
		{"/search?page=x", 400, "page=&#34;x&#34;: give a whole number from 1 to 10000"},
		{"/search?per=1000", 400, "from 1 to 100"},
		{"/search?game=chess", 400, "unknown game"},
		{"/search?since=yesterday", 400, "write YYYY, YYYY.MM or YYYY.MM.DD"},
		{"/search?result=win", 400, "needs a player or a seat"},
		{"/search?plies=lots", 400, "plies"},
		{"/search?tag=nonsense", 400, "Name=value"},
		{"/search?sort=random", 400, "use one of newest"},
		{"/search?game=IceSickle&game=Pikemen", 400, "given 2 times"},
		{"/search?position=nonsense", 400, "position"},
		{"/search?moves=Z@z9&game=IceSickle", 400, "moves"},
		{"/search?text=" + strings.Repeat("x", 2000), 400, "at most 1000"},
		{"/game/1?ply=9999", 400, "plies"},
		{"/game/1?ply=-1", 400, "from 0"},
		{"/game/999", 404, "no such game"},
		{"/game/abc", 404, "not a game"},
		{"/position?code=IceSickle+junk", 400, "position"},
		{"/position?game=IceSickle&moves=L@z9", 400, "moves: move 1"},
		{"/player/Nobody", 404, "no player called"},
		{"/ratings?game=chess", 400, "the games are"},
		{"/live/1", 404, "no games by mail"},
		{"/nowhere", 404, "no page at /nowhere"},
	}
	for _, tc := range tests {
		t.Run(tc.path[:min(len(tc.path), 40)], func(t *testing.T) {
			code, body, _ := get(t, ts.URL, tc.path)
			if code != tc.code {
				t.Errorf("status %d, want %d", code, tc.code)
			}
			if !strings.Contains(body, tc.want) {
				t.Errorf("the page lacks %q:\n%s", tc.want, between(body, `id="error">`, "</p>"))
			}
		})
	}
	// Nothing but GET and HEAD.
	resp, err := http.Post(ts.URL+"/search", "application/x-www-form-urlencoded", strings.NewReader("game=IceSickle"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d", resp.StatusCode)
	}
}

func between(s, from, to string) string {
	_, after, ok := strings.Cut(s, from)
	if !ok {
		return s
	}
	in, _, _ := strings.Cut(after, to)
	return in
}

func TestDownloads(t *testing.T) {
	ts, _, a := newTestSite(t, 12, nil)
	// Game 2 has Bob's address in its record; no download shows it.
	st, err := a.Get(context.Background(), 2)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(st.Record), "@club.test>") {
		t.Fatalf("the fixture should hold an address:\n%s", st.Record)
	}
	code, body, h := get(t, ts.URL, "/game/2/record")
	if code != 200 || !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") || strings.Contains(body, "@club.test") {
		t.Fatalf("record: %d %v\n%s", code, h, body)
	}
	if want := publicRecord(st.Record); body != want || !strings.Contains(body, "[Player2 ") {
		t.Errorf("record:\n%s", body)
	}
	code, body, h = get(t, ts.URL, "/search/records?game=IceSickle")
	n, _ := a.Count(context.Background(), archive.Query{Game: "IceSickle"})
	if code != 200 || h.Get("X-Icepost-Games") != strconv.Itoa(n) || strings.Count(body, `[Game "IceSickle"]`) != n {
		t.Errorf("search records: %d, %s games of %d", code, h.Get("X-Icepost-Games"), n)
	}
}

func TestPublicRecord(t *testing.T) {
	in := "[Player1 \"Ada <ada@x.org>\"]\n[Player2 \"Bob\"]\n[Event \"<e@x>\"]\n\n1. L@c3 {[Player1 \"a <b@c>\"]} *\n"
	want := "[Player1 \"Ada\"]\n[Player2 \"Bob\"]\n[Event \"<e@x>\"]\n\n1. L@c3 {[Player1 \"a <b@c>\"]} *\n"
	if got := publicRecord([]byte(in)); got != want {
		t.Errorf("got\n%s", got)
	}
}

// TestLiveEvents: the stream says when a move lands by mail.
func TestLiveEvents(t *testing.T) {
	m := newMailGames(t)
	ts, _, _ := newTestSite(t, 4, m)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/live/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	events := make(chan string, 10)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				events <- d
			}
		}
		close(events)
	}()
	first := <-events
	m.move(t, 1)
	select {
	case next := <-events:
		if next == first {
			t.Errorf("the revision did not change: %q", next)
		}
	case <-ctx.Done():
		t.Fatal("no event after a move by mail")
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1000", 12345: "12\u202f345", 1234567: "1\u202f234\u202f567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q", n, got)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		72 * time.Hour: "3 days", 71*time.Hour + 59*time.Minute: "2 days 23 hours", 90 * time.Minute: "1 hour",
		5 * time.Minute: "5 minutes", 10 * time.Second: "1 minute", 0: "no time left",
	} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestRatingsProvisional: the top lists rank established players only;
// the provisional ones are listed apart and marked, on the ratings and
// on a player's page.
func TestRatingsProvisional(t *testing.T) {
	ts, _, a := newTestSite(t, 40, nil)
	regulars(t, a, 48)
	rs, err := a.Ratings(context.Background(), "IceSickle")
	if err != nil {
		t.Fatal(err)
	}
	est := map[string]bool{}
	for _, r := range rs {
		est[r.Player] = r.RD < establishedRD
		t.Logf("%s %.0f ±%.0f (%d games)", r.Player, r.Rating, r.RD, r.Games)
	}
	if !est["Ada Lovelace"] || !est["Bob Barker"] || est["Cy Young"] {
		t.Fatalf("the fixture should make Ada and Bob established, Cy not: %v", est)
	}
	_, body, _ := get(t, ts.URL, "/ratings")
	ice := between(body, "<h2>IceSickle</h2>", "<h2>")
	top, apart, _ := strings.Cut(ice, "<h3>Provisional</h3>")
	if !strings.Contains(top, "Ada Lovelace") || !strings.Contains(top, "Bob Barker") || strings.Contains(top, "Cy Young") {
		t.Errorf("the top list of IceSickle:\n%s", top)
	}
	if !strings.Contains(apart, "Cy Young") || !strings.Contains(apart, `<abbr title="provisional">?</abbr>`) {
		t.Errorf("the provisional players of IceSickle:\n%s", apart)
	}
	_, body, _ = get(t, ts.URL, "/player/Cy%20Young")
	if !strings.Contains(between(body, "<td><a href=\"/search?game=IceSickle", "</tr>"), ">provisional</a>") {
		t.Errorf("Cy's rank at IceSickle is not marked provisional")
	}
	_, body, _ = get(t, ts.URL, "/player/Ada%20Lovelace")
	if !regexp.MustCompile(`<a href="/ratings\?game=IceSickle">[12]</a>`).MatchString(body) {
		t.Errorf("Ada's rank at IceSickle is not 1 or 2")
	}
}

// TestGzip: text answers are gzipped for a client that takes gzip, the
// same bytes once unzipped; not for one that does not, nor small ones.
func TestGzip(t *testing.T) {
	ts, _, _ := newTestSite(t, 8, nil)
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	fetch := func(path, enc, method string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest(method, ts.URL+path, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}
	for _, path := range []string{"/game/1", "/search?game=IceSickle", "/static/style.css", "/static/icepost.js", "/game/1/record", "/nowhere"} {
		plain, want := fetch(path, "", "GET")
		zipped, got := fetch(path, "br, gzip;q=0.8", "GET")
		if plain.Header.Get("Content-Encoding") != "" || zipped.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: Content-Encoding %q without gzip, %q with", path, plain.Header.Get("Content-Encoding"), zipped.Header.Get("Content-Encoding"))
			continue
		}
		if !strings.Contains(zipped.Header.Get("Vary"), "Accept-Encoding") {
			t.Errorf("%s: Vary %q", path, zipped.Header.Get("Vary"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(got))
		if err != nil {
			t.Fatal(err)
		}
		un, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(un, want) || plain.StatusCode != zipped.StatusCode {
			t.Errorf("%s: unzipped %d bytes (%v), want the %d of the plain answer", path, len(un), err, len(want))
		}
		t.Logf("%s: %d bytes, %d gzipped", path, len(want), len(got))
	}
	for _, c := range []struct{ path, enc, method string }{
		{"/game/1", "gzip;q=0", "GET"}, {"/game/1", "identity", "GET"}, {"/game/1", "gzip", "HEAD"}, {"/favicon.ico", "gzip", "GET"},
	} {
		if resp, _ := fetch(c.path, c.enc, c.method); resp.Header.Get("Content-Encoding") != "" || resp.StatusCode != 200 {
			t.Errorf("%s %s with %q: %d, Content-Encoding %q", c.method, c.path, c.enc, resp.StatusCode, resp.Header.Get("Content-Encoding"))
		}
	}
}

// TestPageFrame: every page names its icon and describes itself; the
// icon is there, also where browsers look for it by themselves.
func TestPageFrame(t *testing.T) {
	ts, _, _ := newTestSite(t, 8, newMailGames(t))
	for path, want := range map[string]string{
		"/":                      "icepost: an archive of board games",
		"/game/1":                "IceSickle #1: Ada Lovelace – Bob Barker",
		"/search?game=IceSickle": "A search of the archive",
		"/player/Ada%20Lovelace": "Ada Lovelace: ",
		"/ratings":               "Glicko-2 ratings",
		"/position?game=Pikemen": "A position of Pikemen",
	} {
		_, body, _ := get(t, ts.URL, path)
		if !strings.Contains(body, `<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">`) {
			t.Errorf("%s names no icon", path)
		}
		if d := between(body, `<meta name="description" content="`, `">`); !strings.Contains(d, want) {
			t.Errorf("%s: description %q, want %q in it", path, d, want)
		}
	}
	for _, path := range []string{"/favicon.ico", "/static/favicon.svg"} {
		code, body, h := get(t, ts.URL, path)
		if code != 200 || h.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(body, "<svg") {
			t.Errorf("%s: %d %q", path, code, h.Get("Content-Type"))
		}
	}
	// The players by mail have no archived game: their names link to no
	// page that would be a 404.
	_, body, _ := get(t, ts.URL, "/live/1")
	if strings.Contains(body, `href="/player/`) {
		t.Errorf("/live/1 links to a player page: %s", between(body, `<ul class="players">`, "</ul>"))
	}
}

// TestHowToPlay: the home page says how to play by mail and against the
// bot on the server whose games it shows, and without one how to start
// one.
func TestHowToPlay(t *testing.T) {
	bare, _, _ := newTestSite(t, 4, nil)
	m := newMailGames(t)
	ts, site, _ := newTestSite(t, 4, m)
	how := func(base string) string {
		_, body, _ := get(t, base, "/")
		return between(body, "<h2>Play</h2>", "</ul>")
	}
	if h := how(bare.URL); !strings.Contains(h, "<code>icepost serve</code>") || !strings.Contains(h, "<code>challenge GAME bot</code>") || strings.Contains(h, "/seeks") {
		t.Errorf("without games by mail:\n%s", h)
	}
	if h := how(ts.URL); !strings.Contains(h, "the server's address") || !strings.Contains(h, "<code>help</code>") {
		t.Errorf("before the daemon noted its address:\n%s", h)
	}
	m.started(t)
	h := how(ts.URL)
	for _, want := range []string{`<a href="mailto:games@club.test">games@club.test</a>`, "<code>help</code>", "<code>challenge GAME bot</code>", "IceSickle", `<a href="/seeks">open seeks</a>`} {
		if !strings.Contains(h, want) {
			t.Errorf("the lines lack %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "icepost serve") {
		t.Errorf("a site with a server says how to start one:\n%s", h)
	}
	// A site that takes no moves says what would make board mails link
	// to it.
	for _, h := range []string{h, how(bare.URL)} {
		if !strings.Contains(h, "From a board mail") || !strings.Contains(h, "<code>web_url</code>") {
			t.Errorf("the lines do not say how to play from a board mail:\n%s", h)
		}
	}
	site.Play = m.srv
	if h := how(ts.URL); !strings.Contains(h, "pick a piece on the board and play") || strings.Contains(h, "web_url") {
		t.Errorf("a site that takes moves:\n%s", h)
	}
}
