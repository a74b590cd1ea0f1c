package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"icepost/notation"
	"icepost/notation/aprecord"
)

// ImportOptions tune Import. The zero value is fine.
type ImportOptions struct {
	// BatchSize is the most records stored in one transaction (default
	// 10000), with their positions as one sorted run of the position
	// index. Larger batches make fewer, larger runs (fewer merges later)
	// but take more memory (about 4 KB a record) and hold the write lock
	// longer: other writers wait up to the busy timeout (30 s). Replaying
	// happens outside the transaction. An import's first batches are
	// smaller (1,000 records, then an eighth of what it stored before),
	// so that storing starts early and a small import does not end with
	// a full batch to store after all the replaying is done.
	BatchSize int
	// Report, when set, is called for every record that is quarantined,
	// with the reason (a *notation.Error where the notation gives one,
	// its line counted from the start of the input).
	Report func(err error)
	// Progress, when set, is called now and then (from the importing
	// goroutine) with the bytes of the current input done (read and
	// replayed; for a compressed input, compressed bytes read) and the
	// records done in the whole import.
	Progress func(bytesDone int64, records int)
	// Phase, when set, is told what the import does when it is not
	// reading: "storing" a batch, "merging" the position index.
	Phase func(what string)
}

// ImportStats counts what an import did.
type ImportStats struct {
	Imported    int // new games stored
	Duplicates  int // records of games the archive already held
	Quarantined int // records that did not replay (stored in quarantine once)
}

func (s ImportStats) String() string {
	return fmt.Sprintf("%d imported, %d duplicates, %d quarantined", s.Imported, s.Duplicates, s.Quarantined)
}

// maxChunk bounds the text of one record as read, so that a hostile input
// (a tag of a gigabyte) cannot exhaust memory; such a record is
// quarantined with its first bytes.
const maxChunk = 2 * MaxRecordBytes

// quarantineKeep is how much of an oversized record the quarantine keeps.
const quarantineKeep = 4096

// chunk is one record's text as split from the input.
type chunk struct {
	text     []byte
	line     int   // line of the first byte, 1-based
	offset   int64 // byte offset of the first byte
	oversize int64 // when > 0, the record was this long and text holds its start
	json     bool  // an APGameRecord's JSON (splitAP), not icepost's record
	col      int   // the column of its first byte, for JSON (0: 1)
}

// outcome is what one record became: a row to store or the reason it was
// refused.
type outcome struct {
	row    *gameRow
	reason error
	text   []byte
	line   int
	offset int64
	end    int64  // byte offset after the record
	name   string // the input's name
}

type batch struct {
	chunks []chunk
	out    []outcome
	done   chan struct{}
}

// Import reads record files from r (gzip-compressed or not, detected from
// the content), replays each record, and stores the valid ones; records
// that do not replay go to the quarantine table with the reason. name is
// the file name that provenance and error messages give. The input is
// read in a stream: only a batch of records is in memory at a time.
// Games the archive already holds are counted and skipped, so importing
// the same file again adds nothing. Import is NewImporter, Add and Close.
func (a *Archive) Import(ctx context.Context, r io.Reader, name string, opt ImportOptions) (ImportStats, error) {
	im := a.NewImporter(ctx, opt)
	err := im.Add(r, name)
	st, cerr := im.Close()
	if err == nil {
		err = cerr
	}
	return st, err
}

// Importer imports several inputs as one import: batches run on across
// inputs, so that a thousand small files make the same few transactions
// and index runs as one large file.
type Importer struct {
	a         *Archive
	ctx       context.Context
	opt       ImportOptions
	stage     []outcome
	records   int
	submitted int // records handed to the store
	err       error
	moves     *tokenNumbers // move tokens numbered, kept across batches
	runs      []int64       // the runs this import wrote and has not merged
	// Buffers of index entries that batches are done with, for the next.
	free chan []entry
	// Full batches are stored by a goroutine while the next is replayed.
	storeCh   chan staged
	storeDone chan struct{}
	failed    atomic.Bool
	mu        sync.Mutex
	st        ImportStats
	storeErr  error
}

