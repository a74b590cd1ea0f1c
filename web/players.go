package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"icepost/archive"
	"icepost/rules/games"
)

// Players, one player's page, and the ratings. Ratings are computed from
// the whole archive (archive.Ratings, Glicko-2 per game) and kept until
// the archive changes (archive.Revision).

type ratingsCache struct {
	mu       sync.Mutex
	revision string
	ratings  []archive.Rating
	byPlayer map[string][]archive.Rating // by name
}

// ratingsNow returns the ratings of every game, computing them again when
// games were added or deleted since the last time.
func (s *Site) ratingsNow(ctx context.Context) ([]archive.Rating, map[string][]archive.Rating, error) {
	c := &s.ratings
	c.mu.Lock()
	defer c.mu.Unlock()
	rev, err := s.archive.Revision(ctx)
	if err != nil {
		return nil, nil, err
	}
	if c.byPlayer != nil && rev == c.revision {
		return c.ratings, c.byPlayer, nil
	}
	rs, err := s.archive.Ratings(ctx, "")
	if err != nil {
		return nil, nil, err
	}
	by := map[string][]archive.Rating{}
	for _, r := range rs {
		by[r.Player] = append(by[r.Player], r)
	}
	c.revision, c.ratings, c.byPlayer = rev, rs, by
	return rs, by, nil
}

type playerRow struct {
	archive.PlayerSummary
	Href string
}

type playersPage struct {
	Match      string
	Players    []playerRow
	Count      int
	CountText  string
	Page       int
	Pages      int
	Prev, Next string
}

const perPlayers = 50

func (s *Site) players(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, "q", "page")
	if err != nil {
		return err
	}
	match := p.str("q")
	page := p.num("page", 1, maxPage, 1)
	if err := p.err(); err != nil {
		return err
	}
	ps, n, err := s.archive.Players(r.Context(), match, perPlayers, (page-1)*perPlayers)
	if err != nil {
		return err
	}
	pp := playersPage{Match: match, Count: n, CountText: plural(n, "player", "players"), Page: page, Pages: max(1, (n+perPlayers-1)/perPlayers)}
	for _, x := range ps {
		pp.Players = append(pp.Players, playerRow{x, playerHref(x.Name)})
	}
	at := func(page int) string {
		v := url.Values{}
		if match != "" {
			v.Set("q", match)
		}
		if page > 1 {
			v.Set("page", strconv.Itoa(page))
		}
		if len(v) == 0 {
			return "/players"
		}
		return "/players?" + v.Encode()
	}
	if page > 1 {
		pp.Prev = at(min(page-1, pp.Pages))
	}
	if page < pp.Pages {
		pp.Next = at(page + 1)
	}
	return s.ok(w, r, "players", "Players", pp)
}

func playerHref(name string) string { return "/player/" + url.PathEscape(name) }

type gameResultRow struct {
	archive.GameResults
	Rating *archive.Rating
	Rank   int
	Search string // the player's games of this game
	Won    string
	Lost   string
	Drawn  string
}

type opponentRow struct {
	archive.OpponentResults
	Href   string
	Search string // the games of the two
}

type playerPage struct {
	Established int // the deviation under which a rating is established
	Name        string
	Spellings   []string
	Total       archive.Results
	Games       []gameResultRow
	Opponents   []opponentRow
	Recent      []gameRow
	All         string
	// Analysis is the computer analysis of their moves (icepost archive
	// analyze), nil when none of their games is analysed.
	Analysis *analysisLine
}

// analysisLine is the player page's sentence on the computer analysis.
type analysisLine struct {
	archive.AnalysisSummary
	GamesText string // "3 analysed games"
	LossText  string // the average loss a move, "0.031"
	MarksText string // "1 blunder, 2 inaccuracies", or "no move marked"
	// BlundersHref is the search for the games with their blunders; ""
	// when they made none.
	BlundersHref string
}

func marksText(an archive.AnalysisSummary) string {
	var parts []string
	for _, m := range []struct {
		n         int
		one, many string
	}{{an.Blunders, "blunder", "blunders"}, {an.Mistakes, "mistake", "mistakes"}, {an.Inaccuracies, "inaccuracy", "inaccuracies"}} {
		if m.n > 0 {
			parts = append(parts, plural(m.n, m.one, m.many))
		}
	}
	if len(parts) == 0 {
		return "no move marked"
	}
	return strings.Join(parts, ", ")
}

