// icepost version: the module's version and the source revision the
// binary was built from, as the Go toolchain recorded them.

package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

func cmdVersion(e *env, args []string) int {
	fs := newFlags(e, "version")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost version: no arguments, got %q\n", fs.Arg(0))
		return exitUsage
	}
	printVersion(e.stdout)
	return exitOK
}

// printVersion writes one line: "icepost VERSION (revision REV, TIME,
// modified) GOVERSION". The version is the module's ("(devel)" for a
// build from a working copy); the revision is there when the binary was
// built in a VCS checkout (go build stamps it; go run and go test do not).
func printVersion(w io.Writer) {
	version, goVersion, vcs := "(devel)", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		goVersion = bi.GoVersion
		var rev, at string
		modified := false
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				at = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		if rev != "" {
			vcs = " (revision " + rev
			if at != "" {
				vcs += ", " + at
			}
			if modified {
				vcs += ", modified"
			}
			vcs += ")"
		}
	}
	fmt.Fprintf(w, "icepost %s%s %s\n", version, vcs, goVersion)
}