// NewImporter starts an import.
func (a *Archive) NewImporter(ctx context.Context, opt ImportOptions) *Importer {
	if opt.BatchSize <= 0 {
		opt.BatchSize = 10000
	}
	im := &Importer{a: a, ctx: ctx, opt: opt, moves: newTokenNumbers(),
		free: make(chan []entry, storeQueue+3), storeCh: make(chan staged, storeQueue), storeDone: make(chan struct{})}
	go func() {
		defer close(im.storeDone)
		for b := range im.storeCh {
			if im.failed.Load() {
				continue
			}
			if err := im.store(b); err != nil {
				im.mu.Lock()
				im.storeErr = err
				im.mu.Unlock()
				im.failed.Store(true)
			}
		}
	}()
	return im
}

// storeQueue is how many full batches may wait for the storing
// goroutine: enough that replaying goes on through a merge of the
// position index (seconds, at a million games) instead of stopping until
// it ends. Each waiting batch holds its rows and sorted entries (about
// 60 MB at 10,000 records): with merges as fast as they are now, 2 made
// a million-game import as fast as 4 did, with 860 MB instead of 1.2 GB.
const storeQueue = 2

// Stats is what the import has stored so far (a batch not yet stored is
// not counted).
func (im *Importer) Stats() ImportStats {
	im.mu.Lock()
	defer im.mu.Unlock()
	return im.st
}

// staged is a batch ready to store: its outcomes, and the index entries
// of its games sorted, each entry's game the index of its row among the
// batch's rows (the store gives games their ids).
type staged struct {
	out     []outcome
	entries []entry
}

// firstBatch is the size of an import's first batches; later ones hold
// an eighth of what the import stored before them (batchGrowth), up to
// BatchSize. The store is the part of an import that runs on one core,
// and the last batch is stored after all replaying is done: with 20,000
// games in batches of 10,000 the store had a full batch left when the
// replaying ended (import 4.0 to 4.4 times validate's time, 3.4 with
// batches of 2,000), while at a million games batches of 10,000 make
// fewer runs to merge.
const (
	firstBatch  = 1000
	batchGrowth = 8
)

// batchTarget is the size of the batch being filled.
func (im *Importer) batchTarget() int {
	return min(im.opt.BatchSize, max(firstBatch, im.submitted/batchGrowth))
}

// submit hands the staged records to the storing goroutine.
func (im *Importer) submit() error {
	if im.failed.Load() {
		im.mu.Lock()
		defer im.mu.Unlock()
		return im.storeErr
	}
	select {
	case im.storeCh <- im.index(im.stage):
	case <-im.ctx.Done():
		return im.ctx.Err()
	}
	im.submitted += len(im.stage)
	im.stage = make([]outcome, 0, im.opt.BatchSize)
	return nil
}

// index makes a batch's index entries and sorts them, before the batch
// waits for the store: sorting a batch's entries was a tenth of the
// store's time at a million games, and the store is the one part of an
// import that runs on one core. An entry's move is the number the
// replaying goroutine found for it, or 0 when it found none (the store
// numbers those). The rows' hashes are not needed after.
func (im *Importer) index(stage []outcome) staged {
	es := im.buffer()
	k := int64(0)
	for _, o := range stage {
		r := o.row
		if r == nil {
			continue
		}
		for ply, h := range r.hashes {
			var code uint32
			if ply < len(r.ids) {
				code = r.ids[ply]<<2 | outcomeFor(r.winner, r.movers[ply])
			}
			es = append(es, entry{hash: h, game: k, ply: uint32(ply), code: code})
		}
		r.hashes = nil
		k++
	}
	sorted, spare := sortEntries(es, im.buffer())
	im.recycle(spare)
	return staged{out: stage, entries: sorted}
}

// buffer returns an entry buffer a batch is done with, or nil.
func (im *Importer) buffer() []entry {
	select {
	case b := <-im.free:
		return b[:0]
	default:
		return nil
	}
}

