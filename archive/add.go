package archive

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/analysis"
	"icepost/notation"
	"icepost/rules"
)

// Provenance says where a game came from: a record file (File, and where
// in it), or a game played by mail (MailGame, the daemon's id for it).
type Provenance struct {
	File     string
	Line     int   // 1-based line where the record starts
	Offset   int64 // byte offset where the record starts
	MailGame string
}

// MaxRecordBytes is the longest record the archive takes, in its
// canonical form; longer ones are refused (Import quarantines them).
const MaxRecordBytes = 1 << 20

// ErrTooLarge: a record is longer than MaxRecordBytes.
var ErrTooLarge = errors.New("record too large")

// AddGame stores a replayed game in the archive inside tx, the caller's
// transaction (the mail daemon adds a finished game in the same
// transaction that ends it). The record is made canonical first (its move
// tokens are rewritten). When the archive already holds the same game
// (same game, options, setup, moves and result), AddGame stores nothing
// and returns the existing game's id with dup set. The game's positions go
// into the index as a small run; small runs are merged here, large ones
// by the next import.
func AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, prov Provenance) (id int64, dup bool, err error) {
	row, err := prepare(g, prov)
	if err != nil {
		return 0, false, err
	}
	ins, err := newInserter(ctx, tx, nil)
	if err != nil {
		return 0, false, err
	}
	defer ins.close()
	if id, dup, err = ins.add(ctx, row); err != nil || dup {
		return id, dup, err
	}
	return id, false, ins.flush(ctx, 1)
}

// gameRow is everything stored for one game, computed away from the
// database so that Import can prepare rows on several cores.
type gameRow struct {
	game, board, setup, result, scores, term string
	date, event, site, round                 string
	hasDate, hasEvent, hasSite, hasRound     bool
	hasTerm, hasScores, hasSetup             bool
	seats, target, plies                     int
	winner                                   int // -1 undecided
	dedupe                                   int64
	record                                   []byte // packed, when not format 2
	recHead                                  []byte // format 2 before its moves (packMoves)
	seatRows                                 []seatRow
	tags                                     []notation.Tag
	hashes                                   []uint64 // position hashes by ply
	movers                                   []uint8  // the seat to move by ply
	tokens                                   string   // canonical tokens of the main line, each ended by a space (joinTokens)
	ids                                      []uint32 // their numbers, when looked up ahead (0: not yet numbered)
	numbered                                 bool     // every one of ids is set
	text                                     [3]string
	prov                                     Provenance
	// analysis is the record's own icepost analysis (a record analysed
	// before it was imported), whose sums go into analysis and
	// analysis_seats as archive analyze would put them; nil for none.
	analysis *analysis.Report
}

type seatRow struct {
	key, name, address string
	outcome, score     sql.NullInt64
}

// columnTags are the tags kept in columns of games (or seats) rather than
// in the tags table.
func columnTag(name string) bool {
	switch name {
	case "Game", "Event", "Site", "Date", "Round", "Result", "Score", "Termination", "Target", "Board", "Setup":
		return true
	}
	_, ok := seatOf(name)
	return ok
}

// seatOf reads PlayerN.
func seatOf(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "Player")
	if !ok || rest == "" || rest[0] == '0' || len(rest) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// prepare is the row of a replayed game (AddGame); its record is made
// canonical first.
func prepare(g *notation.Game, prov Provenance) (*gameRow, error) {
	g.Canonicalize()
	r := &gameRow{
		hashes: make([]uint64, len(g.States)),
		movers: make([]uint8, len(g.States)),
	}
	for i, s := range g.States {
		r.hashes[i] = uint64(PositionHash(s))
		r.movers[i] = uint8(s.ToMove())
	}
	if err := r.fill(g.Record, notation.Walked{Rules: g.Rules, Options: g.Options, Final: g.Final()}, g.States[0].Code(), prov); err != nil {
		return nil, err
	}
	return r, nil
}

