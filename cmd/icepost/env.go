// The env a command runs in, the exit codes it returns, and writeFailed,
// how a command ends when its output cannot be written.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"icepost/archive"
	"icepost/pbem"
)

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1 // the input was read but is not valid (a bad record)
	exitUsage   = 2 // the command line or the setup is wrong
)

// env is what a command gets from the outside world, and a subcommand
// from its parent.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer

	// archive is what icepost archive opened for its subcommand (nil
	// when the subcommand only prints its usage).
	archive *archive.Archive
	// server is the daemon's server that icepost games and icepost
	// players set up for their subcommands.
	server *pbem.Handler
}

func writeFailed(e *env, err error) int {
	if errors.Is(err, os.ErrClosed) {
		return exitOK
	}
	fmt.Fprintf(e.stderr, "icepost: %v\n", err)
	return exitUsage
}
