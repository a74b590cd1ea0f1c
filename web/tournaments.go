package web

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/archive"
	"icepost/pbem/mailgames"
	"icepost/tournament"
)

// The tournaments by mail (docs/tournaments.md): /tournaments lists
// those open to join, running and finished, each with the line that joins
// it by mail; /tournament/ID shows one: its settings in words, the
// standings with their tie-breaks (section by section, then the final),
// and by format the crosstable (round robin), the pairings by round
// (Swiss, and a round robin's games), the bracket (knockout) or the list
// and its challenges (ladder), every game linked to its page by mail.
// The page is read from mailgames.Reader.Tournament, whose state names
// players by stand-ins: a name, never an address, reaches the page. It
// updates itself as the games by mail page does (the live stream, whose
// revision moves with the games and the tournaments), and has an Atom
// feed of its rounds paired and games finished.

// tournamentCard is one tournament in the list.
type tournamentCard struct {
	ID       int64
	Href     string
	Name     string
	Game     string // the game and its options: "Pikemen, the score that wins: 9"
	Format   string // "Swiss, 3 rounds"
	Players  string // "5 players", "3 of 8 players"
	Time     string // "3 days a move"
	Start    string // open: when it starts
	Progress string // running: "round 2 of 3"
	Winners  string // finished: "ada"
	Join     string // the line that joins it by mail; "" when it takes no one
	Mailto   string // a new mail to the server with the line; "" without its address
}

type tournamentsPage struct {
	Address                 string
	Open, Running, Finished []tournamentCard
	Count                   string
}

func (tournamentsPage) description() string {
	return "The tournaments by mail: round robins, Swiss, knockouts and ladders, those open to join (by mail) and those under way or finished."
}

func (s *Site) tournamentsPage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	if s.mail == nil {
		return &notFound{"this site shows no games by mail, and so no tournaments (icepost web -mail-db FILE)"}
	}
	list, err := s.mail.Tournaments(r.Context())
	if err != nil {
		return err
	}
	var tp tournamentsPage
	if tp.Address, err = s.mail.Address(r.Context()); err != nil {
		s.log.Warn("reading the server's address", "err", err)
	}
	n := 0
	for _, t := range list {
		c := tournamentCardOf(t, tp.Address)
		switch t.Status {
		case mailgames.TournamentOpen:
			tp.Open = append(tp.Open, c)
		case mailgames.TournamentRunning:
			tp.Running = append(tp.Running, c)
		case mailgames.Finished:
			tp.Finished = append(tp.Finished, c)
		default:
			continue // cancelled: its page stays, the list leaves it out
		}
		n++
	}
	// Open ones by when they were made, the oldest (the nearest to
	// starting, often) first.
	slices.Reverse(tp.Open)
	tp.Count = plural(n, "tournament", "tournaments")
	return s.ok(w, r, "tournaments", "Tournaments by mail", tp)
}

func tournamentCardOf(t mailgames.TournamentSummary, address string) tournamentCard {
	c := tournamentCard{ID: t.ID, Href: tournamentHref(t.ID), Name: t.Name, Game: gameWithOptions(t.Game, t.Options),
		Format: formatShort(t), Players: playersText(t), Time: daysText(t.Days)}
	switch t.Status {
	case mailgames.TournamentOpen:
		c.Start = startText(t)
	case mailgames.TournamentRunning:
		c.Progress = progressShort(t)
	case mailgames.Finished:
		c.Winners = strings.Join(t.Winners, ", ")
	}
	if joinable(t) {
		c.Join, c.Mailto = joinLine(t.ID, address)
	}
	return c
}

func tournamentHref(id int64) string { return "/tournament/" + strconv.FormatInt(id, 10) }

// joinable: the tournament takes players by mail now (an open one, or a
// ladder under way, at its bottom).
func joinable(t mailgames.TournamentSummary) bool {
	return t.Status == mailgames.TournamentOpen || (t.Status == mailgames.TournamentRunning && t.Format == tournament.Ladder)
}

// joinLine is the mail command that joins tournament id, and a mailto
// link to the server with it ("" without the server's address).
func joinLine(id int64, address string) (line, mailto string) {
	line = "join " + strconv.FormatInt(id, 10)
	if address != "" {
		q := "subject=" + mailtoEscape(line) + "&body=" + mailtoEscape(line)
		mailto = (&url.URL{Scheme: "mailto", Opaque: address, RawQuery: q}).String()
	}
	return line, mailto
}

// gameWithOptions is a game and its options in words: "Pikemen, the
// score that wins: 9".
func gameWithOptions(game string, opts map[string]string) string {
	out := game
	for _, o := range gameOptions(game, optionList(opts)) {
		out += ", " + strings.ToLower(o.Name[:1]) + o.Name[1:] + ": " + o.Value
	}
	return out
}

// optionList is a tournament's game options in the order of their names.
func optionList(opts map[string]string) []mailgames.SeekOption {
	var out []mailgames.SeekOption
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		out = append(out, mailgames.SeekOption{Name: k, Value: opts[k]})
	}
	return out
}

