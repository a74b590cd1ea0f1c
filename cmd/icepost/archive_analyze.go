// icepost archive analyze: the engine's analysis of stored games, written
// into their records in place, with a progress bar on a terminal.

package main

import (
	"errors"
	"fmt"
	"runtime"
	"time"

	"icepost/analysis"
	"icepost/archive"
)

func archiveAnalyze(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "analyze")
	query := queryFlags(fs)
	level := fs.Int("level", analysis.DefaultLevel, "the engine's level, 1 to 5 (games analysed at another level are analysed again)")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "games analysed at once, one core each")
	seed := fs.Uint64("seed", 0, "makes the analyses repeatable: each game's is icepost analyze -seed SEED's of its record")
	limit := fs.Int("limit", 0, "analyse at most this many games (0: all those selected)")
	quiet := fs.Bool("q", false, "no progress bar and no summary line")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive analyze: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	if *workers < 1 {
		fmt.Fprintln(e.stderr, "icepost archive analyze: -workers is 1 or more")
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "analyze", err)
	}
	var bar *progressBar
	opt := archive.AnalyzeOptions{Level: *level, Workers: *workers, Seed: *seed, Limit: *limit,
		Bad: func(id int64, err error) {
			if bar != nil {
				bar.clear()
			}
			fmt.Fprintf(e.stderr, "game %d not analysed: %v\n", id, err)
		}}
	if !*quiet && isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, name: fmt.Sprintf("analysing at level %d", *level), unit: "games", start: time.Now()}
		opt.Progress = bar.count
	}
	start := time.Now()
	st, err := a.Analyze(e.ctx, q, opt)
	if bar != nil {
		bar.clear()
	}
	took := time.Since(start)
	if !*quiet {
		fmt.Fprintf(e.stdout, "%d games selected: %d analysed (%d moves), %d read from their records, %d done meanwhile by another run, %d failed",
			st.Selected, st.Analysed, st.Moves, st.Read, st.Skipped, st.Failed)
		if st.Analysed > 0 {
			// Wall time, the games in parallel: on a shared machine the
			// CPU time (/usr/bin/time) is the analysis's cost.
			fmt.Fprintf(e.stdout, "; %s in all, %d at once", took.Round(time.Second), min(opt.Workers, st.Analysed))
		}
		fmt.Fprintln(e.stdout)
	}
	if err != nil {
		if e.ctx.Err() != nil && errors.Is(err, e.ctx.Err()) {
			fmt.Fprintln(e.stderr, "icepost archive analyze: stopped; the games analysed are stored: run the same command again to go on")
			return exitInvalid
		}
		return archiveFail(e, "analyze", err)
	}
	if st.Failed > 0 {
		return exitInvalid
	}
	return exitOK
}
