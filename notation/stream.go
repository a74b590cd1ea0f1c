package notation

import (
	"cmp"
	"context"
	"errors"
	"io"
	"slices"
	"sync"
)

// streamBudget bounds the text that Stream has in flight (read, parsed,
// not yet handed to emit) when it works on several records at once:
// enough records to keep every worker busy, little enough that memory
// stays that of a few hundred games, or of one record larger than it.
const streamBudget = 1 << 20

// StreamOptions says how Stream reads.
type StreamOptions struct {
	// MaxBytes is the longest record taken, in bytes as read: a longer
	// one is read past, not kept nor parsed, and reported (ErrTooLarge).
	// 0 takes any.
	MaxBytes int
	// MaxErrors is how many errors a record keeps; those after them are
	// only counted (Chunk.More). 0 keeps them all.
	MaxErrors int
	// Workers is how many records work runs on at once; 1 or less runs
	// everything on the caller's goroutine.
	Workers int
}

// A Chunk is the text of one record read from a stream (Splitter), parsed:
// usually one record, none when it is broken, several when records follow
// one another without a tag between them.
type Chunk struct {
	File     string
	N        int   // its number in the stream (the Splitter's), 1-based
	Line     int   // the line where it starts
	Size     int64 // its length in bytes as read
	TooLarge bool  // longer than StreamOptions.MaxBytes: not read
	Records  []*Record
	// Errs are its errors in input order, the syntax errors found by the
	// parse and those that work adds (Fail); lines count from the start
	// of the stream. More counts the errors found past MaxErrors.
	Errs ErrorList
	More int

	held int // bytes of the stream's budget it holds
}

// Fail adds an error to the chunk: an *Error as it is, any other at the
// record's start.
func (c *Chunk) Fail(rec *Record, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{File: c.File, Pos: rec.Pos, Err: err}
	}
	c.Errs = append(c.Errs, e)
}