// formatShort is a tournament's format in a few words: "Swiss, 3
// rounds", "double round robin in 2 sections and a final".
func formatShort(t mailgames.TournamentSummary) string {
	o := t.Settings
	switch t.Format {
	case tournament.Swiss:
		return "Swiss, " + plural(o.Rounds, "round", "rounds")
	case tournament.RoundRobin:
		f := "Round robin"
		if o.Double {
			f = "Double round robin"
		}
		if t.Seats > 2 {
			f += fmt.Sprintf(" at tables of %d", t.Seats)
		}
		if o.Sections > 1 {
			f += fmt.Sprintf(" in %d sections", o.Sections)
			if o.Final {
				f += " and a final"
			}
		}
		return f
	case tournament.Knockout:
		return "Knockout, matches of two games"
	case tournament.Ladder:
		return "Ladder"
	}
	return string(t.Format)
}

// formatLong is a tournament's format in sentences, with what its
// settings mean, and its games' deadline.
func formatLong(t mailgames.TournamentSummary) string {
	s := formatRules(t)
	if d := t.Settings.Deadline; d > 0 {
		s += fmt.Sprintf(" A game still under way %s after it began is ended a draw.", plural(d, "day", "days"))
	}
	return s
}

// formatRules is a tournament's format in sentences, with what its
// settings mean.
func formatRules(t mailgames.TournamentSummary) string {
	o := t.Settings
	switch t.Format {
	case tournament.Swiss:
		return fmt.Sprintf("Swiss of %s: each round pairs players of equal scores, no one meets the same opponent twice, seats are balanced, and a bye (an odd player out) counts as a win. The next round is paired when every game of the last has ended.",
			plural(o.Rounds, "round", "rounds"))
	case tournament.RoundRobin:
		var b strings.Builder
		b.WriteString("Round robin: everyone plays everyone")
		if o.Double {
			b.WriteString(" twice, with the seats swapped")
		}
		if t.Seats > 2 {
			fmt.Fprintf(&b, ", at tables of %d where every two players meet and each sits in every seat as often", t.Seats)
		}
		b.WriteString(".")
		if o.Sections > 1 {
			fmt.Fprintf(&b, " The field is cut into %d sections, seeded by rating.", o.Sections)
			if o.Final {
				b.WriteString(" The section winners then play a final, a round robin of their own.")
			}
		}
		if o.ByRounds {
			b.WriteString(" Round by round: a round's games start when the last round's have ended.")
		} else {
			b.WriteString(" All games start at once.")
		}
		return b.String()
	case tournament.Knockout:
		return "Knockout, seeded by rating: each match is two games with the seats swapped; on a tie, one decider in which the lower seed moves first, and if it is drawn too the higher seed goes through. The top seeds have byes when the field is not a power of two."
	case tournament.Ladder:
		reach, days := o.Reach, o.Days
		if reach == 0 {
			reach = tournament.DefaultReach
		}
		if days == 0 {
			days = tournament.DefaultDays
		}
		return fmt.Sprintf("Ladder: a player challenges one at most %s above; the challenger moves first and must win to take the defender's place (the defender and those between move down one). A challenge not answered within %s is lost. New players join at the bottom.",
			plural(reach, "place", "places"), plural(days, "day", "days"))
	}
	return string(t.Format)
}

// playersText is how many play: "5", "3 of 8" while it takes players
// up to a number.
func playersText(t mailgames.TournamentSummary) string {
	if t.Settings.MaxPlayers > 0 && t.Status == mailgames.TournamentOpen {
		return fmt.Sprintf("%d of %d", t.Players, t.Settings.MaxPlayers)
	}
	return strconv.Itoa(t.Players)
}

// startText says when an open tournament starts: "on Mon 7 Dec 2026
// 12:00 UTC", "when 8 players have joined".
func startText(t mailgames.TournamentSummary) string {
	switch {
	case !t.StartsAt.IsZero():
		return "on " + t.StartsAt.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
	case t.WhenFull:
		return fmt.Sprintf("when %d players have joined", t.Settings.MaxPlayers)
	}
	return "when the server's operator starts it"
}

// progressShort is how far a running tournament is, in a few words.
func progressShort(t mailgames.TournamentSummary) string {
	games := fmt.Sprintf("%d of %s ended", t.Ended, plural(t.Paired, "game", "games"))
	switch t.Format {
	case tournament.Swiss:
		return fmt.Sprintf("round %d of %d; %s", t.Rounds, t.Settings.Rounds, games)
	case tournament.Knockout:
		return capitalize(roundName(t.Rounds, knockoutRounds(t.Players))) + "; " + games
	case tournament.Ladder:
		return fmt.Sprintf("%s played, %d under way", plural(t.Ended, "challenge", "challenges"), t.Paired-t.Ended)
	}
	return capitalize(games)
}

// knockoutRounds is the number of rounds of a bracket of n players.
func knockoutRounds(n int) int {
	r := 0
	for p := 1; p < n; p *= 2 {
		r++
	}
	return r
}

// roundName is a knockout round's name: the final, the semi-finals, the
// quarter-finals, round N before them.
func roundName(round, of int) string {
	switch of - round {
	case 0:
		return "the final"
	case 1:
		return "the semi-finals"
	case 2:
		return "the quarter-finals"
	}
	return "round " + strconv.Itoa(round)
}

// The page of one tournament.

