package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/rules"
)

// Atom feeds (RFC 4287), to follow games in a feed reader without
// keeping a page open: the games by mail (/live/feed: the latest event
// of each game in progress or ended this week), one game by mail
// (/live/ID/feed: its start, each move, its end), an archived game
// (/game/ID/feed: the game as one entry) and a player's games
// (/player/NAME/feed: the latest event of each of their games by mail
// in progress, and their latest archived games).
//
// An event has one entry id wherever it appears, a tag: URI (RFC 4151)
// made of the site's host name and the event: the same move is one
// entry in its game's feed, in the live feed and in each player's. A
// move's id names the move too, so that a move taken back and another
// played in its place are two entries.
//
// The daemon keeps the time of a game's last change only (a move, its
// start or its end: mailgames.Game.Changed), not of each move: the
// latest event of a game has that time; the earlier ones have the day
// the game began (its Date tag), which never changes after. An archived
// game's entry has its Date tag (an undated game 1970-01-01). No entry
// carries a time of the request, so a feed is the same for the same
// games, and its ETag (weak: gzip changes the bytes) is the games'
// revision: a reader that asks again with If-None-Match gets a 304, and
// the feed is not made.

// tagDate is the date in the entries' tag: URIs. RFC 4151 wants a day
// on which the authority (the site's host) was its owner's; the site
// cannot know it, so it is a constant: changing it changes every id.
const tagDate = "2026"

// maxFeedEntries bounds a game's feed (its latest events), and
// playerFeedGames a player's archived games in theirs.
const (
	maxFeedEntries  = 100
	playerFeedGames = 20
)

// recentlyEnded is how long a game by mail that ended stays in the live
// feed.
const recentlyEnded = 7 * 24 * time.Hour

type atomFeed struct {
	XMLName   xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID        string      `xml:"id"`
	Title     string      `xml:"title"`
	Subtitle  string      `xml:"subtitle,omitempty"`
	Updated   string      `xml:"updated"`
	Links     []atomLink  `xml:"link"`
	Author    atomPerson  `xml:"author"`
	Generator string      `xml:"generator"`
	Entries   []atomEntry `xml:"entry"`
}

type atomLink struct {
	Rel  string `xml:"rel,attr"`
	Type string `xml:"type,attr,omitempty"`
	Href string `xml:"href,attr"`
}

type atomPerson struct {
	Name string `xml:"name"`
}

type atomEntry struct {
	ID      string   `xml:"id"`
	Title   string   `xml:"title"`
	Updated string   `xml:"updated"`
	Link    atomLink `xml:"link"`
	Summary string   `xml:"summary"`
}

// feedEntry is one event before it is written out.
type feedEntry struct {
	id      string // the tag's specific part: "live/1/3/S@c1", "game/12"
	title   string
	summary string
	path    string // the page that shows it, from the site's root
	at      time.Time
}

// feed is what a feed handler makes: the feed's own id (like an
// entry's), title, page, and entries, in the order they happened where
// their times are the same.
type feed struct {
	id, title, subtitle, path string
	entries                   []feedEntry
}

// feedLink is a page's feed, for the <link rel="alternate"> in its head
// and the visible link.
type feedLink struct {
	Href  string
	Title string // what it follows: "the moves of this game"
}

// feeder is a page that has a feed.
type feeder interface{ Feed() *feedLink }

// origin is the site's address as the request reached it, for the
// feed's absolute links, and its host name, the authority of the tag:
// ids. Behind a proxy, the proxy passes the Host header on and says
// X-Forwarded-Proto: https.
func origin(r *http.Request) (base, authority string) {
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = "localhost"
	}
	name := host
	if h, _, err := net.SplitHostPort(host); err == nil {
		name = h
	}
	// A tag's authority is a DNS name: letters, digits, dots and hyphens.
	name = strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '.', c == '-':
			return c
		case c >= 'A' && c <= 'Z':
			return c + 'a' - 'A'
		}
		return -1
	}, name)
	if name == "" {
		name = "localhost"
	}
	return scheme + "://" + host, name
}