// recycle keeps b for a later batch, if there is room.
func (im *Importer) recycle(b []entry) {
	if cap(b) == 0 {
		return
	}
	select {
	case im.free <- b[:0]:
	default:
	}
}

// Add reads one input (see Import). Records go to the archive a batch at
// a time; Close stores the last batch.
//
// An input that cannot be read on (a broken compressed file, JSON that
// breaks off) stops that input only: Add returns its error (errors.Is
// finds gzip's or notation.ErrSyntax), the records read before it stay
// in the import, and the next input is read as usual.
func (im *Importer) Add(r io.Reader, name string) error {
	if im.err != nil {
		return im.err
	}
	err := im.add(r, name)
	if err != nil && !InputError(err) {
		im.err = err
	}
	return err
}

// InputError reports whether an error of Add is the input's (a broken
// compressed file, JSON that cannot be read on), not the archive's.
func InputError(err error) bool {
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, notation.ErrSyntax)
}

func (im *Importer) add(r io.Reader, name string) error {
	ctx := im.ctx
	cr := &countingReader{r: r}
	br := bufio.NewReaderSize(cr, 1<<16)
	compressed := false
	if head, _ := br.Peek(2); len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 1<<16)
		compressed = true
	}

	splitter := split
	if aprecord.Sniff(br) {
		splitter = splitAP
	}

	ctx, cancel := context.WithCancel(ctx)
	work := make(chan *batch)
	order := make(chan *batch, 2*runtime.GOMAXPROCS(0)+2)
	var splitErr error
	go func() {
		defer close(work)
		defer close(order)
		splitErr = splitter(ctx, br, 256, func(b *batch) bool {
			select {
			case order <- b:
			case <-ctx.Done():
				return false
			}
			select {
			case work <- b:
			case <-ctx.Done():
				return false
			}
			return true
		})
	}()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range work {
				for _, c := range b.chunks {
					out := process(name, c, im.moves)
					for i := range out {
						out[i].end = c.offset + int64(len(c.text))
					}
					b.out = append(b.out, out...)
				}
				b.chunks = nil
				close(b.done)
			}
		}()
	}
	defer func() {
		cancel()
		wg.Wait()
	}()
	lastProgress := time.Time{}
	var done int64
	for b := range order {
		select {
		case <-b.done:
		case <-ctx.Done():
			return ctx.Err()
		}
		for _, o := range b.out {
			o.name = name
			if o.reason != nil && im.opt.Report != nil {
				im.opt.Report(o.reason)
			}
			im.stage = append(im.stage, o)
			im.records++
			if len(im.stage) >= im.batchTarget() {
				if err := im.submit(); err != nil {
					return err
				}
			}
			done = o.end
		}
		if im.opt.Progress != nil && time.Since(lastProgress) > 100*time.Millisecond {
			lastProgress = time.Now()
			if compressed {
				done = cr.n.Load()
			}
			im.opt.Progress(done, im.records)
		}
	}
	if splitErr != nil {
		return fmt.Errorf("%s: %w", name, splitErr)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if im.opt.Progress != nil {
		im.opt.Progress(cr.n.Load(), im.records)
	}
	return nil
}

// Close stores the last batch and merges the position index's runs; it
// returns what the whole import did.
func (im *Importer) Close() (ImportStats, error) {
	close(im.storeCh)
	<-im.storeDone
	im.mu.Lock()
	if im.err == nil {
		im.err = im.storeErr
	}
	im.mu.Unlock()
	if im.err != nil {
		return im.Stats(), im.err
	}
	if len(im.stage) > 0 {
		if im.opt.Phase != nil {
			im.opt.Phase("storing")
		}
		if err := im.store(im.index(im.stage)); err != nil {
			im.err = err
			return im.Stats(), err
		}
	}
	// Runs of every tier are merged as usual (mergeFanIn of a level make
	// one of the next); this import's last runs (fewer than
	// importMergeRuns) wait for that like any other.
	if err := im.a.write(im.ctx, func(ctx context.Context, tx *sql.Tx) error { return compact(ctx, tx, maxLevel) }); err != nil {
		im.err = err
		return im.Stats(), err
	}
	return im.Stats(), nil
}