type tournamentPage struct {
	ID         int64
	Name       string
	Status     string // open, running, finished, cancelled
	Lead       string // where it stands, in a sentence
	Live       bool   // it may still change: the page follows the stream
	Terms      []seekTerm
	Rules      string // the format in sentences
	Join       string
	Mailto     string
	Address    string
	Entrants   []string // before the start: who has joined
	Groups     []standingsGroup
	Rounds     []roundView
	RoundsOpen bool // the rounds' list is shown open
	Bracket    []bracketRound
	Ladder     *ladderView
	Archive    string // the search of its games in the archive; "" when it holds none
	Archived   string // "3 games"
	Format     tournament.Format
}

func (p tournamentPage) description() string {
	return "The tournament " + p.Name + " by mail: its settings, standings and games."
}

func (p tournamentPage) Feed() *feedLink {
	return &feedLink{Href: tournamentHref(p.ID) + "/feed", Title: "this tournament's rounds and results"}
}

// standingsGroup is one table of standings: the whole event, a section
// or the final.
type standingsGroup struct {
	Title  string // "Standings", "Section 2", "Final"
	Anchor string // its id in the page
	Ties   []tieHead
	Order  string // how the rows are ordered, in words
	Rows   []standingsRow
	Cross  []crossRow // a round robin's crosstable; nil for the others
	Tables bool       // the crosstable's games are at tables of three or four
	Kind   string     // "points", "knockout", "ladder": which columns
}

// tieHead is a tie-break's column: its short name, its long one where
// they differ (an abbr's title), and its name in a sentence.
type tieHead struct{ Short, Long, Words string }

type standingsRow struct {
	Rank   string // "1", "2=" for a shared place
	Name   string
	Seed   int
	Points string
	Played int
	Wins   int
	Ties   []string
	Note   string // "withdrew", "withdrew; games annulled"
	Out    string // knockout: how far they went
}

// crossRow is a row of the crosstable: the player, then a cell against
// each row's player (in the same order), then the points.
type crossRow struct {
	N      int
	Name   string
	Points string
	Cells  []crossCell
}

type crossCell struct {
	Self    bool
	Against string // the column's player
	Marks   []crossMark
}

// crossMark is one game in a crosstable cell: 1, ½, 0 (+ = - for a
// forfeit, * under way), linked to its game by mail.
type crossMark struct {
	Text  string
	Href  string
	Title string
}

// roundView is one round's games.
type roundView struct {
	Round  int
	Title  string
	Anchor string
	Games  []pairingView
}

type pairingView struct {
	Tag     string // "2.3"
	Board   int
	Group   string // "Section 2", "Final"
	Seats   []seatView
	Bye     bool
	Result  string // "1–0", "½–½", "1 · ⅔ · ⅓ · 0"; "" while it runs
	State   string // "under way, ply 12", "ended", "annulled", "forfeit", ...
	Href    string // its page by mail; "" when it has none
	Number  int64  // its number by mail
	Ongoing bool   // under way
	Moves   string // under way: "no move yet", "12 plies"
}

type seatView struct {
	Name   string
	Points string // once ended
	Won    bool
}

// bracketRound is one round of a knockout.
type bracketRound struct {
	Title   string
	Anchor  string
	Matches []matchView
}

type matchView struct {
	Sides []matchSide
	Games []pairingView
	Note  string // "bye", "walkover", "decider under way", ...
}

type matchSide struct {
	Name   string // "" not yet known
	Seed   int
	Points string
	Winner bool
}

// ladderView is a ladder's list and its challenges.
type ladderView struct {
	Climb       string // the mail command: "climb 4 PLACE"
	Defend      string // the mail command: "defend 4"
	Reach       int
	Days        int
	Open        []challengeView
	Playing     []challengeView
	Decided     []challengeView
	MoreDecided int // decided challenges left out (the latest are shown)
}

type challengeView struct {
	Number int
	Text   string
	When   string
	Href   string // its game by mail
	Game   int64
}

// maxDecided is how many decided challenges a ladder's page lists.
const maxDecided = 20

func (s *Site) tournamentPage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	if s.mail == nil {
		return &notFound{"this site shows no games by mail, and so no tournaments (icepost web -mail-db FILE)"}
	}
	id, err := tournamentID(r)
	if err != nil {
		return err
	}
	mt, err := s.mail.Tournament(r.Context(), id)
	if err != nil {
		return err
	}
	tp := tournamentPage{ID: id, Name: mt.Name, Status: mt.Status, Format: mt.Format,
		Live: mt.Status == mailgames.TournamentOpen || mt.Status == mailgames.TournamentRunning}
	if tp.Address, err = s.mail.Address(r.Context()); err != nil {
		s.log.Warn("reading the server's address", "err", err)
	}
	if joinable(mt.TournamentSummary) {
		tp.Join, tp.Mailto = joinLine(id, tp.Address)
	}
	tp.Terms, tp.Rules = tournamentTerms(mt), formatLong(mt.TournamentSummary)
	tp.Lead = tournamentLead(mt)
	t := mt.T
	v := newTournamentView(mt)
	if !t.Started {
		for _, pl := range t.Players {
			tp.Entrants = append(tp.Entrants, mt.Names[pl.ID])
		}
	} else {
		tp.Groups = v.standings()
		switch t.Format {
		case tournament.Knockout:
			tp.Bracket = v.bracket()
		case tournament.Ladder:
			tp.Ladder = v.ladder()
		default:
			tp.Rounds = v.rounds()
			tp.RoundsOpen = t.Format == tournament.Swiss || len(t.Games) <= 40
		}
	}
	// Its games in the archive: those whose Event is its name exactly
	// (the search's event finds names that contain the words, and "Club
	// Ladder" would bring the club's ladder of before).
	if n, err := s.archive.Count(r.Context(), archive.Query{Tags: []archive.TagFilter{{Name: "Event", Value: mt.Name}}}); err != nil {
		s.log.Warn("counting a tournament's games in the archive", "tournament", id, "err", err)
	} else if n > 0 {
		tp.Archive = "/search?tag=" + strings.ReplaceAll(url.QueryEscape("Event="+mt.Name), "+", "%20")
		tp.Archived = plural(n, "game", "games")
	}
	return s.ok(w, r, "tournament", mt.Name+": a tournament by mail", tp)
}

