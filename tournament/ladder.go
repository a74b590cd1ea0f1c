package tournament

import (
	"fmt"
	"slices"
	"time"
)

// A ladder: the players in a list, seeded by rating at the start and
// joined at the bottom after it. A player challenges one at most Reach
// places above; the defender answers within Days (Accept), or loses as
// if beaten. The challenger takes seat 1 (the first move), the defender
// seat 2; if the challenger wins, they take the defender's place and the
// defender and everyone between move down one; a draw or a loss changes
// nothing (the challenger must win). A player is in at most one challenge
// at a time, open or being played, as challenger or defender.

// Challenge states.
const (
	ChallengeOpen      = "open"      // waiting for the defender's answer
	ChallengePlaying   = "playing"   // accepted: its game is under way
	ChallengeDecided   = "decided"   // its game has ended
	ChallengeExpired   = "expired"   // not answered in time: lost by the defender
	ChallengeCancelled = "cancelled" // a player withdrew before it was played
)

// Challenge is one challenge on a ladder. Its game, once accepted, is
// Round Number, Board 1.
type Challenge struct {
	Number     int       `json:"number"`
	Challenger string    `json:"challenger"`
	Defender   string    `json:"defender"`
	Issued     time.Time `json:"issued"`
	Answered   time.Time `json:"answered,omitzero"`
	State      string    `json:"state"`
	// Winner: whoever won it (a draw leaves it empty); once decided or
	// expired.
	Winner string `json:"winner,omitempty"`
}

// place is the player's index on the ladder, or -1.
func (t *Tournament) place(id string) int { return slices.Index(t.Ladder, id) }

// busy: the player is in an open challenge or one being played.
func (t *Tournament) busy(id string) bool {
	return slices.ContainsFunc(t.Challenges, func(c Challenge) bool {
		return (c.State == ChallengeOpen || c.State == ChallengePlaying) && (c.Challenger == id || c.Defender == id)
	})
}

func (t *Tournament) reach() int {
	if t.Options.Reach == 0 {
		return DefaultReach
	}
	return t.Options.Reach
}

// Challenge issues a challenge at the given time, if the ladder allows
// it: both on the ladder, the defender 1 to Reach places above the
// challenger, and neither in another challenge.
func (t *Tournament) Challenge(challenger, defender string, at time.Time) (Challenge, error) {
	bad := func(format string, a ...any) (Challenge, error) {
		return Challenge{}, fmt.Errorf("tournament %q: %s: %w", t.Name, fmt.Sprintf(format, a...), ErrChallenge)
	}
	if t.Format != Ladder {
		return Challenge{}, fmt.Errorf("tournament %q: challenges: %w", t.Name, ErrFormat)
	}
	if !t.Started {
		return bad("the ladder has not started")
	}
	c, d := t.place(challenger), t.place(defender)
	switch {
	case c < 0:
		return bad("%s is not on the ladder", challenger)
	case d < 0:
		return bad("%s is not on the ladder", defender)
	case d >= c:
		return bad("%s is not above %s", defender, challenger)
	case c-d > t.reach():
		return bad("%s is %d places above %s; the reach is %d", defender, c-d, challenger, t.reach())
	case t.busy(challenger):
		return bad("%s is already in a challenge", challenger)
	case t.busy(defender):
		return bad("%s is already in a challenge", defender)
	}
	ch := Challenge{
		Number:     len(t.Challenges) + 1,
		Challenger: challenger,
		Defender:   defender,
		Issued:     at,
		State:      ChallengeOpen,
	}
	t.Challenges = append(t.Challenges, ch)
	return ch, nil
}

// challenge is the index of challenge number n, or -1.
func (t *Tournament) challenge(n int) int {
	if n < 1 || n > len(t.Challenges) || t.Challenges[n-1].Number != n {
		return -1
	}
	return n - 1
}

