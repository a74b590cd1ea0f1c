// icepost archive import: add record files (also .gz) to the archive, with
// a progress bar on a terminal.

package main

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"icepost/archive"
)

func archiveImport(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "import")
	quiet := fs.Bool("q", false, "no progress bar and no summary")
	batch := fs.Int("batch", 5000, "records per transaction")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost archive import: name one or more record files (- for standard input)")
		return exitUsage
	}
	var total archive.ImportStats
	code := exitOK
	for _, file := range fs.Args() {
		var r io.Reader
		var size int64
		name := file
		if file == "-" {
			r, name = e.stdin, "<stdin>"
		} else {
			f, err := os.Open(file)
			if err != nil {
				fmt.Fprintf(e.stderr, "icepost archive import: %v\n", err)
				code = exitUsage
				continue
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil {
				size = fi.Size()
			}
			r = f
		}
		opt := archive.ImportOptions{
			BatchSize: *batch,
			Report:    func(err error) { fmt.Fprintf(e.stderr, "quarantined: %v\n", err) },
		}
		var bar *progressBar
		if !*quiet && isTerminal(e.stderr) {
			bar = &progressBar{w: e.stderr, name: name, size: size, start: time.Now()}
			opt.Progress = bar.update
			opt.Report = func(err error) {
				bar.clear()
				fmt.Fprintf(e.stderr, "quarantined: %v\n", err)
			}
		}
		st, err := a.Import(e.ctx, r, name, opt)
		if bar != nil {
			bar.clear()
		}
		total.Imported += st.Imported
		total.Duplicates += st.Duplicates
		total.Quarantined += st.Quarantined
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost archive import: %v\n", err)
			if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) {
				code = exitInvalid
			} else {
				code = exitUsage
			}
		}
	}
	if !*quiet {
		fmt.Fprintf(e.stdout, "%s\n", total)
	}
	if code == exitOK && total.Quarantined > 0 {
		code = exitInvalid
	}
	return code
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar draws "name [=====>    ] 42% 1234 records 5678/s ETA 0:12" on
// one terminal line.
type progressBar struct {
	w     io.Writer
	name  string
	size  int64
	start time.Time
	drawn bool
}

func (p *progressBar) update(done int64, records int) {
	el := time.Since(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(records) / el
	}
	line := fmt.Sprintf("%s %d records %.0f/s", p.name, records, rate)
	if p.size > 0 {
		frac := min(float64(done)/float64(p.size), 1)
		const width = 30
		n := int(frac * width)
		eta := "?"
		if frac > 0 {
			eta = (time.Duration(el*(1-frac)/frac) * time.Second).Round(time.Second).String()
		}
		line = fmt.Sprintf("%s [%s%s] %3.0f%% %d records %.0f/s ETA %s", p.name, strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100, records, rate, eta)
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.drawn = true
}

func (p *progressBar) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}