// tournamentID is the page's tournament number.
func tournamentID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, &notFound{fmt.Sprintf("%q is not a tournament's number", clip(r.PathValue("id")))}
	}
	return id, nil
}

// tournamentTerms are a tournament's settings in words.
func tournamentTerms(mt mailgames.Tournament) []seekTerm {
	terms := []seekTerm{{"Game", mt.Game}}
	terms = append(terms, gameOptions(mt.Game, optionList(mt.Options))...)
	terms = append(terms, seekTerm{"Format", formatShort(mt.TournamentSummary)})
	seats := "2"
	if mt.Seats > 2 {
		seats = fmt.Sprintf("%d: a game's points go by placing, 1 for first and 0 for last, those between in equal steps", mt.Seats)
	}
	terms = append(terms, seekTerm{"Players a game", seats}, seekTerm{"Time", daysText(mt.Days)}, seekTerm{"Players", playersText(mt.TournamentSummary)})
	if mt.Status == mailgames.TournamentOpen {
		terms = append(terms, seekTerm{"Start", capitalize(startText(mt.TournamentSummary))})
	}
	return terms
}

// tournamentLead says where a tournament stands.
func tournamentLead(mt mailgames.Tournament) string {
	t := mt.T
	switch mt.Status {
	case mailgames.TournamentOpen:
		return fmt.Sprintf("Open to join: %s so far; it starts %s.", plural(len(t.Players), "player has joined", "players have joined"), startText(mt.TournamentSummary))
	case mailgames.Cancelled:
		return "Cancelled by the server's operator: no more games are paired, and those under way go on as games by mail without counting for it."
	case mailgames.Finished:
		if len(mt.Winners) > 0 {
			return "Finished: won by " + strings.Join(mt.Winners, " and ") + "."
		}
		return "Finished."
	}
	ended, games := 0, 0
	for _, g := range t.Games {
		if g.Bye || g.Annulled {
			continue
		}
		games++
		if g.Result != nil {
			ended++
		}
	}
	switch t.Format {
	case tournament.Swiss:
		return fmt.Sprintf("Running: round %d of %d; %d of its %s ended.", t.Rounds(), t.Options.Rounds, roundEnded(t, t.Rounds()), plural(roundGames(t, t.Rounds()), "game has", "games have"))
	case tournament.Knockout:
		return "Running: " + roundName(currentKnockoutRound(t), knockoutRounds(len(t.Players))) + fmt.Sprintf("; %d of %s ended.", ended, plural(games, "game has", "games have"))
	case tournament.Ladder:
		return fmt.Sprintf("Running: %s on the ladder; challenges are made by mail.", plural(mt.Players, "player", "players"))
	}
	return fmt.Sprintf("Running: %d of %s ended.", ended, plural(games, "game has", "games have"))
}

// roundGames and roundEnded count a round's games (not byes or annulled
// ones), and those of them with a result.
func roundGames(t *tournament.Tournament, round int) int {
	n := 0
	for _, g := range t.Round(round) {
		if !g.Bye && !g.Annulled {
			n++
		}
	}
	return n
}

func roundEnded(t *tournament.Tournament, round int) int {
	n := 0
	for _, g := range t.Round(round) {
		if !g.Bye && !g.Annulled && g.Result != nil {
			n++
		}
	}
	return n
}

// currentKnockoutRound is the first round with a match not decided.
func currentKnockoutRound(t *tournament.Tournament) int {
	b := t.Bracket()
	for _, br := range b {
		for _, m := range br.Matches {
			if m.Winner == "" {
				return br.Round
			}
		}
	}
	return len(b)
}

// tournamentView turns a tournament's state into the page's parts.
type tournamentView struct {
	mt mailgames.Tournament
	// points are each game's points by player, from the standings
	// (package tournament's rule by placing), and forfeit whether the
	// game was decided without play.
	points  map[string]map[string]tournament.Points
	forfeit map[string]bool
	groups  []tournament.Group
}

func newTournamentView(mt mailgames.Tournament) *tournamentView {
	v := &tournamentView{mt: mt, points: map[string]map[string]tournament.Points{}, forfeit: map[string]bool{}}
	if !mt.T.Started {
		return v
	}
	v.groups = mt.T.Standings()
	for _, g := range v.groups {
		for _, r := range g.Rows {
			for _, e := range r.Games {
				if !e.Ended || e.Bye {
					continue
				}
				tag := tournament.Game{Round: e.Round, Board: e.Board}.Tag()
				if v.points[tag] == nil {
					v.points[tag] = map[string]tournament.Points{}
				}
				v.points[tag][r.Player] = e.Points
				v.forfeit[tag] = v.forfeit[tag] || e.Forfeit
			}
		}
	}
	return v
}

