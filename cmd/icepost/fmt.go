// icepost fmt: write records in their canonical form, to standard output
// or in place (-w), reading a record at a time.

package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"icepost/archive"
	"icepost/atomicfile"
	"icepost/notation"
	"icepost/notation/aprecord"
)

// The errors a record and a file show: a file of garbage gives a
// screenful of them, and a line that counts the rest.
const (
	errorsPerRecord = 3
	errorsPerFile   = 10
)

// recordStream is how validate, fmt and analyze read a file: a record at
// a time, none longer than the archive takes (archive.MaxRecordBytes, a
// megabyte: a longer one is read past, not kept, and named), each
// keeping at most a few errors.
func recordStream(workers int) notation.StreamOptions {
	return notation.StreamOptions{MaxBytes: archive.MaxRecordBytes, MaxErrors: errorsPerRecord, Workers: workers}
}

func cmdFmt(e *env, args []string) int {
	fs := newFlags(e, "fmt")
	write := fs.Bool("w", false, "rewrite each file in place instead of printing it")
	format := fs.String("format", "records", "records (icepost's canonical form) or ap (Abstract Play's APGameRecord JSON: one record, or an array of them)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if *format != "records" && *format != "ap" {
		fmt.Fprintf(e.stderr, "icepost fmt: -format %q: use records or ap\n", *format)
		return exitUsage
	}
	if *format == "ap" && *write {
		fmt.Fprintln(e.stderr, "icepost fmt: -w rewrites records in their own format; -format ap writes the JSON to standard output (redirect it to a file)")
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost fmt: name one or more record files (- for standard input)")
		return exitUsage
	}
	code := exitOK
	for _, file := range fs.Args() {
		c, err := fmtFile(e, file, *write && file != "-", *format == "ap")
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
			if e.ctx.Err() != nil {
				return exitUsage
			}
		}
		code = max(code, c)
	}
	return code
}

// fmtFile formats one file. Like gofmt it writes nothing of a file that
// does not read, so that nothing is lost: the canonical text goes to a
// spool (to standard output) or to the new file beside the old one (-w),
// and is let out only once the whole file has read.
//
// With ap, the records are written as Abstract Play's APGameRecord JSON
// (aprecord.Marshal), one document for the file: a record that the
// format cannot hold is an error of the file, like one that does not
// replay.
func fmtFile(e *env, file string, inPlace, ap bool) (int, error) {
	r, name, err := openInput(e, file)
	if err != nil {
		return exitUsage, err
	}
	defer r.Close()
	var out pendingOutput
	if inPlace {
		out, err = newReplacement(file)
	} else {
		out = &spool{}
	}
	if err != nil {
		return exitUsage, err
	}
	defer out.Discard()
	pr := notation.ErrorPrinter{W: e.stderr, PerRecord: errorsPerRecord, PerFile: errorsPerFile}
	failed, first := false, true
	var jw *aprecord.Writer
	if ap {
		jw = aprecord.NewWriter(out)
	}
	now := time.Now()
	err = streamRecords(e.ctx, name, r, recordStream(runtime.GOMAXPROCS(0)),
		func(c *notation.Chunk) formatted {
			var b []byte
			var docs [][]byte
			for _, rec := range c.Records {
				if _, err := notation.Walk(rec, true, nil); err != nil {
					c.Fail(rec, err)
					continue
				}
				if ap {
					j, err := aprecord.Marshal(rec, now)
					if err != nil {
						c.Fail(rec, err)
						continue
					}
					docs = append(docs, j)
					continue
				}
				// A blank line before each record (FormatAll's), but
				// the file's first.
				b = append(b, '\n')
				b = notation.AppendFormat(b, rec)
			}
			return formatted{text: b, json: docs}
		},
		func(c *notation.Chunk, f formatted) error {
			b := f.text
			if len(c.Errs)+c.More > 0 {
				failed = true
				pr.Print(c)
			}
			if failed {
				return nil // reading on, for the errors
			}
			for _, j := range f.json {
				if err := jw.Write(j); err != nil {
					return err
				}
			}
			if len(b) == 0 {
				return nil
			}
			if first {
				b, first = b[1:], false
			}
			_, err := out.Write(b)
			return err
		})
	if ap && err == nil && !failed {
		err = jw.Close()
	}
	pr.Done()
	switch {
	case err != nil:
		return exitUsage, err
	case failed:
		return exitInvalid, nil
	}
	if inPlace {
		return exitOK, out.Commit(nil)
	}
	if err := out.Commit(e.stdout); err != nil {
		return writeFailed(e, err), nil
	}
	return exitOK, nil
}

// formatted is what fmt makes of a chunk: the records' canonical text,
// or their JSON (-format ap), one document each.
type formatted struct {
	text []byte
	json [][]byte
}

// pendingOutput is the text of a file being formatted: Commit lets it out
// (to w, or in place of the file), Discard drops it.
type pendingOutput interface {
	io.Writer
	Commit(w io.Writer) error
	Discard()
}

// spoolMemory is how much of a file's output a spool keeps in memory;
// the rest waits in a temporary file.
const spoolMemory = 4 << 20

// spool holds a file's output until it may be written: in memory up to
// spoolMemory, then in an unnamed temporary file.
type spool struct {
	mem []byte
	f   *os.File
}

func (s *spool) Write(p []byte) (int, error) {
	if s.f == nil && len(s.mem)+len(p) <= spoolMemory {
		s.mem = append(s.mem, p...)
		return len(p), nil
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "icepost-fmt-*")
		if err != nil {
			return 0, err
		}
		os.Remove(f.Name()) // unnamed: gone with the process, whatever happens
		s.f = f
		if _, err := s.f.Write(s.mem); err != nil {
			return 0, err
		}
		s.mem = nil
	}
	return s.f.Write(p)
}

func (s *spool) Commit(w io.Writer) error {
	if s.f == nil {
		_, err := w.Write(s.mem)
		return err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	_, err := io.Copy(w, s.f)
	return err
}

func (s *spool) Discard() {
	if s.f != nil {
		s.f.Close()
		s.f = nil
	}
	s.mem = nil
}

// replacement is an atomicfile.File as a pendingOutput: it replaces
// its file on Commit (w is not used).
type replacement struct{ *atomicfile.File }

func newReplacement(path string) (*replacement, error) {
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, err
	}
	return &replacement{f}, nil
}

func (r *replacement) Commit(io.Writer) error { return r.File.Commit() }
