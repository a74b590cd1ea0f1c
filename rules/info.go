package rules

import (
	"fmt"
	"strconv"
	"strings"
)

// Info is what the rest of the program knows of a game beyond its
// positions: the names people call it, what its move tokens look like, its
// options, and a paragraph for players. The mail reader, the help texts,
// the record writers and the archive take all of this from here, so that a
// new game is known everywhere once it is registered in rules/games.
type Info struct {
	// Aliases are other names people write for the game. The Name itself,
	// in any case and with or without "-", "_" or spaces, is always known.
	Aliases []string
	// Seats lists the numbers of players the game is played by.
	Seats []int
	// Options are the choices beyond the seat count that the game takes.
	Options []Option
	// Summary is one paragraph for players: the seats and board, what a
	// turn is with example tokens, and how the game is won. Plain text,
	// lines under 80 characters, ending with a newline.
	Summary string
	// Token reads a move token without a position: whether it has the shape
	// of one of the game's moves in any accepted spelling, and its
	// canonical spelling as far as its shape tells. It tells a move from
	// prose in a mail; whether the move is legal is for a position to say.
	Token func(tok string) (canonical string, ok bool)
}

// Option is one choice a game offers beyond the seat count. A record
// carries it as the tag Name; a challenge by mail as name=value in lower
// case; the command line as -name.
type Option struct {
	Name    string   // the tag: "Board" or "Target"
	Choices []string // the values allowed, for a choice of words; nil for a number
	Default string   // the value when none is given
	Help    string   // what it means, in a few words
}

// Option names: the fields of Options beyond Seats, by their tag names.
const (
	OptionBoard  = "Board"
	OptionTarget = "Target"
)

// OptionNames lists every option name, in the order a record's options
// are read.
var OptionNames = []string{OptionTarget, OptionBoard}

// Set sets the option named (a tag name in any case) from its text, as a
// record tag or a mail writes it. It checks the form of the value only:
// whether the game takes it is for Game.Start to say.
func (o *Options) Set(name, value string) error {
	switch {
	case strings.EqualFold(name, OptionBoard):
		o.Board = strings.ToLower(value)
	case strings.EqualFold(name, OptionTarget):
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 {
			return fmt.Errorf("%s %q: the score that wins is a whole number above 0", OptionTarget, value)
		}
		o.Target = n
	default:
		return fmt.Errorf("%w: there is no option %q", ErrOptions, name)
	}
	return nil
}

// Get returns the value of the option named, "" when it is not set.
func (o Options) Get(name string) string {
	switch {
	case strings.EqualFold(name, OptionBoard):
		return o.Board
	case strings.EqualFold(name, OptionTarget) && o.Target != 0:
		return strconv.Itoa(o.Target)
	}
	return ""
}

// OptionTags returns the options of o that g takes, as (tag, value) pairs
// in the order the game lists them; an option not set in o is left out.
// Pass a State's Options to get every option with its default filled in,
// which is what records write.
func OptionTags(g Game, o Options) [][2]string {
	var out [][2]string
	for _, opt := range g.Info().Options {
		if v := o.Get(opt.Name); v != "" {
			out = append(out, [2]string{opt.Name, v})
		}
	}
	return out
}

// Usage is how an option is written by mail: "board=star|hex",
// "target=N".
func (opt Option) Usage() string {
	v := "N"
	if opt.Choices != nil {
		v = strings.Join(opt.Choices, "|")
	}
	return strings.ToLower(opt.Name) + "=" + v
}
