package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"icepost/pbem/mailgames"
	"icepost/rules"
	"icepost/rules/games"
)

// The open seeks of the games by mail (docs/mail.md, "Finding an
// opponent"): each with its terms in words, the seeker by name (never
// by address), and the line that meets it, to send by mail. The page
// only reads: joining a seek is by mail.

type seekCard struct {
	ID        int64
	Game      string
	Name      string
	Rating    string // "1500"
	Opponents string // "an opponent rated 1200 to 1800"
	Terms     []seekTerm
	Until     string // "Sun 6 Dec 2026 12:00 UTC"
	UntilISO  string
	Left      string // "6 days 23 hours"
	Line      string // the command that meets it
	Mailto    string // a new mail to the server with the line; "" without its address
}

// seekTerm is one of a seek's terms in words: "Time", "5 days a move".
type seekTerm struct{ Name, Value string }

type seeksPage struct {
	Seeks   []seekCard
	Count   string
	Address string // the server's; "" when its daemon has not noted it
	Games   string // the games a seek names
	Example string // a seek to post, as an example
}

func (seeksPage) description() string {
	return "The open seeks of the games by mail: players waiting for an opponent, each with the line to send by mail to play them."
}

func (s *Site) seeksPage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	if s.mail == nil {
		return &notFound{"this site shows no games by mail, and so no seeks (icepost web -mail-db FILE)"}
	}
	seeks, err := s.mail.Seeks(r.Context())
	if err != nil {
		return err
	}
	names := games.Names()
	sp := seeksPage{Games: strings.Join(names, ", ")}
	if len(names) > 0 {
		sp.Example = "seek " + strings.ToLower(names[0]) + " days=3 rating=1400-1700"
	}
	// The page does without the address rather than fail.
	if sp.Address, err = s.mail.Address(r.Context()); err != nil {
		s.log.Warn("reading the server's address", "err", err)
	}
	now := time.Now()
	for _, sk := range seeks {
		sp.Seeks = append(sp.Seeks, seekCardOf(sk, sp.Address, now))
	}
	sp.Count = plural(len(sp.Seeks), "open seek", "open seeks")
	return s.ok(w, r, "seeks", "Open seeks: find an opponent by mail", sp)
}

func seekCardOf(sk mailgames.Seek, address string, now time.Time) seekCard {
	c := seekCard{ID: sk.ID, Game: sk.Game, Name: sk.Name, Rating: strconv.FormatFloat(sk.Rating, 'f', 0, 64),
		Opponents: opponents(sk.Seats, sk.RatingMin, sk.RatingMax),
		Until:     sk.Until.UTC().Format("Mon 2 Jan 2006 15:04 UTC"), UntilISO: sk.Until.UTC().Format(time.RFC3339),
		Left: duration(sk.Until.Sub(now)), Line: sk.Line}
	players := strconv.Itoa(sk.Seats)
	if sk.Seats > 2 {
		players += fmt.Sprintf(" (the game starts when %d players have sought it)", sk.Seats)
	}
	c.Terms = append(c.Terms, seekTerm{"Players", players}, seekTerm{"Time", daysText(sk.Days)})
	c.Terms = append(c.Terms, gameOptions(sk.Game, sk.Options)...)
	if address != "" {
		q := "subject=" + mailtoEscape(sk.Line) + "&body=" + mailtoEscape(sk.Line)
		c.Mailto = (&url.URL{Scheme: "mailto", Opaque: address, RawQuery: q}).String()
	}
	return c
}

// opponents says whom a seek takes on: "an opponent rated 1200 to 1800",
// "2 opponents of any rating".
func opponents(seats, lo, hi int) string {
	who := "an opponent"
	if seats > 2 {
		who = strconv.Itoa(seats-1) + " opponents"
	}
	switch {
	case lo == 0 && hi == 0:
		return who + " of any rating"
	case hi == 0:
		return fmt.Sprintf("%s rated %d or more", who, lo)
	case lo == 0:
		return fmt.Sprintf("%s rated up to %d", who, hi)
	}
	return fmt.Sprintf("%s rated %d to %d", who, lo, hi)
}

// daysText is a time control in words.
func daysText(days int) string {
	if days <= 0 {
		return "no time limit"
	}
	return plural(days, "day", "days") + " a move"
}

// gameOptions are a seek's game options in words, each named by what
// the game says it means ("The score that wins", "9"); an option the
// game does not list keeps the name the terms give it.
func gameOptions(game string, opts []mailgames.SeekOption) []seekTerm {
	var infos []rules.Option
	if g, ok := games.Lookup(game); ok {
		infos = g.Info().Options
	}
	var out []seekTerm
	for _, o := range opts {
		name := o.Name
		for _, in := range infos {
			if strings.EqualFold(in.Name, o.Name) && in.Help != "" {
				name = in.Help
			}
		}
		out = append(out, seekTerm{capitalize(name), o.Value})
	}
	return out
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// mailtoEscape escapes a header or body of a mailto link: spaces as %20,
// which mail clients read (RFC 6068), not as +.
func mailtoEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
