package tournament

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Group is one table of standings: a whole tournament, or a round
// robin's section or final.
type Group struct {
	Name    string `json:"name"`              // "", "Section 2", "Final"
	Section int    `json:"section,omitempty"` // round robin with sections: from 1
	Final   bool   `json:"final,omitempty"`
	// TieBreaks name the Row fields (by their JSON names) that order rows
	// of equal points, in turn; after them, the seed does.
	TieBreaks []string `json:"tieBreaks"`
	Rows      []Row    `json:"rows"`
	// Cross (round robins) is the crosstable: Cross[i][j] is what row i's
	// player scored against row j's, game by game in round order, joined
	// by spaces ("1", "½", "0"; "+", "=", "-" for a forfeit; "*" for a
	// game under way); empty on the diagonal and where they have no game.
	Cross [][]string `json:"cross,omitempty"`
}

// Row is a player's line in a Group.
type Row struct {
	// Rank is from 1; rows equal in points and in every tie-break share
	// it (1, 2, 2, 4).
	Rank   int    `json:"rank"`
	Player string `json:"player"`
	Seed   int    `json:"seed"`
	Points Points `json:"points"`
	// Played are the games that count, finished (forfeits included;
	// byes and annulled games not).
	Played int `json:"played"`
	// Wins are the games won outright (first place alone), forfeits
	// included.
	Wins int `json:"wins"`
	Byes int `json:"byes,omitempty"`
	// SonnebornBerger: for each game, each other player's points times
	// what the player scored against them (1 ahead, ½ level, 0 behind).
	SonnebornBerger Points `json:"sonnebornBerger"`
	// Buchholz: the opponents' points added up (a bye counts as an
	// opponent with the player's own points); MedianBuchholz the same
	// without the highest and the lowest, when there are three or more.
	Buchholz       Points `json:"buchholz"`
	MedianBuchholz Points `json:"medianBuchholz"`
	// Direct is what the player scored against the others tied with them
	// on points and the tie-breaks before it, when all of those have met;
	// 0 otherwise.
	Direct Points `json:"direct"`
	// Out (knockout) is the round the player was knocked out in; 0 for
	// the winner and those still in.
	Out       int  `json:"out,omitempty"`
	Withdrawn bool `json:"withdrawn,omitempty"`
	// Annulled: the player withdrew and every game of theirs here is
	// annulled; such rows come last.
	Annulled bool    `json:"annulled,omitempty"`
	Games    []Entry `json:"games"`
}

// Entry is one of a player's games, for a crosstable or a list of
// pairings by round.
type Entry struct {
	Round     int      `json:"round"`
	Board     int      `json:"board"`
	Seat      int      `json:"seat,omitempty"` // from 1; 0 for a bye
	Opponents []string `json:"opponents,omitempty"`
	Bye       bool     `json:"bye,omitempty"`
	Ended     bool     `json:"ended,omitempty"` // it has a result (or is a bye)
	Points    Points   `json:"points"`          // the player's, once ended
	Forfeit   bool     `json:"forfeit,omitempty"`
	Annulled  bool     `json:"annulled,omitempty"`
}

// The tie-breaks, by the JSON names of Row's fields.
const (
	TieSonnebornBerger = "sonnebornBerger"
	TieBuchholz        = "buchholz"
	TieMedianBuchholz  = "medianBuchholz"
	TieDirect          = "direct"
	TieWins            = "wins"
)

