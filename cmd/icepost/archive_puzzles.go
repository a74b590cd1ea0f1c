// icepost archive puzzles: the puzzles of the selected games (each
// position where the player to move missed a forced win in one to three
// moves), found in the games not searched before and stored, then
// written as records.

package main

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"time"

	"icepost/archive"
	"icepost/atomicfile"
)

func archivePuzzles(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "puzzles")
	query := queryFlags(fs)
	out := fs.String("o", "", "write the puzzles' records to `FILE` (replaced whole, once all are found) instead of standard output")
	again := fs.Bool("again", false, "search again the games searched before (after an upgrade of the rules or of the search)")
	budget := fs.Int("budget", 0, "positions each search may visit (0: the exact search's default, about 0.2 s in Pikemen)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games searched at once, one core each")
	limit := fs.Int("limit", 0, "search at most this many games (0: all those selected); the puzzles written are all of the selected games'")
	quiet := fs.Bool("q", false, "no progress bar and no summary line")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive puzzles: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	if *workers < 1 || *budget < 0 {
		fmt.Fprintln(e.stderr, "icepost archive puzzles: -workers is 1 or more, -budget 0 or more")
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "puzzles", err)
	}
	var bar *progressBar
	opt := archive.PuzzleOptions{Again: *again, Budget: *budget, Workers: *workers, Limit: *limit,
		Bad: func(id int64, err error) {
			if bar != nil {
				bar.clear()
			}
			fmt.Fprintf(e.stderr, "game %d not searched: %v\n", id, err)
		}}
	if !*quiet && isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, name: "looking for missed wins", unit: "games", start: time.Now()}
		opt.Progress = bar.count
	}
	start := time.Now()
	st, err := a.FindPuzzles(e.ctx, q, opt)
	if bar != nil {
		bar.clear()
	}
	if err != nil {
		if e.ctx.Err() != nil && errors.Is(err, e.ctx.Err()) {
			fmt.Fprintln(e.stderr, "icepost archive puzzles: stopped; the games searched are stored: run the same command again to go on")
			return exitInvalid
		}
		return archiveFail(e, "puzzles", err)
	}
	ps, err := a.PuzzlesIn(e.ctx, q)
	if err != nil {
		return archiveFail(e, "puzzles", err)
	}
	var b bytes.Buffer
	for i, p := range ps {
		rec, err := p.Record()
		if err != nil {
			return archiveFail(e, "puzzles", fmt.Errorf("puzzle %d (game %d, ply %d): %w", p.ID, p.GameID, p.Ply, err))
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(rec.String())
	}
	if *out != "" {
		if err := atomicfile.Write(*out, b.Bytes()); err != nil {
			fmt.Fprintf(e.stderr, "icepost archive puzzles: %v\n", err)
			return exitInvalid
		}
	} else if _, err := e.stdout.Write(b.Bytes()); err != nil {
		return exitInvalid
	}
	if !*quiet {
		// On standard error: standard output may be the records.
		fmt.Fprintf(e.stderr, "%d games searched of %d selected, %d puzzles found in them (%s), %d failed; %d puzzles written\n",
			st.Searched, st.Selected, st.Found, time.Since(start).Round(time.Second), st.Failed, len(ps))
	}
	if st.Failed > 0 {
		return exitInvalid
	}
	return exitOK
}
