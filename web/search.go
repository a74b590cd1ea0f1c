package web

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"icepost/archive"
	"icepost/rules/games"
)

// The front page and the search: a form with every filter of the
// archive, the number of games found, a page of them, and links to the
// pages around it. The address holds the whole search.

type searchForm struct {
	Game, Player, Opponent, Result, Since, Until, Event string
	Text, Moves, Position, Plies, Blunder, Sort         string
	Seat                                                int
	Tag                                                 string // the first tag filter, for the form's one tag field
	MoreTags                                            []string
	Games                                               []string
	Seats                                               []int
	Sorts                                               []sortOption
	Results                                             []string
}

type sortOption struct{ Value, Label string }

func newSearchForm(s search) searchForm {
	q := s.q
	f := searchForm{Game: q.Game, Player: q.Player, Opponent: q.Opponent, Result: q.Result, Since: q.Since, Until: q.Until,
		Event: q.Event, Text: q.Text, Moves: q.Moves, Position: q.Position, Plies: s.plies, Blunder: q.Blunder, Sort: s.sort, Seat: q.Seat,
		Games: games.Names(), Seats: []int{1, 2, 3, 4}, Results: []string{"win", "loss", "draw", "undecided"}}
	if g, ok := games.Lookup(q.Game); ok {
		f.Game = g.Name()
	}
	for _, o := range sorts {
		f.Sorts = append(f.Sorts, sortOption{o.value, o.label})
	}
	if len(s.tags) > 0 {
		f.Tag, f.MoreTags = s.tags[0], s.tags[1:]
	}
	return f
}

type homePage struct {
	Form  searchForm
	Total int
	Kinds []archive.SeatStats
	Play  howToPlay
}

// howToPlay is what the home page says of playing: by mail, against
// the bot, and from a board mail's link, on the server whose games the
// site shows; without one, how to start one.
type howToPlay struct {
	Mail    bool   // the site shows a mail daemon's games
	Web     bool   // the site takes moves (icepost web -config)
	Address string // the server's address; "" when its daemon has not noted it
	Games   string // the games a challenge names
}

func (s *Site) home(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	st, err := s.archive.Stats(r.Context(), archive.Query{}, 0)
	if err != nil {
		return err
	}
	hp := homePage{Form: newSearchForm(search{sort: "newest", per: 50, page: 1}), Kinds: st.Kinds}
	for _, k := range st.Kinds {
		hp.Total += k.Games
	}
	hp.Play = howToPlay{Mail: s.mail != nil, Web: s.Play != nil, Games: strings.Join(games.Names(), ", ")}
	if s.mail != nil {
		// The page does without the address rather than fail.
		if hp.Play.Address, err = s.mail.Address(r.Context()); err != nil {
			s.log.Warn("reading the server's address", "err", err)
		}
	}
	return s.ok(w, r, "home", "icepost", hp)
}

// gameRow is one game in a list of games: its row of the "games" table
// (templates/_parts.html), written by writeGameRow.
type gameRow struct {
	HTML template.HTML
}

func gameRows(ss []archive.Summary) []gameRow {
	out := make([]gameRow, len(ss))
	var b strings.Builder
	for i, s := range ss {
		b.Reset()
		writeGameRow(&b, s)
		out[i].HTML = template.HTML(b.String())
	}
	return out
}

// writeGameRow writes a game's row of the "games" table: its number and
// result linking to its page, its game (and seats past two), players
// (the winner in bold), result, date, plies and event. A game the mail
// daemon archived has its number by mail, as its mails and its title
// say, and "by mail" after its game; its link keeps its archive number.
// The result comes before the date so that a phone shows it without
// scrolling the table. It is written here and
// not in the template because html/template's escaping, a call through
// reflection for each value, cost about 25 µs a row: most of the time of
// a page of 50 games (docs/web.md, "Speed"). Every value is escaped as
// html/template escapes text; TestGameRowHTML checks the row against
// the template it replaced.
func writeGameRow(b *strings.Builder, s archive.Summary) {
	id := strconv.FormatInt(s.ID, 10)
	shown, mail := id, ""
	if n := mailNumber(s); n > 0 {
		shown, mail = strconv.FormatInt(n, 10), " <span class=\"bymail\">by mail</span>"
	}
	b.WriteString("<tr>\n<td><a href=\"/game/" + id + "\">" + shown + "</a></td>\n<td>")
	writeText(b, s.Game)
	if s.Seats > 2 {
		b.WriteString(" (" + strconv.Itoa(s.Seats) + ")")
	}
	b.WriteString(mail + "</td>\n<td>")
	for k, n := range s.Players {
		if k > 0 {
			b.WriteString(" – ")
		}
		if s.Winner != nil && *s.Winner == k+1 {
			b.WriteString("<strong>")
			writeText(b, n)
			b.WriteString("</strong>")
		} else {
			writeText(b, n)
		}
	}
	b.WriteString("</td>\n<td><a href=\"/game/" + id + "\">")
	writeText(b, s.Result)
	b.WriteString("</a></td>\n<td class=\"date\">")
	writeText(b, dash(s.Date))
	b.WriteString("</td>\n<td class=\"n\">" + strconv.Itoa(s.Plies) + "</td>\n<td>")
	writeText(b, dash(s.Event))
	b.WriteString("</td>\n</tr>")
}

