// icepost archive verify: replay every stored game under the current
// rules and check the position index, the full-text index and the
// analysis rows against the games, with a progress bar on a terminal.

package main

import (
	"errors"
	"fmt"
	"time"

	"icepost/archive"
)

func archiveVerify(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "verify")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	var bar *progressBar
	opt := archive.VerifyOptions{Bad: func(id int64, err error) {
		if bar != nil {
			bar.clear()
		}
		if id == 0 {
			fmt.Fprintf(e.stderr, "%v\n", err)
			return
		}
		if errors.Is(err, archive.ErrIndex) || errors.Is(err, archive.ErrTextIndex) || errors.Is(err, archive.ErrAnalysis) {
			fmt.Fprintf(e.stderr, "game %d: %v\n", id, err) // the game is fine; what is kept of it is not
			return
		}
		fmt.Fprintf(e.stderr, "game %d no longer validates: %v\n", id, err)
	}}
	if isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, name: "verify", unit: "games", start: time.Now()}
		opt.Progress = bar.count
	}
	checked, failed, err := a.VerifyWith(e.ctx, opt)
	if bar != nil {
		bar.clear()
	}
	if err != nil {
		return archiveFail(e, "verify", err)
	}
	faults := "faults"
	if failed == 1 {
		faults = "fault"
	}
	fmt.Fprintf(e.stdout, "%d games checked, %d %s\n", checked, failed, faults)
	if failed > 0 {
		return exitInvalid
	}
	return exitOK
}
