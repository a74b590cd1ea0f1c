package tournament

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Format is how a tournament pairs its players.
type Format string

// The formats.
const (
	RoundRobin Format = "roundrobin" // all play all, in seeded sections; two to four seats
	Swiss      Format = "swiss"      // rounds paired by score; two seats
	Knockout   Format = "knockout"   // seeded bracket of two-game matches; two seats
	Ladder     Format = "ladder"     // a standing list climbed by challenges; two seats
)

// Options are a format's settings; each names the formats it applies to.
type Options struct {
	// Rounds (Swiss, required): how many rounds.
	Rounds int `json:"rounds,omitempty"`
	// Double (round robin, two seats): everyone meets twice, seats swapped.
	Double bool `json:"double,omitempty"`
	// Sections (round robin): the field is cut into this many seeded
	// sections (by rating, in snake order); 0 or 1 is one.
	Sections int `json:"sections,omitempty"`
	// Final (round robin with sections): the section winners then play a
	// round robin of their own.
	Final bool `json:"final,omitempty"`
	// ByRounds (round robin): a round's games start when the previous
	// round of the section has ended, instead of all at once (the
	// correspondence norm).
	ByRounds bool `json:"byRounds,omitempty"`
	// MaxPlayers: Join refuses more; 0 for no limit.
	MaxPlayers int `json:"maxPlayers,omitempty"`
	// Reach (ladder): how many places above a player may challenge;
	// 0 is DefaultReach.
	Reach int `json:"reach,omitempty"`
	// Days (ladder): how long a challenge waits for its answer before it
	// is lost; 0 is DefaultDays.
	Days int `json:"days,omitempty"`
	// Deadline (all but the ladder): a game still under way this many
	// days after it began is ended a draw, so that one slow game does not
	// hold up the next round for ever (the service that plays the games
	// enforces it: docs/tournaments.md); 0 for none.
	Deadline int `json:"deadline,omitempty"`
}

// The ladder's defaults.
const (
	DefaultReach = 3
	DefaultDays  = 7
)

// Player is one entrant.
type Player struct {
	// ID is the service's name for the player: an address, "bot:3".
	ID string `json:"id"`
	// Rating seeds the player (higher first); ties go by joining order.
	Rating float64 `json:"rating"`
	// Seed is the player's place in the seeding, 1 first, set when the
	// tournament starts and never changed.
	Seed int `json:"seed,omitempty"`
	// Section (round robin with sections) is the player's section, from 1.
	Section int `json:"section,omitempty"`
	// Withdrawn: the player left after the start (Withdraw).
	Withdrawn bool `json:"withdrawn,omitempty"`
	// Annulled: the player withdrew from a round robin before playing
	// half the games of their section (or final), and those are annulled.
	Annulled bool `json:"annulled,omitempty"`
}

// Game is one game of the tournament, from when it is paired.
type Game struct {
	// Round and Board name the game within the tournament: its record's
	// Round tag is "Round.Board" (Tag). A ladder's challenge number is its
	// Round, its Board 1.
	Round int `json:"round"`
	Board int `json:"board"`
	// Section (round robin with sections) is the section, from 1; 0 in
	// the final and without sections.
	Section int `json:"section,omitempty"`
	// Final: a game of the section winners' final.
	Final bool `json:"final,omitempty"`
	// Match (knockout) is the match's number in its round, from the top
	// of the bracket; the match's games are boards 3·Match-2 and 3·Match-1,
	// its decider 3·Match.
	Match int `json:"match,omitempty"`
	// Players are by seat: Players[0] has seat 1. A bye has one.
	Players []string `json:"players"`
	// Bye: no game; the player sits the round out (worth a win in a
	// Swiss, nothing in a round robin, where everyone has as many).
	Bye bool `json:"bye,omitempty"`
	// Result is set when the game has ended; nil before.
	Result *Result `json:"result,omitempty"`
	// Annulled: the game does not count (a withdrawal before half one's
	// games); an unfinished one is to be stopped without a result.
	Annulled bool `json:"annulled,omitempty"`
}

