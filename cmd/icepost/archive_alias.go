// icepost archive alias: merge other spellings of a player's name into
// one.

package main

import (
	"fmt"

	"icepost/archive"
)

func archiveAlias(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "alias")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(e.stderr, "icepost archive alias: give a player's name and one or more other spellings")
		return exitUsage
	}
	for _, al := range fs.Args()[1:] {
		if err := a.AddAlias(e.ctx, fs.Arg(0), al); err != nil {
			return archiveFail(e, "alias", err)
		}
	}
	return exitOK
}