// Stream reads r a record at a time (Splitter) and parses each record's
// text; work then does what the caller wants with each chunk (a replay, a
// format), on up to opt.Workers goroutines at once, and emit gets each
// chunk with what work returned, in input order, on the caller's
// goroutine, so that it can write without locks. A chunk's errors are
// sorted and cut to opt.MaxErrors before emit sees them. Memory follows
// the largest record, not the stream: records are read as they are
// worked on, a bounded number of bytes ahead.
//
// Stream returns emit's first error, the context's, or the stream's read
// error; it stops at the first.
func Stream[T any](ctx context.Context, file string, r io.Reader, opt StreamOptions, work func(*Chunk) T, emit func(*Chunk, T) error) error {
	sp := NewSplitter(r, opt.MaxBytes)
	p := new(parser) // its slab of moves goes on from record to record
	finish := func(c *Chunk, v T) error {
		c.sortAndCut(opt.MaxErrors)
		return emit(c, v)
	}
	if opt.Workers <= 1 {
		for sp.Next() {
			if err := ctx.Err(); err != nil {
				return err
			}
			c := p.chunk(file, sp.Record(), opt)
			if err := finish(c, work(c)); err != nil {
				return err
			}
		}
		return sp.Err()
	}

	type result struct {
		c *Chunk
		v T
	}
	var (
		jobs    = make(chan *Chunk, 4*opt.Workers)
		results = make(chan result, 4*opt.Workers)
		stop    = make(chan struct{})
		budget  = newBudget(streamBudget)
		readErr error
		wg      sync.WaitGroup
	)
	go func() {
		defer close(jobs)
		for sp.Next() {
			if ctx.Err() != nil {
				return
			}
			t := sp.Record()
			if !budget.take(len(t.Text)) {
				return // emit stopped the stream
			}
			c := p.chunk(file, t, opt)
			select {
			case jobs <- c:
			case <-stop:
				return
			}
		}
		readErr = sp.Err()
	}()
	for range opt.Workers {
		wg.Go(func() {
			for c := range jobs {
				results <- result{c, work(c)}
			}
		})
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var (
		err     error
		next    = 1
		waiting = make(map[int]result)
	)
	for res := range results {
		if err != nil {
			continue // draining after a stop
		}
		waiting[res.c.N] = res
		for {
			r, ok := waiting[next]
			if !ok {
				break
			}
			delete(waiting, next)
			next++
			if err == nil {
				if err = ctx.Err(); err == nil {
					err = finish(r.c, r.v)
				}
			}
			budget.give(r.c.held)
		}
		if err != nil {
			close(stop)
			budget.stop()
		}
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return readErr
}

// chunk parses one record's text. p is the parser of the stream: the
// records' moves are cut from its slab, as they are from one text's.
func (p *parser) chunk(file string, t RecordText, opt StreamOptions) *Chunk {
	c := &Chunk{File: file, N: t.N, Line: t.Line, Size: t.Size, TooLarge: t.TooLarge, held: len(t.Text)}
	if t.TooLarge {
		c.Errs = ErrorList{{File: file, Pos: Pos{Line: t.Line, Col: 1},
			Err: errorf(ErrTooLarge, "record %d is %d bytes, over the limit of %d bytes: not parsed", t.N, t.Size, opt.MaxBytes)}}
		return c
	}
	*p = parser{s: newScanner(file, string(t.Text)), file: file, followed: t.Followed,
		moves: reuse(p.moves), slab: p.slab, tags: reuse(p.tags)}
	p.s.line = t.Line
	p.s.maxErrs = opt.MaxErrors
	p.next()
	for p.tok.kind != tEOF {
		rec, clean := p.record()
		switch {
		case rec == nil:
			p.recover()
		case clean:
			c.Records = append(c.Records, rec)
		}
	}
	c.Errs, c.More = p.s.errs, p.s.lost
	return c
}

// reuse empties a parser's stack for the next record: cleared, so that it
// keeps nothing of the last record alive (its moves, its text), and let
// go when a long record made it large.
func reuse[T any](stack []T) []T {
	if cap(stack) > 4096 {
		return nil
	}
	clear(stack[:cap(stack)])
	return stack[:0]
}

// sortAndCut puts the chunk's errors in input order and keeps at most max
// of them (0: all).
func (c *Chunk) sortAndCut(max int) {
	slices.SortStableFunc(c.Errs, func(a, b *Error) int {
		if d := cmp.Compare(a.Pos.Line, b.Pos.Line); d != 0 {
			return d
		}
		return cmp.Compare(a.Pos.Col, b.Pos.Col)
	})
	if max > 0 && len(c.Errs) > max {
		c.More += len(c.Errs) - max
		c.Errs = c.Errs[:max:max]
	}
}

// budget is a count of bytes that the reading goroutine takes and the
// emitting one gives back. A take larger than the whole waits for all of
// it, so that one record longer than the budget still goes through.
type budget struct {
	mu      sync.Mutex
	cond    sync.Cond
	size    int64
	used    int64
	stopped bool
}

func newBudget(size int64) *budget {
	b := &budget{size: size}
	b.cond.L = &b.mu
	return b
}

// take waits for n bytes; it returns false once the budget is stopped.
func (b *budget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.stopped && b.used > 0 && b.used+int64(n) > b.size {
		b.cond.Wait()
	}
	b.used += int64(n)
	return !b.stopped
}

func (b *budget) give(n int) {
	b.mu.Lock()
	b.used -= int64(n)
	b.mu.Unlock()
	b.cond.Broadcast()
}

func (b *budget) stop() {
	b.mu.Lock()
	b.stopped = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// checkStream is CheckParallel on a reader of any size: it reads the
// input a record at a time (Stream), so that memory does not grow with
// the input, and returns every problem found, in input order, with lines
// counted from the start of the input. The error is a read error.
func checkStream(file string, r io.Reader, workers int, fn func(*Game)) (ErrorList, error) {
	return replayStream(file, r, workers, true, fn)
}

// validateStream is checkStream for a caller that wants only the verdict:
// the replays keep no positions (Validate), and it returns how many
// records were valid.
func validateStream(file string, r io.Reader, workers int) (valid int, errs ErrorList, err error) {
	errs, err = replayStream(file, r, workers, false, func(*Game) { valid++ })
	return valid, errs, err
}

// replayStream is checkStream (keep: the games keep their positions) and
// validateStream (they do not).
func replayStream(file string, r io.Reader, workers int, keep bool, fn func(*Game)) (ErrorList, error) {
	var (
		errs ErrorList
		mu   sync.Mutex
	)
	err := Stream(context.Background(), file, r, StreamOptions{Workers: workers},
		func(c *Chunk) struct{} {
			for _, rec := range c.Records {
				g, err := replayOrValidate(rec, keep)
				if err != nil {
					c.Fail(rec, err)
					continue
				}
				mu.Lock()
				fn(g)
				mu.Unlock()
			}
			return struct{}{}
		},
		func(c *Chunk, _ struct{}) error {
			errs = append(errs, c.Errs...)
			return nil
		})
	return errs, err
}

// CommentOpen reports whether a line of movetext leaves a {comment} open,
// given whether one was open before it (a ';' comment ends the line). Code
// that splits a stream into records (the archive's import) uses it so
// that a '[' inside a comment does not start a record; the Splitter reads
// the same rule a piece of a line at a time.
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
