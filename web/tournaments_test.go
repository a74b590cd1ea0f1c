package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/events"
	"icepost/pbem/mailgames"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/tournament"
)

// tournamentSite is the test site over the fixture's games by mail with
// its tournaments (withTournaments), the daemon started.
func tournamentSite(t *testing.T) (*mailGames, string, *archive.Archive) {
	t.Helper()
	m := newMailGames(t).started(t).withTournaments(t)
	ts, _, a := newTestSite(t, 4, m)
	return m, ts.URL, a
}

// tpage gets a page that must answer 200, and checks that it shows no
// player's address (the server's own is the one allowed) nor a
// tournament's raw ID of a bot.
func tpage(t *testing.T, base, path string) string {
	t.Helper()
	code, body, _ := get(t, base, path)
	if code != 200 {
		t.Fatalf("%s: status %d\n%s", path, code, body)
	}
	noAddress(t, path, body)
	return body
}

func noAddress(t *testing.T, path, body string) {
	t.Helper()
	for _, a := range regexp.MustCompile(`[\w.+-]+@[\w.-]+`).FindAllString(body, -1) {
		if a != "games@club.test" {
			t.Errorf("%s shows an address other than the server's: %s", path, a)
		}
	}
	if id := regexp.MustCompile(`bot:\d`).FindString(body); id != "" {
		t.Errorf("%s names a bot by its ID: %s", path, id)
	}
}

// entrant names a tournament's player as the pages must: the local part
// of an address, a bot by its level.
func entrant(id string) string { return mailgames.EntrantName(id) }

// resultText is a two-seat game's result as the pages write it.
func resultText(r *tournament.Result) string {
	switch {
	case r == nil:
		return ""
	case r.Places[0] < r.Places[1]:
		return "1–0"
	case r.Places[0] > r.Places[1]:
		return "0–1"
	}
	return "½–½"
}