// Accept is the defender's answer to challenge n at the given time: its
// game, appended to t.Games, for the service to start. Too late (Days
// after it was issued, or later) is refused; Expire settles it.
func (t *Tournament) Accept(n int, at time.Time) (Game, error) {
	i := t.challenge(n)
	if i < 0 {
		return Game{}, fmt.Errorf("tournament %q: challenge %d: %w", t.Name, n, ErrChallenge)
	}
	c := &t.Challenges[i]
	if c.State != ChallengeOpen {
		return Game{}, fmt.Errorf("tournament %q: challenge %d is %s: %w", t.Name, n, c.State, ErrChallenge)
	}
	if !at.Before(c.Issued.Add(t.days())) {
		return Game{}, fmt.Errorf("tournament %q: challenge %d was not answered in time: %w", t.Name, n, ErrChallenge)
	}
	c.State, c.Answered = ChallengePlaying, at
	g := Game{Round: n, Board: 1, Players: []string{c.Challenger, c.Defender}}
	t.Games = append(t.Games, g)
	return g.clone(), nil
}

// Expire settles every open challenge whose time to answer has run out
// by now: the defender loses, and the challenger takes their place. It
// returns the challenges it settled.
func (t *Tournament) Expire(now time.Time) []Challenge {
	var out []Challenge
	for i := range t.Challenges {
		c := &t.Challenges[i]
		if c.State == ChallengeOpen && !now.Before(c.Issued.Add(t.days())) {
			c.State, c.Winner = ChallengeExpired, c.Challenger
			t.climb(c.Challenger, c.Defender)
			out = append(out, *c)
		}
	}
	return out
}

// climb moves the challenger to the defender's place, and the defender
// and those between down one.
func (t *Tournament) climb(challenger, defender string) {
	c, d := t.place(challenger), t.place(defender)
	if c < 0 || d < 0 || d > c {
		return
	}
	t.Ladder = slices.Delete(t.Ladder, c, c+1)
	t.Ladder = slices.Insert(t.Ladder, d, challenger)
}

// settleChallenge applies the result of challenge n's game.
func (t *Tournament) settleChallenge(n int) {
	i, j := t.challenge(n), t.game(n, 1)
	if i < 0 || j < 0 || t.Challenges[i].State != ChallengePlaying || t.Games[j].Result == nil {
		return
	}
	g := t.Games[j]
	c := &t.Challenges[i]
	c.State = ChallengeDecided
	switch {
	case g.Result.Places[0] < g.Result.Places[1]:
		c.Winner = c.Challenger
		t.climb(c.Challenger, c.Defender)
	case g.Result.Places[1] < g.Result.Places[0]:
		c.Winner = c.Defender
	}
}

// leaveLadder takes a withdrawn player off the list (those below move up
// one) and settles their challenges: an open one is cancelled, one being
// played (its game already forfeited by Withdraw) is decided.
func (t *Tournament) leaveLadder(id string) {
	for i := range t.Challenges {
		c := &t.Challenges[i]
		if c.Challenger != id && c.Defender != id {
			continue
		}
		switch c.State {
		case ChallengeOpen:
			c.State = ChallengeCancelled
		case ChallengePlaying:
			c.State = ChallengeDecided
			c.Winner = c.Challenger
			if c.Challenger == id {
				c.Winner = c.Defender
			}
		}
	}
	if p := t.place(id); p >= 0 {
		t.Ladder = slices.Delete(t.Ladder, p, p+1)
	}
}

// ladderGroup is the ladder as standings: its order, then those who
// withdrew.
func (t *Tournament) ladderGroup() Group {
	ids := slices.Clone(t.Ladder)
	for _, p := range t.Players {
		if !slices.Contains(ids, p.ID) {
			ids = append(ids, p.ID)
		}
	}
	rows := t.tally(ids, t.Games, 0)
	for i := range rows {
		rows[i].Rank = i + 1
	}
	return Group{TieBreaks: []string{}, Rows: rows}
}

// days is how long a challenge waits for its answer.
func (t *Tournament) days() time.Duration {
	d := t.Options.Days
	if d == 0 {
		d = DefaultDays
	}
	return time.Duration(d) * 24 * time.Hour
}
