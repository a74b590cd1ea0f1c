// icepost help, and the usage texts: the list of commands, and the usage
// every command's -h prints, all from the command table.

package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

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

// usage lists the commands.
func usage(w io.Writer) {
	fmt.Fprintln(w, "icepost plays Icehouse pyramid games by email, records games, and keeps an archive.")
	fmt.Fprintln(w, "\nUsage: icepost COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'icepost help COMMAND' or 'icepost COMMAND -h' for a command's flags.")
	fmt.Fprintln(w, "For speed work: ICEPOST_CPUPROFILE=FILE, ICEPOST_MEMPROFILE=FILE and ICEPOST_TRACE=FILE in the\nenvironment make any command write a CPU profile, a profile of its allocations (go tool pprof)\nand an execution trace (go tool trace).")
}

// usageFunc prints the usage of c, named cmd ("icepost archive import"):
// its usage line, what it does, its subcommands and its flags.
func usageFunc(fs *flag.FlagSet, cmd string, c *command) func() {
	return func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: %s %s\n", cmd, c.args)
		if doc := c.describe(); doc != "" {
			fmt.Fprintf(w, "\n%s\n", doc)
		}
		if len(c.subcommands) > 0 {
			fmt.Fprintln(w, "\nCommands:")
			for _, s := range c.subcommands {
				if c.subHelp {
					fmt.Fprintf(w, "  %-10s %s\n", s.name, s.summary)
				} else {
					fmt.Fprintf(w, "  %-10s %-10s %s\n", s.name, s.args, s.summary)
				}
			}
		}
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			fs.PrintDefaults()
		}
		if c.subHelp {
			fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags.\n", cmd)
		}
	}
}

// describe is what c's usage says it does.
func (c *command) describe() string {
	if c.doc != "" || len(c.subcommands) > 0 {
		return c.doc
	}
	return capitalize(c.summary) + "."
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