// Standings are the tables of the tournament so far: one for a Swiss, a
// knockout or a ladder; one per section of a round robin, and the final's
// once it is paired. Points: 1 a win, ½ a draw, and at tables of three or
// four by placing (pointsOf). Ties: a round robin by Sonneborn-Berger,
// the direct encounter, wins; a Swiss by Buchholz, median Buchholz, the
// direct encounter, wins; then the seed. A knockout ranks by how far each
// player went, a ladder by its list.
func (t *Tournament) Standings() []Group {
	switch t.Format {
	case RoundRobin:
		var out []Group
		k := max(1, t.Options.Sections)
		for s, ids := range t.sectionIDs() {
			section := 0
			name := ""
			if k > 1 {
				section, name = s+1, "Section "+strconv.Itoa(s+1)
			}
			games := filter(t.Games, func(g Game) bool { return !g.Final && g.Section == section })
			g := t.group(ids, games, 0, TieSonnebornBerger, TieDirect, TieWins)
			g.Name, g.Section = name, section
			out = append(out, g)
		}
		if len(t.Finalists) > 0 {
			games := filter(t.Games, func(g Game) bool { return g.Final })
			g := t.group(seeded(t.playersOf(t.Finalists)), games, 0, TieSonnebornBerger, TieDirect, TieWins)
			g.Name, g.Final = "Final", true
			out = append(out, g)
		}
		return out
	case Swiss:
		return []Group{t.group(seeded(t.Players), t.Games, Unit, TieBuchholz, TieMedianBuchholz, TieDirect, TieWins)}
	case Knockout:
		return []Group{t.knockoutGroup()}
	case Ladder:
		return []Group{t.ladderGroup()}
	}
	return nil
}

func filter(games []Game, keep func(Game) bool) []Game {
	var out []Game
	for _, g := range games {
		if keep(g) {
			out = append(out, g)
		}
	}
	return out
}

// tally is a Row's numbers from these games, before the ones that need
// everyone's points.
func (t *Tournament) tally(ids []string, games []Game, byeWorth Points) []Row {
	rows := make([]Row, len(ids))
	for i, id := range ids {
		p := t.Players[t.player(id)]
		r := Row{Player: id, Seed: p.Seed, Withdrawn: p.Withdrawn, Games: []Entry{}}
		mine, annulled := 0, 0
		for _, g := range games {
			s := g.seat(id)
			if s < 0 {
				continue
			}
			e := Entry{Round: g.Round, Board: g.Board, Bye: g.Bye, Annulled: g.Annulled}
			mine++
			switch {
			case g.Bye:
				e.Ended, e.Points = true, byeWorth
				r.Points += byeWorth
				r.Byes++
			default:
				e.Seat = s + 1
				for _, o := range g.Players {
					if o != id {
						e.Opponents = append(e.Opponents, o)
					}
				}
				if g.Annulled {
					annulled++
				}
				if g.Result != nil {
					e.Ended, e.Forfeit = true, g.Result.Forfeit
					e.Points = pointsOf(*g.Result)[s]
				}
				if g.counted() {
					r.Points += e.Points
					r.Played++
					if won(*g.Result, s) {
						r.Wins++
					}
				}
			}
			r.Games = append(r.Games, e)
		}
		r.Annulled = p.Withdrawn && annulled > 0 && annulled == mine-r.Byes
		rows[i] = r
	}
	return rows
}