// prepareRecord is the row of a record not yet replayed (Import): it
// replays it with notation.Walk, hashing each position as it passes and
// keeping none, and makes the record canonical on the way.
func prepareRecord(rec *notation.Record, prov Provenance) (*gameRow, error) {
	n := len(rec.Main.Moves) + 1
	r := &gameRow{hashes: make([]uint64, 0, n), movers: make([]uint8, 0, n)}
	var start string
	var key []byte // the positions' keys, one at a time (keyHash)
	w, err := notation.Walk(rec, true, func(ply int, s rules.State) {
		if ply == 0 {
			start = s.Code()
			key = make([]byte, 0, 256)
		}
		var h uint64
		h, key = keyHash(key, s)
		r.hashes = append(r.hashes, h)
		r.movers = append(r.movers, uint8(s.ToMove()))
	})
	if err != nil {
		return nil, err
	}
	if err := r.fill(rec, w, start, prov); err != nil {
		return nil, err
	}
	return r, nil
}

// fill sets everything of a row but its positions from a canonical
// record, what its replay learnt and the code of its start position.
func (r *gameRow) fill(rec *notation.Record, g notation.Walked, start string, prov Provenance) error {
	// A plain record (format 2) is not formatted here: its text is the
	// formatter's output for its tags, moves and result, formatted when
	// read. Only a long one is formatted, to measure it.
	plain := plainRecord(rec)
	var text []byte
	if !plain || textBound(rec) > MaxRecordBytes {
		text = notation.AppendFormat(nil, rec)
		if len(text) > MaxRecordBytes {
			return fmt.Errorf("%w: %d bytes, the archive takes up to %d", ErrTooLarge, len(text), MaxRecordBytes)
		}
	}
	r.game = g.Rules.Name()
	r.seats = g.Options.Seats
	r.board = g.Options.Board
	r.target = g.Options.Target
	r.result = rec.Result
	r.plies = len(rec.Main.Moves)
	r.prov = prov
	if plain {
		r.recHead = packTags(rec.Tags, rec.Result) // the moves follow when numbered
	} else {
		r.record = packRecord(text)
	}
	r.setup, r.hasSetup = rec.Tag("Setup")
	r.date, r.hasDate = rec.Tag("Date")
	r.event, r.hasEvent = rec.Tag("Event")
	r.site, r.hasSite = rec.Tag("Site")
	r.round, r.hasRound = rec.Tag("Round")
	r.term, r.hasTerm = rec.Tag("Termination")
	r.scores, r.hasScores = rec.Tag("Score")
	winner, decided, err := notation.ParseResult(rec.Result, r.seats)
	if err != nil {
		return err
	}
	r.winner = -1
	if decided {
		r.winner = winner
	}
	scores := g.Final.Scores()
	names := rec.Players()
	var playerText []string
	for i := 0; i < r.seats; i++ {
		var s seatRow
		if i < len(names) {
			s.name, s.address = notation.SplitPlayer(names[i])
		}
		s.key = normalizeName(s.name)
		if s.key == "?" {
			s.key = ""
		}
		if decided {
			switch {
			case winner == 0:
				s.outcome = sql.NullInt64{Int64: 1, Valid: true}
			case winner == i+1:
				s.outcome = sql.NullInt64{Int64: 2, Valid: true}
			default:
				s.outcome = sql.NullInt64{Int64: 0, Valid: true}
			}
		}
		if i < len(scores) {
			s.score = sql.NullInt64{Int64: int64(scores[i]), Valid: true}
		}
		r.seatRows = append(r.seatRows, s)
		if s.name != "" && s.name != "?" {
			playerText = append(playerText, s.name)
		}
	}
	for _, t := range rec.Tags {
		if !columnTag(t.Name) {
			r.tags = append(r.tags, notation.Tag{Name: t.Name, Value: t.Value})
		}
	}
	r.tokens = joinTokens(rec.Main.Moves)
	r.dedupe = dedupeKey(r.game, g.Options, start, rec)
	r.text = [3]string{strings.Join(playerText, " "), strings.TrimSpace(r.event + " " + r.site), strings.Join(comments(rec), " ")}
	if analysis.Level(rec) > 0 {
		// A half or broken analysis is kept as the record's text only,
		// as archive verify and the web page read it.
		if rep, ok, err := analysis.Read(rec); err == nil && ok && len(rep.Moves) == r.plies {
			r.analysis = rep
		}
	}
	return nil
}

