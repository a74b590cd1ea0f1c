package notation

import (
	"bufio"
	"bytes"
	"io"
)

// streamWindow is how much text CheckStream parses at a time: enough
// records to keep every worker busy, little enough that memory stays
// that of a few hundred games however large the input.
const streamWindow = 256 << 10

// CheckStream is CheckParallel on a reader of any size: it reads the
// input a window of whole records at a time (cut before a tag line that
// follows movetext, outside a {comment}), so that memory does not grow
// with the input, and returns every problem found, in input order, with
// lines counted from the start of the input. The error is a read error.
func CheckStream(file string, r io.Reader, workers int, fn func(*Game)) (ErrorList, error) {
	return checkStream(file, r, workers, true, fn)
}

// ValidateStream is CheckStream for a caller that wants only the verdict
// (icepost validate): the replays keep no positions (Validate), and it
// returns how many records were valid.
func ValidateStream(file string, r io.Reader, workers int) (valid int, errs ErrorList, err error) {
	errs, err = checkStream(file, r, workers, false, func(*Game) { valid++ })
	return valid, errs, err
}

func checkStream(file string, r io.Reader, workers int, keep bool, fn func(*Game)) (ErrorList, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		errs     ErrorList
		window   []byte
		first    = 1 // line of window's first byte
		line     = 0 // lines read
		sawMoves bool
		inBrace  bool
	)
	flush := func() {
		if len(window) > 0 {
			errs = append(errs, checkAt(file, window, first, workers, keep, fn)...)
		}
		window = window[:0]
		first = line + 1
	}
	for {
		l, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: keep reading it whole.
			long := append([]byte(nil), l...)
			for err == bufio.ErrBufferFull {
				l, err = br.ReadSlice('\n')
				long = append(long, l...)
			}
			l = long
		}
		if len(l) > 0 {
			t := bytes.TrimLeft(l, " \t")
			isTag := len(t) > 0 && t[0] == '['
			if isTag && sawMoves && !inBrace {
				// A new record starts here.
				sawMoves = false
				if len(window) >= streamWindow {
					flush()
				}
			}
			line++
			window = append(window, l...)
			blank := len(bytes.TrimSpace(t)) == 0 || t[0] == '%'
			if inBrace || !blank && !isTag {
				sawMoves = true
				inBrace = CommentOpen(l, inBrace)
			}
		}
		if err == io.EOF {
			flush()
			return errs, nil
		}
		if err != nil {
			flush()
			return errs, err
		}
	}
}

// CommentOpen reports whether a line of movetext leaves a {comment} open,
// given whether one was open before it (a ';' comment ends the line). Code
// that splits a stream into records (CheckStream here, the archive's
// import) uses it so that a '[' inside a comment does not start a record.
func CommentOpen(l []byte, in bool) bool {
	for _, c := range l {
		switch {
		case in:
			if c == '}' {
				in = false
			}
		case c == '{':
			in = true
		case c == ';':
			return false
		}
	}
	return in
}
