package archive

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// The position index: for every position of every game's main line, one
// entry (position hash, game, ply, the move played next and how the game
// went for the seat that played it). docs/archive.md says why it is built
// this way; in short:
//
//   - Entries are kept in sorted runs, not in one B-tree. An import (or a
//     stage of one) sorts its entries in memory and writes them as a new
//     run, in order: pages are written once, at the end of the file,
//     instead of rewriting random pages of an index larger than the cache
//     at every commit. Runs of about the same size are merged (size
//     tiers of mergeFanIn), so an entry is rewritten a few times over the
//     archive's life, and a lookup visits one block per run.
//   - A run is a sequence of blocks, each one row of pos_blocks of at most
//     blockBytes (one page), keyed by the block's first hash. Inside a
//     block the entries are bit-packed: the gap from the previous hash in
//     a Rice code (hashes are uniform, so the gaps are geometric), the
//     game, ply and move code in fixed widths chosen per block. That is
//     10 to 11 bytes an entry where a row of (hash, game_id, ply) took 19.
//   - The move played next is a number in move_tokens, with the mover's
//     outcome in its low two bits, so that the opening explorer counts
//     from the index alone.
//
// Hashes are compared as unsigned numbers; in SQL a block's lo is the
// hash with its top bit flipped (sqlKey), so that SQLite's signed order is
// the same.

// entry is one position of one game.
type entry struct {
	hash uint64
	game int64
	ply  uint32
	code uint32 // move id << 2 | outcome for the mover (outcome* below)
}

// Outcomes for the seat to move, in an entry's code.
const (
	outcomeUndecided = 0
	outcomeWin       = 1
	outcomeDraw      = 2
	outcomeLoss      = 3
)

func entryCmp(a, b entry) int {
	if c := cmp.Compare(a.hash, b.hash); c != 0 {
		return c
	}
	if c := cmp.Compare(a.game, b.game); c != 0 {
		return c
	}
	return cmp.Compare(a.ply, b.ply)
}

func sqlKey(h uint64) int64 { return int64(h ^ 1<<63) }

const (
	// blockBytes bounds a block's data so that a block row fits in one
	// 4 KiB page with its other columns (SQLite keeps up to 4061 bytes of
	// a row on a table leaf page).
	blockBytes = 3990
	// blockHeader is the most a block's header takes: lo, the count, the
	// game base and four widths.
	blockHeader = 8 + 10 + 10 + 4
	// mergeFanIn runs of one level are merged into one run of the next.
	// (It was 8 before schema 4; runs keep the level they were given.)
	mergeFanIn = 16
	// level0Entries is the size of the smallest tier: runs up to
	// level0Entries entries are level 0, up to 8 times that level 1, ...
	level0Entries = 4096
	// riceEscape: a gap whose quotient reaches this is written whole.
	riceEscape = 40
)

func runLevel(entries int64) int {
	l := 0
	for n := entries / level0Entries; n > 0; n /= mergeFanIn {
		l++
	}
	return l
}

// riceParam is the Rice parameter for n uniform hashes: about log2 of the
// mean gap.
func riceParam(n int64) uint8 {
	if n <= 1 {
		return 63
	}
	return uint8(64 - bits.Len64(uint64(n)))
}

func bitWidth(v uint64) uint8 { return uint8(bits.Len64(v)) }

// bitWriter appends bits to a byte slice, most significant first.
type bitWriter struct {
	buf  []byte
	acc  uint64
	nacc uint
}

func (w *bitWriter) write(v uint64, n uint8) {
	if n > 56 {
		w.write(v>>32, n-32)
		w.write(v&(1<<32-1), 32)
		return
	}
	if w.nacc+uint(n) > 64 {
		w.spill()
	}
	w.acc = w.acc<<n | v&(1<<n-1)
	w.nacc += uint(n)
}

