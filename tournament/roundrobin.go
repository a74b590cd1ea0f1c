package tournament

import "slices"

// A round robin's whole plan follows from the seeds and sections alone
// (plan), so it is computed again whenever it is needed and never
// stored: t.Games holds what has been released of it. Two seats pair by
// Berger tables; three and four by cyclic tables (tables.go).

// planned is one game of a stage's plan: players by seat (one for a bye),
// in the stage's own round numbers.
type planned struct {
	round   int
	players []string
	bye     bool
}

// berger is the Berger tables for n players (FIDE's): rounds of pairs of
// indices into the players by seed, the first of a pair in seat 1. For n
// odd, the one paired with index n (a player who is not there) has a bye.
// Player N (n rounded up to even) stays put and alternates seats; the
// others start in two rows, 1..N/2 against N..N/2+1, and each round every
// number x < N moves to x+N/2 modulo N-1.
func berger(n int) [][][2]int {
	N := n + n%2
	top := make([]int, N/2)
	bottom := make([]int, N/2)
	for i := range N / 2 {
		top[i] = i + 1
		bottom[i] = N - i
	}
	move := func(x int) int {
		if x == N {
			return N
		}
		return (x-1+N/2)%(N-1) + 1
	}
	rounds := make([][][2]int, N-1)
	for r := range N - 1 {
		for i := range N / 2 {
			a, b := top[i], bottom[i]
			if i == 0 && r%2 == 1 {
				a, b = b, a
			}
			rounds[r] = append(rounds[r], [2]int{a - 1, b - 1})
		}
		for i := range N / 2 {
			top[i], bottom[i] = move(top[i]), move(bottom[i])
		}
	}
	return rounds
}

// stagePlan is the plan of a round robin among these players (by seed).
func (t *Tournament) stagePlan(ids []string) []planned {
	if t.Seats > 2 {
		return tablePlan(ids, t.Seats)
	}
	n := len(ids)
	var out []planned
	cycles := 1
	if t.Options.Double {
		cycles = 2
	}
	rounds := berger(n)
	for c := range cycles {
		for r, pairs := range rounds {
			round := c*len(rounds) + r + 1
			for _, p := range pairs {
				a, b := p[0], p[1]
				if c == 1 {
					a, b = b, a
				}
				switch {
				case a == n:
					out = append(out, planned{round: round, players: []string{ids[b]}, bye: true})
				case b == n:
					out = append(out, planned{round: round, players: []string{ids[a]}, bye: true})
				default:
					out = append(out, planned{round: round, players: []string{ids[a], ids[b]}})
				}
			}
		}
	}
	return out
}

// sectionIDs are the players of each section by seed (one section, 0,
// without sections).
func (t *Tournament) sectionIDs() [][]string {
	k := max(1, t.Options.Sections)
	out := make([][]string, k)
	for s := range k {
		var ps []Player
		for _, p := range t.Players {
			if p.Section == s+1 || k == 1 {
				ps = append(ps, p)
			}
		}
		out[s] = seeded(ps)
	}
	return out
}

// plan is the whole round robin: every section's games (Section set when
// there are sections), and the final's once its players are known.
// Boards are numbered within a round across the sections, sections in
// order, byes after the games.
func (t *Tournament) plan() []Game {
	var stages [][]planned
	for _, ids := range t.sectionIDs() {
		stages = append(stages, t.stagePlan(ids))
	}
	var out []Game
	last := 0
	sections := t.Options.Sections > 1
	byRound := map[int][]Game{}
	for s, stage := range stages {
		for _, p := range stage {
			g := Game{Round: p.round, Players: p.players, Bye: p.bye}
			if sections {
				g.Section = s + 1
			}
			byRound[p.round] = append(byRound[p.round], g)
			last = max(last, p.round)
		}
	}
	for r := 1; r <= last; r++ {
		out = append(out, boards(byRound[r])...)
	}
	if len(t.Finalists) > 0 {
		ids := seeded(t.playersOf(t.Finalists))
		byRound := map[int][]Game{}
		final := 0
		for _, p := range t.stagePlan(ids) {
			g := Game{Round: last + p.round, Players: p.players, Bye: p.bye, Final: true}
			byRound[g.Round] = append(byRound[g.Round], g)
			final = max(final, g.Round)
		}
		for r := last + 1; r <= final; r++ {
			out = append(out, boards(byRound[r])...)
		}
	}
	return out
}

