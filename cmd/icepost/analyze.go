// icepost analyze: every record of the files, analysed by the engine
// (package analysis) and written with the analysis in it, a record at a
// time.

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"icepost/analysis"
	"icepost/archive"
	"icepost/engine"
	"icepost/notation"
)

// analyzeMaxPlies is the longest main line analyze takes. Games played
// are a few hundred plies at most (the bots' matches stop at 1000); a
// ply costs 0.02 to 0.4 CPU seconds at level 3 (docs/engine.md,
// "Analysis"), so 2000 plies are up to 13 CPU minutes at level 3 and
// three and a half CPU hours at level 5. A longer record (a hostile one:
// two Pikemen turning a piece back and forth make a legal game of any
// length) is refused before it is replayed.
const analyzeMaxPlies = 2000

var analyzeDoc = fmt.Sprintf(`Analyse every record of the files (icepost's records, or Abstract Play's APGameRecord JSON, which
come out as icepost's records) with the engine (level 3 unless -level says otherwise) and write them
with the analysis in them: after each move of the main line a comment {[%%eval A] [%%before B]} with the mover's
estimate after the move and what the engine's move would have kept (0 to 1), the marks ?! ? ?? as NAGs,
and the engine's move as a variation after a mistake or a blunder (docs/notation.md, "Computer analysis").
A record already analysed at that level is written as it is. The files are read a record at a time, and
each record is written as soon as it is analysed: to standard output, or to -o's FILE, which replaces
FILE once all are done. A progress bar goes to standard error when it is a terminal. A record that does
not replay is reported with its position and left out, and so is a record over %d bytes (the archive's
limit) or over %d plies; the others are still analysed (exit status 1). Stopped (Ctrl-C), analyze writes
no more: standard output holds the records analysed until then, each whole; -o's FILE is left as it was.`, archive.MaxRecordBytes, analyzeMaxPlies)

func cmdAnalyze(e *env, args []string) int {
	fs := newFlags(e, "analyze")
	level := fs.Int("level", analysis.DefaultLevel, fmt.Sprintf("the engine's level, 1 to %d (each level searches four times the one below it)", engine.MaxLevel))
	out := fs.String("o", "", "write the records to `FILE` (replaced once all are done) instead of standard output")
	seed := fs.Uint64("seed", 0, "the engine's seed: the same seed and level give the same analysis, with any -workers (and in archive analyze)")
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
	var w pendingOutput = direct{e.stdout}
	if *out != "" {
		r, err := newReplacement(*out)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost analyze: %v\n", err)
			return exitUsage
		}
		w = r
	}
	defer w.Discard()
	a := analyzer{e: e, w: w, opt: analysis.Options{Level: *level, Seed: *seed, Workers: *workers}}
	if isTerminal(e.stderr) {
		// The bar counts the moves to analyse in every file: a first
		// read of the files (not of standard input) counts them.
		a.bar = &progressBar{w: e.stderr, total: int64(countToAnalyse(e.ctx, fs.Args(), *level)), start: time.Now(), unit: "moves"}
	}
	code := exitOK
	for _, name := range fs.Args() {
		c, err := a.file(name)
		code = max(code, c)
		if err != nil && e.ctx.Err() != nil {
			where := "standard output holds the records analysed before it"
			if *out != "" {
				where = *out + " is left as it was"
			}
			fmt.Fprintf(e.stderr, "icepost analyze: stopped (%v) after %s: %s\n", context.Cause(e.ctx), countOf(a.written, "record", "records"), where)
			return exitUsage
		}
		if a.werr != nil {
			return writeFailed(e, a.werr)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost analyze: %v\n", err)
		}
	}
	if err := w.Commit(nil); err != nil {
		fmt.Fprintf(e.stderr, "icepost analyze: %v\n", err)
		return exitUsage
	}
	return code
}

// analyzer analyses the records of the files in turn, writing each as it
// is done.
type analyzer struct {
	e       *env
	w       io.Writer
	opt     analysis.Options
	bar     *progressBar
	done    int // moves analysed, for the bar
	written int // records written
	werr    error
}