// spill appends the whole bytes of acc, keeping the bits after them
// (fewer than 8): the bytes are written as one 8-byte word, and the
// slice is cut back to those that are whole.
func (w *bitWriter) spill() {
	rem := w.nacc & 7
	whole := w.nacc / 8
	if whole > 0 {
		w.buf = binary.BigEndian.AppendUint64(w.buf, w.acc>>rem<<(64-8*whole))
		w.buf = w.buf[:len(w.buf)-8+int(whole)]
	}
	w.acc &= 1<<rem - 1
	w.nacc = rem
}

func (w *bitWriter) ones(n uint) {
	for n >= 32 {
		w.write(1<<32-1, 32)
		n -= 32
	}
	w.write(1<<n-1, uint8(n))
}

func (w *bitWriter) finish() []byte {
	w.spill()
	if w.nacc > 0 {
		w.buf = append(w.buf, byte(w.acc<<(8-w.nacc)))
		w.acc, w.nacc = 0, 0
	}
	return w.buf
}

// bitReader reads what bitWriter wrote.
type bitReader struct {
	buf []byte
	pos uint // in bits
}

func (r *bitReader) read(n uint8) (uint64, error) {
	if i := r.pos >> 3; n <= 56 && int(i)+8 <= len(r.buf) {
		// Eight bytes at once: the n bits start off bits into them.
		w := binary.BigEndian.Uint64(r.buf[i:]) << (r.pos & 7)
		r.pos += uint(n)
		return w >> (64 - uint(n)) & (1<<n - 1), nil
	}
	var v uint64
	for n > 0 {
		i := r.pos >> 3
		if int(i) >= len(r.buf) {
			return 0, errBlock
		}
		off := r.pos & 7
		avail := 8 - off
		take := min(uint(n), avail)
		b := uint64(r.buf[i]>>(avail-take)) & (1<<take - 1)
		v = v<<take | b
		r.pos += take
		n -= uint8(take)
	}
	return v, nil
}

// unary counts one-bits up to the next zero bit.
func (r *bitReader) unary(limit uint64) (uint64, error) {
	var q uint64
	for {
		i := r.pos >> 3
		if int(i) >= len(r.buf) {
			return 0, errBlock
		}
		off := r.pos & 7
		b := r.buf[i] << off
		lead := uint(bits.LeadingZeros8(^b))
		if lead < 8-off {
			q += uint64(lead)
			r.pos += lead + 1
			return q, nil
		}
		q += uint64(8 - off)
		r.pos += 8 - off
		if q > limit {
			return 0, errBlock
		}
	}
}

var errBlock = errors.New("position index: damaged block")

// blockSizer tracks the encoded size of a block being filled.
type blockSizer struct {
	k          uint8
	n          int
	riceBits   uint64
	minG, maxG int64
	maxPly     uint32
	maxCode    uint32
	prevHash   uint64
}

func (s *blockSizer) riceLen(gap uint64) uint64 {
	q := gap >> s.k
	if q >= riceEscape {
		return riceEscape + 1 + 64
	}
	return q + 1 + uint64(s.k)
}

// sizeWith is the block's size in bytes if e were added.
func (s *blockSizer) sizeWith(e entry) int {
	n := s.n + 1
	rb, minG, maxG, maxPly, maxCode := s.riceBits, e.game, e.game, e.ply, e.code
	if s.n > 0 {
		rb += s.riceLen(e.hash - s.prevHash)
		minG, maxG = min(minG, s.minG), max(maxG, s.maxG)
		maxPly, maxCode = max(maxPly, s.maxPly), max(maxCode, s.maxCode)
	}
	per := uint64(bitWidth(uint64(maxG-minG))) + uint64(bitWidth(uint64(maxPly))) + uint64(bitWidth(uint64(maxCode)))
	return blockHeader + int((rb+uint64(n)*per+7)/8)
}