// TestTournamentsPage: the list, by status, each with its game, format,
// players and the line that joins it by mail where it takes players; a
// cancelled one leaves it; the menu links it only with games by mail.
func TestTournamentsPage(t *testing.T) {
	m, base, _ := tournamentSite(t)
	body := tpage(t, base, "/tournaments")
	for _, want := range []string{
		`<a href="/tournaments" aria-current="page">Tournaments</a>`,
		"5 tournaments.",
		`send the line under a tournament to <a href="mailto:games@club.test">games@club.test</a>`,
		`<a href="/tournament/5">Summer Pikemen</a>`,
		"<dt>Game</dt><dd>Pikemen, the score that wins: 9</dd>",
		"<dt>Format</dt><dd>Swiss, 3 rounds</dd>",
		"<dt>Players</dt><dd>2 of 8</dd>",
		"<dt>Time</dt><dd>5 days a move</dd>",
		"<dt>Starts</dt><dd>when 8 players have joined</dd>",
		`<a href="mailto:games@club.test?subject=join%205&amp;body=join%205">write it in a new mail</a>`,
		`<code class="line">join 5</code>`,
		// A ladder under way takes players at its bottom.
		`<code class="line">join 4</code>`,
		"<dt>Format</dt><dd>Ladder</dd>",
		"<dt>Now</dt><dd>1 challenge played, 1 under way</dd>",
		"<dt>Format</dt><dd>Knockout, matches of two games</dd>",
		"<dt>Now</dt><dd>The final; 5 of 7 games ended</dd>",
		"<dt>Format</dt><dd>Round robin</dd>",
		"<dt>Now</dt><dd>5 of 6 games ended</dd>",
		"<dt>Winner</dt><dd><strong>lou</strong></dd>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/tournaments lacks %q", want)
		}
	}
	open, running, finished := strings.Index(body, "<h2>Open to join</h2>"), strings.Index(body, "<h2>Running</h2>"), strings.Index(body, "<h2>Finished</h2>")
	at := func(name string) int { return strings.Index(body, ">"+name+"</a>") }
	if !(open < at("Summer Pikemen") && at("Summer Pikemen") < running && running < at("Club Ladder") && running < at("Spring Knockout") &&
		running < at("Winter Round Robin") && at("Winter Round Robin") < finished && finished < at("Autumn Swiss")) {
		t.Errorf("the tournaments are not under their status:\n%s", between(body, "<main>", "</main>"))
	}
	for _, name := range []string{"Spring Knockout", "Winter Round Robin", "Autumn Swiss"} {
		if card := between(body, ">"+name+"</a>", "</article>"); strings.Contains(card, "join ") {
			t.Errorf("%s takes no players, and its card says how to join:\n%s", name, card)
		}
	}

	// Cancelled, a tournament leaves the list; its page says so.
	if err := m.events.Cancel(context.Background(), m.tourneys.open); err != nil {
		t.Fatal(err)
	}
	body = tpage(t, base, "/tournaments")
	if strings.Contains(body, "Summer Pikemen") || !strings.Contains(body, "4 tournaments.") || !strings.Contains(body, "No tournament is open to join now") {
		t.Errorf("the cancelled tournament is still listed, or the page does not say none is open:\n%s", between(body, "<main>", "</main>"))
	}
	if p := tpage(t, base, "/tournament/5"); !strings.Contains(p, "Cancelled by the server&#39;s operator") || strings.Contains(p, "join 5") {
		t.Errorf("the cancelled tournament's page:\n%s", between(p, "<main>", "</main>"))
	}

	// Without games by mail: no pages, and no link to them.
	bare, _, _ := newTestSite(t, 4, nil)
	for _, p := range []string{"/tournaments", "/tournament/1", "/tournament/1/feed"} {
		if code, _, _ := get(t, bare.URL, p); code != 404 {
			t.Errorf("%s without games by mail: status %d, want 404", p, code)
		}
	}
	if _, home, _ := get(t, bare.URL, "/"); strings.Contains(home, `href="/tournaments"`) {
		t.Error("a site without games by mail links to /tournaments")
	}
	if _, home, _ := get(t, base, "/"); !strings.Contains(home, `<a href="/tournaments">Tournaments</a>`) || !strings.Contains(home, `the <a href="/tournaments">tournaments</a> open to join`) {
		t.Error("the site's menu or home page does not link to /tournaments")
	}
}

// crossRows reads a crosstable: each row's player and its cells' marks
// ("-" for the player's own), with each mark's link.
func crossRows(t *testing.T, table string) (names []string, marks [][]string, links [][]string) {
	t.Helper()
	row := regexp.MustCompile(`<tr><td class="n">\d+</td><th scope="row">([^<]+)</th>(.*?)<td class="n">[^<]+</td></tr>`)
	cell := regexp.MustCompile(`<td class="c( self)?">(.*?)</td>`)
	link := regexp.MustCompile(`<a href="([^"]+)"[^>]*>([^<]+)</a>`)
	for _, r := range row.FindAllStringSubmatch(table, -1) {
		names = append(names, r[1])
		var ms, ls []string
		for _, c := range cell.FindAllStringSubmatch(r[2], -1) {
			if c[1] != "" {
				ms, ls = append(ms, "-"), append(ls, "")
				continue
			}
			var text, hrefs []string
			for _, l := range link.FindAllStringSubmatch(c[2], -1) {
				hrefs, text = append(hrefs, l[1]), append(text, l[2])
			}
			ms, ls = append(ms, strings.Join(text, " ")), append(ls, strings.Join(hrefs, " "))
		}
		marks, links = append(marks, ms), append(links, ls)
	}
	return names, marks, links
}