// comments are the words of a record for the full-text index: its
// comments, but for those an analysis wrote ("[%eval 0.52] ...", by
// icepost's analysis or another program's), which are numbers for
// programs, not words to search.
func comments(rec *notation.Record) []string {
	var out []string
	words := func(cs []string) {
		for _, c := range cs {
			if !strings.HasPrefix(c, "[%eval ") {
				out = append(out, c)
			}
		}
	}
	var line func(l *notation.Line)
	line = func(l *notation.Line) {
		for _, m := range l.Moves {
			words(m.Before)
			words(m.After)
			for _, v := range m.Variations {
				line(v)
			}
		}
		out = append(out, l.Comments...)
	}
	line(&rec.Main)
	return out
}

// inserter holds the statements that store games in one transaction.
// The games' positions wait in pending until flush stores them as one
// sorted run of the position index.
type inserter struct {
	tx                                        *sql.Tx
	findDup, insGame, insSeat, insTag, insTxt *sql.Stmt
	findPlayer, insPlayer                     *sql.Stmt
	findMove, insMove                         *sql.Stmt
	players                                   map[string]int64
	moves                                     *tokenNumbers
	now                                       int64
	pending                                   []entry
	indexed                                   bool            // the caller makes the index entries (an import's batch)
	dups                                      map[int64]int64 // dedupe key -> id, when knowDups ran
	rows                                      *batchRows      // batchMode's rows waiting
	nextID                                    int64           // batchMode: the next game's id
	langs                                     map[string]int  // game_languages as tx reads it, once read
}

// newInserter prepares the statements. moves, when not nil, is the move
// tokens already numbered (an import keeps them from one batch to the
// next; numbers never change); when empty, every token the archive
// numbers is read into it at once (an import meets most of them).
func newInserter(ctx context.Context, tx *sql.Tx, moves *tokenNumbers) (*inserter, error) {
	preload := moves != nil && len(moves.m) == 0
	if moves == nil {
		moves = newTokenNumbers()
	}
	ins := &inserter{tx: tx, players: map[string]int64{}, moves: moves, now: time.Now().Unix()}
	for _, p := range []struct {
		st  **sql.Stmt
		sql string
	}{
		{&ins.findDup, `SELECT id FROM games WHERE dedupe = ?`},
		{&ins.insGame, `INSERT INTO games(game, seats, board, target, setup, result, winner, scores, termination,
			date, event, site, round, plies, dedupe, record, source, source_line, source_offset, mail_game, added)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`},
		{&ins.insSeat, `INSERT INTO seats(game_id, seat, player_id, name, address, outcome, score, sort_date) VALUES (?,?,?,?,?,?,?,?)`},
		{&ins.insTag, `INSERT INTO tags(game_id, name, value) VALUES (?,?,?)`},
		{&ins.insTxt, `INSERT INTO game_text(docid, lang, players, event, comments) VALUES (?,?,?,?,?)`},
		{&ins.findPlayer, `SELECT player_id FROM player_aliases WHERE alias = ?1 UNION ALL SELECT id FROM players WHERE key = ?1 LIMIT 1`},
		{&ins.insPlayer, `INSERT INTO players(key, name) VALUES (?, ?)`},
		{&ins.findMove, `SELECT id FROM move_tokens WHERE token = ?`},
		{&ins.insMove, `INSERT INTO move_tokens(token) VALUES (?)`},
	} {
		st, err := tx.PrepareContext(ctx, p.sql)
		if err != nil {
			ins.close()
			return nil, err
		}
		*p.st = st
	}
	if preload {
		if err := readTokens(ctx, tx, func(id uint32, tok string) { ins.moves.add(tok, id) }, `SELECT id, token FROM move_tokens`); err != nil {
			ins.close()
			return nil, err
		}
	}
	return ins, nil
}

