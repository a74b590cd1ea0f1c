// Command icepost plays Icehouse pyramid games by email, checks and formats
// game records, and keeps an archive of finished games. This package only
// reads flags, wires the packages together and sets exit codes; run is
// what tests call.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1 // the input was read but is not valid (a bad record)
	exitUsage   = 2 // the command line or the setup is wrong
)

// env is what a subcommand gets from the outside world.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

type command struct {
	name    string
	args    string // the arguments, for usage lines
	summary string
	run     func(e *env, args []string) int
}

var commands []command

func init() {
	// Registered here rather than in a literal because help refers to the
	// table itself.
	commands = []command{
		{"serve", "[-config FILE] [-dry-run]", "run the mail daemon (without a config: on an embedded mail system)", cmdServe},
		{"demo", "[-moves N]", "watch two scripted players play a game by mail", cmdDemo},
		{"mail", "parse [-json] [FILE]", "what the daemon reads out of one mail", cmdMail},
		{"validate", "FILE...", "parse and replay records; file:line:col: errors", cmdValidate},
		{"fmt", "[-w] FILE...", "write records in canonical form", cmdFmt},
		{"show", "[-ply N] [-view SEAT] FILE", "the board after any ply of a record", cmdShow},
		{"moves", "FILE", "the legal moves at the end of a record, one per line", cmdMoves},
		{"perft", "-depth N [-seats S] [-board B] [-target T] GAME|FILE", "count move-generation nodes", cmdPerft},
		{"selfplay", "-game G [-seats S] [-board B] [-target T] [-n K] [-seed X]", "write K random games as records", cmdSelfplay},
		{"archive", "[-db PATH] import|search|show|export|delete|quarantine|stats|verify ...", "the archive of finished games", cmdArchive},
		{"games", "[-db PATH | -config FILE] list|show ID|cancel ID|adjudicate ID RESULT", "the operator's view of the games by mail", cmdGames},
		{"players", "[-db PATH | -config FILE] list|block ADDRESS|unblock ADDRESS", "the players by mail; block or unblock an address", cmdPlayers},
		{"record", "GAME [-seats S] [-board B] [-target T] [-o FILE]", "record a game played at the table", cmdRecord},
		{"help", "[COMMAND]", "this text, or one command's flags", cmdHelp},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "-help" || name == "--help" {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(e, args[1:])
		}
	}
	fmt.Fprintf(stderr, "icepost: unknown command %q\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "icepost plays Icehouse pyramid games by email, records games, and keeps an archive.")
	fmt.Fprintln(w, "\nUsage: icepost COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'icepost help COMMAND' or 'icepost COMMAND -h' for a command's flags.")
}

func cmdHelp(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		return exitOK
	}
	for _, c := range commands {
		if c.name == args[0] && c.name != "help" {
			return c.run(e, []string{"-h"})
		}
	}
	fmt.Fprintf(e.stderr, "icepost help: unknown command %q\n", args[0])
	return exitUsage
}

// newFlags makes a flag set for a subcommand whose -h prints its usage to
// stdout and whose errors go to stderr.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("icepost "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var c command
	for _, cc := range commands {
		if cc.name == name {
			c = cc
		}
	}
	fs.Usage = usageFunc(fs, "icepost "+name, c.args, c.summary)
	return fs
}

// usageFunc prints a command's usage line, its summary and its flags.
func usageFunc(fs *flag.FlagSet, cmd, args, summary string) func() {
	return func() {
		fmt.Fprintf(fs.Output(), "Usage: %s %s\n\n%s.\n", cmd, args, capitalize(summary))
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseFlags parses args; -h prints usage on stdout. It returns the exit
// code to stop with, or -1 to go on.
func parseFlags(e *env, fs *flag.FlagSet, args []string) int {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
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
