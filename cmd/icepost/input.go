// What the record commands read: a record file or standard input, checked
// and replayed; its first game; and a game named on the command line.

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// readInput reads a file, or standard input for "-", and returns its
// bytes and the name to use in messages.
func readInput(e *env, file string) ([]byte, string, error) {
	if file == "-" {
		var b bytes.Buffer
		_, err := b.ReadFrom(e.stdin)
		return b.Bytes(), "<stdin>", err
	}
	src, err := os.ReadFile(file)
	return src, file, err
}

// openInput opens a file, or standard input for "-", to be read as a
// stream, and returns the name to use in messages.
func openInput(e *env, file string) (io.ReadCloser, string, error) {
	if file == "-" {
		return io.NopCloser(e.stdin), "<stdin>", nil
	}
	f, err := os.Open(file)
	return f, file, err
}

// readRecords reads and checks one file ("-" is standard input).
func readRecords(e *env, file string) ([]*notation.Game, notation.ErrorList, error) {
	src, name, err := readInput(e, file)
	if err != nil {
		return nil, nil, err
	}
	games, errs := notation.Check(name, src)
	return games, errs, nil
}

func printErrors(e *env, errs notation.ErrorList) {
	for _, err := range errs {
		fmt.Fprintln(e.stderr, err)
	}
}

// firstGame reads file and returns its first record, replayed.
func firstGame(e *env, name, file string) (*notation.Game, int) {
	gs, errs, err := readRecords(e, file)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return nil, exitUsage
	}
	if len(errs) > 0 {
		printErrors(e, errs)
	}
	if len(gs) == 0 || (len(errs) > 0 && errs[0].Pos.Line < gs[0].Record.Pos.Line) {
		if len(errs) == 0 {
			fmt.Fprintf(e.stderr, "icepost %s: %s holds no record\n", name, file)
		}
		return nil, exitInvalid
	}
	return gs[0], exitOK
}

func lookupGame(e *env, cmd, name string) (rules.Game, bool) {
	g, ok := games.Lookup(name)
	if !ok {
		fmt.Fprintf(e.stderr, "icepost %s: unknown game %q: the games are %s\n", cmd, name, strings.Join(games.Names(), ", "))
	}
	return g, ok
}
