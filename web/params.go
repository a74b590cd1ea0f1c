package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"icepost/archive"
)

// Query parameters are read here and nowhere else: every page names the
// parameters it takes, and a bad value of one of those (a number that is
// not one, a value too long, a name given twice) is refused with a 400
// page that says what is wrong. A name the page does not take is ignored:
// messengers and newsletters add their own (fbclid, utm_source) to the
// links people share, and such a link must still open. An empty value is
// as good as no value, so that a search form submitted with empty fields
// works.

// maxParam bounds any one value; the archive bounds its filters too.
const maxParam = 1000

// badRequest is a 400 answer; its message is shown to the visitor.
type badRequest struct{ msg string }

func (e *badRequest) Error() string { return e.msg }

func bad(format string, args ...any) error {
	return &badRequest{fmt.Sprintf(format, args...)}
}

// notFound is a 404 answer.
type notFound struct{ msg string }

func (e *notFound) Error() string { return e.msg }

// params reads one request's query parameters.
type params struct {
	v    url.Values
	errs []string
}

// readParams parses the query and checks the names in allowed
// (repeatable ones end with "*": "tag*"); other names are ignored.
func readParams(r *http.Request, allowed ...string) (*params, error) {
	if len(r.URL.RawQuery) > 8192 {
		return nil, bad("the address is too long: at most 8192 bytes of query")
	}
	ok := map[string]bool{}
	multi := map[string]bool{}
	for _, a := range allowed {
		if n, m := strings.CutSuffix(a, "*"); m {
			multi[n] = true
			ok[n] = true
		} else {
			ok[a] = true
		}
	}
	p := &params{v: url.Values{}}
	// Pair by pair rather than url.ParseQuery, so that a pair the page
	// does not take is skipped even when it cannot be read.
	for _, pair := range strings.Split(r.URL.RawQuery, "&") {
		if pair == "" {
			continue
		}
		k, val, _ := strings.Cut(pair, "=")
		name, err := url.QueryUnescape(k)
		if err != nil || !ok[name] {
			continue
		}
		if strings.Contains(val, ";") {
			p.fail("parameter %q cannot be read: a semicolon in a value is written %%3B", name)
			continue
		}
		if val, err = url.QueryUnescape(val); err != nil {
			p.fail("parameter %q cannot be read: %v", name, err)
			continue
		}
		p.v[name] = append(p.v[name], val)
	}
	for name, vals := range p.v {
		switch {
		case len(vals) > 1 && !multi[name]:
			p.fail("parameter %q is given %d times; give it once", name, len(vals))
		case len(vals) > 64:
			p.fail("parameter %q is given %d times; at most 64", name, len(vals))
		}
		for _, val := range vals {
			if len(val) > maxParam {
				p.fail("parameter %q is %d bytes long; at most %d", name, len(val), maxParam)
			} else if !utf8.ValidString(val) {
				p.fail("parameter %q is not valid UTF-8 text", name)
			}
		}
	}
	return p, nil
}

func (p *params) fail(format string, args ...any) {
	p.errs = append(p.errs, fmt.Sprintf(format, args...))
}

// err is the 400 answer for every problem found, or nil.
func (p *params) err() error {
	if len(p.errs) == 0 {
		return nil
	}
	return bad("%s", strings.Join(p.errs, "; "))
}

// str is a value, trimmed; "" when absent.
func (p *params) str(name string) string { return strings.TrimSpace(p.v.Get(name)) }