// store writes staged records in one transaction, their positions as one
// run; now and then (importMergeRuns) it merges this import's runs in
// another transaction. Either commits whole: a crash leaves the archive
// as it was before one of them, and the next import's merges take in the
// runs it left.
func (im *Importer) store(b staged) error {
	defer im.recycle(b.entries)
	stage := b.out
	st := im.Stats()
	var run int64
	err := im.a.write(im.ctx, func(ctx context.Context, tx *sql.Tx) error {
		ins, err := newInserter(ctx, tx, im.moves)
		if err != nil {
			return err
		}
		defer ins.close()
		ins.indexed = true // the batch's entries come made (index)
		qins, err := tx.PrepareContext(ctx, quarantineInsert)
		if err != nil {
			return err
		}
		defer qins.Close()
		keys := make([]int64, 0, len(stage))
		rows := make([]*gameRow, 0, len(stage))
		for _, o := range stage {
			if o.row != nil {
				keys = append(keys, o.row.dedupe)
				rows = append(rows, o.row)
			}
		}
		if err := ins.batchMode(ctx, keys); err != nil {
			return err
		}
		if err := ins.numberBatch(ctx, rows); err != nil {
			return err
		}
		ids := make([]int64, 0, len(rows)) // each row's game, 0 for a duplicate
		now := time.Now().Unix()
		for _, o := range stage {
			if o.reason != nil {
				if _, err := qins.ExecContext(ctx, hashString(string(o.text)), string(o.text), o.reason.Error(), o.name, o.line, o.offset, now); err != nil {
					return fmt.Errorf("quarantine: %w", err)
				}
				st.Quarantined++
				continue
			}
			id, dup, err := ins.add(ctx, o.row)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", o.name, o.line, err)
			}
			if dup {
				st.Duplicates++
				id = 0
			} else {
				st.Imported++
			}
			ids = append(ids, id)
		}
		if err := ins.flushRows(); err != nil {
			return fmt.Errorf("storing games: %w", err)
		}
		run, err = writeRun(ctx, tx, finishEntries(b.entries, rows, ids))
		return err
	})
	if err != nil {
		return err
	}
	im.mu.Lock()
	im.st = st
	im.mu.Unlock()
	if run != 0 {
		im.runs = append(im.runs, run)
	}
	if len(im.runs) >= importMergeRuns {
		return im.mergeOwn()
	}
	return nil
}

// finishEntries makes a batch's sorted entries (index) the index's: each
// entry's game the id its row got (ids; 0 drops a duplicate's entries),
// and its move numbered where the replaying goroutine left it at 0. The
// order stays sorted: ids grow with the rows' order. It works in place.
func finishEntries(es []entry, rows []*gameRow, ids []int64) []entry {
	out := es[:0]
	for _, e := range es {
		id := ids[e.game]
		if id == 0 {
			continue
		}
		r := rows[e.game]
		if int(e.ply) < len(r.ids) && e.code>>2 == 0 {
			e.code = r.ids[e.ply]<<2 | outcomeFor(r.winner, r.movers[e.ply])
		}
		e.game = id
		out = append(out, e)
	}
	return out
}

// importMergeRuns: an import merges its own runs into one when it has
// made this many. Merging them then, once, instead of by tiers as they
// come, writes each entry of a long import about once; the bound keeps a
// lookup during a long import to a few dozen runs. The runs it makes after
// the last such merge are left to the tiers, so that an import of 100,000
// games ends without a pass over its whole index (1.4 of its 16 CPU
// seconds, and alone at the end, with nothing else to do on the other
// core): a lookup reads one block in each of its ten runs instead.
const importMergeRuns = 32