func (v *tournamentView) name(id string) string {
	if n, ok := v.mt.Names[id]; ok {
		return n
	}
	return "?"
}

var tieHeads = map[string]tieHead{
	tournament.TieSonnebornBerger: {"SB", "Sonneborn-Berger", "Sonneborn-Berger"},
	tournament.TieBuchholz:        {"Buchholz", "", "Buchholz"},
	tournament.TieMedianBuchholz:  {"Median", "median Buchholz", "median Buchholz"},
	tournament.TieDirect:          {"Direct", "the direct encounter", "the direct encounter"},
	tournament.TieWins:            {"Wins", "", "wins"},
}

func tieValue(r tournament.Row, tb string) string {
	switch tb {
	case tournament.TieSonnebornBerger:
		return r.SonnebornBerger.String()
	case tournament.TieBuchholz:
		return r.Buchholz.String()
	case tournament.TieMedianBuchholz:
		return r.MedianBuchholz.String()
	case tournament.TieDirect:
		return r.Direct.String()
	case tournament.TieWins:
		return strconv.Itoa(r.Wins)
	}
	return ""
}

// standings are the tables, each with its tie-breaks and, for a round
// robin, its crosstable.
func (v *tournamentView) standings() []standingsGroup {
	t := v.mt.T
	var out []standingsGroup
	for i, g := range v.groups {
		sg := standingsGroup{Title: g.Name, Anchor: "standings", Kind: "points", Tables: t.Seats > 2}
		switch {
		case g.Final:
			sg.Anchor = "final"
		case g.Section > 0:
			sg.Anchor = "section-" + strconv.Itoa(g.Section)
		}
		if sg.Title == "" {
			sg.Title = "Standings"
		}
		switch t.Format {
		case tournament.Knockout:
			sg.Kind = "knockout"
			sg.Order = "Ranked by how far each player went; players knocked out in the same round share a place."
		case tournament.Ladder:
			sg.Kind, sg.Title = "ladder", "The ladder"
			sg.Order = "The ladder from the top: a challenger who wins takes the defender's place."
		default:
			var words []string
			for _, tb := range g.TieBreaks {
				h := tieHeads[tb]
				sg.Ties = append(sg.Ties, h)
				words = append(words, h.Words)
			}
			sg.Order = "Ordered by points (1 a win, ½ a draw"
			if t.Seats > 2 {
				sg.Order = "Ordered by points (by placing: 1 first, 0 last"
			}
			sg.Order += "), then " + strings.Join(words, ", then ") + ", then the seed."
		}
		for k, r := range g.Rows {
			row := standingsRow{Rank: strconv.Itoa(r.Rank), Name: v.name(r.Player), Seed: r.Seed, Points: r.Points.String(), Played: r.Played, Wins: r.Wins}
			if (k > 0 && g.Rows[k-1].Rank == r.Rank) || (k+1 < len(g.Rows) && g.Rows[k+1].Rank == r.Rank) {
				row.Rank += "="
			}
			for _, tb := range g.TieBreaks {
				row.Ties = append(row.Ties, tieValue(r, tb))
			}
			switch {
			case r.Annulled:
				row.Note = "withdrew; games annulled"
			case r.Withdrawn:
				row.Note = "withdrew"
			}
			if t.Format == tournament.Knockout {
				row.Out = v.knockoutOut(r)
			}
			sg.Rows = append(sg.Rows, row)
		}
		if t.Format == tournament.RoundRobin {
			sg.Cross = v.cross(v.groups[i])
		}
		out = append(out, sg)
	}
	return out
}

// knockoutOut says how far a knockout player went.
func (v *tournamentView) knockoutOut(r tournament.Row) string {
	t := v.mt.T
	of := knockoutRounds(len(t.Players))
	switch {
	case r.Out > 0:
		return "out in " + roundName(r.Out, of)
	case t.Done():
		return "won"
	case r.Withdrawn:
		return "withdrew"
	}
	return "still in"
}

// cross is a group's crosstable, each game's mark linked to its game by
// mail. The marks are package tournament's (Group.Cross); the games they
// stand for are each pair's, in round order, as it writes them.
func (v *tournamentView) cross(g tournament.Group) []crossRow {
	var out []crossRow
	for i, r := range g.Rows {
		cr := crossRow{N: i + 1, Name: v.name(r.Player), Points: r.Points.String()}
		for j, o := range g.Rows {
			cell := crossCell{Self: i == j, Against: v.name(o.Player)}
			if i != j && i < len(g.Cross) && j < len(g.Cross[i]) && g.Cross[i][j] != "" {
				marks := strings.Fields(g.Cross[i][j])
				var games []tournament.Entry
				for _, e := range r.Games {
					if !e.Bye && !e.Annulled && slices.Contains(e.Opponents, o.Player) {
						games = append(games, e)
					}
				}
				slices.SortStableFunc(games, func(a, b tournament.Entry) int { return cmp.Compare(a.Round, b.Round) })
				for k, m := range marks {
					cm := crossMark{Text: m}
					if len(games) == len(marks) {
						e := games[k]
						tag := tournament.Game{Round: e.Round, Board: e.Board}.Tag()
						cm.Title = fmt.Sprintf("Round %d, %s against %s: %s", e.Round, cr.Name, cell.Against, markWords(m, v.mt.Seats))
						if gm, ok := v.mt.Games[tag]; ok {
							cm.Href = "/live/" + strconv.FormatInt(gm.ID, 10)
						}
					}
					cell.Marks = append(cell.Marks, cm)
				}
			}
			cr.Cells = append(cr.Cells, cell)
		}
		out = append(out, cr)
	}
	return out
}