// TestTournamentRoundRobin: the standings with their tie-breaks, the
// crosstable's results, each linked to its game by mail, and the games
// by round.
func TestTournamentRoundRobin(t *testing.T) {
	m, base, _ := tournamentSite(t)
	body := tpage(t, base, "/tournament/1")
	for _, want := range []string{
		"<h1>Winter Round Robin",
		"Running: 5 of 6 games have ended. This page updates as the games move.",
		`<div id="live" data-live="1">`,
		"<dt>Format</dt><dd>Round robin</dd>",
		`<p class="rules">Round robin: everyone plays everyone. All games start at once.</p>`,
		"<dt>Time</dt><dd>3 days a move</dd>",
		`<abbr title="Sonneborn-Berger">SB</abbr>`,
		"Ordered by points (1 a win, ½ a draw), then Sonneborn-Berger, then the direct encounter, then wins, then the seed.",
		// gus and ivy share first place: 1½ each, Sonneborn-Berger 1¾,
		// their game drawn.
		`<tr><td class="n">1=</td><td>gus</td><td class="n">1½</td><td class="n">2</td><td class="n">1¾</td><td class="n">½</td><td class="n">1</td><td class="n">1</td></tr>`,
		`<tr><td class="n">1=</td><td>ivy</td><td class="n">1½</td><td class="n">3</td><td class="n">1¾</td><td class="n">½</td><td class="n">1</td><td class="n">3</td></tr>`,
		`<tr><td class="n">3</td><td>hal</td><td class="n">1</td>`,
		`<tr><td class="n">4</td><td>bot 1</td><td class="n">1</td>`,
		`<link rel="alternate" type="application/atom+xml" title="this tournament&#39;s rounds and results (Atom)" href="/tournament/1/feed">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the round robin's page lacks %q", want)
		}
	}
	names, marks, links := crossRows(t, between(body, `<table class="cross">`, "</table>"))
	wantNames := []string{"gus", "ivy", "hal", "bot 1"}
	wantMarks := [][]string{
		{"-", "½", "1", "*"},
		{"½", "-", "0", "1"},
		{"0", "1", "-", "0"},
		{"*", "0", "1", "-"},
	}
	if fmt.Sprint(names) != fmt.Sprint(wantNames) || fmt.Sprint(marks) != fmt.Sprint(wantMarks) {
		t.Errorf("the crosstable is %v %v, want %v %v", names, marks, wantNames, wantMarks)
	}
	ids := map[string]string{"gus": "gus", "ivy": "ivy", "hal": "hal", "bot 1": "bot:1"}
	for i, a := range wantNames {
		for j, b := range wantNames {
			if i == j || len(links) <= i || len(links[i]) <= j {
				continue
			}
			want := fmt.Sprintf("/live/%d", m.tournamentGame(t, m.tourneys.roundRobin, ids[a], ids[b]))
			if links[i][j] != want {
				t.Errorf("the crosstable's %s against %s links to %q, want %q", a, b, links[i][j], want)
			}
		}
	}
	if !strings.Contains(body, `title="Round 1, gus against bot 1: under way">*</a>`) {
		t.Error("the game under way is not marked and named in the crosstable")
	}
	// The games by round: every game, its players by seat and result.
	ev, err := m.events.Show(context.Background(), m.tourneys.roundRobin)
	if err != nil {
		t.Fatal(err)
	}
	checkPairings(t, body, ev)
}

// checkPairings finds each game of ev on the page: its round's table
// names its players by seat, its result, and links its game by mail.
func checkPairings(t *testing.T, body string, ev *events.Event) {
	t.Helper()
	row := regexp.MustCompile(`<tr><td class="n">(\d+)</td><td>(.*?)</td><td>(.*?)</td></tr>`)
	tags := regexp.MustCompile(`<[^>]+>`)
	for r := 1; r <= ev.T.Rounds(); r++ {
		table := between(body, fmt.Sprintf(`<h3 id="round-%d">Round %d</h3>`, r, r), "</table>")
		rows := row.FindAllStringSubmatch(table, -1)
		games := ev.T.Round(r)
		if len(rows) != len(games) {
			t.Errorf("round %d: %d rows, want %d games:\n%s", r, len(rows), len(games), table)
			continue
		}
		for i, g := range games {
			var names []string
			for _, p := range g.Players {
				names = append(names, entrant(p))
			}
			got := rows[i]
			if got[1] != strconv.Itoa(g.Board) || tags.ReplaceAllString(got[2], "") != strings.Join(names, " – ") {
				t.Errorf("round %d, game %d: %q, want board %d, %s", r, i+1, got[0], g.Board, strings.Join(names, " – "))
			}
			if res := resultText(g.Result); !strings.HasPrefix(tags.ReplaceAllString(got[3], ""), res) || (res == "" && !strings.Contains(got[3], "under way")) {
				t.Errorf("round %d, game %s: result %q, want %q", r, g.Tag(), got[3], res)
			}
			if id, ok := ev.GameIDs[g.Tag()]; ok != strings.Contains(got[3], fmt.Sprintf(`<a class="result" href="/live/%d" title="game by mail #%d">`, id, id)) {
				t.Errorf("round %d, game %s: link %q, want game by mail %d", r, g.Tag(), got[3], id)
			}
		}
	}
}

// TestTournamentSwiss: a finished Swiss, its bots' game played by the
// bots: the winner, the standings with Buchholz, the pairings by round.
func TestTournamentSwiss(t *testing.T) {
	m, base, a := tournamentSite(t)
	ev, err := m.events.Show(context.Background(), m.tourneys.swiss)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Status != events.Finished || ev.T.Rounds() != 2 {
		t.Fatalf("the fixture's Swiss is %s after %d rounds", ev.Status, ev.T.Rounds())
	}
	body := tpage(t, base, "/tournament/2")
	for _, want := range []string{
		"Finished: won by lou.",
		"<h2 id=\"rounds\">Pairings by round</h2>",
		"Ordered by points (1 a win, ½ a draw), then Buchholz, then median Buchholz, then the direct encounter, then wins, then the seed.",
		`<tr><td class="n">1</td><td>lou</td><td class="n">2</td><td class="n">2</td>`,
		`<td><strong>lou</strong> – kim</td><td><a class="result" href="/live/11" title="game by mail #11">1–0</a></td>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the Swiss's page lacks %q", want)
		}
	}
	if strings.Contains(body, "This page updates") || strings.Contains(body, "refresh") || strings.Contains(body, `data-live`) {
		t.Error("a finished tournament's page says it updates, or follows the live stream")
	}
	if strings.Contains(body, "<table class=\"cross\">") {
		t.Error("a Swiss has a crosstable")
	}
	checkPairings(t, body, ev)
	if strings.Contains(body, "/search?tag=") {
		t.Error("a link to the archive's games of the tournament, where the archive holds none")
	}
	// Once the archive holds its games, the page links the search of
	// them: those of its Event exactly, not of another whose name holds
	// its own.
	g, _ := games.Lookup("IceSickle")
	start, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs strings.Builder
	for i, event := range []string{"Autumn Swiss 2025", "Autumn Swiss"} {
		tags := []notation.Tag{{Name: "Event", Value: event}, {Name: "Player1", Value: "kim"}, {Name: "Player2", Value: "lou"}}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rand.New(rand.NewPCG(uint64(i), 9)), 1000))
		if err != nil {
			t.Fatal(err)
		}
		recs.WriteString(rec.String() + "\n")
	}
	if res, err := a.Import(context.Background(), strings.NewReader(recs.String()), "swiss.rec", archive.ImportOptions{}); err != nil || res.Imported != 2 {
		t.Fatalf("import: %+v, %v", res, err)
	}
	if body := tpage(t, base, "/tournament/2"); !strings.Contains(body, `Its finished games in the archive: <a href="/search?tag=Event%3DAutumn%20Swiss">1 game</a>.`) {
		t.Errorf("no link to the archive's games of the tournament:\n%s", between(body, "Its finished", "</p>"))
	}
}

