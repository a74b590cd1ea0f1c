package web

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// fetchFeed gets a feed, checks that it is Atom as RFC 4287 wants it
// (the namespace, an id, a title, an updated time, a self link; in each
// entry an id, a title, an updated time, a link and a summary), and
// returns it with its body and ETag.
func fetchFeed(t *testing.T, base, path string) (atomFeed, string, string) {
	t.Helper()
	code, body, h := get(t, base, path)
	if code != 200 {
		t.Fatalf("%s: status %d\n%s", path, code, body)
	}
	if ct := h.Get("Content-Type"); ct != "application/atom+xml; charset=utf-8" {
		t.Errorf("%s: Content-Type %q", path, ct)
	}
	var f atomFeed
	if err := xml.Unmarshal([]byte(body), &f); err != nil {
		t.Fatalf("%s does not parse as Atom: %v\n%s", path, err, body)
	}
	if f.XMLName.Space != "http://www.w3.org/2005/Atom" || f.XMLName.Local != "feed" {
		t.Errorf("%s: root element %v", path, f.XMLName)
	}
	host := strings.TrimPrefix(base, "http://")
	host, _, _ = strings.Cut(host, ":")
	tag := "tag:" + host + "," + tagDate + ":"
	if !strings.HasPrefix(f.ID, tag) || f.Title == "" || f.Author.Name == "" {
		t.Errorf("%s: id %q, title %q, author %q", path, f.ID, f.Title, f.Author.Name)
	}
	if _, err := time.Parse(time.RFC3339, f.Updated); err != nil {
		t.Errorf("%s: updated %q: %v", path, f.Updated, err)
	}
	if !slices.Contains(f.Links, atomLink{Rel: "self", Type: "application/atom+xml", Href: base + path}) {
		t.Errorf("%s: no self link to itself in %+v", path, f.Links)
	}
	ids := map[string]bool{}
	for _, e := range f.Entries {
		if !strings.HasPrefix(e.ID, tag) || ids[e.ID] {
			t.Errorf("%s: entry id %q (a tag: URI, once)", path, e.ID)
		}
		ids[e.ID] = true
		if _, err := time.Parse(time.RFC3339, e.Updated); err != nil {
			t.Errorf("%s: entry %s: updated %q: %v", path, e.ID, e.Updated, err)
		}
		if e.Title == "" || e.Summary == "" || e.Link.Rel != "alternate" || !strings.HasPrefix(e.Link.Href, base+"/") {
			t.Errorf("%s: entry %+v", path, e)
		}
	}
	for _, addr := range []string{"ada@", "bob@", "cy@"} {
		if strings.Contains(body, addr) {
			t.Errorf("%s shows a player's mail address (%s...)", path, addr)
		}
	}
	return f, body, h.Get("ETag")
}

