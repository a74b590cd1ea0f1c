// icepost mail parse: what the daemon reads out of one mail.

package main

import (
	"fmt"
	"os"

	"icepost/pbem"
	"icepost/pbem/mailread"
)

func cmdMail(e *env, args []string) int {
	if len(args) == 0 || args[0] != "parse" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprintln(e.stdout, "Usage: icepost mail parse [-json] [FILE]\n\nPrint what the daemon reads out of one mail (standard input without FILE).")
			return exitOK
		}
		fmt.Fprintln(e.stderr, "icepost mail: the subcommand is parse: icepost mail parse [-json] [FILE]")
		return exitUsage
	}
	fs := newFlags(e, "mail")
	asJSON := fs.Bool("json", false, "print one JSON object: commands, comment, auto, error")
	if code := parseFlags(e, fs, args[1:]); code >= 0 {
		return code
	}
	in := e.stdin
	if fs.NArg() > 1 {
		fmt.Fprintln(e.stderr, "icepost mail parse: at most one file")
		return exitUsage
	}
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost mail parse: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	res := mailread.Summary(in, pbem.Language())
	if *asJSON {
		b, err := res.JSON()
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost mail parse: %v\n", err)
			return exitUsage
		}
		e.stdout.Write(append(b, '\n'))
	} else {
		fmt.Fprintf(e.stdout, "from:     %s\nsubject:  %s\n", res.From, res.Subject)
		for _, c := range res.Commands {
			fmt.Fprintf(e.stdout, "command:  %s\n", c)
		}
		if len(res.Commands) == 0 {
			fmt.Fprintln(e.stdout, "command:  (none)")
		}
		if res.Comment != "" {
			fmt.Fprintf(e.stdout, "comment:  %s\n", res.Comment)
		}
		if res.Auto {
			fmt.Fprintf(e.stdout, "automatic: yes (%s): it would not be answered\n", res.AutoReason)
		}
	}
	if res.Error != "" {
		fmt.Fprintf(e.stderr, "icepost mail parse: %s\n", res.Error)
		return exitInvalid
	}
	return exitOK
}