func (s *Site) player(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	name := r.PathValue("name")
	ctx := r.Context()
	pr, err := s.archive.Player(ctx, name, 30)
	if err != nil {
		return err
	}
	all, byPlayer, err := s.ratingsNow(ctx)
	if err != nil {
		return err
	}
	search := func(v url.Values) string {
		v.Set("player", pr.Name)
		return "/search?" + v.Encode()
	}
	pp := playerPage{Established: establishedRD, Name: pr.Name, Spellings: pr.Spellings, Total: pr.Results, All: search(url.Values{})}
	if an := pr.Analysis; an.Moves > 0 {
		pp.Analysis = &analysisLine{an, plural(an.Games, "analysed game", "analysed games"), fmt.Sprintf("%.3f", an.Loss), marksText(an), ""}
		if an.Blunders > 0 {
			pp.Analysis.BlundersHref = "/search?" + url.Values{"blunder": {pr.Name}}.Encode()
		}
	}
	for _, g := range pr.Games {
		row := gameResultRow{GameResults: g,
			Search: search(url.Values{"game": {g.Game}}),
			Won:    search(url.Values{"game": {g.Game}, "result": {"win"}}),
			Lost:   search(url.Values{"game": {g.Game}, "result": {"loss"}}),
			Drawn:  search(url.Values{"game": {g.Game}, "result": {"draw"}})}
		for _, rt := range byPlayer[pr.Name] {
			if rt.Game == g.Game {
				rt := rt
				row.Rating = &rt
				row.Rank = rankOf(all, rt)
			}
		}
		pp.Games = append(pp.Games, row)
	}
	for _, o := range pr.Opponents {
		pp.Opponents = append(pp.Opponents, opponentRow{o, playerHref(o.Name), search(url.Values{"opponent": {o.Name}})})
	}
	recent, err := s.archive.SearchOrdered(ctx, archive.Query{Player: pr.Name, Limit: 10}, archive.DateNewest)
	if err != nil {
		return err
	}
	pp.Recent = gameRows(recent)
	return s.ok(w, r, "player", pr.Name, pp)
}

// establishedRD is the rating deviation under which a rating is
// established: the top lists and the ranks are of established players;
// the others (new, or seldom playing) are provisional, listed apart. 110
// is the line Lichess draws for Glicko-2; a new player gets under it
// after about a dozen games against rated players.
const establishedRD = 110

func established(r archive.Rating) bool { return r.RD < establishedRD }

// rankOf is r's place among the established ratings of its game (1 the
// best); 0 for a provisional rating.
func rankOf(all []archive.Rating, r archive.Rating) int {
	if !established(r) {
		return 0
	}
	n := 0
	for _, x := range all {
		if x.Game != r.Game || !established(x) {
			continue
		}
		n++
		if x.Player == r.Player {
			return n
		}
	}
	return 0
}

type ratingRow struct {
	archive.Rating
	Rank int // 0 for a provisional rating
	Href string
}

type ratingTable struct {
	Game        string
	Href        string      // the game's full table
	Rows        []ratingRow // established, best first
	Provisional []ratingRow // listed apart, best first
	Count       int
	Apart       int // how many of Count are provisional
	More        bool
	Prev        string
	Next        string
	Page        int
	Pages       int
}

type ratingsPage struct {
	Game        string
	Games       []string
	Tables      []ratingTable
	Established int // the deviation under which a rating is established
}

const perRatings = 50

func (s *Site) ratingsPage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, "game", "page")
	if err != nil {
		return err
	}
	game := p.str("game")
	page := p.num("page", 1, maxPage, 1)
	if err := p.err(); err != nil {
		return err
	}
	if game != "" {
		g, ok := games.Lookup(game)
		if !ok {
			return bad("game=%q: the games are %s", clip(game), strings.Join(games.Names(), ", "))
		}
		game = g.Name()
	}
	all, _, err := s.ratingsNow(r.Context())
	if err != nil {
		return err
	}
	rp := ratingsPage{Game: game, Games: games.Names(), Established: establishedRD}
	for _, name := range rp.Games {
		if game != "" && name != game {
			continue
		}
		t := ratingTable{Game: name, Href: "/ratings?game=" + url.QueryEscape(name), Page: 1}
		// Established players first, ranked; then the provisional ones.
		var rows, apart []ratingRow
		for _, rt := range all {
			if rt.Game != name {
				continue
			}
			if established(rt) {
				rows = append(rows, ratingRow{rt, len(rows) + 1, playerHref(rt.Player)})
			} else {
				apart = append(apart, ratingRow{rt, 0, playerHref(rt.Player)})
			}
		}
		t.Count, t.Apart = len(rows)+len(apart), len(apart)
		if game == "" {
			// The top ten: established players, and when there are fewer
			// than ten of those, the best provisional ones listed apart.
			t.Rows = rows[:min(10, len(rows))]
			t.Provisional = apart[:min(10-len(t.Rows), len(apart))]
			t.More = t.Count > len(t.Rows)+len(t.Provisional)
		} else {
			rows = append(rows, apart...)
			t.Pages = max(1, (len(rows)+perRatings-1)/perRatings)
			t.Page = page
			from := min((page-1)*perRatings, len(rows))
			if page > 1 {
				t.Prev = t.Href + "&page=" + strconv.Itoa(min(page-1, t.Pages))
			}
			if page < t.Pages {
				t.Next = t.Href + "&page=" + strconv.Itoa(page+1)
			}
			for _, r := range rows[from:min(from+perRatings, len(rows))] {
				if r.Rank > 0 {
					t.Rows = append(t.Rows, r)
				} else {
					t.Provisional = append(t.Provisional, r)
				}
			}
		}
		rp.Tables = append(rp.Tables, t)
	}
	title := "Ratings"
	if game != "" {
		title = "Ratings: " + game
	}
	return s.ok(w, r, "ratings", title, rp)
}

func (p playerPage) description() string {
	return fmt.Sprintf("%s: %s (%d won, %d drawn, %d lost), results and ratings by game, opponents and latest games.",
		p.Name, plural(p.Total.Games, "game", "games"), p.Total.Wins, p.Total.Draws, p.Total.Losses)
}

func (p ratingsPage) description() string {
	if p.Game != "" {
		return "Glicko-2 ratings of the players of " + p.Game + " from every decided game in the archive."
	}
	return "Glicko-2 ratings of the players of every game, from every decided game in the archive: the best established players of each."
}
