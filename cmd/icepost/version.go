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
	b := readBuild()
	vcs := ""
	if b.revision != "" {
		vcs = " (revision " + b.revision
		if b.time != "" {
			vcs += ", " + b.time
		}
		if b.modified {
			vcs += ", modified"
		}
		vcs += ")"
	}
	fmt.Fprintf(w, "icepost %s%s %s\n", b.version, vcs, b.goVersion)
}

// build is what the toolchain recorded in the binary: what icepost
// version prints, and serve's start line says.
type build struct {
	version, goVersion string
	revision, time     string // "" when not built in a VCS checkout
	modified           bool
}

func readBuild() build {
	b := build{version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if v := bi.Main.Version; v != "" {
		b.version = v
	}
	b.goVersion = bi.GoVersion
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.revision = s.Value
		case "vcs.time":
			b.time = s.Value
		case "vcs.modified":
			b.modified = s.Value == "true"
		}
	}
	return b
}