// all is every value of a repeatable parameter, empty ones left out.
func (p *params) all(name string) []string {
	var out []string
	for _, v := range p.v[name] {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// num is a whole number from lo to hi, def when absent.
func (p *params) num(name string, lo, hi, def int) int {
	s := p.str(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		p.fail("%s=%q: give a whole number from %d to %d", name, clip(s), lo, hi)
		return def
	}
	return n
}

// choice is one of choices, def when absent.
func (p *params) choice(name, def string, choices ...string) string {
	s := p.str(name)
	if s == "" {
		return def
	}
	for _, c := range choices {
		if s == c {
			return s
		}
	}
	p.fail("%s=%q: use one of %s", name, clip(s), strings.Join(choices, ", "))
	return def
}

func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// searchParams are the parameters of a search, in the order of the form.
var searchParams = []string{"game", "player", "seat", "opponent", "result", "since", "until", "event", "tag*",
	"text", "position", "moves", "plies", "blunder", "sort", "page", "per"}

// sorts are the orders a search page offers, by parameter value. The
// dates are the Date tags (undated games last); games of one date come
// in the order they were added. "date" and "date-asc", the names of the
// orders by date before they became newest and oldest, still work in
// links people keep.
var sorts = []struct {
	value, label string
	order        archive.Order
}{
	{"newest", "newest first", archive.DateNewest},
	{"oldest", "oldest first", archive.DateOldest},
	{"added", "last added first", archive.NewestFirst},
	{"longest", "longest first", archive.LongestFirst},
	{"shortest", "shortest first", archive.ShortestFirst},
}

var sortAliases = map[string]string{"date": "newest", "date-asc": "oldest"}

// search is a search as the page's parameters say it.
type search struct {
	q          archive.Query
	tags       []string // as given, Name=value
	plies      string
	sort       string
	order      archive.Order
	page, per  int
	hasFilters bool
}

// maxPage bounds paging, so that no request asks SQLite to skip
// millions of rows.
const maxPage = 10000

// readSearch reads a search from p. Whether the values make sense as a
// search (a known game, a date, a position code) is the archive's
// check: its error comes back as a 400 too.
func readSearch(p *params) search {
	var s search
	q := &s.q
	q.Game = p.str("game")
	q.Player = p.str("player")
	q.Seat = p.num("seat", 1, 4, 0)
	q.Opponent = p.str("opponent")
	q.Result = p.str("result")
	q.Since = p.str("since")
	q.Until = p.str("until")
	q.Event = p.str("event")
	q.Text = p.str("text")
	q.Position = p.str("position")
	q.Moves = p.str("moves")
	q.Blunder = p.str("blunder")
	s.tags = p.all("tag")
	for _, t := range s.tags {
		tf, err := archive.ParseTagFilter(t)
		if err != nil {
			p.fail("%s", queryMessage(err))
			continue
		}
		q.Tags = append(q.Tags, tf)
	}
	if s.plies = p.str("plies"); s.plies != "" {
		r, err := archive.ParseRange(s.plies)
		if err != nil {
			p.fail("%s", queryMessage(err))
		} else {
			q.Plies = &r
		}
	}
	var names []string
	for _, o := range sorts {
		names = append(names, o.value)
	}
	if to, ok := sortAliases[p.str("sort")]; ok {
		p.v.Set("sort", to)
	}
	s.sort = p.choice("sort", "newest", names...)
	for _, o := range sorts {
		if o.value == s.sort {
			s.order = o.order
		}
	}
	s.page = p.num("page", 1, maxPage, 1)
	s.per = p.num("per", 1, 100, 50)
	q.Limit, q.Offset = s.per, (s.page-1)*s.per
	s.hasFilters = q.Game != "" || q.Player != "" || q.Seat != 0 || q.Opponent != "" || q.Result != "" || q.Since != "" ||
		q.Until != "" || q.Event != "" || q.Text != "" || q.Position != "" || q.Moves != "" || len(q.Tags) > 0 || q.Plies != nil || q.Blunder != ""
	return s
}

// values is the search as query parameters, without paging: the
// address of the same search, to share or to page through.
func (s search) values() url.Values {
	v := url.Values{}
	set := func(k, val string) {
		if val != "" {
			v.Set(k, val)
		}
	}
	q := s.q
	set("game", q.Game)
	set("player", q.Player)
	if q.Seat != 0 {
		v.Set("seat", strconv.Itoa(q.Seat))
	}
	set("opponent", q.Opponent)
	set("result", q.Result)
	set("since", q.Since)
	set("until", q.Until)
	set("event", q.Event)
	for _, t := range s.tags {
		v.Add("tag", t)
	}
	set("text", q.Text)
	set("position", q.Position)
	set("moves", q.Moves)
	set("plies", s.plies)
	set("blunder", q.Blunder)
	if s.sort != "newest" {
		v.Set("sort", s.sort)
	}
	if s.per != 50 {
		v.Set("per", strconv.Itoa(s.per))
	}
	return v
}

// queryMessage is an archive error without its "bad search: " prefix.
func queryMessage(err error) string {
	msg := err.Error()
	if errors.Is(err, archive.ErrQuery) {
		msg = strings.TrimPrefix(msg, archive.ErrQuery.Error()+": ")
	}
	return msg
}