// markWords says what a crosstable's mark means; at a table of three
// or four, what a player scored against another there: ahead, level or
// behind.
func markWords(m string, seats int) string {
	if seats > 2 {
		switch m {
		case "1":
			return "placed ahead"
		case "½":
			return "placed level"
		case "0":
			return "placed behind"
		}
	}
	switch m {
	case "1":
		return "won"
	case "½":
		return "drew"
	case "0":
		return "lost"
	case "+":
		return "won by forfeit"
	case "=":
		return "drew by forfeit"
	case "-":
		return "lost by forfeit"
	case "*":
		return "under way"
	}
	return m
}

// movesText is how far a game under way is: "no move yet", "12 plies".
func movesText(ply int) string {
	if ply == 0 {
		return "no move yet"
	}
	return plural(ply, "ply", "plies")
}

// pairing is one game as the pairings, the bracket and the ladder show
// it.
func (v *tournamentView) pairing(g tournament.Game) pairingView {
	tag := g.Tag()
	p := pairingView{Tag: tag, Board: g.Board, Bye: g.Bye}
	switch {
	case g.Final:
		p.Group = "Final"
	case g.Section > 0 && v.mt.Settings.Sections > 1:
		p.Group = "Section " + strconv.Itoa(g.Section)
	}
	pts := v.points[tag]
	var best tournament.Points = -1
	for _, id := range g.Players {
		if pt, ok := pts[id]; ok && pt > best {
			best = pt
		}
	}
	// A seat won when it placed first alone.
	alone := g.Result != nil && slices.Index(g.Result.Places, 1) >= 0 &&
		!slices.Contains(g.Result.Places[slices.Index(g.Result.Places, 1)+1:], 1)
	var res []string
	for _, id := range g.Players {
		sv := seatView{Name: v.name(id)}
		if pt, ok := pts[id]; ok && g.Result != nil && !g.Annulled {
			sv.Points = pt.String()
			sv.Won = alone && pt == best
			res = append(res, sv.Points)
		}
		p.Seats = append(p.Seats, sv)
	}
	if gm, ok := v.mt.Games[tag]; ok {
		p.Href, p.Number = "/live/"+strconv.FormatInt(gm.ID, 10), gm.ID
	}
	gm, started := v.mt.Games[tag]
	switch {
	case g.Bye:
		p.State = "bye"
	case g.Annulled:
		p.State = "annulled"
	case g.Result != nil && v.forfeit[tag]:
		p.State = "forfeit"
	case g.Result != nil:
		p.State = "ended"
	case started && gm.Status == mailgames.Active:
		p.State, p.Ongoing, p.Moves = "under way, "+movesText(gm.Ply), true, movesText(gm.Ply)
	case started && gm.Status == mailgames.Finished:
		p.State = "ended; the result counts within a minute"
	case started:
		p.State = gm.Status
	default:
		p.State = "not started"
	}
	if len(res) == len(g.Players) {
		sep := "–"
		if len(res) > 2 {
			sep = " · "
		}
		p.Result = strings.Join(res, sep)
	}
	return p
}

// rounds are the pairings by round.
func (v *tournamentView) rounds() []roundView {
	t := v.mt.T
	var out []roundView
	for r := 1; r <= t.Rounds(); r++ {
		rv := roundView{Round: r, Title: "Round " + strconv.Itoa(r), Anchor: "round-" + strconv.Itoa(r)}
		for _, g := range t.Round(r) {
			rv.Games = append(rv.Games, v.pairing(g))
		}
		if len(rv.Games) > 0 {
			out = append(out, rv)
		}
	}
	return out
}

// bracket is a knockout's rounds of matches.
func (v *tournamentView) bracket() []bracketRound {
	t := v.mt.T
	b := t.Bracket()
	var out []bracketRound
	for _, br := range b {
		bv := bracketRound{Title: capitalize(strings.TrimPrefix(roundName(br.Round, len(b)), "the ")), Anchor: "round-" + strconv.Itoa(br.Round)}
		for _, m := range br.Matches {
			mv := matchView{}
			for k := range 2 {
				side := matchSide{Name: v.name(m.Players[k]), Seed: m.Seeds[k], Winner: m.Winner != "" && m.Winner == m.Players[k]}
				if m.Players[k] == "" {
					side.Name = ""
				}
				if len(m.Games) > 0 && k < len(m.Points) {
					side.Points = m.Points[k].String()
				}
				mv.Sides = append(mv.Sides, side)
			}
			for _, g := range m.Games {
				mv.Games = append(mv.Games, v.pairing(g))
			}
			switch {
			case m.Bye:
				mv.Note = "a bye: through without playing"
			case m.Walkover:
				mv.Note = "a walkover: the opponent withdrew"
			case m.Winner != "":
			case m.Players[0] == "" || m.Players[1] == "":
				mv.Note = "waiting for the round before"
			case len(m.Games) == 3:
				mv.Note = "level after two games: a decider"
			}
			bv.Matches = append(bv.Matches, mv)
		}
		out = append(out, bv)
	}
	return out
}