// file analyses one file's records, on the caller's goroutine (the
// engine uses the cores).
func (a *analyzer) file(file string) (int, error) {
	r, name, err := openInput(a.e, file)
	if err != nil {
		return exitUsage, err
	}
	defer r.Close()
	code := exitOK
	pr := notation.ErrorPrinter{W: a.e.stderr, PerRecord: errorsPerRecord, PerFile: errorsPerFile}
	err = streamRecords(a.e.ctx, name, r, recordStream(1),
		func(c *notation.Chunk) analysed {
			var out analysed
			for _, rec := range c.Records {
				if err := a.record(c, rec); err != nil {
					c.Fail(rec, err)
					continue
				}
				// Records are separated by a blank line, as FormatAll
				// writes them.
				out.text = append(out.text, '\n')
				out.text = notation.AppendFormat(out.text, rec)
				out.n++
			}
			return out
		},
		func(c *notation.Chunk, out analysed) error {
			if len(c.Errs)+c.More > 0 {
				if a.bar != nil {
					a.bar.clear()
				}
				pr.Print(c)
				code = exitInvalid
			}
			if err := a.e.ctx.Err(); err != nil {
				return err // the record under way was cut short: not written
			}
			if out.n == 0 {
				return nil
			}
			b := out.text
			if a.written == 0 {
				b = b[1:] // no blank line before the first
			}
			if _, err := a.w.Write(b); err != nil {
				a.werr = err
				return err
			}
			a.written += out.n
			return nil
		})
	if a.bar != nil {
		a.bar.clear()
	}
	pr.Done()
	return code, err
}

// analysed is the text of a chunk's records, analysed, each after a
// blank line.
type analysed struct {
	text []byte
	n    int
}

// record analyses one record in place, unless it is analysed at the level
// already; its moves count on the bar.
func (a *analyzer) record(c *notation.Chunk, rec *notation.Record) error {
	if n := len(rec.Main.Moves); n > analyzeMaxPlies {
		return &notation.Error{File: c.File, Pos: rec.Pos, Err: tooLongError{c.N, n}}
	}
	// As fmt writes it, so that fmt leaves the output alone.
	if _, err := notation.Walk(rec, true, nil); err != nil {
		return err
	}
	if analysis.Level(rec) == a.opt.Level {
		return nil
	}
	opt := a.opt
	if a.bar != nil {
		a.bar.name = fmt.Sprintf("%s record %d", c.File, c.N)
		opt.Progress = func(d, n int) {
			a.bar.name = fmt.Sprintf("%s record %d move %d/%d", c.File, c.N, d, n)
			a.bar.count(a.done+d, int(a.bar.total))
		}
	}
	r, err := analysis.Analyze(a.e.ctx, rec, opt)
	if err == nil {
		err = analysis.Annotate(rec, r)
	}
	if err != nil {
		if a.e.ctx.Err() != nil {
			return nil // emit sees the context and stops
		}
		return err
	}
	a.done += len(rec.Main.Moves)
	return nil
}

// countToAnalyse counts the moves of the records not yet analysed at the
// level in the files, for the progress bar; 0 (unknown) when one of them
// is standard input.
func countToAnalyse(ctx context.Context, files []string, level int) int {
	total := 0
	for _, file := range files {
		if file == "-" {
			return 0
		}
		f, err := os.Open(file)
		if err != nil {
			continue
		}
		streamRecords(ctx, file, f, recordStream(1),
			func(c *notation.Chunk) int {
				n := 0
				for _, rec := range c.Records {
					if m := len(rec.Main.Moves); m <= analyzeMaxPlies && analysis.Level(rec) != level {
						n += m
					}
				}
				return n
			},
			func(_ *notation.Chunk, n int) error {
				total += n
				return nil
			})
		f.Close()
	}
	return total
}

// direct is a pendingOutput that writes at once (analyze to standard
// output): nothing waits, so nothing is let out or dropped at the end.
type direct struct{ io.Writer }

func (direct) Commit(io.Writer) error { return nil }
func (direct) Discard()               {}

// tooLongError refuses a record longer than analyzeMaxPlies.
type tooLongError struct{ record, plies int }

func (e tooLongError) Error() string {
	return fmt.Sprintf("record %d has %d plies; analyze takes records of up to %d", e.record, e.plies, analyzeMaxPlies)
}

func (tooLongError) Unwrap() error { return notation.ErrTooLong }