// group is the standings of these players (by seed) over these games,
// ordered by points and then the tie-breaks named.
func (t *Tournament) group(ids []string, games []Game, byeWorth Points, ties ...string) Group {
	rows := t.tally(ids, games, byeWorth)
	points := map[string]Points{}
	for _, r := range rows {
		points[r.Player] = r.Points
	}
	for i := range rows {
		r := &rows[i]
		var opp []Points
		for _, g := range games {
			s := g.seat(r.Player)
			switch {
			case s < 0:
			case g.Bye:
				opp = append(opp, r.Points)
			case g.counted():
				for j, o := range g.Players {
					if j == s {
						continue
					}
					opp = append(opp, points[o])
					r.SonnebornBerger += points[o] * versus(*g.Result, s, j) / Unit
				}
			}
		}
		for _, p := range opp {
			r.Buchholz += p
		}
		r.MedianBuchholz = r.Buchholz
		if len(opp) >= 3 {
			r.MedianBuchholz -= slices.Max(opp) + slices.Min(opp)
		}
	}
	value := func(r *Row, tie string) Points {
		switch tie {
		case TieSonnebornBerger:
			return r.SonnebornBerger
		case TieBuchholz:
			return r.Buchholz
		case TieMedianBuchholz:
			return r.MedianBuchholz
		case TieDirect:
			return r.Direct
		case TieWins:
			return Points(r.Wins)
		}
		return 0
	}
	// compare orders by annulment, points and the tie-breaks up to n.
	compare := func(a, b *Row, n int) int {
		if a.Annulled != b.Annulled {
			if a.Annulled {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(b.Points, a.Points); c != 0 {
			return c
		}
		for _, tie := range ties[:n] {
			if c := cmp.Compare(value(b, tie), value(a, tie)); c != 0 {
				return c
			}
		}
		return 0
	}
	bySeed := func(a, b Row) int { return cmp.Compare(a.Seed, b.Seed) }
	for n, tie := range ties {
		if tie != TieDirect {
			continue
		}
		slices.SortStableFunc(rows, func(a, b Row) int {
			if c := compare(&a, &b, n); c != 0 {
				return c
			}
			return bySeed(a, b)
		})
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && compare(&rows[i], &rows[j], n) == 0 {
				j++
			}
			direct(rows[i:j], games)
			i = j
		}
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		if c := compare(&a, &b, len(ties)); c != 0 {
			return c
		}
		return bySeed(a, b)
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && compare(&rows[i-1], &rows[i], len(ties)) == 0 {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	g := Group{TieBreaks: slices.Clone(ties), Rows: rows}
	if t.Format == RoundRobin {
		g.Cross = cross(rows, games)
	}
	return g
}

// direct sets the direct encounter of players tied so far: what each
// scored against the others, if every two of them have met.
func direct(rows []Row, games []Game) {
	if len(rows) < 2 {
		return
	}
	in := func(id string) bool {
		return slices.ContainsFunc(rows, func(r Row) bool { return r.Player == id })
	}
	met := map[[2]string]bool{}
	score := make([]Points, len(rows))
	for _, g := range games {
		if !g.counted() {
			continue
		}
		for i, r := range rows {
			s := g.seat(r.Player)
			if s < 0 {
				continue
			}
			for j, o := range g.Players {
				if j != s && in(o) {
					met[[2]string{r.Player, o}] = true
					score[i] += versus(*g.Result, s, j)
				}
			}
		}
	}
	for _, a := range rows {
		for _, b := range rows {
			if a.Player != b.Player && !met[[2]string{a.Player, b.Player}] {
				return
			}
		}
	}
	for i := range rows {
		rows[i].Direct = score[i]
	}
}

// cross is the crosstable of rows over games.
func cross(rows []Row, games []Game) [][]string {
	at := map[string]int{}
	for i, r := range rows {
		at[r.Player] = i
	}
	cells := make([][][]string, len(rows))
	for i := range cells {
		cells[i] = make([][]string, len(rows))
	}
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b Game) int { return cmp.Compare(a.Round, b.Round) })
	for _, g := range sorted {
		if g.Bye || g.Annulled {
			continue
		}
		for s, a := range g.Players {
			for u, b := range g.Players {
				i, ok1 := at[a]
				j, ok2 := at[b]
				if s == u || !ok1 || !ok2 {
					continue
				}
				mark := "*"
				if g.Result != nil {
					v := versus(*g.Result, s, u)
					mark = map[Points]string{Unit: "1", Unit / 2: "½", 0: "0"}[v]
					if g.Result.Forfeit {
						mark = map[Points]string{Unit: "+", Unit / 2: "=", 0: "-"}[v]
					}
				}
				cells[i][j] = append(cells[i][j], mark)
			}
		}
	}
	out := make([][]string, len(rows))
	for i := range out {
		out[i] = make([]string, len(rows))
		for j := range out[i] {
			out[i][j] = strings.Join(cells[i][j], " ")
		}
	}
	return out
}

// won: seat s placed first, alone.
func won(r Result, s int) bool {
	if r.Places[s] != 1 {
		return false
	}
	for i, p := range r.Places {
		if i != s && p == 1 {
			return false
		}
	}
	return true
}