func entryIDs(f atomFeed) []string {
	var ids []string
	for _, e := range f.Entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// conditional gets path with If-None-Match: etag and returns the status.
func conditional(t *testing.T, url, etag string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("If-None-Match", etag)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// archiveMailPlayer imports a finished game between ada (by mail, with
// her address) and cy, so that ada, a player by mail, has a page.
func archiveMailPlayer(t *testing.T, a *archive.Archive) {
	t.Helper()
	g, _ := games.Lookup("IceSickle")
	start, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tags := []notation.Tag{{Name: "Event", Value: "icepost by mail"}, {Name: "Date", Value: "2025.06.01"},
		{Name: "Player1", Value: "ada <ada@club.test>"}, {Name: "Player2", Value: "cy <cy@club.test>"}}
	rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rand.New(rand.NewPCG(5, 5)), 1000))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Import(context.Background(), strings.NewReader(rec.String()), "mail.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestFeeds(t *testing.T) {
	m := newMailGames(t)
	ts, _, a := newTestSite(t, 40, m)
	archiveMailPlayer(t, a)
	ctx := context.Background()

	t.Run("live game", func(t *testing.T) {
		f, body, etag := fetchFeed(t, ts.URL, "/live/1/feed")
		gi, _ := m.read.Game(ctx, 1)
		g, err := replay([]byte(gi.Record))
		if err != nil {
			t.Fatal(err)
		}
		// Its start and each move, the latest first.
		if len(f.Entries) != 1+len(g.Moves) {
			t.Fatalf("%d entries for a game of %d plies: %v", len(f.Entries), len(g.Moves), entryIDs(f))
		}
		n := len(g.Moves)
		latest := f.Entries[0]
		if !strings.HasSuffix(latest.ID, ":live/1/3/"+g.Token(n)) || !strings.Contains(latest.Summary, " played "+g.Token(n)+" (ply 3)") ||
			latest.Link.Href != ts.URL+"/live/1?ply=3" || f.Updated != latest.Updated {
			t.Errorf("the latest entry: %+v (feed updated %s)", latest, f.Updated)
		}
		if first := f.Entries[len(f.Entries)-1]; !strings.HasSuffix(first.ID, ":live/1/0") || !strings.Contains(first.Summary, "The game began") {
			t.Errorf("the first entry: %+v", first)
		}
		// Each move has the time it was made, not the day the game began.
		if len(gi.Moved) != n {
			t.Fatalf("%d move times for %d moves", len(gi.Moved), n)
		}
		for k := 1; k <= n; k++ {
			e := f.Entries[n-k]
			if gi.Moved[k-1].IsZero() || e.Updated != atomTime(gi.Moved[k-1]) || e.Updated == oldest(f).Updated {
				t.Errorf("move %d's entry is of %s; the move was made at %s, the game began %s", k, e.Updated, gi.Moved[k-1], oldest(f).Updated)
			}
		}
		// The same feed again, byte for byte; with its ETag, a 304.
		if _, again, etag2 := fetchFeed(t, ts.URL, "/live/1/feed"); again != body || etag2 != etag || etag == "" {
			t.Errorf("the feed changed with nothing played (ETag %q, then %q)", etag, etag2)
		}
		if code := conditional(t, ts.URL+"/live/1/feed", etag); code != http.StatusNotModified {
			t.Errorf("If-None-Match with its ETag: %d, want 304", code)
		}
		// A move adds an entry; the others keep their ids.
		tok := m.move(t, 1)
		if code := conditional(t, ts.URL+"/live/1/feed", etag); code != http.StatusOK {
			t.Errorf("If-None-Match after a move: %d, want 200", code)
		}
		after, _, _ := fetchFeed(t, ts.URL, "/live/1/feed")
		if len(after.Entries) != len(f.Entries)+1 || !slices.Equal(entryIDs(after)[1:], entryIDs(f)) {
			t.Fatalf("after a move: %v, want one more than %v", entryIDs(after), entryIDs(f))
		}
		if e := after.Entries[0]; !strings.HasSuffix(e.ID, ":live/1/4/"+tok) || !strings.Contains(e.Summary, tok+" (ply 4)") {
			t.Errorf("the new move's entry: %+v", e)
		}
	})

	t.Run("live", func(t *testing.T) {
		f, _, _ := fetchFeed(t, ts.URL, "/live/feed")
		// The latest event of each game, which is the one in its own feed.
		var want []string
		for _, id := range []string{"1", "2"} {
			g, _, _ := fetchFeed(t, ts.URL, "/live/"+id+"/feed")
			want = append(want, g.Entries[0].ID)
		}
		if got := entryIDs(f); len(got) != 2 || !slices.Contains(got, want[0]) || !slices.Contains(got, want[1]) {
			t.Errorf("entries %v, want %v", got, want)
		}
		// A game that ends stays, with its end.
		m.mail(t, "cy", "resign")
		f, _, _ = fetchFeed(t, ts.URL, "/live/feed")
		var end *atomEntry
		for i, e := range f.Entries {
			if strings.HasSuffix(e.ID, ":live/2/end") {
				end = &f.Entries[i]
			}
		}
		if len(f.Entries) != 2 || end == nil || !strings.Contains(end.Summary, "Game over") || !strings.Contains(end.Summary, "ada wins") {
			t.Errorf("after cy resigned game 2: %+v", f.Entries)
		}
		g2, _, _ := fetchFeed(t, ts.URL, "/live/2/feed")
		if g2.Entries[0].ID != end.ID {
			t.Errorf("game 2's feed ends with %s, the live feed's entry is %s", g2.Entries[0].ID, end.ID)
		}
	})

	// Moves whose times are not kept (all but the latest) keep their
	// order, past ply 9 too. (After cy resigned game 2: ada's moves by
	// plain mail are then for game 1.)
	t.Run("order", func(t *testing.T) {
		for range 8 {
			m.move(t, 1)
		}
		f, _, _ := fetchFeed(t, ts.URL, "/live/1/feed")
		if len(f.Entries) != 13 {
			t.Fatalf("%d entries for 12 plies", len(f.Entries))
		}
		for i, e := range f.Entries {
			if want := fmt.Sprintf(":live/1/%d", 12-i); !strings.Contains(e.ID, want+"/") && !strings.HasSuffix(e.ID, want) {
				t.Errorf("entry %d is %s, want ply %d", i, e.ID, 12-i)
			}
		}
	})

	t.Run("archived game", func(t *testing.T) {
		f, _, _ := fetchFeed(t, ts.URL, "/game/1/feed")
		if len(f.Entries) != 1 || !strings.HasSuffix(f.Entries[0].ID, ":game/1") || f.Entries[0].Link.Href != ts.URL+"/game/1" ||
			!strings.Contains(f.Entries[0].Summary, "Ada Lovelace – Bob Barker") {
			t.Errorf("entries %+v, want game 1", f.Entries)
		}
	})

	t.Run("player", func(t *testing.T) {
		f, _, _ := fetchFeed(t, ts.URL, "/player/Ada%20Lovelace/feed")
		n, err := a.Count(ctx, archive.Query{Player: "Ada Lovelace"})
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Entries) != min(n, playerFeedGames) {
			t.Errorf("%d entries, want %d of her %d games", len(f.Entries), min(n, playerFeedGames), n)
		}
		for _, e := range f.Entries {
			if !strings.Contains(e.ID, ":game/") || !strings.Contains(e.Summary, "Ada Lovelace") {
				t.Errorf("entry %+v is not one of her archived games", e)
			}
		}
		// ada plays by mail: her game in progress (game 1; cy resigned
		// game 2, which the daemon archived in its own file) and the game
		// of hers that this site's archive holds.
		f, _, _ = fetchFeed(t, ts.URL, "/player/ADA/feed")
		live, _, _ := fetchFeed(t, ts.URL, "/live/1/feed")
		ids := entryIDs(f)
		if len(ids) != 2 || !slices.Contains(ids, live.Entries[0].ID) {
			t.Errorf("ada's feed: %v, want game 1's latest move %s and her archived game", ids, live.Entries[0].ID)
		}
		if f.Title != "icepost: ada's games" || !strings.HasSuffix(f.ID, ":player/ada/feed") {
			t.Errorf("ada's feed: %q, %q", f.Title, f.ID)
		}
	})

	t.Run("pages link them", func(t *testing.T) {
		for _, tc := range []struct{ page, feed string }{
			{"/live", "/live/feed"},
			{"/live/1", "/live/1/feed"},
			{"/live/1?ply=2", "/live/1/feed"},
			{"/game/1", "/game/1/feed"},
			{"/player/Ada%20Lovelace", "/player/Ada%20Lovelace/feed"},
		} {
			_, body, _ := get(t, ts.URL, tc.page)
			head := between(body, "<head>", "</head>")
			if !regexp.MustCompile(`<link rel="alternate" type="application/atom\+xml" title="[^"]+" href="` + regexp.QuoteMeta(tc.feed) + `">`).MatchString(head) {
				t.Errorf("%s: no <link rel=alternate> to %s in\n%s", tc.page, tc.feed, head)
			}
			if !strings.Contains(between(body, "<main>", "</main>"), `<a href="`+tc.feed+`" type="application/atom+xml">`) {
				t.Errorf("%s: no visible link to %s", tc.page, tc.feed)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			path string
			code int
		}{
			{"/live/99/feed", 404},
			{"/game/999/feed", 404},
			{"/game/x/feed", 404},
			{"/player/Nobody%20Known/feed", 404},
			{"/live/feed?utm_source=x", 200},
			{"/game/1/feed?fbclid=1", 200},
		} {
			if code, body, _ := get(t, ts.URL, tc.path); code != tc.code {
				t.Errorf("%s: %d, want %d\n%s", tc.path, code, tc.code, body)
			}
		}
		resp, err := http.Head(ts.URL + "/live/feed")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("ETag") == "" {
			t.Errorf("HEAD: %d, ETag %q", resp.StatusCode, resp.Header.Get("ETag"))
		}
	})

	// Without games by mail there is no feed of them, and no link.
	bare, _, _ := newTestSite(t, 4, nil)
	if code, _, _ := get(t, bare.URL, "/live/feed"); code != 404 {
		t.Errorf("/live/feed without games by mail: %d, want 404", code)
	}
	if _, body, _ := get(t, bare.URL, "/live"); strings.Contains(body, "/live/feed") {
		t.Error("/live links a feed without games by mail")
	}
}

func TestDateTime(t *testing.T) {
	for in, want := range map[string]string{
		"2022.03.05": "2022-03-05T00:00:00Z",
		"2022.03.??": "2022-03-01T00:00:00Z",
		"2022.??.??": "2022-01-01T00:00:00Z",
		"2023.02.29": "2023-02-01T00:00:00Z",
		"????.??.??": "1970-01-01T00:00:00Z",
		"":           "1970-01-01T00:00:00Z",
	} {
		if got := atomTime(dateTime(in)); got != want {
			t.Errorf("dateTime(%q) = %s, want %s", in, got, want)
		}
	}
}

// oldest is a feed's oldest entry (entries come newest first).
func oldest(f atomFeed) atomEntry { return f.Entries[len(f.Entries)-1] }