// atomTime writes t as Atom's date-time, in UTC to the second.
func atomTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// dateTime reads a Date tag ("2022.03.05", "2022.??.??") as midnight UTC
// of its first day; an undated game is 1970-01-01.
func dateTime(d string) time.Time {
	parts := strings.Split(d, ".")
	num := func(i, lo, hi int) int {
		if i < len(parts) {
			if n, err := strconv.Atoi(parts[i]); err == nil && n >= lo && n <= hi {
				return n
			}
		}
		return lo
	}
	y := num(0, 0, 9999)
	if y == 0 {
		return time.Unix(0, 0).UTC()
	}
	t := time.Date(y, time.Month(num(1, 1, 12)), 1, 0, 0, 0, 0, time.UTC)
	if day := num(2, 1, 31); day <= t.AddDate(0, 1, -1).Day() {
		t = t.AddDate(0, 0, day-1)
	}
	return t
}

// serveFeed answers a feed: 304 when the reader's ETag is the one of
// rev, else the feed build makes. rev is read before build runs, so a
// change between the two makes the next request fetch again rather
// than keep a stale feed.
func (s *Site) serveFeed(w http.ResponseWriter, r *http.Request, rev string, build func(ctx context.Context) (feed, error)) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	base, authority := origin(r)
	sum := sha256.Sum256([]byte(r.URL.Path + "\x00" + base + "\x00" + rev))
	etag := `W/"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	f, err := build(r.Context())
	if err != nil {
		w.Header().Del("ETag")
		return err
	}
	tag := func(id string) string { return "tag:" + authority + "," + tagDate + ":" + id }
	// The latest first; of entries at one time (a game's earlier moves),
	// the one made last.
	slices.Reverse(f.entries)
	slices.SortStableFunc(f.entries, func(a, b feedEntry) int { return b.at.Compare(a.at) })
	updated := time.Unix(0, 0)
	if len(f.entries) > 0 {
		updated = f.entries[0].at
	}
	af := atomFeed{ID: tag(f.id), Title: f.title, Subtitle: f.subtitle, Updated: atomTime(updated),
		Links: []atomLink{
			{Rel: "self", Type: "application/atom+xml", Href: base + r.URL.EscapedPath()},
			{Rel: "alternate", Type: "text/html", Href: base + f.path},
		},
		Author: atomPerson{Name: "icepost"}, Generator: "icepost"}
	for _, e := range f.entries {
		af.Entries = append(af.Entries, atomEntry{ID: tag(e.id), Title: e.title, Updated: atomTime(e.at),
			Link: atomLink{Rel: "alternate", Type: "text/html", Href: base + e.path}, Summary: e.summary})
	}
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", " ")
	if err := enc.Encode(af); err != nil {
		w.Header().Del("ETag")
		return err
	}
	buf.WriteString("\n")
	w.Header().Set("Content-Type", "application/atom+xml; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
	return nil
}

// etagMatch is If-None-Match's weak comparison: any of the tags, W/ or
// not, or *.
func etagMatch(header, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// liveFeed is the games by mail: the latest event of each game in
// progress and of each game that ended in the last week.
func (s *Site) liveFeed(w http.ResponseWriter, r *http.Request) error {
	if s.mail == nil {
		return &notFound{"this site shows no games by mail (icepost web -mail-db FILE)"}
	}
	rev, err := s.mail.Revision(r.Context())
	if err != nil {
		return err
	}
	return s.serveFeed(w, r, rev, func(ctx context.Context) (feed, error) {
		f := feed{id: "live/feed", title: "icepost: games by mail", subtitle: "Each move of the games by mail in progress, and their ends.", path: "/live"}
		active, err := s.mail.Active(ctx)
		if err != nil {
			return f, err
		}
		ended, err := s.mail.Finished(ctx, time.Now().Add(-recentlyEnded))
		if err != nil {
			return f, err
		}
		for _, gi := range append(active, ended...) {
			g, err := replay([]byte(gi.Record))
			if err != nil {
				s.log.Warn("a game by mail does not replay", "game", gi.ID, "err", err)
				continue
			}
			es := mailEntries(gi, g)
			f.entries = append(f.entries, es[len(es)-1])
		}
		return f, nil
	})
}

// liveGameFeed is one game by mail: its start, each move, its end.
func (s *Site) liveGameFeed(w http.ResponseWriter, r *http.Request) error {
	if s.mail == nil {
		return &notFound{"this site shows no games by mail (icepost web -mail-db FILE)"}
	}
	id, err := gameID(r)
	if err != nil {
		return err
	}
	rev, err := s.mail.Revision(r.Context())
	if err != nil {
		return err
	}
	return s.serveFeed(w, r, rev, func(ctx context.Context) (feed, error) {
		gi, err := s.mail.Game(ctx, id)
		if err != nil {
			return feed{}, err
		}
		if gi.Status == mailgames.Invited || gi.Status == mailgames.Declined || gi.Status == mailgames.Cancelled {
			return feed{}, &notFound{fmt.Sprintf("game %d by mail is %s: there is nothing to follow", id, gi.Status)}
		}
		g, err := replay([]byte(gi.Record))
		if err != nil {
			return feed{}, fmt.Errorf("game by mail %d: %w", id, err)
		}
		es := mailEntries(gi, g)
		es = es[max(0, len(es)-maxFeedEntries):]
		page := "/live/" + strconv.FormatInt(id, 10)
		// The first entry's title is the game's name: "IceSickle #1 by mail: ada – bob".
		return feed{id: page[1:] + "/feed", title: es[0].title, path: page, entries: es}, nil
	})
}

// gameFeed is an archived game as one entry.
func (s *Site) gameFeed(w http.ResponseWriter, r *http.Request) error {
	id, err := gameID(r)
	if err != nil {
		return err
	}
	rev, err := s.archive.Revision(r.Context())
	if err != nil {
		return err
	}
	return s.serveFeed(w, r, rev, func(ctx context.Context) (feed, error) {
		st, err := s.archive.Get(ctx, id)
		if err != nil {
			return feed{}, err
		}
		e := archivedEntry(st.Summary)
		return feed{id: e.id + "/feed", title: gameTitle(st.Summary), path: e.path, entries: []feedEntry{e}}, nil
	})
}

// playerFeed is a player's games: the latest event of each of their
// games by mail in progress, and their latest archived games (by date).
func (s *Site) playerFeed(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	rev, err := s.archive.Revision(ctx)
	if err != nil {
		return err
	}
	if s.mail != nil {
		mrev, err := s.mail.Revision(ctx)
		if err != nil {
			return err
		}
		rev += "+" + mrev
	}
	return s.serveFeed(w, r, rev, func(ctx context.Context) (feed, error) {
		pr, err := s.archive.Player(ctx, r.PathValue("name"), 0)
		if err != nil {
			return feed{}, err
		}
		f := feed{id: "player/" + url.PathEscape(pr.Name) + "/feed", title: "icepost: " + pr.Name + "'s games",
			subtitle: "The moves of " + pr.Name + "'s games by mail, and their games in the archive.", path: playerHref(pr.Name)}
		recent, err := s.archive.SearchOrdered(ctx, archive.Query{Player: pr.Name, Limit: playerFeedGames}, archive.DateNewest)
		if err != nil {
			return f, err
		}
		for _, g := range recent {
			f.entries = append(f.entries, archivedEntry(g))
		}
		if s.mail == nil {
			return f, nil
		}
		names := map[string]bool{nameKey(pr.Name): true}
		for _, sp := range pr.Spellings {
			names[nameKey(sp)] = true
		}
		active, err := s.mail.Active(ctx)
		if err != nil {
			return f, err
		}
		for _, gi := range active {
			g, err := replay([]byte(gi.Record))
			if err != nil {
				s.log.Warn("a game by mail does not replay", "game", gi.ID, "err", err)
				continue
			}
			if !slices.ContainsFunc(displayNames(g.Record.Players()), func(n string) bool { return names[nameKey(n)] }) {
				continue
			}
			es := mailEntries(gi, g)
			f.entries = append(f.entries, es[len(es)-1])
		}
		return f, nil
	})
}

// nameKey is a name as the archive compares names: any case, any
// spacing.
func nameKey(n string) string { return strings.ToLower(strings.Join(strings.Fields(n), " ")) }

// mailEntries are a game by mail's events, oldest first: its start, each
// move, and its end when no move ended it (a resignation, a draw agreed,
// a loss on time); g is its record replayed. Each move has the time it
// was made (gi.Moved), and the latest entry the time of the game's last
// change; the start, and a move made before the daemon kept the times,
// the day it began.
func mailEntries(gi mailgames.Game, g *notation.Game) []feedEntry {
	names := displayNames(g.Record.Players())
	id := strconv.FormatInt(gi.ID, 10)
	date, _ := g.Record.Tag("Date")
	began := dateTime(date)
	name := mailName(g.Rules.Name(), gi.ID) + ": " + strings.Join(names, " – ")
	es := []feedEntry{{
		id:      "live/" + id + "/0",
		title:   name,
		summary: fmt.Sprintf("The game began: %s; %s to move.", strings.Join(names, " – "), nameAt(names, g.States[0].ToMove())),
		path:    "/live/" + id + "?ply=0",
		at:      began,
	}}
	for k := 1; k <= len(g.Moves); k++ {
		who := nameAt(names, g.States[k-1].ToMove())
		tok := g.Token(k)
		after := g.States[k]
		sum := fmt.Sprintf("%s played %s (ply %d)", who, tok, k)
		if sc := after.Scores(); sc != nil {
			sum += "; score " + scoreWords(sc, names)
		}
		if o := after.Outcome(); o.Over {
			sum += "; game over: " + outcomeWords(o, names)
		} else {
			sum += "; " + nameAt(names, after.ToMove()) + " to move"
		}
		es = append(es, feedEntry{
			id:      "live/" + id + "/" + strconv.Itoa(k) + "/" + url.PathEscape(tok),
			title:   fmt.Sprintf("%s: %s played %s", name, who, tok),
			summary: sum + ".",
			path:    "/live/" + id + "?ply=" + strconv.Itoa(k),
			at:      movedAt(gi, k, began),
		})
	}
	if g.Over() && !g.Final().Outcome().Over {
		es = append(es, feedEntry{
			id:      "live/" + id + "/end",
			title:   name + ": game over, " + resultWords(g, names),
			summary: fmt.Sprintf("Game over after %s: %s.", plural(len(g.Moves), "ply", "plies"), resultWords(g, names)),
			path:    "/live/" + id,
			at:      began,
		})
	}
	if !gi.Changed.IsZero() && gi.Changed.After(began) {
		es[len(es)-1].at = gi.Changed
	}
	return es
}

// movedAt is when move k of gi was made, or began when not known.
func movedAt(gi mailgames.Game, k int, began time.Time) time.Time {
	if k-1 < len(gi.Moved) && !gi.Moved[k-1].IsZero() {
		return gi.Moved[k-1]
	}
	return began
}

func scoreWords(sc []int, names []string) string {
	var b []string
	for i, n := range sc {
		b = append(b, fmt.Sprintf("%s %d", nameAt(names, i+1), n))
	}
	return strings.Join(b, ", ")
}

func outcomeWords(o rules.Outcome, names []string) string {
	if o.Winner == 0 {
		return "a draw"
	}
	return nameAt(names, o.Winner) + " wins"
}

// archivedEntry is an archived game as one entry: who won, in how many
// plies, where and when.
func archivedEntry(s archive.Summary) feedEntry {
	var res string
	switch {
	case s.Winner == nil:
		res = "no result"
	case *s.Winner == 0:
		res = "a draw"
	default:
		res = nameAt(s.Players, *s.Winner) + " wins"
	}
	if s.Termination != "" && s.Termination != "normal" {
		res += " (" + s.Termination + ")"
	}
	sum := fmt.Sprintf("%s: %s, %s", strings.Join(s.Players, " – "), res, plural(s.Plies, "ply", "plies"))
	if s.Event != "" && s.Event != "?" {
		sum += "; " + s.Event
	}
	if s.Date != "" {
		sum += ", " + s.Date
	}
	id := strconv.FormatInt(s.ID, 10)
	return feedEntry{id: "game/" + id, title: gameTitle(s) + ": " + res, summary: sum + ".", path: "/game/" + id, at: dateTime(s.Date)}
}

// The pages that have a feed.

func (v gameView) Feed() *feedLink {
	if v.MailInfo == nil {
		return &feedLink{Href: v.Base + "/feed", Title: "this game"}
	}
	return &feedLink{Href: v.Base + "/feed", Title: "the moves of this game"}
}

func (p livePage) Feed() *feedLink {
	if !p.HasMail {
		return nil
	}
	return &feedLink{Href: "/live/feed", Title: "the games by mail"}
}

func (p playerPage) Feed() *feedLink {
	return &feedLink{Href: playerHref(p.Name) + "/feed", Title: p.Name + "'s games"}
}
