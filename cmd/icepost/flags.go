// Flag setup shared by the commands: a command's flag set, whose usage
// comes from the command table; parsing with -h on standard output; and
// the game options -seats, -board and -target.

package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"icepost/rules"
	"icepost/rules/games"
)

// newFlags makes a flag set for the command at path (its name, then a
// subcommand's) whose -h prints its usage to stdout and whose errors go
// to stderr.
func newFlags(e *env, path ...string) *flag.FlagSet {
	name := "icepost " + strings.Join(path, " ")
	c := find(path...)
	if c == nil {
		panic(name + " is not in the command table")
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = usageFunc(fs, name, c)
	return fs
}

// isHelpFlag reports whether a command-line argument asks for usage.
func isHelpFlag(a string) bool {
	return a == "-h" || a == "-help" || a == "--help"
}

// parseFlags parses args; -h prints usage on stdout. It returns the exit
// code to stop with, or -1 to go on.
func parseFlags(e *env, fs *flag.FlagSet, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if isHelpFlag(a) {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return exitOK
		}
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	return -1
}

// optionFlags adds -seats and a flag for each game option (-board,
// -target) to fs, described from the games that take it.
func optionFlags(fs *flag.FlagSet) func() rules.Options {
	var o rules.Options
	fs.IntVar(&o.Seats, "seats", 0, "number of players (default 2)")
	for _, name := range rules.OptionNames {
		fs.Func(strings.ToLower(name), optionHelp(name), func(v string) error { return o.Set(name, v) })
	}
	return func() rules.Options { return o }
}

// optionHelp describes an option flag from the games that take it: "the
// score that wins, where the game has one (GAME: default 12)", with the
// value's name (N, NAME) for -h.
func optionHelp(name string) string {
	help, arg := "", "N"
	var takers []string
	for _, g := range games.All() {
		for _, opt := range g.Info().Options {
			if opt.Name != name {
				continue
			}
			help = opt.Help
			if opt.Choices != nil {
				arg = "NAME"
			}
			t := g.Name() + ": default " + opt.Default
			if opt.Choices != nil {
				t = g.Name() + ": " + strings.Join(opt.Choices, " or ") + ", default " + opt.Default
			}
			takers = append(takers, t)
		}
	}
	if takers == nil {
		return "an option no game takes now"
	}
	// The word in backquotes names the flag's value in -h.
	return "`" + arg + "` is " + help + ", where the game has one (" + strings.Join(takers, "; ") + ")"
}

// parseGameArgs parses the flags of a command that takes one GAME, with
// flags before or after it, and returns the game's name ("" when none was
// given) and -1, or the exit code to return.
func parseGameArgs(e *env, fs *flag.FlagSet, args []string) (game string, code int) {
	rest := args
	for {
		if code := parseFlags(e, fs, rest); code >= 0 {
			return "", code
		}
		if fs.NArg() == 0 {
			return game, -1
		}
		if game != "" {
			fmt.Fprintf(e.stderr, "%s: name one game, not %q and %q\n", fs.Name(), game, fs.Arg(0))
			return "", exitUsage
		}
		game, rest = fs.Arg(0), fs.Args()[1:]
	}
}