// TestTournamentKnockout: the bracket, round by round: seeds, players,
// points, who went through (a drawn decider sends the higher seed), each
// game linked; the final under way.
func TestTournamentKnockout(t *testing.T) {
	m, base, _ := tournamentSite(t)
	ev, err := m.events.Show(context.Background(), m.tourneys.knockout)
	if err != nil {
		t.Fatal(err)
	}
	link := func(tag, text string) string {
		id, ok := ev.GameIDs[tag]
		if !ok {
			t.Fatalf("no game by mail %s", tag)
		}
		return fmt.Sprintf(`<a class="result" href="/live/%d" title="game by mail #%d">%s</a>`, id, id, text)
	}
	body := tpage(t, base, "/tournament/3")
	semis := between(body, `<h3 id="round-1-title">Semi-finals</h3>`, "</section>")
	final := between(body, `<h3 id="round-2-title">Final</h3>`, "</section>")
	for _, c := range []struct{ in, want string }{
		{body, "Running: the final; 5 of 7 games have ended."},
		{semis, `<li class="winner"><span class="seed" title="seed 1">1</span> <span>mia</span> <span class="won">through</span> <span class="score">1½</span></li><li><span class="seed" title="seed 4">4</span> <span>bot 1/2</span> <span class="score">1½</span></li>`},
		{semis, "Game 1: mia – bot 1/2 " + link("1.1", "1–0")},
		{semis, "Game 2: bot 1/2 – mia " + link("1.2", "1–0")},
		{semis, "Decider: bot 1/2 – mia " + link("1.3", "½–½")},
		{semis, `<li><span class="seed" title="seed 2">2</span> <span>ned</span> <span class="score">0</span></li><li class="winner"><span class="seed" title="seed 3">3</span> <span>bot 1</span> <span class="won">through</span> <span class="score">2</span></li>`},
		{semis, "Game 1: ned – bot 1 " + link("1.4", "0–1")},
		{final, `<li><span class="seed" title="seed 1">1</span> <span>mia</span> <span class="score">0</span></li><li><span class="seed" title="seed 3">3</span> <span>bot 1</span> <span class="score">0</span></li>`},
		{final, "Game 1: mia – bot 1 " + link("2.1", "under way")},
		{final, "Game 2: bot 1 – mia " + link("2.2", "under way")},
		{body, `<td>bot 1/2</td><td>out in the semi-finals</td>`},
		{body, `<td>mia</td><td>still in</td>`},
	} {
		if !strings.Contains(c.in, c.want) {
			t.Errorf("the knockout's page lacks %q", c.want)
		}
	}
	if strings.Index(body, `id="round-1-title"`) > strings.Index(body, `id="round-2-title"`) {
		t.Error("the bracket's rounds are out of order")
	}
}