func (ins *inserter) close() {
	if ins.rows != nil {
		ins.rows.close()
	}
	for _, st := range []*sql.Stmt{ins.findDup, ins.insGame, ins.insSeat, ins.insTag, ins.insTxt, ins.findPlayer, ins.insPlayer, ins.findMove, ins.insMove} {
		if st != nil {
			st.Close()
		}
	}
}

func nullString(s string, ok bool) any {
	if !ok {
		return nil
	}
	return s
}

func (ins *inserter) player(ctx context.Context, key, name string) (sql.NullInt64, error) {
	if key == "" {
		return sql.NullInt64{}, nil
	}
	if id, ok := ins.players[key]; ok {
		return sql.NullInt64{Int64: id, Valid: true}, nil
	}
	var id int64
	err := ins.findPlayer.QueryRowContext(ctx, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := ins.insPlayer.ExecContext(ctx, key, name)
		if err != nil {
			return sql.NullInt64{}, err
		}
		id, err = res.LastInsertId()
		if err != nil {
			return sql.NullInt64{}, err
		}
	} else if err != nil {
		return sql.NullInt64{}, err
	}
	ins.players[key] = id
	return sql.NullInt64{Int64: id, Valid: true}, nil
}

// knowDups reads which of a batch's games the archive holds already, in
// one query: add then looks the keys up in a map instead of asking the
// database once a game.
func (ins *inserter) knowDups(ctx context.Context, keys []int64) error {
	rows, err := ins.tx.QueryContext(ctx, `SELECT dedupe, id FROM games WHERE dedupe IN (SELECT value FROM json_each(?))`, idList(keys))
	if err != nil {
		return err
	}
	defer rows.Close()
	ins.dups = make(map[int64]int64, len(keys))
	for rows.Next() {
		var k, id int64
		if err := rows.Scan(&k, &id); err != nil {
			return err
		}
		ins.dups[k] = id
	}
	return rows.Err()
}

