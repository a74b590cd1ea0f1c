// Flag setup shared by the commands: a command's flag set, whose usage
// comes from the command table; parsing with -h on standard output; and
// the game options -seats, -board and -target.

package main

import (
	"errors"
	"flag"
	"strings"

	"icepost/rules"
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

// optionFlags adds -seats, -board and -target to fs.
func optionFlags(fs *flag.FlagSet) func() rules.Options {
	seats := fs.Int("seats", 0, "number of players (default 2)")
	board := fs.String("board", "", "board shape where the game has a choice: star or hex (IceFrogs)")
	target := fs.Int("target", 0, "the score that wins, where the game has one (Pikemen; default 12)")
	return func() rules.Options { return rules.Options{Seats: *seats, Board: *board, Target: *target} }
}