// TestTournamentLadder: the list from the top after a challenge won, and
// the challenges: waiting, being played, decided.
func TestTournamentLadder(t *testing.T) {
	m, base, _ := tournamentSite(t)
	body := tpage(t, base, "/tournament/4")
	ladder := between(body, `<table class="standings">`, "</table>")
	var order []string
	for _, r := range regexp.MustCompile(`<tr><td class="n">\d+</td><td>([^<]+)</td>`).FindAllStringSubmatch(ladder, -1) {
		order = append(order, r[1])
	}
	if want := []string{"quin", "oli", "bot 1", "pam", "rex"}; fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("the ladder is %v, want %v", order, want)
	}
	bot := m.tournamentGame(t, m.tourneys.ladder, "rex", "bot:1")
	won := m.tournamentGame(t, m.tourneys.ladder, "quin", "oli")
	for _, want := range []string{
		"Running: 5 players on the ladder",
		`<code class="line">join 4</code>`,
		`<code class="cmd">climb 4 PLACE</code> challenges the player at PLACE, at most 3 places above you`,
		`<code class="cmd">defend 4</code> within 7 days`,
		"<h3>Waiting for an answer</h3>",
		"Challenge 3: pam challenges quin (place 1); issued ",
		"quin answers by ",
		`Challenge 1: rex against bot 1 (place 3), accepted `,
		fmt.Sprintf(`<a href="/live/%d">game by mail #%d</a>`, bot, bot),
		fmt.Sprintf(`Challenge 2: quin beat oli and took their place (<a href="/live/%d">game by mail #%d</a>).`, won, won),
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the ladder's page lacks %q", want)
		}
	}
}