// Tag is the game's Round tag: "3.2".
func (g Game) Tag() string { return strconv.Itoa(g.Round) + "." + strconv.Itoa(g.Board) }

// Playable says whether the service should start the game: a real game
// with no result yet, not annulled.
func (g Game) Playable() bool { return !g.Bye && g.Result == nil && !g.Annulled }

// clone is a copy that shares nothing with g.
func (g Game) clone() Game {
	g.Players = slices.Clone(g.Players)
	if g.Result != nil {
		r := *g.Result
		r.Places = slices.Clone(r.Places)
		g.Result = &r
	}
	return g
}

// clones copies games so that a caller may keep them.
func clones(games []Game) []Game {
	if games == nil {
		return nil
	}
	out := make([]Game, len(games))
	for i, g := range games {
		out[i] = g.clone()
	}
	return out
}

// finished: nothing more will happen to it.
func (g Game) finished() bool { return g.Bye || g.Result != nil || g.Annulled }

// counted: a finished game whose result counts.
func (g Game) counted() bool { return !g.Bye && g.Result != nil && !g.Annulled }

// seat is the player's seat index in the game, or -1.
func (g Game) seat(id string) int { return slices.Index(g.Players, id) }

// Tournament is a whole event: its settings, players and games. Its
// methods change it in place; it is meant to be stored whole (as JSON)
// between calls, and nothing in it depends on map order or the clock.
type Tournament struct {
	Name    string   `json:"name"`
	Format  Format   `json:"format"`
	Seats   int      `json:"seats"` // seats per game: 2, or 3 or 4 for a round robin
	Options Options  `json:"options"`
	Players []Player `json:"players"` // in joining order
	// Started: Pair has seeded the players; Join is closed (but for a
	// ladder).
	Started bool `json:"started,omitempty"`
	// Ended (Swiss): no further round could be paired without a rematch,
	// so the tournament ended early.
	Ended bool `json:"ended,omitempty"`
	// Games are every game paired, in the order Pair paired them.
	Games []Game `json:"games,omitempty"`
	// Finalists (round robin with a final): the section winners, once
	// every section has ended.
	Finalists []string `json:"finalists,omitempty"`
	// Ladder (ladder): the players from the top.
	Ladder []string `json:"ladder,omitempty"`
	// Challenges (ladder): every challenge, by number from 1.
	Challenges []Challenge `json:"challenges,omitempty"`
}

// Errors the methods wrap.
var (
	ErrInvalid   = errors.New("invalid tournament")
	ErrStarted   = errors.New("the tournament has started")
	ErrFull      = errors.New("the tournament is full")
	ErrJoined    = errors.New("already a player")
	ErrNoPlayer  = errors.New("not a player")
	ErrWithdrawn = errors.New("the player has withdrawn")
	ErrTooFew    = errors.New("too few players")
	ErrNoGame    = errors.New("no such game")
	ErrRecorded  = errors.New("the game has another result")
	ErrAnnulled  = errors.New("the game is annulled")
	ErrChallenge = errors.New("challenge not allowed")
	ErrFormat    = errors.New("not for this format")
)