// boards numbers a round's games from 1, in the order given, byes last.
func boards(games []Game) []Game {
	slices.SortStableFunc(games, func(a, b Game) int {
		if a.Bye != b.Bye {
			if a.Bye {
				return 1
			}
			return -1
		}
		return 0
	})
	for i := range games {
		games[i].Board = i + 1
	}
	return games
}

// playersOf are the players with these IDs.
func (t *Tournament) playersOf(ids []string) []Player {
	var out []Player
	for _, id := range ids {
		if i := t.player(id); i >= 0 {
			out = append(out, t.Players[i])
		}
	}
	return out
}

// stageKey names the stage a game of the plan belongs to: its section,
// or -1 for the final.
func stageKey(g Game) int {
	if g.Final {
		return -1
	}
	return g.Section
}

// stageOf is the filter of the games of the stage the player is in now:
// the final once the player is in it, else the player's section.
func (t *Tournament) stageOf(id string) func(Game) bool {
	if slices.Contains(t.Finalists, id) {
		return func(g Game) bool { return g.Final }
	}
	section := 0
	if t.Options.Sections > 1 {
		section = t.Players[t.player(id)].Section
	}
	return func(g Game) bool { return !g.Final && g.Section == section }
}

// schedule is the plan's games that keep.
func (t *Tournament) schedule(keep func(Game) bool) []Game {
	var out []Game
	for _, g := range t.plan() {
		if keep(g) {
			out = append(out, g)
		}
	}
	return out
}

// pairRoundRobin releases what is due of the plan: everything at once,
// or ByRounds each stage's next round once its rounds so far have ended;
// and the final once every section has ended. It loops, since a round
// whose games were all decided already (against players who withdrew)
// ends at once.
func (t *Tournament) pairRoundRobin() ([]Game, error) {
	var due []Game
	for {
		added := t.releaseRoundRobin()
		if len(added) == 0 {
			return due, nil
		}
		due = append(due, added...)
	}
}

func (t *Tournament) releaseRoundRobin() []Game {
	plan := t.plan()
	at := t.index()
	released := func(g Game) bool { _, ok := at[[2]int{g.Round, g.Board}]; return ok }
	// Per stage: its lowest round with a game not yet released, and
	// whether a game of an earlier round is yet to end.
	next, waiting := map[int]int{}, map[int]bool{}
	for _, g := range plan {
		if !released(g) {
			k := stageKey(g)
			if r, ok := next[k]; !ok || g.Round < r {
				next[k] = g.Round
			}
		}
	}
	for _, g := range plan {
		k := stageKey(g)
		if r, ok := next[k]; ok && g.Round < r && !t.Games[at[[2]int{g.Round, g.Board}]].finished() {
			waiting[k] = true
		}
	}
	var added []Game
	for _, g := range plan {
		k := stageKey(g)
		if released(g) || (t.Options.ByRounds && (g.Round != next[k] || waiting[k])) {
			continue
		}
		t.decide(&g)
		added = append(added, g)
	}
	t.Games = append(t.Games, added...)
	if len(added) == 0 && t.Options.Final && len(t.Finalists) == 0 && t.allFinished(plan) {
		for _, group := range t.Standings() {
			for _, row := range group.Rows {
				if !row.Withdrawn {
					t.Finalists = append(t.Finalists, row.Player)
					break
				}
			}
		}
		if len(t.Finalists) < t.Seats {
			// Too few section winners remain for a final: none is played.
			t.Finalists = nil
			return nil
		}
		return t.releaseRoundRobin()
	}
	return added
}

// index finds a game's index in t.Games by its round and board.
func (t *Tournament) index() map[[2]int]int {
	at := make(map[[2]int]int, len(t.Games))
	for i, g := range t.Games {
		at[[2]int{g.Round, g.Board}] = i
	}
	return at
}

// allFinished: every game of the plan is released and has ended.
func (t *Tournament) allFinished(plan []Game) bool {
	at := t.index()
	for _, g := range plan {
		if i, ok := at[[2]int{g.Round, g.Board}]; !ok || !t.Games[i].finished() {
			return false
		}
	}
	return true
}

func (t *Tournament) roundRobinDone() bool {
	if !t.allFinished(t.plan()) {
		return false
	}
	if !t.Options.Final || len(t.Finalists) > 0 {
		return true
	}
	// Sections over, final not yet paired: done only if no final can be.
	winners := 0
	for _, group := range t.Standings() {
		if slices.ContainsFunc(group.Rows, func(r Row) bool { return !r.Withdrawn }) {
			winners++
		}
	}
	return winners < t.Seats
}
