// icepost analyze: every record of the files, analysed by the engine
// (package analysis) and written with the analysis in it.

package main

import (
	"bytes"
	"fmt"
	"time"

	"icepost/analysis"
	"icepost/atomicfile"
	"icepost/engine"
	"icepost/notation"
)

const analyzeDoc = `Analyse every record of the files with the engine (level 3 unless -level says otherwise) and write them
with the analysis in them: after each move of the main line a comment {[%eval A] [%before B]} with the mover's
estimate after the move and what the engine's move would have kept (0 to 1), the marks ?! ? ?? as NAGs,
and the engine's move as a variation after a mistake or a blunder (docs/notation.md, "Computer analysis").
A record already analysed at that level is written as it is. The records go to -o, or to standard
output; a progress bar goes to standard error when it is a terminal. A record that does not replay is
reported with its position and left out; the others are still analysed (exit status 1).`

func cmdAnalyze(e *env, args []string) int {
	fs := newFlags(e, "analyze")
	level := fs.Int("level", analysis.DefaultLevel, fmt.Sprintf("the engine's level, 1 to %d (each level searches four times the one below it)", engine.MaxLevel))
	out := fs.String("o", "", "write the records to `FILE` (replaced once all are done) instead of standard output")
	seed := fs.Uint64("seed", 0, "the engine's seed: the same seed, level and workers give the same analysis")
	workers := fs.Int("workers", 0, "cores to analyse on, each growing a tree, sharing the level's playouts (default: the cores Go may use)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost analyze: name one or more record files (- for standard input)")
		return exitUsage
	}
	if *level < 1 || *level > engine.MaxLevel {
		fmt.Fprintf(e.stderr, "icepost analyze: -level %d: levels go from 1 to %d\n", *level, engine.MaxLevel)
		return exitUsage
	}
	code := exitOK
	// Read every file first: the progress bar counts the moves of all.
	type file struct {
		name  string
		games []*notation.Game
	}
	var files []file
	total := 0
	for _, name := range fs.Args() {
		gs, errs, err := readRecords(e, name)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost analyze: %v\n", err)
			code = exitUsage
			continue
		}
		if len(errs) > 0 {
			printErrors(e, errs)
			code = max(code, exitInvalid)
		}
		for _, g := range gs {
			if analysis.Level(g.Record) != *level {
				total += len(g.Moves)
			}
		}
		files = append(files, file{name, gs})
	}
	var bar *progressBar
	if isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, total: int64(total), start: time.Now(), unit: "moves"}
	}
	var recs []*notation.Record
	done := 0
	for _, f := range files {
		for i, g := range f.games {
			// As fmt writes it, so that fmt leaves the output alone.
			g.Canonicalize()
			rec := g.Record
			if analysis.Level(rec) == *level {
				recs = append(recs, rec)
				continue
			}
			opt := analysis.Options{Level: *level, Seed: *seed, Workers: *workers}
			if bar != nil {
				bar.name = fmt.Sprintf("%s record %d/%d", f.name, i+1, len(f.games))
				opt.Progress = func(d, n int) {
					bar.name = fmt.Sprintf("%s record %d/%d move %d/%d", f.name, i+1, len(f.games), d, n)
					bar.count(done+d, total)
				}
			}
			r, err := analysis.Analyze(e.ctx, rec, opt)
			if err == nil {
				err = analysis.Annotate(rec, r)
			}
			if err != nil {
				if bar != nil {
					bar.clear()
				}
				if e.ctx.Err() != nil {
					fmt.Fprintf(e.stderr, "icepost analyze: stopped: %v\n", e.ctx.Err())
					return exitUsage
				}
				fmt.Fprintf(e.stderr, "%s: icepost analyze: %v\n", rec.Pos, err)
				code = max(code, exitInvalid)
				continue
			}
			done += len(g.Moves)
			recs = append(recs, rec)
		}
	}
	if bar != nil {
		bar.clear()
	}
	var buf bytes.Buffer
	notation.FormatAll(&buf, recs)
	if *out != "" {
		if err := atomicfile.Write(*out, buf.Bytes()); err != nil {
			fmt.Fprintf(e.stderr, "icepost analyze: %v\n", err)
			return exitUsage
		}
		return code
	}
	if _, err := e.stdout.Write(buf.Bytes()); err != nil {
		return writeFailed(e, err)
	}
	return code
}