// New is a tournament with no players yet, its settings checked.
func New(name string, f Format, seats int, o Options) (*Tournament, error) {
	t := &Tournament{Name: name, Format: f, Seats: seats, Options: o}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// Validate checks the settings (not the players, which Pair checks when
// it starts).
func (t *Tournament) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("tournament %q: %s: %w", t.Name, fmt.Sprintf(format, a...), ErrInvalid)
	}
	o := t.Options
	switch t.Format {
	case RoundRobin:
		if t.Seats < 2 || t.Seats > 4 {
			return bad("a round robin has 2 to 4 seats, not %d", t.Seats)
		}
		if o.Double && t.Seats != 2 {
			return bad("a double round robin is for two seats")
		}
		if o.Sections < 0 {
			return bad("%d sections", o.Sections)
		}
		if o.Final && o.Sections < max(2, t.Seats) {
			return bad("a final needs at least %d sections", max(2, t.Seats))
		}
	case Swiss, Knockout, Ladder:
		if t.Seats != 2 {
			return bad("a %s has two seats, not %d", t.Format, t.Seats)
		}
		if o.Double || o.Sections > 1 || o.Final || o.ByRounds {
			return bad("double, sections, final and by rounds are for round robins")
		}
	default:
		return bad("unknown format %q", t.Format)
	}
	if t.Format == Swiss && o.Rounds < 1 {
		return bad("a Swiss needs its number of rounds")
	}
	if t.Format != Swiss && o.Rounds != 0 {
		return bad("rounds are for a Swiss")
	}
	if t.Format != Ladder && (o.Reach != 0 || o.Days != 0) {
		return bad("reach and days are for a ladder")
	}
	if t.Format == Ladder && o.Deadline != 0 {
		return bad("a ladder's games have no deadline: its challenges have days to answer")
	}
	if o.Reach < 0 || o.Days < 0 || o.MaxPlayers < 0 || o.Deadline < 0 {
		return bad("a negative setting")
	}
	return nil
}

// player is the index of the player with this ID, or -1.
func (t *Tournament) player(id string) int {
	return slices.IndexFunc(t.Players, func(p Player) bool { return p.ID == id })
}

// Player is the player with this ID.
func (t *Tournament) Player(id string) (Player, bool) {
	if i := t.player(id); i >= 0 {
		return t.Players[i], true
	}
	return Player{}, false
}

// Join adds a player: before the start, or at any time to a ladder (at
// the bottom).
func (t *Tournament) Join(p Player) error {
	switch {
	case p.ID == "":
		return fmt.Errorf("tournament %q: a player with no ID: %w", t.Name, ErrInvalid)
	case t.player(p.ID) >= 0:
		return fmt.Errorf("tournament %q: %s: %w", t.Name, p.ID, ErrJoined)
	case t.Started && t.Format != Ladder:
		return fmt.Errorf("tournament %q: %w", t.Name, ErrStarted)
	case t.Full():
		return fmt.Errorf("tournament %q: %w", t.Name, ErrFull)
	}
	p.Seed, p.Section, p.Withdrawn, p.Annulled = 0, 0, false, false
	if t.Started {
		p.Seed = len(t.Players) + 1
		t.Ladder = append(t.Ladder, p.ID)
	}
	t.Players = append(t.Players, p)
	return nil
}

// Full says whether Join would refuse for lack of room.
func (t *Tournament) Full() bool {
	return t.Options.MaxPlayers > 0 && len(t.active()) >= t.Options.MaxPlayers
}

// active are the players who have not withdrawn, in joining order.
func (t *Tournament) active() []Player {
	var out []Player
	for _, p := range t.Players {
		if !p.Withdrawn {
			out = append(out, p)
		}
	}
	return out
}

// seeded are the IDs of these players by seed.
func seeded(ps []Player) []string {
	ps = slices.Clone(ps)
	slices.SortStableFunc(ps, func(a, b Player) int { return cmp.Compare(a.Seed, b.Seed) })
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return ids
}

// start seeds the players (by rating, ties by joining order), checks
// that there are enough for the format, and sets out what the format
// needs: sections, the ladder.
func (t *Tournament) start() error {
	if err := t.Validate(); err != nil {
		return err
	}
	n := len(t.Players)
	few := func(format string, a ...any) error {
		return fmt.Errorf("tournament %q: %d players: %s: %w", t.Name, n, fmt.Sprintf(format, a...), ErrTooFew)
	}
	k := max(1, t.Options.Sections)
	switch t.Format {
	case RoundRobin:
		if n < k*max(2, t.Seats) {
			return few("%d sections of at least %d", k, max(2, t.Seats))
		}
		if t.Seats > 2 && (n+k-1)/k > maxTableSection {
			return few("a section at tables of %d holds at most %d players; cut the field into more sections", t.Seats, maxTableSection)
		}
	case Swiss:
		// Without rematches, n players have n-1 rounds in them, or n when
		// n is odd (each sits out one).
		if r := t.Options.Rounds; n < 2 || r > n-1+n%2 {
			return few("%d rounds need at least %d players", r, max(2, r+1-r%2))
		}
	case Knockout, Ladder:
		if n < 2 {
			return few("a %s needs two", t.Format)
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(t.Players[b].Rating, t.Players[a].Rating)
	})
	for seed, i := range order {
		t.Players[i].Seed = seed + 1
	}
	switch t.Format {
	case RoundRobin:
		for i, id := range seeded(t.Players) {
			row, col := i/k, i%k
			if row%2 == 1 {
				col = k - 1 - col
			}
			if k > 1 {
				t.Players[t.player(id)].Section = col + 1
			}
		}
	case Ladder:
		t.Ladder = seeded(t.Players)
	}
	t.Started = true
	return nil
}

