package notation

import (
	"fmt"
	"io"
)

// ErrorPrinter writes the errors of a stream's chunks (Stream) one to a
// line, at most PerRecord of a chunk and PerFile of a file, and counts
// the others, so that a file of garbage gives a screenful, not megabytes:
// a line says how many were left out. A limit of 0 prints them all.
type ErrorPrinter struct {
	W         io.Writer
	PerRecord int
	PerFile   int

	file    string
	shown   int // errors printed of the file
	hidden  int // errors of the file not printed
	records int // records with errors not printed
	total   int
}

// Print writes c's errors, within the limits.
func (p *ErrorPrinter) Print(c *Chunk) {
	n := len(c.Errs) + c.More
	if n == 0 {
		return
	}
	p.file = c.File
	p.total += n
	show := len(c.Errs)
	if p.PerRecord > 0 {
		show = min(show, p.PerRecord)
	}
	if p.PerFile > 0 {
		show = min(show, max(0, p.PerFile-p.shown))
	}
	for _, e := range c.Errs[:show] {
		fmt.Fprintln(p.W, e)
	}
	p.shown += show
	if show == 0 {
		p.hidden += n
		p.records++
		return
	}
	if rest := n - show; rest > 0 {
		// Said at once, where the record is: its errors not shown.
		fmt.Fprintf(p.W, "%s: ... and %s in record %d (line %d)\n", where(c.File, c.Line), countErrors(rest, "more error", "more errors"), c.N, c.Line)
	}
}

// Done ends a file: a line says how many of its errors were not printed.
func (p *ErrorPrinter) Done() {
	if p.hidden > 0 {
		fmt.Fprintf(p.W, "%s: ... and %s in %s, not shown\n", p.file, countErrors(p.hidden, "more error", "more errors"), countErrors(p.records, "more record", "more records"))
	}
	p.file, p.shown, p.hidden, p.records = "", 0, 0, 0
}

// Total is the number of errors printed or counted so far, in every file.
func (p *ErrorPrinter) Total() int { return p.total }

func where(file string, line int) string {
	if file == "" {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%s:%d", file, line)
}

func countErrors(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