func (s *blockSizer) add(e entry) {
	if s.n > 0 {
		s.riceBits += s.riceLen(e.hash - s.prevHash)
		s.minG, s.maxG = min(s.minG, e.game), max(s.maxG, e.game)
		s.maxPly, s.maxCode = max(s.maxPly, e.ply), max(s.maxCode, e.code)
	} else {
		s.minG, s.maxG, s.maxPly, s.maxCode = e.game, e.game, e.ply, e.code
	}
	s.prevHash = e.hash
	s.n++
}

// encodeBlock packs sorted entries with Rice parameter k.
func encodeBlock(dst []byte, es []entry, k uint8) []byte {
	minG, maxG := es[0].game, es[0].game
	var maxPly, maxCode uint32
	for _, e := range es {
		minG, maxG = min(minG, e.game), max(maxG, e.game)
		maxPly, maxCode = max(maxPly, e.ply), max(maxCode, e.code)
	}
	gw, pw, cw := bitWidth(uint64(maxG-minG)), bitWidth(uint64(maxPly)), bitWidth(uint64(maxCode))
	dst = binary.BigEndian.AppendUint64(dst, es[0].hash)
	dst = binary.AppendUvarint(dst, uint64(len(es)))
	dst = binary.AppendVarint(dst, minG)
	dst = append(dst, k, gw, pw, cw)
	w := bitWriter{buf: dst}
	prev := es[0].hash
	// An entry is a few wide writes where they fit in one (the usual
	// case): the Rice code's ones, its zero and remainder, and the game,
	// ply and move together.
	fields := gw + pw + cw
	for i, e := range es {
		if i > 0 {
			gap := e.hash - prev
			switch q := gap >> k; {
			case q >= riceEscape:
				w.ones(riceEscape)
				w.write(0, 1)
				w.write(gap, 64)
			case q+1+uint64(k) <= 56:
				w.write((1<<q-1)<<(k+1)|gap&(1<<k-1), uint8(q)+1+k)
			default:
				w.ones(uint(q))
				w.write(0, 1)
				if k > 0 {
					w.write(gap&(1<<k-1), k)
				}
			}
			prev = e.hash
		}
		if fields <= 56 {
			w.write(uint64(e.game-minG)<<(pw+cw)|uint64(e.ply)<<cw|uint64(e.code), fields)
			continue
		}
		w.write(uint64(e.game-minG), gw)
		w.write(uint64(e.ply), pw)
		w.write(uint64(e.code), cw)
	}
	return w.finish()
}

// decodeBlock calls fn for each entry of a block, in order, until fn
// returns false.
func decodeBlock(b []byte, fn func(entry) bool) error {
	if len(b) < 8 {
		return errBlock
	}
	h := binary.BigEndian.Uint64(b)
	b = b[8:]
	n, k1 := binary.Uvarint(b)
	if k1 <= 0 {
		return errBlock
	}
	b = b[k1:]
	minG, k2 := binary.Varint(b)
	if k2 <= 0 || len(b) < k2+4 {
		return errBlock
	}
	b = b[k2:]
	k, gw, pw, cw := b[0], b[1], b[2], b[3]
	if k > 63 || gw > 64 || pw > 32 || cw > 32 {
		return errBlock
	}
	r := bitReader{buf: b[4:]}
	for i := uint64(0); i < n; i++ {
		if i > 0 {
			q, err := r.unary(riceEscape)
			if err != nil {
				return err
			}
			var gap uint64
			if q >= riceEscape {
				if gap, err = r.read(64); err != nil {
					return err
				}
			} else {
				lo, err := r.read(k)
				if err != nil {
					return err
				}
				gap = q<<k | lo
			}
			h += gap
		}
		g, err := r.read(gw)
		if err != nil {
			return err
		}
		p, err := r.read(pw)
		if err != nil {
			return err
		}
		c, err := r.read(cw)
		if err != nil {
			return err
		}
		if !fn(entry{hash: h, game: minG + int64(g), ply: uint32(p), code: uint32(c)}) {
			return nil
		}
	}
	return nil
}

