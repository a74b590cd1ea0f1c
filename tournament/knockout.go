package tournament

import (
	"cmp"
	"slices"
)

// A knockout: the players seeded by rating into a bracket of the next
// power of two (1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight: seeds 1 and 2 meet
// in the final at the earliest), the seeds past the field's size being
// byes, so that the top seeds go through the first round. A match is two
// games with the seats swapped, started together; on a tie, one decider,
// in which the lower seed takes seat 1; a drawn decider sends the higher
// seed through. A match starts as soon as both its players are known,
// without waiting for the rest of the round.

// Match is one match of the bracket.
type Match struct {
	Round int `json:"round"`
	Match int `json:"match"` // from the top of the bracket, from 1
	// Players are the two, top of the bracket first, "" where not yet
	// known; Seeds are theirs (0 unknown).
	Players []string `json:"players"`
	Seeds   []int    `json:"seeds"`
	// Games are the match's games so far, by board: the two, then the
	// decider.
	Games []Game `json:"games,omitempty"`
	// Points are what each player scored in the games so far.
	Points []Points `json:"points"`
	Winner string   `json:"winner,omitempty"`
	// Bye: the player had no opponent and went through.
	Bye bool `json:"bye,omitempty"`
	// Walkover: an opponent withdrew before the match began.
	Walkover bool `json:"walkover,omitempty"`
}

// BracketRound is one round of the bracket.
type BracketRound struct {
	Round   int     `json:"round"`
	Matches []Match `json:"matches"`
}

// bracketOrder is the seeds of a bracket of p (a power of two) from the
// top: each doubling pairs every seed s with p'+1-s.
func bracketOrder(p int) []int {
	order := []int{1}
	for size := 2; size <= p; size *= 2 {
		next := make([]int, 0, size)
		for _, s := range order {
			next = append(next, s, size+1-s)
		}
		order = next
	}
	return order
}

// Bracket is the knockout's bracket as it stands: every round, every
// match, with the players known so far. Nil for other formats and before
// the start.
func (t *Tournament) Bracket() []BracketRound {
	if t.Format != Knockout || !t.Started {
		return nil
	}
	n := len(t.Players)
	p := 1
	for p < n {
		p *= 2
	}
	bySeed := make([]string, p+1)
	for _, pl := range t.Players {
		bySeed[pl.Seed] = pl.ID
	}
	order := bracketOrder(p)
	var out []BracketRound
	var prev []Match
	for round := 1; p > 1; round++ {
		p /= 2
		br := BracketRound{Round: round}
		for m := 1; m <= p; m++ {
			mt := Match{Round: round, Match: m, Players: []string{"", ""}, Seeds: []int{0, 0}, Points: []Points{0, 0}}
			if round == 1 {
				for k := range 2 {
					if s := order[2*(m-1)+k]; s <= n {
						mt.Players[k], mt.Seeds[k] = bySeed[s], s
					}
				}
			} else {
				for k := range 2 {
					if w := prev[2*(m-1)+k].Winner; w != "" {
						mt.Players[k], mt.Seeds[k] = w, t.Players[t.player(w)].Seed
					}
				}
			}
			t.resolve(&mt)
			br.Matches = append(br.Matches, mt)
		}
		out = append(out, br)
		prev = br.Matches
	}
	return out
}

// higher is the index (0 or 1) of the match's higher seed.
func (m *Match) higher() int {
	if m.Seeds[1] < m.Seeds[0] {
		return 1
	}
	return 0
}

// resolve fills in a match's games, points and winner from t.Games.
func (t *Tournament) resolve(m *Match) {
	for _, g := range t.Games {
		if g.Round == m.Round && g.Match == m.Match {
			m.Games = append(m.Games, g.clone())
		}
	}
	slices.SortFunc(m.Games, func(a, b Game) int { return cmp.Compare(a.Board, b.Board) })
	a, b := m.Players[0], m.Players[1]
	if m.Round == 1 && a != "" && b == "" {
		m.Winner, m.Bye = a, true
		return
	}
	if a == "" || b == "" {
		return
	}
	if len(m.Games) == 0 {
		wa := t.Players[t.player(a)].Withdrawn
		wb := t.Players[t.player(b)].Withdrawn
		if wa || wb {
			m.Walkover = true
			m.Winner = m.Players[m.higher()]
			if wa != wb {
				m.Winner = map[bool]string{true: b, false: a}[wa]
			}
		}
		return
	}
	for _, g := range m.Games {
		if g.counted() {
			pts := pointsOf(*g.Result)
			m.Points[0] += pts[g.seat(a)]
			m.Points[1] += pts[g.seat(b)]
		}
	}
	if len(m.Games) < 2 || !m.Games[0].finished() || !m.Games[1].finished() {
		return
	}
	if len(m.Games) == 2 {
		if m.Points[0] != m.Points[1] {
			m.Winner = m.Players[map[bool]int{true: 0, false: 1}[m.Points[0] > m.Points[1]]]
		}
		return // tied: a decider is due
	}
	d := m.Games[2]
	if !d.finished() {
		return
	}
	m.Winner = m.Players[m.higher()]
	if d.Result != nil {
		sa, sb := d.seat(a), d.seat(b)
		switch {
		case d.Result.Places[sa] < d.Result.Places[sb]:
			m.Winner = a
		case d.Result.Places[sb] < d.Result.Places[sa]:
			m.Winner = b
		}
	}
}

// pairKnockout starts every match whose players are known (its two
// games, the higher seed in seat 1 of the first) and every decider due,
// over and over, since a game decided at once (against a player who
// withdrew) may settle a match and make the next one due.
func (t *Tournament) pairKnockout() []Game {
	var due []Game
	for {
		var added []Game
		for _, br := range t.Bracket() {
			for _, m := range br.Matches {
				if m.Winner != "" || m.Players[0] == "" || m.Players[1] == "" || m.Walkover {
					continue
				}
				hi, lo := m.Players[m.higher()], m.Players[1-m.higher()]
				base := 3 * (m.Match - 1)
				game := func(board int, players ...string) Game {
					g := Game{Round: m.Round, Board: base + board, Match: m.Match, Players: players}
					t.decide(&g)
					return g
				}
				switch {
				case len(m.Games) == 0:
					added = append(added, game(1, hi, lo), game(2, lo, hi))
				case len(m.Games) == 2 && m.Games[0].finished() && m.Games[1].finished():
					added = append(added, game(3, lo, hi))
				}
			}
		}
		if len(added) == 0 {
			return due
		}
		t.Games = append(t.Games, added...)
		due = append(due, added...)
	}
}

// knockoutGroup ranks the players by how far they went: those still in
// (and the winner) first, then the losers of each round from the last;
// players out in the same round share a rank, in seed order.
func (t *Tournament) knockoutGroup() Group {
	rows := t.tally(seeded(t.Players), t.Games, 0)
	out := map[string]int{}
	for _, br := range t.Bracket() {
		for _, m := range br.Matches {
			for _, p := range m.Players {
				if p != "" && m.Winner != "" && p != m.Winner {
					out[p] = br.Round
				}
			}
		}
	}
	for i := range rows {
		rows[i].Out = out[rows[i].Player]
	}
	key := func(r Row) int {
		if r.Out == 0 {
			return 1 << 30
		}
		return r.Out
	}
	slices.SortStableFunc(rows, func(a, b Row) int {
		return cmp.Or(cmp.Compare(key(b), key(a)), cmp.Compare(a.Seed, b.Seed))
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].Out == rows[i-1].Out {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return Group{TieBreaks: []string{}, Rows: rows}
}