// ladder is a ladder's challenges (the list is its standings).
func (v *tournamentView) ladder() *ladderView {
	t := v.mt.T
	lv := &ladderView{Climb: fmt.Sprintf("climb %d PLACE", v.mt.ID), Defend: fmt.Sprintf("defend %d", v.mt.ID), Reach: cmp.Or(t.Options.Reach, tournament.DefaultReach), Days: cmp.Or(t.Options.Days, tournament.DefaultDays)}
	place := func(id string) int { return slices.Index(t.Ladder, id) + 1 }
	day := func(at time.Time) string { return at.UTC().Format("Mon 2 Jan 2006 15:04 UTC") }
	var decided []challengeView
	for _, c := range t.Challenges {
		cv := challengeView{Number: c.Number}
		ch, de := v.name(c.Challenger), v.name(c.Defender)
		tag := tournament.Game{Round: c.Number, Board: 1}.Tag()
		if gm, ok := v.mt.Games[tag]; ok {
			cv.Href, cv.Game = "/live/"+strconv.FormatInt(gm.ID, 10), gm.ID
		}
		switch c.State {
		case tournament.ChallengeOpen:
			cv.Text = fmt.Sprintf("%s challenges %s (place %d)", ch, de, place(c.Defender))
			cv.When = fmt.Sprintf("issued %s; %s answers by %s (defend %d)", day(c.Issued), de, day(c.Issued.AddDate(0, 0, lv.Days)), v.mt.ID)
			lv.Open = append(lv.Open, cv)
		case tournament.ChallengePlaying:
			cv.Text = fmt.Sprintf("%s against %s (place %d)", ch, de, place(c.Defender))
			cv.When = "accepted " + day(c.Answered)
			if g, ok := v.mt.Games[tag]; ok && g.Status == mailgames.Active {
				cv.When += "; under way, " + movesText(g.Ply)
			}
			lv.Playing = append(lv.Playing, cv)
		case tournament.ChallengeDecided:
			switch c.Winner {
			case c.Challenger:
				cv.Text = fmt.Sprintf("%s beat %s and took their place", ch, de)
			case c.Defender:
				cv.Text = fmt.Sprintf("%s held their place against %s", de, ch)
			default:
				cv.Text = fmt.Sprintf("%s and %s drew: %s kept their place", ch, de, de)
			}
			decided = append(decided, cv)
		case tournament.ChallengeExpired:
			cv.Text = fmt.Sprintf("%s did not answer %s in time: %s took their place", de, ch, ch)
			decided = append(decided, cv)
		case tournament.ChallengeCancelled:
			cv.Text = fmt.Sprintf("%s against %s: cancelled (a player withdrew)", ch, de)
			decided = append(decided, cv)
		}
	}
	slices.Reverse(decided)
	if len(decided) > maxDecided {
		lv.MoreDecided = len(decided) - maxDecided
		decided = decided[:maxDecided]
	}
	lv.Decided = decided
	return lv
}

// The tournament's feed: an entry for each pairing (the games that
// started together: a round, all the rounds of a round robin played at
// once, a knockout's match or decider, a ladder's challenge accepted),
// for each game that ended with its result counted, and for its end.

// maxPairingNames bounds the games a pairing's entry names.
const maxPairingNames = 24

func (s *Site) tournamentFeed(w http.ResponseWriter, r *http.Request) error {
	if s.mail == nil {
		return &notFound{"this site shows no games by mail, and so no tournaments (icepost web -mail-db FILE)"}
	}
	id, err := tournamentID(r)
	if err != nil {
		return err
	}
	rev, err := s.mail.Revision(r.Context())
	if err != nil {
		return err
	}
	return s.serveFeed(w, r, rev, func(ctx context.Context) (feed, error) {
		mt, err := s.mail.Tournament(ctx, id)
		if err != nil {
			return feed{}, err
		}
		page := tournamentHref(id)
		f := feed{id: page[1:] + "/feed", title: "icepost: " + mt.Name, path: page,
			subtitle: "The rounds paired and the games finished of the tournament " + mt.Name + " by mail."}
		f.entries = tournamentEntries(mt)
		return f, nil
	})
}