// dbtx is what the index needs of a *sql.DB or *sql.Tx.
type dbtx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// runWriter writes one run's blocks in order.
type runWriter struct {
	ctx     context.Context
	tx      dbtx
	run     int64
	k       uint8
	pending []entry
	sizer   blockSizer
	buf     []byte
	entries int64
	ins     *sql.Stmt
}

func newRunWriter(ctx context.Context, tx *sql.Tx, total int64) (*runWriter, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO pos_runs(entries, level) VALUES (?, ?)`, total, runLevel(total))
	if err != nil {
		return nil, err
	}
	run, err := res.LastInsertId()
	if err != nil {
		return nil, err
	}
	ins, err := tx.PrepareContext(ctx, `INSERT INTO pos_blocks(run, lo, data) VALUES (?, ?, ?)`)
	if err != nil {
		return nil, err
	}
	k := riceParam(total)
	return &runWriter{ctx: ctx, tx: tx, run: run, k: k, sizer: blockSizer{k: k}, ins: ins}, nil
}

func (w *runWriter) add(e entry) error {
	if w.sizer.n > 0 && w.sizer.sizeWith(e) > blockBytes {
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.sizer.add(e)
	w.pending = append(w.pending, e)
	w.entries++
	return nil
}

func (w *runWriter) flush() error {
	if len(w.pending) == 0 {
		return nil
	}
	w.buf = encodeBlock(w.buf[:0], w.pending, w.k)
	if _, err := w.ins.ExecContext(w.ctx, w.run, sqlKey(w.pending[0].hash), w.buf); err != nil {
		return fmt.Errorf("position index: %w", err)
	}
	w.pending = w.pending[:0]
	w.sizer = blockSizer{k: w.k}
	return nil
}

// close writes the last block and sets the run's true size.
func (w *runWriter) close() error {
	defer w.ins.Close()
	if err := w.flush(); err != nil {
		return err
	}
	_, err := w.tx.ExecContext(w.ctx, `UPDATE pos_runs SET entries = ?, level = ? WHERE id = ?`, w.entries, runLevel(w.entries), w.run)
	return err
}

// writeRun stores sorted entries as a new run and returns its id (0 when
// there are no entries).
func writeRun(ctx context.Context, tx *sql.Tx, es []entry) (int64, error) {
	if len(es) == 0 {
		return 0, nil
	}
	w, err := newRunWriter(ctx, tx, int64(len(es)))
	if err != nil {
		return 0, err
	}
	for _, e := range es {
		if err := w.add(e); err != nil {
			w.ins.Close()
			return 0, err
		}
	}
	return w.run, w.close()
}

type runInfo struct {
	id, entries int64
	level       int
}

func listRuns(ctx context.Context, q dbtx) ([]runInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, entries, level FROM pos_runs ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []runInfo
	for rows.Next() {
		var r runInfo
		if err := rows.Scan(&r.id, &r.entries, &r.level); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// compact merges runs while some level holds mergeFanIn of them, up to
// maxLevel (the mail daemon merges only small runs in its transactions;
// imports merge all).
func compact(ctx context.Context, tx *sql.Tx, maxLevel int) error {
	for {
		runs, err := listRuns(ctx, tx)
		if err != nil {
			return err
		}
		byLevel := map[int][]runInfo{}
		merged := false
		for _, r := range runs {
			byLevel[r.level] = append(byLevel[r.level], r)
		}
		for l := 0; l <= maxLevel; l++ {
			if len(byLevel[l]) >= mergeFanIn {
				if err := mergeRuns(ctx, tx, byLevel[l]); err != nil {
					return err
				}
				merged = true
				break
			}
		}
		if !merged {
			return nil
		}
	}
}

// runCursor streams one run's entries in order, a few blocks at a time.
// When consume is set it deletes the blocks it has read, so that the run
// a merge writes takes their pages instead of growing the file (a merge
// of runs as large as the index would otherwise leave the file twice the
// size, the old runs' pages free inside it).
type runCursor struct {
	ctx     context.Context
	tx      *sql.Tx
	run     int64
	consume bool
	lastLo  int64
	lastID  int64
	done    bool
	buf     []entry
	i       int
	cur     entry
	ids     []int64
}

// cursorChunk is how many blocks a cursor reads at once.
const cursorChunk = 64

func (c *runCursor) next() (bool, error) {
	for c.i >= len(c.buf) {
		if c.done {
			return false, nil
		}
		if err := c.load(); err != nil {
			return false, err
		}
	}
	c.cur = c.buf[c.i]
	c.i++
	return true, nil
}

func (c *runCursor) load() error {
	rows, err := c.tx.QueryContext(c.ctx, `SELECT id, lo, data FROM pos_blocks WHERE run = ?1 AND (lo, id) > (?2, ?3) ORDER BY lo, id LIMIT ?4`,
		c.run, c.lastLo, c.lastID, cursorChunk)
	if err != nil {
		return err
	}
	defer rows.Close()
	c.buf, c.i, c.ids = c.buf[:0], 0, c.ids[:0]
	n := 0
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&c.lastID, &c.lastLo, &data); err != nil {
			return err
		}
		n++
		c.ids = append(c.ids, c.lastID)
		if err := decodeBlock(data, func(e entry) bool { c.buf = append(c.buf, e); return true }); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	if n < cursorChunk {
		c.done = true
	}
	if c.consume && len(c.ids) > 0 {
		if _, err := c.tx.ExecContext(c.ctx, `DELETE FROM pos_blocks WHERE id IN (SELECT value FROM json_each(?))`, idList(c.ids)); err != nil {
			return err
		}
	}
	return nil
}

// loserTree picks the cursor with the least current entry among k: a
// tournament whose inner nodes keep the loser of their match, so that
// after the winner moves on one match a level is played again, log2(k)
// comparisons where a heap took about twice that (a merge moves every
// entry of the index through it: a heap was a quarter of a merge's time).
type loserTree struct {
	cs   []*runCursor
	live []bool   // a cursor that has run out loses every match
	key  []uint64 // each cursor's hash (the most when it ran out), side by side
	node []int    // node[0] the winner, node[1:] the losers of the inner matches
}

func newLoserTree(cs []*runCursor, live []bool) *loserTree {
	t := &loserTree{cs: cs, live: live, key: make([]uint64, len(cs)), node: make([]int, max(1, len(cs)))}
	for i := range cs {
		t.setKey(i)
	}
	if len(cs) > 0 {
		t.node[0] = t.build(1)
	}
	return t
}

func (t *loserTree) setKey(i int) {
	t.key[i] = math.MaxUint64
	if t.live[i] {
		t.key[i] = t.cs[i].cur.hash
	}
}

// beats reports whether cursor a's entry comes before cursor b's. The
// hashes decide almost always; the rest of the entries only on a tie.
func (t *loserTree) beats(a, b int) bool {
	if ka, kb := t.key[a], t.key[b]; ka != kb {
		return ka < kb
	}
	switch {
	case !t.live[a]:
		return false
	case !t.live[b]:
		return true
	}
	if c := entryCmp(t.cs[a].cur, t.cs[b].cur); c != 0 {
		return c < 0
	}
	return a < b
}

// build plays the matches below node n (leaves are k..2k-1) and returns
// the winner.
func (t *loserTree) build(n int) int {
	k := len(t.cs)
	if n >= k {
		return n - k
	}
	a, b := t.build(2*n), t.build(2*n+1)
	if t.beats(a, b) {
		t.node[n] = b
		return a
	}
	t.node[n] = a
	return b
}

// winner is the cursor with the least entry (not live when all ran out).
func (t *loserTree) winner() int { return t.node[0] }

// replay plays the winner's matches again after it moved on (its
// cursor's entry, and live, are the new ones). The matches are decided
// without a branch where the hashes differ: in a merge of random hashes a
// branch on the comparison is mispredicted half the time.
func (t *loserTree) replay() {
	w := t.node[0]
	t.setKey(w)
	kw := t.key[w]
	for n := (w + len(t.cs)) / 2; n >= 1; n /= 2 {
		o := t.node[n]
		ko := t.key[o]
		if ko == kw {
			if t.beats(o, w) {
				t.node[n], w = w, o
			}
			continue
		}
		var m int
		if ko < kw {
			m = -1
		}
		d := (w ^ o) & m
		t.node[n] = o ^ d
		w ^= d
		kw = min(kw, ko)
	}
	t.node[0] = w
}

// mergeRunIDs merges the runs of these ids (those that still exist).
func mergeRunIDs(ctx context.Context, tx *sql.Tx, ids []int64) error {
	all, err := listRuns(ctx, tx)
	if err != nil {
		return err
	}
	var runs []runInfo
	for _, r := range all {
		if slices.Contains(ids, r.id) {
			runs = append(runs, r)
		}
	}
	if len(runs) < 2 {
		return nil
	}
	return mergeRuns(ctx, tx, runs)
}

// mergeRuns replaces runs by one run holding all their entries.
func mergeRuns(ctx context.Context, tx *sql.Tx, runs []runInfo) error {
	var total int64
	for _, r := range runs {
		total += r.entries
	}
	w, err := newRunWriter(ctx, tx, total)
	if err != nil {
		return err
	}
	cs := make([]*runCursor, len(runs))
	live := make([]bool, len(runs))
	for i, r := range runs {
		cs[i] = &runCursor{ctx: ctx, tx: tx, run: r.id, consume: true, lastLo: math.MinInt64, lastID: math.MinInt64}
		if live[i], err = cs[i].next(); err != nil {
			return err
		}
	}
	t := newLoserTree(cs, live)
	for i := t.winner(); len(cs) > 0 && live[i]; i = t.winner() {
		if err := w.add(cs[i].cur); err != nil {
			return err
		}
		if live[i], err = cs[i].next(); err != nil {
			return err
		}
		t.replay()
	}
	if err := w.close(); err != nil {
		return err
	}
	for _, r := range runs {
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_blocks WHERE run = ?`, r.id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM pos_runs WHERE id = ?`, r.id); err != nil {
			return err
		}
	}
	return nil
}

// blocksFor selects the blocks of a run that may hold hash h: from the
// last block that starts below h to the last that starts at h.
const blocksFor = `SELECT id, data FROM pos_blocks WHERE run = ?1 AND lo <= ?2
	AND lo >= coalesce((SELECT max(lo) FROM pos_blocks WHERE run = ?1 AND lo < ?2), -9223372036854775808)
	ORDER BY lo, id`

// lookup calls fn for every entry of hash h, run by run.
func lookup(ctx context.Context, q dbtx, h uint64, fn func(entry)) error {
	runs, err := listRuns(ctx, q)
	if err != nil {
		return err
	}
	for _, r := range runs {
		if err := lookupRun(ctx, q, r.id, h, func(_ int64, _ []byte, e entry) { fn(e) }); err != nil {
			return err
		}
	}
	return nil
}

// lookupRun calls fn for each entry of hash h in one run, with the block
// it came from.
func lookupRun(ctx context.Context, q dbtx, run int64, h uint64, fn func(block int64, data []byte, e entry)) error {
	rows, err := q.QueryContext(ctx, blocksFor, run, sqlKey(h))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return err
		}
		if err := decodeBlock(data, func(e entry) bool {
			if e.hash == h {
				fn(id, data, e)
			}
			return e.hash <= h
		}); err != nil {
			return err
		}
	}
	return rows.Err()
}

// gamesAt returns the sorted, distinct games that reached hash h (at ply
// when ply >= 0).
func gamesAt(ctx context.Context, q dbtx, h uint64, ply int) ([]int64, error) {
	var ids []int64
	err := lookup(ctx, q, h, func(e entry) {
		if ply < 0 || int(e.ply) == ply {
			ids = append(ids, e.game)
		}
	})
	slices.Sort(ids)
	return slices.Compact(ids), err
}

// removeGame takes a game's entries out of the index: for each of its
// position hashes, the blocks that hold them are rewritten without them.
// With hashes nil (a record that no longer replays), every block is read.
func removeGame(ctx context.Context, tx *sql.Tx, game int64, hashes []uint64) error {
	runs, err := listRuns(ctx, tx)
	if err != nil {
		return err
	}
	touched := map[int64][]byte{} // block id -> data
	for _, r := range runs {
		if hashes == nil {
			rows, err := tx.QueryContext(ctx, `SELECT id, data FROM pos_blocks WHERE run = ?`, r.id)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id int64
				var data []byte
				if err := rows.Scan(&id, &data); err != nil {
					rows.Close()
					return err
				}
				if err := decodeBlock(data, func(e entry) bool {
					if e.game == game {
						touched[id] = data
						return false
					}
					return true
				}); err != nil {
					rows.Close()
					return err
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			continue
		}
		for _, h := range hashes {
			if err := lookupRun(ctx, tx, r.id, h, func(id int64, data []byte, e entry) {
				if e.game == game {
					touched[id] = data
				}
			}); err != nil {
				return err
			}
		}
	}
	var runOf = map[int64]int64{}
	for id := range touched {
		var run int64
		if err := tx.QueryRowContext(ctx, `SELECT run FROM pos_blocks WHERE id = ?`, id).Scan(&run); err != nil {
			return err
		}
		runOf[id] = run
	}
	for id, data := range touched {
		var keep []entry
		removed := 0
		if err := decodeBlock(data, func(e entry) bool {
			if e.game == game {
				removed++
			} else {
				keep = append(keep, e)
			}
			return true
		}); err != nil {
			return err
		}
		if len(keep) == 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM pos_blocks WHERE id = ?`, id); err != nil {
				return err
			}
		} else {
			// Fewer entries never need wider fields: the block still fits.
			enc := encodeBlock(nil, keep, blockRice(data))
			if _, err := tx.ExecContext(ctx, `UPDATE pos_blocks SET lo = ?, data = ? WHERE id = ?`, sqlKey(keep[0].hash), enc, id); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pos_runs SET entries = entries - ? WHERE id = ?`, removed, runOf[id]); err != nil {
			return err
		}
	}
	return nil
}

// blockRice reads a block's Rice parameter.
func blockRice(b []byte) uint8 {
	b = b[8:]
	_, k1 := binary.Uvarint(b)
	_, k2 := binary.Varint(b[k1:])
	return b[k1+k2]
}

// sortEntries sorts entries by hash, game and ply. es is normally in
// (game, ply) order already (a batch queues its games in the order it
// numbers them), so a stable radix sort on the hash alone sorts it, in
// four passes of 16 bits: a quarter of the time of a comparison sort of
// a batch. Whatever es is, the result is checked and a comparison sort
// finishes it when the order was not the expected one. scratch is reused
// when large enough; the buffer not holding the result is returned for
// the next call.
func sortEntries(es, scratch []entry) (sorted, spare []entry) {
	if len(es) < 1<<12 {
		slices.SortFunc(es, entryCmp)
		return es, scratch
	}
	if cap(scratch) < len(es) {
		scratch = make([]entry, len(es))
	}
	src, dst := es, scratch[:len(es)]
	var count [1 << 16]int
	for shift := uint(0); shift < 64; shift += 16 {
		clear(count[:])
		for i := range src {
			count[uint16(src[i].hash>>shift)]++
		}
		if count[uint16(src[0].hash>>shift)] == len(src) {
			continue // every entry has the same digit
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for i := range src {
			d := uint16(src[i].hash >> shift)
			dst[count[d]] = src[i]
			count[d]++
		}
		src, dst = dst, src
	}
	for i := 1; i < len(src); i++ {
		if entryCmp(src[i-1], src[i]) > 0 {
			slices.SortFunc(src, entryCmp)
			break
		}
	}
	return src, dst
}