// textEscaper escapes text in HTML as html/template does.
var textEscaper = strings.NewReplacer("\x00", "\uFFFD", `"`, "&#34;", "'", "&#39;", "&", "&amp;", "+", "&#43;", "<", "&lt;", ">", "&gt;")

func writeText(b *strings.Builder, s string) { textEscaper.WriteString(b, s) }

// countCap is how many games a search counts at most (past the page
// shown): beyond it the page says "more than 1,000 games", as large
// search engines do, since counting a million matches would take longer
// than finding the page of them. A variable for the tests.
var countCap = 1000

type searchPage struct {
	Form       searchForm
	Count      int // the games found, or countCap when More
	More       bool
	CountText  string
	Games      []gameRow
	First      int // the number of the first game shown
	Last       int
	Page       int
	Pages      int
	Prev, Next string // addresses of the pages around, "" at the ends
	Query      string // the search's query, without paging
	Records    string // the address of the games as a record file
	// Suggest lists players whose names contain the player or opponent
	// asked for, when no player has exactly that name.
	Suggest []suggestion
}

type suggestion struct {
	For   string // player or opponent
	Asked string
	Names []playerRow
}

func (s *Site) search(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, searchParams...)
	if err != nil {
		return err
	}
	sr := readSearch(p)
	if err := p.err(); err != nil {
		return err
	}
	ctx := r.Context()
	// The games are counted up to countCap (or to the end of the page
	// shown, when that is further): counting every one of a million
	// matches costs more than finding the page. Past it, the page says
	// "more than 1,000 games" and pages on without a last page.
	// A page that is not full says how many there are: no count then.
	rows, err := s.archive.SearchOrdered(ctx, sr.q, sr.order)
	if err != nil {
		return err
	}
	shown := max(countCap, sr.q.Offset+sr.per)
	n := sr.q.Offset + len(rows)
	if len(rows) == sr.per || len(rows) == 0 && sr.q.Offset > 0 {
		cq := sr.q
		cq.Limit, cq.Offset = shown+1, 0
		if n, err = s.archive.Count(ctx, cq); err != nil {
			return err
		}
	}
	more := n > shown
	v := sr.values()
	sp := searchPage{Form: newSearchForm(sr), Count: n, CountText: plural(n, "game", "games"), Games: gameRows(rows),
		Page: sr.page, Pages: max(1, (n+sr.per-1)/sr.per), Query: v.Encode()}
	if more {
		sp.Count, sp.More, sp.Pages = shown, true, 0
		sp.CountText = "more than " + plural(shown, "game", "games")
	}
	sp.First = sr.q.Offset + 1
	sp.Last = sr.q.Offset + len(rows)
	pageURL := func(page int) string {
		w := url.Values{}
		for k, vs := range v {
			w[k] = vs
		}
		if page > 1 {
			w.Set("page", strconv.Itoa(page))
		}
		return "/search?" + w.Encode()
	}
	if sr.page > 1 {
		prev := sr.page - 1
		if !sp.More {
			prev = min(prev, sp.Pages)
		}
		sp.Prev = pageURL(prev)
	}
	if (sr.page < sp.Pages || sp.More) && sr.page < maxPage {
		sp.Next = pageURL(sr.page + 1)
	}
	sp.Records = "/search/records?" + v.Encode()
	for _, f := range []struct{ param, asked string }{{"player", sr.q.Player}, {"opponent", sr.q.Opponent}} {
		if f.asked == "" {
			continue
		}
		if ok, err := s.archive.HasPlayer(ctx, f.asked); err != nil {
			return err
		} else if ok {
			continue
		}
		ps, _, err := s.archive.Players(ctx, f.asked, 10, 0)
		if err != nil {
			return err
		}
		sg := suggestion{For: f.param, Asked: f.asked}
		for _, p := range ps {
			w := url.Values{}
			for k, vs := range v {
				w[k] = vs
			}
			w.Set(f.param, p.Name)
			sg.Names = append(sg.Names, playerRow{p, "/search?" + w.Encode()})
		}
		sp.Suggest = append(sp.Suggest, sg)
	}
	title := "Search"
	if sr.hasFilters {
		title = "Search: " + sp.CountText
	}
	return s.ok(w, r, "search", title, sp)
}

// maxExport is the most games one download of a search holds.
const maxExport = 5000

// searchRecords sends the games of a search as a record file: at most
// maxExport of them, oldest first, names without mail addresses.
func (s *Site) searchRecords(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, searchParams...)
	if err != nil {
		return err
	}
	sr := readSearch(p)
	if err := p.err(); err != nil {
		return err
	}
	q := sr.q
	q.Limit, q.Offset = maxExport, 0
	var b strings.Builder
	n := 0
	err = s.archive.Each(r.Context(), q, func(_ archive.Summary, rec []byte) error {
		if n > 0 {
			b.WriteString("\n")
		}
		n++
		b.WriteString(publicRecord(rec))
		return nil
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="icepost-search.rec"`)
	w.Header().Set("X-Icepost-Games", fmt.Sprint(n))
	_, err = w.Write([]byte(b.String()))
	return err
}

func (p searchPage) description() string {
	return "A search of the archive of board games: " + p.CountText + ", by game, player, result, date, event, words, opening moves or position."
}