// tournamentEntries are a tournament's events, oldest first, the latest
// maxFeedEntries of them.
func tournamentEntries(mt mailgames.Tournament) []feedEntry {
	t := mt.T
	if !t.Started {
		return nil
	}
	v := newTournamentView(mt)
	base := "tournament/" + strconv.FormatInt(mt.ID, 10)
	page := tournamentHref(mt.ID)
	// The games paired together: a round (a round robin's stage when all
	// its games start at once), a knockout's match or its decider, a
	// ladder's challenge; each at the time its first game began.
	key := func(g tournament.Game) string {
		switch {
		case t.Format == tournament.Knockout:
			return fmt.Sprintf("%d.%d.%t", g.Round, g.Match, g.Board%3 == 0)
		case t.Format == tournament.RoundRobin && !t.Options.ByRounds:
			return fmt.Sprint(g.Final)
		case t.Format == tournament.RoundRobin:
			return fmt.Sprintf("%t.%d.%d", g.Final, g.Section, g.Round)
		}
		return strconv.Itoa(g.Round)
	}
	type batch struct {
		at    time.Time
		seq   int // its first game's place in t.Games
		games []tournament.Game
	}
	// seq orders events of one second as they happened: a game's end
	// after its pairing and before the pairing of the games after it.
	seq := map[string]int{}
	var batches []*batch
	byKey := map[string]*batch{}
	var ended []feedEntry
	for i, g := range t.Games {
		gm, ok := mt.Games[g.Tag()]
		if !ok {
			continue // a bye, or decided without a game
		}
		b := byKey[key(g)]
		if b == nil {
			b = &batch{at: gm.Started, seq: 2 * i}
			byKey[key(g)] = b
			batches = append(batches, b)
		}
		if gm.Started.Before(b.at) {
			b.at = gm.Started
		}
		b.games = append(b.games, g)
		if g.Result == nil || g.Annulled {
			continue
		}
		p := v.pairing(g)
		var names []string
		for _, sv := range p.Seats {
			names = append(names, sv.Name)
		}
		title := fmt.Sprintf("%s, %s: %s, %s", mt.Name, gameLabel(t, g), strings.Join(names, " – "), p.Result)
		sum := fmt.Sprintf("%s, game by mail #%d: %s, %s", capitalize(gameLabel(t, g)), gm.ID, strings.Join(names, " – "), p.Result)
		if p.State == "forfeit" {
			sum += " (forfeit)"
		}
		end := gm.Changed
		if end.IsZero() {
			end = gm.Started
		}
		ended = append(ended, feedEntry{id: base + "/game/" + g.Tag(), title: title, summary: sum + ".",
			path: "/live/" + strconv.FormatInt(gm.ID, 10), at: end})
		seq[base+"/game/"+g.Tag()] = 2*i + 1
	}
	var out []feedEntry
	for _, b := range batches {
		rounds := map[int]bool{}
		var lines []string
		for i, g := range b.games {
			rounds[g.Round] = true
			if i < maxPairingNames {
				var names []string
				for _, id := range g.Players {
					names = append(names, v.name(id))
				}
				lines = append(lines, capitalize(gameLabel(t, g))+": "+strings.Join(names, " – "))
			}
		}
		if n := len(b.games) - maxPairingNames; n > 0 {
			lines = append(lines, "and "+plural(n, "game more", "games more"))
		}
		first := b.games[0]
		var what string
		switch {
		case t.Format == tournament.Ladder:
			what = fmt.Sprintf("challenge %d begins", first.Round)
		case t.Format == tournament.Knockout && first.Board%3 == 0:
			what = fmt.Sprintf("%s, match %d: the decider begins", roundName(first.Round, knockoutRounds(len(t.Players))), first.Match)
		case t.Format == tournament.Knockout:
			what = fmt.Sprintf("%s, match %d begins", roundName(first.Round, knockoutRounds(len(t.Players))), first.Match)
		case len(rounds) == 1:
			what = fmt.Sprintf("round %d paired", first.Round)
		default:
			what = fmt.Sprintf("%s paired, %s at once", plural(len(rounds), "round", "rounds"), plural(len(b.games), "game", "games"))
		}
		if first.Final {
			what = "the final: " + what
		} else if first.Section > 0 && t.Options.ByRounds {
			what = fmt.Sprintf("section %d, %s", first.Section, what)
		}
		out = append(out, feedEntry{id: base + "/paired/" + first.Tag(), title: mt.Name + ": " + what,
			summary: strings.Join(lines, "; ") + ".", path: page + "#" + pairingAnchor(t, first), at: b.at})
		seq[base+"/paired/"+first.Tag()] = b.seq
	}
	out = append(out, ended...)
	if mt.Status == mailgames.Finished {
		title, sum := mt.Name+" has ended", "The tournament "+mt.Name+" has ended."
		if len(mt.Winners) > 0 {
			title += ": won by " + strings.Join(mt.Winners, " and ")
			sum = "The tournament " + mt.Name + " has ended: " + strings.Join(mt.Winners, " and ") + " won."
		}
		out = append(out, feedEntry{id: base + "/end", title: title, summary: sum, path: page, at: mt.Updated})
		seq[base+"/end"] = 2 * len(t.Games)
	}
	slices.SortStableFunc(out, func(a, b feedEntry) int { return cmp.Or(a.at.Compare(b.at), cmp.Compare(seq[a.id], seq[b.id])) })
	return out[max(0, len(out)-maxFeedEntries):]
}

// gameLabel names a tournament's game in words: "round 2, game 3",
// "the final, match 1, game 2", "challenge 4".
func gameLabel(t *tournament.Tournament, g tournament.Game) string {
	switch t.Format {
	case tournament.Ladder:
		return "challenge " + strconv.Itoa(g.Round)
	case tournament.Knockout:
		n := "game " + strconv.Itoa((g.Board-1)%3+1)
		if g.Board%3 == 0 {
			n = "the decider"
		}
		return fmt.Sprintf("%s, match %d, %s", roundName(g.Round, knockoutRounds(len(t.Players))), g.Match, n)
	}
	return fmt.Sprintf("round %d, game %d", g.Round, g.Board)
}

// pairingAnchor is where the page shows a game's round.
func pairingAnchor(t *tournament.Tournament, g tournament.Game) string {
	if t.Format == tournament.Ladder {
		return "challenges"
	}
	return "round-" + strconv.Itoa(g.Round)
}