func (ins *inserter) add(ctx context.Context, r *gameRow) (int64, bool, error) {
	var id int64
	if ins.dups != nil {
		if id, ok := ins.dups[r.dedupe]; ok {
			return id, true, nil
		}
	} else {
		err := ins.findDup.QueryRowContext(ctx, r.dedupe).Scan(&id)
		if err == nil {
			return id, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, false, err
		}
	}
	var winner any
	if r.winner >= 0 {
		winner = r.winner
	}
	var src, mail any
	var line, off any
	if r.prov.File != "" {
		src, line, off = r.prov.File, r.prov.Line, r.prov.Offset
	}
	if r.prov.MailGame != "" {
		mail = r.prov.MailGame
	}
	ids, err := ins.moveIDs(ctx, r)
	if err != nil {
		return 0, false, err
	}
	record := r.record
	if r.recHead != nil {
		record = packMoves(r.recHead, ids)
	}
	gameArgs := []any{r.game, r.seats, r.board, r.target, nullString(r.setup, r.hasSetup),
		r.result, winner, nullString(r.scores, r.hasScores), nullString(r.term, r.hasTerm),
		nullString(r.date, r.hasDate), nullString(r.event, r.hasEvent), nullString(r.site, r.hasSite), nullString(r.round, r.hasRound),
		r.plies, r.dedupe, record, src, line, off, mail, ins.now}
	if ins.rows != nil {
		// An import's batch: the rows wait and go many to a statement.
		id = ins.nextID
		ins.nextID++
		ins.dups[r.dedupe] = id // the same game later in the batch
		if err := ins.rows.games.add(append([]any{id}, gameArgs...)...); err != nil {
			return 0, false, fmt.Errorf("storing game: %w", err)
		}
	} else {
		res, err := ins.insGame.ExecContext(ctx, gameArgs...)
		if err != nil {
			return 0, false, fmt.Errorf("storing game: %w", err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return 0, false, err
		}
	}
	// The seats hold the game's date as the orders by date read it
	// (dateKey), for a player's games in date order (migration 7).
	sortDate := nullString(r.date, r.hasDate && !strings.HasPrefix(r.date, "?"))
	for i, s := range r.seatRows {
		pid, err := ins.player(ctx, s.key, s.name)
		if err != nil {
			return 0, false, fmt.Errorf("storing player: %w", err)
		}
		args := []any{id, i + 1, pid, s.name, nullString(s.address, s.address != ""), s.outcome, s.score, sortDate}
		if ins.rows != nil {
			err = ins.rows.add(ins.rows.seats, args)
		} else {
			_, err = ins.insSeat.ExecContext(ctx, args...)
		}
		if err != nil {
			return 0, false, fmt.Errorf("storing seat: %w", err)
		}
	}
	for _, t := range r.tags {
		var err error
		if ins.rows != nil {
			err = ins.rows.add(ins.rows.tags, []any{id, t.Name, t.Value})
		} else {
			_, err = ins.insTag.ExecContext(ctx, id, t.Name, t.Value)
		}
		if err != nil {
			return 0, false, fmt.Errorf("storing tag: %w", err)
		}
	}
	if r.analysis != nil {
		if ins.rows != nil {
			ins.rows.analyses = append(ins.rows.analyses, gameAnalysis{id, r.analysis})
		} else if err := insertAnalysis(ctx, ins.tx, id, r.analysis); err != nil {
			return 0, false, fmt.Errorf("storing the analysis: %w", err)
		}
	}
	if !ins.indexed {
		ins.addPositions(id, r, ids)
	}
	if id > maxTextID {
		return 0, false, fmt.Errorf("storing text: game id %d: the archive holds games up to id %d", id, maxTextID)
	}
	lang, err := ins.textLanguage(ctx, r.game)
	if err != nil {
		return 0, false, fmt.Errorf("storing text: %w", err)
	}
	t := textRow{key: textKey(r.date, r.hasDate, id), lang: lang, cols: r.text}
	if ins.rows != nil {
		ins.rows.texts = append(ins.rows.texts, t)
	} else {
		_, err = ins.insTxt.ExecContext(ctx, t.key, t.lang, t.cols[0], t.cols[1], t.cols[2])
	}
	if err != nil {
		return 0, false, fmt.Errorf("storing text: %w", err)
	}
	return id, false, nil
}

// textLanguage is game's language in game_text (text.go), numbered in
// ins's transaction when the game has none yet.
func (ins *inserter) textLanguage(ctx context.Context, game string) (int, error) {
	if l, ok := ins.langs[game]; ok {
		return l, nil
	}
	if ins.langs == nil {
		langs, err := readTextLanguages(ctx, ins.tx)
		if err != nil {
			return 0, err
		}
		ins.langs = langs
		if l, ok := langs[game]; ok {
			return l, nil
		}
	}
	langs, err := numberTextLanguages(ctx, ins.tx, game)
	if err != nil {
		return 0, err
	}
	ins.langs = langs
	return langs[game], nil
}

// rowBatch gathers rows for one table and inserts them many to a
// statement: an import stores a game in about five statements, and a
// statement's cost through database/sql and cgo was most of the time
// storing took.
type rowBatch struct {
	ctx  context.Context
	tx   *sql.Tx
	head string // INSERT INTO t(a, b) VALUES
	ncol int
	per  int // rows in a full statement
	full *sql.Stmt
	args []any
}

func newRowBatch(ctx context.Context, tx *sql.Tx, head string, ncol int) *rowBatch {
	return &rowBatch{ctx: ctx, tx: tx, head: head, ncol: ncol, per: max(1, 960/ncol)}
}

func (b *rowBatch) sql(rows int) string {
	var sb strings.Builder
	sb.WriteString(b.head)
	row := "(?" + strings.Repeat(",?", b.ncol-1) + ")"
	for i := range rows {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(row)
	}
	return sb.String()
}

// full reports whether the next row fills a statement.
func (b *rowBatch) fullAfter(n int) bool { return len(b.args)+n >= b.ncol*b.per }

func (b *rowBatch) add(args ...any) error {
	b.args = append(b.args, args...)
	if len(b.args) < b.ncol*b.per {
		return nil
	}
	if b.full == nil {
		st, err := b.tx.PrepareContext(b.ctx, b.sql(b.per))
		if err != nil {
			return err
		}
		b.full = st
	}
	_, err := b.full.ExecContext(b.ctx, b.args...)
	clear(b.args)
	b.args = b.args[:0]
	return err
}

func (b *rowBatch) flush() error {
	if len(b.args) == 0 {
		return nil
	}
	_, err := b.tx.ExecContext(b.ctx, b.sql(len(b.args)/b.ncol), b.args...)
	clear(b.args)
	b.args = b.args[:0]
	return err
}

func (b *rowBatch) close() {
	if b.full != nil {
		b.full.Close()
	}
}

// batchRows are an import batch's rows waiting to be inserted. Games go
// first: seats, tags and text refer to them. The text rows wait for the
// end of the batch and go in by language and docid (text.go): FTS4
// writes out the terms it gathered whenever either goes back, which
// would be at nearly every row in the order of a file.
type batchRows struct {
	games, seats, tags, text *rowBatch
	texts                    []textRow
	analyses                 []gameAnalysis // after the games: they refer to them
}

// gameAnalysis is an analysis read from a record, for a game's id.
type gameAnalysis struct {
	id  int64
	rep *analysis.Report
}

// add adds a row to seats, tags or text, storing the games first when
// the row fills a statement.
func (br *batchRows) add(b *rowBatch, args []any) error {
	if b.fullAfter(len(args)) {
		if err := br.games.flush(); err != nil {
			return err
		}
	}
	return b.add(args...)
}

func (br *batchRows) flush() error {
	slices.SortFunc(br.texts, func(a, b textRow) int {
		return cmp.Or(cmp.Compare(a.lang, b.lang), cmp.Compare(a.key, b.key))
	})
	for _, t := range br.texts {
		if err := br.add(br.text, []any{t.key, t.lang, t.cols[0], t.cols[1], t.cols[2]}); err != nil {
			return err
		}
	}
	clear(br.texts)
	br.texts = br.texts[:0]
	for _, b := range []*rowBatch{br.games, br.seats, br.tags, br.text} {
		if err := b.flush(); err != nil {
			return err
		}
	}
	for _, a := range br.analyses {
		if err := insertAnalysis(br.games.ctx, br.games.tx, a.id, a.rep); err != nil {
			return fmt.Errorf("storing the analysis of game %d: %w", a.id, err)
		}
	}
	clear(br.analyses)
	br.analyses = br.analyses[:0]
	return nil
}

func (br *batchRows) close() {
	for _, b := range []*rowBatch{br.games, br.seats, br.tags, br.text} {
		b.close()
	}
}

// batchMode makes add gather an import batch's rows (flushRows stores
// them) and give games ids itself, after the largest stored (what SQLite
// would choose), knowing which keys are stored already (knowDups).
func (ins *inserter) batchMode(ctx context.Context, keys []int64) error {
	if err := ins.knowDups(ctx, keys); err != nil {
		return err
	}
	if err := ins.tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM games`).Scan(&ins.nextID); err != nil {
		return err
	}
	ins.rows = &batchRows{
		games: newRowBatch(ctx, ins.tx, `INSERT INTO games(id, game, seats, board, target, setup, result, winner, scores, termination,
			date, event, site, round, plies, dedupe, record, source, source_line, source_offset, mail_game, added) VALUES `, 22),
		seats: newRowBatch(ctx, ins.tx, `INSERT INTO seats(game_id, seat, player_id, name, address, outcome, score, sort_date) VALUES `, 8),
		tags:  newRowBatch(ctx, ins.tx, `INSERT INTO tags(game_id, name, value) VALUES `, 3),
		text:  newRowBatch(ctx, ins.tx, `INSERT INTO game_text(docid, lang, players, event, comments) VALUES `, 5),
	}
	return nil
}

// flushRows stores the rows batchMode gathered.
func (ins *inserter) flushRows() error {
	if ins.rows == nil {
		return nil
	}
	return ins.rows.flush()
}

// moveID numbers a canonical move token (1 and up).
func (ins *inserter) moveID(ctx context.Context, tok string) (uint32, error) {
	if id, ok := ins.moves.m[tok]; ok { // the only writer reads without the lock
		return id, nil
	}
	var id uint32
	err := ins.findMove.QueryRowContext(ctx, tok).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := ins.insMove.ExecContext(ctx, tok)
		if err != nil {
			return 0, fmt.Errorf("storing a move token: %w", err)
		}
		n, err := res.LastInsertId()
		if err != nil {
			return 0, err
		}
		id = uint32(n)
	} else if err != nil {
		return 0, err
	}
	ins.moves.add(strings.Clone(tok), id) // not a piece of the game's joined tokens
	return id, nil
}

// numberBatch numbers, in two statements, the move tokens of an import's
// batch that the replaying goroutines did not find numbered: a lookup of
// those the archive has (another writer may have added some since the
// import read them) and one insert of the rest. Numbering them one at a
// time, two statements each, was a sixth of the store's time at 100,000
// games.
func (ins *inserter) numberBatch(ctx context.Context, rows []*gameRow) error {
	seen := map[string]bool{}
	var missing []string
	for _, r := range rows {
		if r.numbered {
			continue
		}
		k := 0
		for tok := range eachToken(r.tokens) {
			if r.ids == nil || r.ids[k] == 0 {
				if _, ok := ins.moves.m[tok]; !ok && !seen[tok] { // the only writer reads without the lock
					seen[tok] = true
					missing = append(missing, tok)
				}
			}
			k++
		}
	}
	if len(missing) == 0 {
		return nil
	}
	list, err := json.Marshal(missing)
	if err != nil {
		return err
	}
	found := map[string]uint32{}
	keep := func(id uint32, tok string) { found[tok] = id }
	if err := readTokens(ctx, ins.tx, keep, `SELECT id, token FROM move_tokens WHERE token IN (SELECT value FROM json_each(?))`, list); err != nil {
		return fmt.Errorf("reading move tokens: %w", err)
	}
	if len(found) < len(missing) {
		if err := readTokens(ctx, ins.tx, keep, `INSERT INTO move_tokens(token) SELECT value FROM json_each(?)
			WHERE value NOT IN (SELECT token FROM move_tokens) RETURNING id, token`, list); err != nil {
			return fmt.Errorf("storing move tokens: %w", err)
		}
	}
	ins.moves.mu.Lock()
	defer ins.moves.mu.Unlock()
	for _, tok := range missing {
		id, ok := found[tok]
		if !ok {
			return fmt.Errorf("storing move tokens: %q was not numbered", tok)
		}
		ins.moves.m[strings.Clone(tok)] = id
	}
	return nil
}

// outcomeFor is how the game went for seat (winner -1: undecided).
func outcomeFor(winner int, seat uint8) uint32 {
	switch {
	case winner < 0:
		return outcomeUndecided
	case winner == 0:
		return outcomeDraw
	case winner == int(seat):
		return outcomeWin
	}
	return outcomeLoss
}

// joinTokens keeps a main line's tokens in one string, each followed by a
// space (canonical tokens have none): one allocation a game where a slice
// of strings took one a move, which the garbage collector then scanned.
func joinTokens(moves []*notation.Move) string {
	n := 0
	for _, m := range moves {
		n += len(m.Token) + 1
	}
	b := make([]byte, 0, n)
	for _, m := range moves {
		b = append(b, m.Token...)
		b = append(b, ' ')
	}
	return string(b)
}

// moveIDs numbers a row's main line: the numbers a replaying goroutine
// found (tokenNumbers.number), and the tokens it did not find numbered
// here, in the database.
func (ins *inserter) moveIDs(ctx context.Context, r *gameRow) ([]uint32, error) {
	if r.numbered {
		return r.ids, nil
	}
	ids := r.ids
	if ids == nil {
		ids = make([]uint32, strings.Count(r.tokens, " "))
	}
	k := 0
	for tok := range eachToken(r.tokens) {
		if ids[k] == 0 {
			id, err := ins.moveID(ctx, tok)
			if err != nil {
				return nil, err
			}
			ids[k] = id
		}
		k++
	}
	return ids, nil
}

// eachToken yields the tokens of a joined main line (joinTokens).
func eachToken(tokens string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for tokens != "" {
			i := strings.IndexByte(tokens, ' ')
			if i < 0 {
				i = len(tokens)
			}
			if !yield(tokens[:i]) {
				return
			}
			tokens = tokens[min(i+1, len(tokens)):]
		}
	}
}

// tokenNumbers is the move tokens an import has numbered (move_tokens),
// kept from one batch to the next. The storing goroutine is its only
// writer; the replaying goroutines read it to number a game's tokens
// ahead of the store (number), which took a tenth of the store's time at
// a million games. A number is the database's from the moment the store
// assigns it (rowids start at 1, so 0 is "not numbered yet").
type tokenNumbers struct {
	mu sync.RWMutex
	m  map[string]uint32
}

func newTokenNumbers() *tokenNumbers { return &tokenNumbers{m: map[string]uint32{}} }

// add records tok's number (the writer only).
func (t *tokenNumbers) add(tok string, id uint32) {
	t.mu.Lock()
	t.m[tok] = id
	t.mu.Unlock()
}

// number fills in the numbers of a row's main line that are known,
// leaving 0 for the others, and says whether it found all.
func (t *tokenNumbers) number(r *gameRow) {
	r.ids = make([]uint32, strings.Count(r.tokens, " "))
	all := true
	t.mu.RLock()
	k := 0
	for tok := range eachToken(r.tokens) {
		id := t.m[tok]
		r.ids[k] = id
		all = all && id != 0
		k++
	}
	t.mu.RUnlock()
	r.numbered = all
}

// addPositions queues a game's index entries; ids are its main line's
// move numbers.
func (ins *inserter) addPositions(id int64, r *gameRow, ids []uint32) {
	for ply, h := range r.hashes {
		var code uint32
		if ply < len(ids) {
			code = ids[ply]<<2 | outcomeFor(r.winner, r.movers[ply])
		}
		ins.pending = append(ins.pending, entry{hash: h, game: id, ply: uint32(ply), code: code})
	}
}

// flush stores the queued entries as one sorted run and merges runs up to
// maxLevel.
func (ins *inserter) flush(ctx context.Context, maxLevel int) error {
	ins.pending, _ = sortEntries(ins.pending, nil)
	if _, err := writeRun(ctx, ins.tx, ins.pending); err != nil {
		return fmt.Errorf("storing positions: %w", err)
	}
	ins.pending = ins.pending[:0]
	return compact(ctx, ins.tx, maxLevel)
}
