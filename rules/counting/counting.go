// Package counting is a tiny game that no one plays: each turn adds 1 or 2
// to a total ("+1", "+2"), and whoever brings it to 10 wins. It is played
// by 2 to 4 seats.
//
// It exists for tests. It is not in the list of rules/games; a test that
// registers it (games.Register) proves that a game needs nothing outside
// its own folder and that list: it is challenged and played by mail,
// recorded at the table and archived like the real games. It also lets
// tests of 3- and 4-seat behaviour run whatever games are registered.
package counting

import (
	"fmt"
	"strconv"
	"strings"

	"icepost/rules"
)

// Game is Counting.
var Game rules.Game = game{}

type game struct{}

// Goal is the total that ends the game.
const Goal = 10

func (game) Name() string { return "Counting" }

func (game) Info() rules.Info {
	return rules.Info{
		Seats: []int{2, 3, 4},
		Summary: `Counting (2-4 players, no board): each turn add 1 or 2 to the total (+1, +2);
whoever brings it to 10 wins.
`,
		Token: token,
	}
}

// token reads "+1" or "+2" without a position.
func token(tok string) (string, bool) {
	if tok == "+1" || tok == "+2" {
		return tok, true
	}
	return "", false
}

func (game) Start(o rules.Options) (rules.State, error) {
	n, err := rules.CheckSeats("Counting", o, 2, 3, 4)
	if err != nil {
		return nil, err
	}
	if o.Board != "" || o.Target != 0 {
		return nil, fmt.Errorf("%w: Counting has no board or target option", rules.ErrOptions)
	}
	return state{seats: n, toMove: 1}, nil
}

// ParsePosition reads "Counting SEATS TOTAL TOMOVE LAST", as Code writes it.
func (game) ParsePosition(code string) (rules.State, error) {
	f := strings.Fields(code)
	if len(f) != 5 || f[0] != "Counting" {
		return nil, fmt.Errorf("%w: %q is not a Counting position", rules.ErrPosition, code)
	}
	var v [4]int
	for i := range v {
		n, err := strconv.Atoi(f[i+1])
		if err != nil {
			return nil, fmt.Errorf("%w: %q is not a number", rules.ErrPosition, f[i+1])
		}
		v[i] = n
	}
	s := state{seats: v[0], total: v[1], toMove: v[2], last: v[3]}
	if s.seats < 2 || s.seats > 4 || s.total < 0 || s.total > Goal+1 || s.toMove < 1 || s.toMove > s.seats || s.last < 0 || s.last > s.seats {
		return nil, fmt.Errorf("%w: %q is out of range", rules.ErrPosition, code)
	}
	return s, nil
}

type state struct{ seats, total, toMove, last int }

func (s state) Game() rules.Game               { return Game }
func (s state) Options() rules.Options         { return rules.Options{Seats: s.seats} }
func (s state) Scores() []int                  { return nil }
func (s state) FormatMove(m rules.Move) string { return "+" + strconv.Itoa(int(m.Arg)) }

func (s state) ToMove() int {
	if s.total >= Goal {
		return 0
	}
	return s.toMove
}

func (s state) Moves(buf []rules.Move) []rules.Move {
	buf = buf[:0]
	if s.total < Goal {
		buf = append(buf, rules.Move{Kind: 1, Arg: 1}, rules.Move{Kind: 1, Arg: 2})
	}
	return buf
}

func (s state) Play(m rules.Move) (rules.State, error) {
	if !rules.IsLegal(s, m) {
		return nil, rules.Illegal(s.FormatMove(m), "not a legal move here")
	}
	s.total += int(m.Arg)
	s.last = s.toMove
	s.toMove = s.toMove%s.seats + 1
	return s, nil
}

func (s state) ParseMove(tok string) (rules.Move, error) {
	if s.total >= Goal {
		return rules.Move{}, &rules.MoveError{Token: tok, Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	if m, ok := rules.FindMove(s, strings.TrimSpace(tok)); ok {
		return m, nil
	}
	return rules.Move{}, rules.Syntax(tok, "add +1 or +2")
}

func (s state) Outcome() rules.Outcome {
	if s.total >= Goal {
		return rules.Outcome{Over: true, Winner: s.last}
	}
	return rules.Outcome{}
}

func (s state) Board(int) string {
	return fmt.Sprintf("Total %d of %d\n", s.total, Goal)
}

func (s state) Code() string {
	return fmt.Sprintf("Counting %d %d %d %d", s.seats, s.total, s.toMove, s.last)
}