// mergeOwn merges the runs this import wrote into one, in a transaction.
func (im *Importer) mergeOwn() error {
	runs := im.runs
	im.runs = nil
	if len(runs) < 2 {
		return nil
	}
	if im.opt.Phase != nil {
		im.opt.Phase("merging")
	}
	return im.a.write(im.ctx, func(ctx context.Context, tx *sql.Tx) error { return mergeRunIDs(ctx, tx, runs) })
}

// maxLevel is above any level a run reaches.
const maxLevel = 64

// write runs fn in a transaction and commits it. The transaction ends
// with ctx (database/sql rolls it back, and fn's next statement fails),
// but fn's own statements get a context that cannot be cancelled:
// go-sqlite3 runs each statement given a cancellable context in a
// goroutine of its own and waits for it, and on two cores busy replaying
// that goroutine waited for a core (an execution trace of an import
// showed the storing goroutine blocked in that wait longer than it ran).
func (a *Archive) write(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx) error) error {
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(context.WithoutCancel(ctx), tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

const quarantineInsert = `INSERT INTO quarantine(text_hash, text, reason, source, source_line, source_offset, added)
	VALUES (?,?,?,?,?,?,?) ON CONFLICT(text_hash) DO UPDATE SET reason = excluded.reason`

type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// process parses and replays one chunk. Error lines are counted from the
// start of the whole input.
func process(file string, c chunk, moves *tokenNumbers) []outcome {
	fail := func(err error) []outcome {
		return []outcome{{reason: err, text: c.text, line: c.line, offset: c.offset}}
	}
	if c.oversize > 0 {
		return fail(&notation.Error{File: file, Pos: notation.Pos{Line: c.line, Col: 1},
			Err: fmt.Errorf("%w: the record is %d bytes, the archive reads up to %d", ErrTooLarge, c.oversize, maxChunk)})
	}
	if c.json {
		return processAP(file, c, moves)
	}
	recs, errs := notation.Parse(file, c.text)
	var out []outcome
	if len(errs) > 0 {
		for _, e := range errs {
			e.Pos.Line += c.line - 1
		}
		if len(recs) == 0 {
			return fail(errs)
		}
		// Keep what parsed; the text goes to quarantine for the rest.
		out = append(out, outcome{reason: errs, text: c.text, line: c.line, offset: c.offset})
	}
	for _, rec := range recs {
		row, err := prepareRecord(rec, Provenance{File: file, Line: rec.Pos.Line + c.line - 1, Offset: c.offset})
		if err == nil {
			moves.number(row)
			out = append(out, outcome{row: row, line: c.line, offset: c.offset})
			continue
		}
		var e *notation.Error
		if errors.As(err, &e) {
			e.Pos.Line += c.line - 1
		} else {
			err = &notation.Error{File: file, Pos: notation.Pos{Line: rec.Pos.Line + c.line - 1, Col: rec.Pos.Col}, Err: err}
		}
		if len(recs) == 1 && len(out) == 0 {
			return fail(err)
		}
		out = append(out, outcome{reason: err, text: c.text, line: c.line, offset: c.offset})
	}
	return out
}

// splitBuffer is the size of the buffers split keeps records' texts in.
const splitBuffer = 256 << 10

// split cuts the input into records without reading it whole: a record
// starts at a line that begins with '[' after some movetext (outside a
// {comment}). Batches of up to n records go to emit, which returns false
// to stop.
func split(ctx context.Context, br *bufio.Reader, n int, emit func(*batch) bool) error {
	var (
		cur         chunk
		sawMoves    bool
		inBrace     bool
		line        = 0
		offset      int64
		b           = &batch{done: make(chan struct{})}
		first       = true
		lineBuf     []byte
		free        []byte // the unused end of the last record's buffer
		overflowing bool
		ended       bool // the last line of movetext ended with a result marker
	)
	flushBatch := func() bool {
		if len(b.chunks) == 0 {
			return true
		}
		ok := emit(b)
		b = &batch{done: make(chan struct{})}
		return ok
	}
	endChunk := func() bool {
		if cur.text == nil && cur.oversize == 0 {
			return true
		}
		// Blank lines after the record are not part of it.
		if t := bytes.TrimRight(cur.text, " \t\r\n"); len(t) < len(cur.text) && cur.oversize == 0 {
			cur.text = append(t, '\n')
		}
		// The next record's text goes on in the same buffer.
		free = cur.text[len(cur.text):cap(cur.text)]
		cur.text = cur.text[:len(cur.text):len(cur.text)]
		b.chunks = append(b.chunks, cur)
		cur = chunk{}
		sawMoves, inBrace, overflowing, ended = false, false, false, false
		if len(b.chunks) >= n {
			return flushBatch()
		}
		return true
	}
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Read one line, however long; keep at most maxChunk of it.
		lineBuf = lineBuf[:0]
		var lineLen int64
		var err error
		for {
			var frag []byte
			frag, err = br.ReadSlice('\n')
			lineLen += int64(len(frag))
			if len(lineBuf) < maxChunk {
				lineBuf = append(lineBuf, frag[:min(len(frag), maxChunk-len(lineBuf))]...)
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if lineLen == 0 && err != nil {
			if err == io.EOF {
				err = nil
			}
			if !endChunk() || !flushBatch() {
				return ctx.Err()
			}
			return err
		}
		line++
		l := lineBuf
		if first {
			l = bytes.TrimPrefix(l, []byte("\uFEFF"))
			first = false
		}
		trimmed := bytes.TrimLeft(l, " \t")
		blank := len(bytes.TrimSpace(l)) == 0 || l[0] == '%'
		isTag := len(trimmed) > 0 && trimmed[0] == '['
		if (isTag && sawMoves || ended && !blank) && !inBrace {
			if !endChunk() {
				return ctx.Err()
			}
		}
		if cur.text == nil && cur.oversize == 0 && blank {
			offset += lineLen
			continue // between records
		}
		if cur.text == nil && cur.oversize == 0 {
			cur.line, cur.offset = line, offset
			// Records' texts share buffers: one allocation for many
			// records instead of a few for each as it grows.
			if cap(free) < int(lineLen)+1024 {
				free = make([]byte, 0, max(splitBuffer, int(min(lineLen, maxChunk))+1024))
			}
			cur.text = free[:0]
		}
		if !blank && !isTag || inBrace {
			sawMoves = true
			inBrace = notation.CommentOpen(l, inBrace)
			ended = !inBrace && endsWithResult(l)
		}
		if overflowing || int64(len(cur.text))+lineLen > maxChunk {
			if !overflowing {
				overflowing = true
				cur.oversize = int64(len(cur.text))
				cur.text = cur.text[:min(len(cur.text), quarantineKeep)]
				if len(cur.text) < quarantineKeep {
					cur.text = append(cur.text, l[:min(len(l), quarantineKeep-len(cur.text))]...)
				}
			}
			cur.oversize += lineLen
		} else {
			cur.text = append(cur.text, l...)
		}
		offset += lineLen
	}
}

// endsWithResult reports whether a line of movetext ends with a result
// marker: *, 1-0, 0-1, 1/2-1/2, or seats' points joined by '-'. It runs
// on every line of an import, so it allocates nothing.
func endsWithResult(l []byte) bool {
	end := len(l)
	for end > 0 && isSpace(l[end-1]) {
		end--
	}
	start := end
	for start > 0 && !isSpace(l[start-1]) {
		start--
	}
	w := l[start:end]
	if len(w) == 0 {
		return false
	}
	if len(w) == 1 && w[0] == '*' {
		return true
	}
	parts := 0
	for len(w) > 0 {
		p := w
		if i := bytes.IndexByte(w, '-'); i >= 0 {
			p, w = w[:i], w[i+1:]
			if len(w) == 0 {
				return false // a trailing '-'
			}
		} else {
			w = nil
		}
		if s := string(p); s != "0" && s != "1" && s != "1/2" {
			return false
		}
		parts++
	}
	return parts >= 2 && parts <= 4
}

// isSpace is a space as the notation's scanner reads one.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
