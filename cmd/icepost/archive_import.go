// icepost archive import: add record files (also .gz, and Abstract Play's
// APGameRecord JSON) to the archive, with a progress bar on a terminal.

package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/term"

	"icepost/archive"
)

// importGCPercent is the garbage collector's GOGC during an import.
const importGCPercent = 200

func archiveImport(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "import")
	quiet := fs.Bool("q", false, "no progress bar and no summary")
	batch := fs.Int("batch", 10000, "the most records per transaction (and per run of the position index)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost archive import: name one or more record files (- for standard input)")
		return exitUsage
	}
	// The sizes of all the files first, for one bar over the whole import.
	var total int64
	sizes := map[string]int64{}
	for _, file := range fs.Args() {
		if file == "-" {
			continue
		}
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			sizes[file] = fi.Size()
			total += fi.Size()
		}
	}
	var bar *progressBar
	opt := archive.ImportOptions{
		BatchSize: *batch,
		Report:    func(err error) { fmt.Fprintf(e.stderr, "quarantined: %v\n", err) },
	}
	if !*quiet && isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, total: total, start: time.Now(), unit: "records"}
		opt.Progress = bar.update
		opt.Phase = bar.phase
		opt.Report = func(err error) {
			bar.clear()
			fmt.Fprintf(e.stderr, "quarantined: %v\n", err)
		}
	}
	// An import keeps the batches waiting for the store, a heap of
	// pointers that the garbage collector marks again at every cycle;
	// letting the heap grow to three times what is live instead of twice
	// took 8% off the time at 20,000 games and 2% at a million, for a
	// fifth (20,000) to two fifths (a million, measured with four batches
	// waiting for the store: 1.2 GB instead of 850 MB) more memory
	// (docs/archive.md). GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(importGCPercent))
	}
	// One import however many files: batches run on from one file to the
	// next, so that many small files cost what one large file does.
	im := a.NewImporter(e.ctx, opt)
	code := exitOK
	failed := func(err error) {
		if bar != nil {
			bar.clear()
		}
		fmt.Fprintf(e.stderr, "icepost archive import: %v\n", err)
		if archive.InputError(err) {
			code = exitInvalid
		} else {
			code = exitUsage
		}
	}
	for _, file := range fs.Args() {
		var r io.Reader
		name := file
		if file == "-" {
			r, name = e.stdin, "<stdin>"
		} else {
			f, err := os.Open(file)
			if err != nil {
				failed(err)
				continue
			}
			defer f.Close()
			r = f
		}
		if bar != nil {
			bar.file(name, sizes[file])
		}
		if err := im.Add(r, name); err != nil {
			failed(err)
			if !archive.InputError(err) {
				break // the archive failed, not the file
			}
		}
	}
	st, err := im.Close()
	if bar != nil {
		bar.clear()
	}
	if err != nil && code == exitOK {
		failed(err)
	}
	if !*quiet {
		fmt.Fprintf(e.stdout, "%s\n", st)
	}
	if code == exitOK && st.Quarantined > 0 {
		code = exitInvalid
	}
	return code
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar draws "name [=====     ] 42% 1234 records 5678/s ETA 12s" on
// one terminal line. The fraction is of the work of the whole command
// (all the files of an import); the ETA is the time left at the rate so
// far, shown once there is a second of history to go by.
type progressBar struct {
	w     io.Writer
	name  string
	unit  string
	total int64 // bytes (or items) of the whole job; 0 when unknown
	base  int64 // bytes of the files before the current one
	size  int64 // the current file's size
	cur   int64 // done of the current file
	start time.Time
	what  string // the phase, when not reading
	drawn bool
	last  time.Time
	n     int
}

// file moves the bar to the next file.
func (p *progressBar) file(name string, size int64) {
	p.base += p.size
	p.name, p.size, p.cur, p.what = name, size, 0, ""
}

// phase says what the job does between reading (storing, merging).
func (p *progressBar) phase(what string) {
	p.what = what
	p.draw()
}

// update is an ImportOptions.Progress.
func (p *progressBar) update(done int64, records int) {
	p.cur, p.n, p.what = min(done, max(p.size, 0)), records, ""
	if p.size <= 0 {
		p.cur = 0
	}
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.draw()
}

// count is a progress of done out of total items (verify).
func (p *progressBar) count(done, total int) {
	p.total, p.cur, p.n = int64(total), int64(done), done
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.draw()
}

func (p *progressBar) draw() {
	p.last = time.Now()
	el := time.Since(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(p.n) / el
	}
	line := fmt.Sprintf("%s %d %s %.0f/s", p.name, p.n, p.unit, rate)
	if p.total > 0 {
		done := p.base + p.cur
		frac := min(float64(done)/float64(p.total), 1)
		const width = 30
		n := int(frac * width)
		eta := "?"
		if frac > 0 && el >= 1 {
			eta = (time.Duration(el * (1 - frac) / frac * float64(time.Second))).Round(time.Second).String()
		}
		line = fmt.Sprintf("%s [%s%s] %3.0f%% %d %s %.0f/s ETA %s", p.name, strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100, p.n, p.unit, rate, eta)
	}
	if p.what != "" {
		line += " (" + p.what + ")"
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", strings.TrimSpace(line))
	p.drawn = true
}

func (p *progressBar) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
