package tabletop_test

import (
	"fmt"
	"strconv"
	"strings"

	"icepost/rules"
)

// counting is a tiny game for 2 to 4 seats, made for the tests so that
// multi-seat behaviour is tested whatever games are registered: each turn
// adds 1 or 2 to a total ("+1", "+2"); whoever brings it to 10 wins.
type counting struct{}

func (counting) Name() string { return "Counting" }

func (counting) Start(o rules.Options) (rules.State, error) {
	n, err := rules.CheckSeats("Counting", o, 2, 3, 4)
	if err != nil {
		return nil, err
	}
	return count{seats: n, toMove: 1}, nil
}

func (counting) ParsePosition(code string) (rules.State, error) {
	return nil, rules.ErrPosition
}

type count struct{ seats, total, toMove, last int }

func (c count) Game() rules.Game               { return counting{} }
func (c count) Options() rules.Options         { return rules.Options{Seats: c.seats} }
func (c count) Scores() []int                  { return nil }
func (c count) FormatMove(m rules.Move) string { return "+" + strconv.Itoa(int(m.Arg)) }

func (c count) ToMove() int {
	if c.total >= 10 {
		return 0
	}
	return c.toMove
}

func (c count) Moves(buf []rules.Move) []rules.Move {
	buf = buf[:0]
	if c.total < 10 {
		buf = append(buf, rules.Move{Kind: 1, Arg: 1}, rules.Move{Kind: 1, Arg: 2})
	}
	return buf
}

func (c count) Play(m rules.Move) (rules.State, error) {
	if !rules.IsLegal(c, m) {
		return nil, rules.Illegal(c.FormatMove(m), "not a legal move here")
	}
	c.total += int(m.Arg)
	c.last = c.toMove
	c.toMove = c.toMove%c.seats + 1
	return c, nil
}

func (c count) ParseMove(tok string) (rules.Move, error) {
	if m, ok := rules.FindMove(c, strings.TrimSpace(tok)); ok {
		return m, nil
	}
	return rules.Move{}, rules.Syntax(tok, "add +1 or +2")
}

func (c count) Outcome() rules.Outcome {
	if c.total >= 10 {
		return rules.Outcome{Over: true, Winner: c.last}
	}
	return rules.Outcome{}
}

func (c count) Board(int) string {
	return fmt.Sprintf("Total %d of 10\n", c.total)
}

func (c count) Code() string {
	return fmt.Sprintf("Counting %d %d %d", c.seats, c.total, c.toMove)
}