// Pair starts the tournament if it has not started, and returns the games
// that are due now, which it has appended to t.Games: all the games of a round
// robin at once (or its next rounds, ByRounds), a Swiss's next round once
// every game of the last has ended, the knockout matches whose players
// are known (and their deciders). The service starts each game that is
// Playable; the others are byes, or decided already (against a player
// who withdrew). Nothing is due: nil. Pair is idempotent between
// results: calling it again before another result changes nothing.
func (t *Tournament) Pair() ([]Game, error) {
	if !t.Started {
		if err := t.start(); err != nil {
			return nil, err
		}
	}
	var due []Game
	var err error
	switch t.Format {
	case RoundRobin:
		due, err = t.pairRoundRobin()
	case Swiss:
		due, err = t.pairSwiss()
	case Knockout:
		due = t.pairKnockout()
	case Ladder:
		// A ladder's games come from challenges (Challenge, Accept).
	}
	if err != nil {
		return nil, err
	}
	return clones(due), nil
}

// decide fills in a new game whose players include one who withdrew: it
// is annulled when any of them had their games annulled, and otherwise
// lost by those who withdrew.
func (t *Tournament) decide(g *Game) {
	if g.Bye {
		return
	}
	var out []int
	for s, id := range g.Players {
		p := t.Players[t.player(id)]
		if p.Annulled {
			g.Annulled = true
			return
		}
		if p.Withdrawn {
			out = append(out, s)
		}
	}
	switch {
	case len(out) == len(g.Players):
		g.Annulled = true
	case len(out) > 0:
		r := forfeitAgainst(len(g.Players), out)
		g.Result = &r
	}
}

// game is the index of the game with this round and board, or -1.
func (t *Tournament) game(round, board int) int {
	return slices.IndexFunc(t.Games, func(g Game) bool { return g.Round == round && g.Board == board })
}

// Game is the game with this round and board (its Tag).
func (t *Tournament) Game(round, board int) (Game, bool) {
	if i := t.game(round, board); i >= 0 {
		return t.Games[i].clone(), true
	}
	return Game{}, false
}

// Round is the games (and byes) of one round, by board.
func (t *Tournament) Round(round int) []Game {
	var out []Game
	for _, g := range t.Games {
		if g.Round == round {
			out = append(out, g.clone())
		}
	}
	slices.SortFunc(out, func(a, b Game) int { return cmp.Compare(a.Board, b.Board) })
	return out
}

// Rounds is the highest round paired so far.
func (t *Tournament) Rounds() int {
	r := 0
	for _, g := range t.Games {
		r = max(r, g.Round)
	}
	return r
}