// TestTournamentOpen: before the start, who has joined and how to join;
// the page follows the live stream.
func TestTournamentOpen(t *testing.T) {
	_, base, _ := tournamentSite(t)
	body := tpage(t, base, "/tournament/5")
	for _, want := range []string{
		"Open to join: 2 players have joined so far; it starts when 8 players have joined. This page updates as players join.",
		`<a href="mailto:games@club.test?subject=join%205&amp;body=join%205">write it in a new mail</a>`,
		"<dt>The score that wins</dt><dd>9</dd>",
		"<dt>Start</dt><dd>When 8 players have joined</dd>",
		`<ol class="entrants"><li>sam</li><li>bot 2</li></ol>`,
		`<div id="live" data-live="1">`,
		`<noscript><meta http-equiv="refresh" content="60"></noscript>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the open tournament's page lacks %q", want)
		}
	}
	for _, p := range []string{"/tournament/99", "/tournament/x", "/tournament/0", "/tournament/99/feed"} {
		if code, body, _ := get(t, base, p); code != 404 {
			t.Errorf("%s: status %d, want 404\n%s", p, code, body)
		}
	}
}

// TestTournamentFeed: a tournament's feed is Atom: its rounds paired and
// its games ended, the latest first, linked to their pages; its ETag
// gives a 304 until something changes.
func TestTournamentFeed(t *testing.T) {
	m, base, _ := tournamentSite(t)
	f, body, etag := fetchFeed(t, base, "/tournament/2/feed")
	noAddress(t, "/tournament/2/feed", body)
	var titles []string
	for _, e := range f.Entries {
		titles = append(titles, e.Title)
	}
	want := []string{
		"Autumn Swiss has ended: won by lou",
		"Autumn Swiss, round 2, game 1: lou – kim, 1–0",
		"Autumn Swiss: round 2 paired",
		"Autumn Swiss: round 1 paired",
	}
	for _, w := range want {
		found := false
		for _, got := range titles {
			found = found || got == w
		}
		if !found {
			t.Errorf("the feed lacks the entry %q: %q", w, titles)
		}
	}
	if len(f.Entries) != 7 || f.Entries[0].Title != want[0] || f.Entries[6].Title != want[3] {
		t.Errorf("the entries, the latest first: %q", titles)
	}
	for _, e := range f.Entries {
		if !strings.HasPrefix(e.ID, "tag:127.0.0.1,2026:tournament/2/") {
			t.Errorf("entry id %q", e.ID)
		}
	}
	if f.Title != "icepost: Autumn Swiss" || !strings.Contains(body, `href="`+base+`/tournament/2#round-2"`) {
		t.Errorf("the feed's title %q, or no link to round 2", f.Title)
	}
	if code := conditional(t, base+"/tournament/2/feed", etag); code != 304 {
		t.Errorf("the same feed again: status %d, want 304", code)
	}
	// A round robin's games all start at once: one entry pairs them.
	rr, body, _ := fetchFeed(t, base, "/tournament/1/feed")
	noAddress(t, "/tournament/1/feed", body)
	var paired int
	for _, e := range rr.Entries {
		if strings.Contains(e.Title, "paired") {
			paired++
			if e.Title != "Winter Round Robin: 3 rounds paired, 6 games at once" {
				t.Errorf("the round robin's pairing: %q", e.Title)
			}
		}
	}
	if paired != 1 || len(rr.Entries) != 6 {
		t.Errorf("the round robin's feed has %d pairings and %d entries, want 1 and 6 (5 games ended)", paired, len(rr.Entries))
	}
	// A game ends: the feed changes.
	m.decide(t, m.tourneys.roundRobin, "gus", "bot:1", "gus")
	if err := m.events.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if code := conditional(t, base+"/tournament/2/feed", etag); code != 200 {
		t.Errorf("after a change: status %d, want 200", code)
	}
	rr, _, _ = fetchFeed(t, base, "/tournament/1/feed")
	if len(rr.Entries) != 8 || !strings.HasPrefix(rr.Entries[0].Title, "Winter Round Robin has ended: won by gus") {
		t.Errorf("after the last game: %d entries, the latest %q", len(rr.Entries), rr.Entries[0].Title)
	}
}