// Record sets the result of a game that has ended. The same result again
// changes nothing (a service that retries after a crash may record
// twice); a different one is refused, as are results for byes and
// annulled games. In a ladder, the result moves the players (ladder.go).
func (t *Tournament) Record(round, board int, r Result) error {
	i := t.game(round, board)
	if i < 0 || t.Games[i].Bye {
		return fmt.Errorf("tournament %q: game %d.%d: %w", t.Name, round, board, ErrNoGame)
	}
	g := &t.Games[i]
	if g.Annulled {
		return fmt.Errorf("tournament %q: game %s: %w", t.Name, g.Tag(), ErrAnnulled)
	}
	if err := r.check(len(g.Players)); err != nil {
		return fmt.Errorf("tournament %q: game %s: %w", t.Name, g.Tag(), err)
	}
	if g.Result != nil {
		if slices.Equal(g.Result.Places, r.Places) && g.Result.Forfeit == r.Forfeit {
			return nil
		}
		return fmt.Errorf("tournament %q: game %s is %s: %w", t.Name, g.Tag(), g.Result, ErrRecorded)
	}
	r.Places = slices.Clone(r.Places)
	g.Result = &r
	if t.Format == Ladder {
		t.settleChallenge(round)
	}
	return nil
}

// Done says whether the tournament is over: every game played (and the
// final), the Swiss's last round (or an early end), the knockout's final
// decided. A ladder is never done; the service closes it.
func (t *Tournament) Done() bool {
	if !t.Started {
		return false
	}
	switch t.Format {
	case RoundRobin:
		return t.roundRobinDone()
	case Swiss:
		return t.Ended || (t.Rounds() == t.Options.Rounds && t.roundFinished(t.Rounds()))
	case Knockout:
		b := t.Bracket()
		return len(b) > 0 && len(b[len(b)-1].Matches) == 1 && b[len(b)-1].Matches[0].Winner != ""
	}
	return false
}

// roundFinished: every game of the round has ended.
func (t *Tournament) roundFinished(round int) bool {
	for _, g := range t.Games {
		if g.Round == round && !g.finished() {
			return false
		}
	}
	return true
}

// Withdraw takes a player out. Before the start, the player simply
// leaves. After it, the player is paired no more, and:
//
//   - in a round robin, if fewer than half the games of the player's
//     section (or of the final, when in it) are finished, all of them are
//     annulled, finished or not; otherwise those not finished are lost
//     (as ICCF does);
//   - in a Swiss or a knockout, the finished games stand and the
//     unfinished ones are lost (annulling a Swiss game would leave its
//     opponent a round without one);
//   - on a ladder, the player leaves the list (those below move up), an
//     open challenge of theirs is cancelled, and a game under way lost.
//
// It returns the games the service must stop now: each unfinished game of
// the player's, annulled (stop it without a result) or with its forfeit
// result (end it so).
func (t *Tournament) Withdraw(id string) ([]Game, error) {
	i := t.player(id)
	switch {
	case i < 0:
		return nil, fmt.Errorf("tournament %q: %s: %w", t.Name, id, ErrNoPlayer)
	case t.Players[i].Withdrawn:
		return nil, fmt.Errorf("tournament %q: %s: %w", t.Name, id, ErrWithdrawn)
	case !t.Started:
		t.Players = slices.Delete(t.Players, i, i+1)
		return nil, nil
	}
	t.Players[i].Withdrawn = true
	var stage func(Game) bool // the games the rule counts
	annul := false
	if t.Format == RoundRobin {
		stage = t.stageOf(id)
		scheduled, done := 0, 0
		at := t.index()
		for _, g := range t.schedule(stage) {
			if g.seat(id) >= 0 && !g.Bye {
				scheduled++
				if j, ok := at[[2]int{g.Round, g.Board}]; ok && t.Games[j].counted() {
					done++
				}
			}
		}
		annul = 2*done < scheduled
		t.Players[i].Annulled = annul
	}
	var stop []Game
	for j := range t.Games {
		g := &t.Games[j]
		s := g.seat(id)
		if s < 0 || g.Bye || g.Annulled || (stage != nil && !stage(*g)) {
			continue
		}
		switch {
		case annul:
			wasOpen := g.Result == nil
			g.Annulled = true
			if wasOpen {
				stop = append(stop, g.clone())
			}
		case g.Result == nil:
			r := forfeitAgainst(len(g.Players), []int{s})
			g.Result = &r
			stop = append(stop, g.clone())
		}
	}
	if t.Format == Ladder {
		t.leaveLadder(id)
	}
	return stop, nil
}
