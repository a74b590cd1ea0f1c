package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"icepost/rules"
	"icepost/rules/games"
)

// Query selects games. Every field that is set narrows the search; the
// zero Query matches every game. All values reach SQL as bound
// parameters.
type Query struct {
	Game     string      // game name, any case
	Player   string      // a player in any seat (or in Seat, when set)
	Seat     int         // with Player: that player in this seat; alone: results are this seat's
	Opponent string      // a player in another seat than Player's
	Result   string      // win, loss or draw, for Player (or Seat); or undecided
	Since    string      // date from, YYYY[.MM[.DD]] (also with - or /)
	Until    string      // date to, inclusive, same form
	Event    string      // words in the Event tag (case-insensitive substring)
	Tags     []TagFilter // tags with exact values
	Plies    *Range      // main-line length
	Text     string      // words in comments, names, event and site (all of them)
	Position string      // a position code the game reached
	Moves    string      // move tokens the game began with, from the usual start
	Limit    int         // at most this many games; 0 means all
	Offset   int         // skip this many first
}

// TagFilter asks for a tag with a value.
type TagFilter struct{ Name, Value string }

// Range is an inclusive range; Max < 0 means no upper bound.
type Range struct{ Min, Max int }

// ErrQuery: a search was given a value it cannot use. The message says
// which and why.
var ErrQuery = errors.New("bad search")

func queryErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrQuery, fmt.Sprintf(format, args...))
}

// maxFilter bounds any one search value, so that a hostile value costs
// nothing much.
const maxFilter = 4096

// ParseRange reads "20-40", "-30", "50-" or "35".
func ParseRange(s string) (Range, error) {
	bad := queryErr("plies %q: write a range like 20-40, -30, 50- or 35", s)
	num := func(t string) (int, bool) {
		n, err := strconv.Atoi(t)
		return n, err == nil && n >= 0 && len(t) < 10
	}
	lo, hi, dash := strings.Cut(strings.TrimSpace(s), "-")
	r := Range{Max: -1}
	if lo != "" {
		n, ok := num(lo)
		if !ok {
			return r, bad
		}
		r.Min = n
	}
	switch {
	case !dash:
		if lo == "" {
			return r, bad
		}
		r.Max = r.Min
	case hi != "":
		n, ok := num(hi)
		if !ok || n < r.Min {
			return r, bad
		}
		r.Max = n
	case lo == "":
		return r, bad
	}
	return r, nil
}

// ParseTagFilter reads Name=value.
func ParseTagFilter(s string) (TagFilter, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok || !validTagName(name) {
		return TagFilter{}, queryErr("tag %q: write Name=value, the name of letters, digits and _", clip(s))
	}
	return TagFilter{name, value}, nil
}

func validTagName(n string) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	for _, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// clip shortens a value for an error message.
func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// builder collects a WHERE clause and its arguments.
type builder struct {
	conds []string
	args  []any
}

func (b *builder) add(cond string, args ...any) {
	b.conds = append(b.conds, cond)
	b.args = append(b.args, args...)
}

func (b *builder) where() string {
	if len(b.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(b.conds, " AND ")
}

const playerIDs = `(SELECT player_id FROM player_aliases WHERE alias = ? UNION SELECT id FROM players WHERE key = ?)`

func lookupGameName(name string) (rules.Game, error) {
	g, ok := games.Lookup(name)
	if !ok {
		return nil, queryErr("unknown game %q: the games are %s", clip(name), strings.Join(games.Names(), ", "))
	}
	return g, nil
}

// build turns q into conditions on games g.
func (a *Archive) build(ctx context.Context, q Query) (*builder, error) {
	b := &builder{}
	for _, v := range []string{q.Game, q.Player, q.Opponent, q.Result, q.Since, q.Until, q.Event, q.Text, q.Position, q.Moves} {
		if len(v) > maxFilter {
			return nil, queryErr("a search value is %d bytes long; the most is %d", len(v), maxFilter)
		}
		if !utf8.ValidString(v) {
			return nil, queryErr("%q is not valid UTF-8 text", clip(v))
		}
	}
	if len(q.Tags) > 64 {
		return nil, queryErr("at most 64 tag filters")
	}
	if q.Limit < 0 || q.Offset < 0 {
		return nil, queryErr("limit and offset are 0 or more")
	}
	var game rules.Game
	if q.Game != "" {
		g, err := lookupGameName(q.Game)
		if err != nil {
			return nil, err
		}
		game = g
		b.add("g.game = ?", g.Name())
	}

	// Seats: the player (in a seat), the opponent, the result.
	player := normalizeName(q.Player)
	opp := normalizeName(q.Opponent)
	if q.Player != "" && player == "" {
		return nil, queryErr("-player needs a name")
	}
	if q.Opponent != "" && opp == "" {
		return nil, queryErr("-opponent needs a name")
	}
	if q.Seat < 0 || q.Seat > 8 {
		return nil, queryErr("seat %d: seats go from 1 to 4", q.Seat)
	}
	var outcome = -1
	switch strings.ToLower(q.Result) {
	case "":
	case "win", "won", "w":
		outcome = 2
	case "draw", "drawn", "d":
		outcome = 1
	case "loss", "lost", "lose", "l":
		outcome = 0
	case "undecided", "unfinished", "*":
		b.add("g.winner IS NULL")
	default:
		return nil, queryErr("result %q: use win, loss, draw or undecided", clip(q.Result))
	}
	if outcome >= 0 && player == "" && q.Seat == 0 {
		return nil, queryErr("-result %s needs -player or -seat: whose result?", q.Result)
	}
	if player != "" || q.Seat != 0 || opp != "" {
		var sub strings.Builder
		var args []any
		sub.WriteString("g.id IN (SELECT sp.game_id FROM seats sp")
		anchored := player != "" || q.Seat != 0
		if anchored && opp != "" {
			sub.WriteString(" JOIN seats so ON so.game_id = sp.game_id AND so.seat <> sp.seat")
		}
		sub.WriteString(" WHERE 1")
		if player != "" {
			sub.WriteString(" AND sp.player_id IN " + playerIDs)
			args = append(args, player, player)
		}
		if q.Seat != 0 {
			sub.WriteString(" AND sp.seat = ?")
			args = append(args, q.Seat)
		}
		if outcome >= 0 {
			sub.WriteString(" AND sp.outcome = ?")
			args = append(args, outcome)
		}
		if opp != "" {
			if anchored {
				sub.WriteString(" AND so.player_id IN " + playerIDs)
			} else {
				sub.WriteString(" AND sp.player_id IN " + playerIDs)
			}
			args = append(args, opp, opp)
		}
		sub.WriteString(")")
		b.add(sub.String(), args...)
	}

	if q.Since != "" {
		d, err := normDate(q.Since)
		if err != nil {
			return nil, err
		}
		b.add("g.date >= ? AND substr(g.date, 1, 1) <> '?'", d)
	}
	if q.Until != "" {
		d, err := normDate(q.Until)
		if err != nil {
			return nil, err
		}
		b.add("substr(g.date, 1, ?) <= ?", len(d), d)
	}
	if q.Event != "" {
		b.add(`g.event LIKE ? ESCAPE '\'`, "%"+escapeLike(q.Event)+"%")
	}
	for _, t := range q.Tags {
		if err := tagCond(b, t); err != nil {
			return nil, err
		}
	}
	if q.Plies != nil {
		if q.Plies.Min > 0 {
			b.add("g.plies >= ?", q.Plies.Min)
		}
		if q.Plies.Max >= 0 {
			b.add("g.plies <= ?", q.Plies.Max)
		}
	}
	if q.Text != "" {
		m, err := ftsQuery(q.Text)
		if err != nil {
			return nil, err
		}
		b.add("g.id IN (SELECT docid FROM game_text WHERE game_text MATCH ?)", m)
	}
	if q.Position != "" {
		s, err := ParsePosition(q.Position)
		if err != nil {
			return nil, err
		}
		if game != nil && s.Game().Name() != game.Name() {
			return nil, queryErr("the position is of %s, but -game asks for %s", s.Game().Name(), game.Name())
		}
		b.add("g.id IN (SELECT game_id FROM positions WHERE hash = ?)", PositionHash(s))
	}
	if q.Moves != "" {
		if err := a.movesCond(ctx, b, game, q.Moves); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// ParsePosition reads a position code of any game: its first word names
// the game.
func ParsePosition(code string) (rules.State, error) {
	code = strings.TrimSpace(code)
	name, _, _ := strings.Cut(code, " ")
	g, ok := games.Lookup(name)
	if !ok {
		return nil, queryErr("position %q: a position code starts with the game's name (%s)", clip(code), strings.Join(games.Names(), ", "))
	}
	s, err := g.ParsePosition(code)
	if err != nil {
		return nil, queryErr("position: %v", err)
	}
	return s, nil
}

func normDate(s string) (string, error) {
	d := strings.NewReplacer("-", ".", "/", ".").Replace(strings.TrimSpace(s))
	ok := len(d) == 4 || len(d) == 7 || len(d) == 10
	for i := 0; ok && i < len(d); i++ {
		if i == 4 || i == 7 {
			ok = d[i] == '.'
		} else {
			ok = d[i] >= '0' && d[i] <= '9'
		}
	}
	if !ok {
		return "", queryErr("date %q: write YYYY, YYYY.MM or YYYY.MM.DD", clip(s))
	}
	return d, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func tagCond(b *builder, t TagFilter) error {
	if !validTagName(t.Name) {
		return queryErr("tag name %q: letters, digits and _", clip(t.Name))
	}
	if len(t.Value) > maxFilter || !utf8.ValidString(t.Value) {
		return queryErr("tag %s: the value is too long or not UTF-8", t.Name)
	}
	col := map[string]string{"Event": "event", "Site": "site", "Date": "date", "Round": "round",
		"Result": "result", "Termination": "termination", "Score": "scores", "Setup": "setup"}
	switch {
	case col[t.Name] != "":
		b.add("g."+col[t.Name]+" = ?", t.Value)
	case t.Name == "Game":
		name := t.Value
		if g, ok := games.Lookup(name); ok {
			name = g.Name()
		}
		b.add("g.game = ?", name)
	case t.Name == "Board":
		b.add("g.board = ?", strings.ToLower(t.Value))
	case t.Name == "Target":
		n, err := strconv.Atoi(t.Value)
		if err != nil {
			return queryErr("tag Target=%q: a whole number", clip(t.Value))
		}
		b.add("g.target = ?", n)
	default:
		if seat, ok := seatOf(t.Name); ok {
			key := normalizeName(t.Value)
			b.add("g.id IN (SELECT game_id FROM seats WHERE seat = ? AND player_id IN "+playerIDs+")", seat, key, key)
			return nil
		}
		b.add("g.id IN (SELECT game_id FROM tags WHERE name = ? AND value = ?)", t.Name, t.Value)
	}
	return nil
}

// ftsQuery makes a full-text query out of words typed by a person: every
// word must occur (a trailing * matches a prefix). Only letters and digits
// get through, each word quoted, so no text can be read as query syntax.
func ftsQuery(s string) (string, error) {
	var words []string
	for _, f := range strings.Fields(s) {
		prefix := strings.HasSuffix(f, "*")
		parts := strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for i, p := range parts {
			w := `"` + strings.ToLower(p) + `"`
			if prefix && i == len(parts)-1 {
				w = `"` + strings.ToLower(p) + `*"`
			}
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "", queryErr("text %q: give words of letters or digits to look for", clip(s))
	}
	if len(words) > 32 {
		return "", queryErr("text: at most 32 words")
	}
	return strings.Join(words, " "), nil
}

// movesCond finds games that began with the moves: for every kind of game
// in the archive (game and options, usual start) where the moves are
// legal, the game must have reached each position along them at its ply.
func (a *Archive) movesCond(ctx context.Context, b *builder, game rules.Game, moves string) error {
	toks := strings.Fields(moves)
	if len(toks) == 0 {
		return queryErr("-moves needs move tokens, like \"L@c3 M@b2\"")
	}
	if len(toks) > 200 {
		return queryErr("-moves: at most 200 moves")
	}
	sqlText := `SELECT DISTINCT game, seats, board, target FROM games WHERE setup IS NULL`
	var args []any
	if game != nil {
		sqlText += ` AND game = ?`
		args = append(args, game.Name())
	}
	rows, err := a.db.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	var alts []string
	var altArgs []any
	var firstErr error
	for rows.Next() {
		var name, board string
		var seats, target int
		if err := rows.Scan(&name, &seats, &board, &target); err != nil {
			return err
		}
		g, ok := games.Lookup(name)
		if !ok {
			continue
		}
		s, err := g.Start(rules.Options{Seats: seats, Board: board, Target: target})
		if err != nil {
			continue
		}
		conds := []string{"g.game = ? AND g.seats = ? AND g.board = ? AND g.target = ? AND g.setup IS NULL"}
		cargs := []any{name, seats, board, target}
		for i, t := range toks {
			next, _, err := rules.Play(s, t)
			if err != nil {
				if firstErr == nil {
					firstErr = queryErr("-moves: %s move %d: %v", name, i+1, err)
				}
				conds = nil
				break
			}
			s = next
			conds = append(conds, "g.id IN (SELECT game_id FROM positions WHERE hash = ? AND ply = ?)")
			cargs = append(cargs, PositionHash(s), i+1)
		}
		if conds != nil {
			alts = append(alts, "("+strings.Join(conds, " AND ")+")")
			altArgs = append(altArgs, cargs...)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(alts) == 0 {
		if firstErr != nil {
			return firstErr
		}
		b.add("0")
		return nil
	}
	b.add("("+strings.Join(alts, " OR ")+")", altArgs...)
	return nil
}

// Summary is one game as a search lists it.
type Summary struct {
	ID          int64    `json:"id"`
	Game        string   `json:"game"`
	Seats       int      `json:"seats"`
	Board       string   `json:"board,omitempty"`
	Target      int      `json:"target,omitempty"`
	Players     []string `json:"players"`
	Result      string   `json:"result"`
	Winner      *int     `json:"winner"` // seat; 0 a draw; null undecided
	Scores      string   `json:"scores,omitempty"`
	Termination string   `json:"termination,omitempty"`
	Plies       int      `json:"plies"`
	Date        string   `json:"date,omitempty"`
	Event       string   `json:"event,omitempty"`
	Site        string   `json:"site,omitempty"`
	Round       string   `json:"round,omitempty"`
	Source      string   `json:"source,omitempty"`
	SourceLine  int      `json:"source_line,omitempty"`
	MailGame    string   `json:"mail_game,omitempty"`
}

const summaryCols = `g.id, g.game, g.seats, g.board, g.target, g.result, g.winner, g.scores, g.termination, g.plies,
	g.date, g.event, g.site, g.round, g.source, g.source_line, g.mail_game,
	(SELECT group_concat(name, char(31)) FROM (SELECT name FROM seats WHERE game_id = g.id ORDER BY seat))`

func scanSummary(sc interface{ Scan(...any) error }, extra ...any) (Summary, error) {
	var s Summary
	var winner, line sql.NullInt64
	var scores, term, date, event, site, round, src, mail, players sql.NullString
	dest := append([]any{&s.ID, &s.Game, &s.Seats, &s.Board, &s.Target, &s.Result, &winner, &scores, &term, &s.Plies,
		&date, &event, &site, &round, &src, &line, &mail, &players}, extra...)
	if err := sc.Scan(dest...); err != nil {
		return s, err
	}
	if winner.Valid {
		w := int(winner.Int64)
		s.Winner = &w
	}
	s.Scores, s.Termination, s.Date, s.Event, s.Site, s.Round = scores.String, term.String, date.String, event.String, site.String, round.String
	s.Source, s.SourceLine, s.MailGame = src.String, int(line.Int64), mail.String
	s.Players = []string{}
	if players.Valid {
		s.Players = strings.Split(players.String, "\x1f")
	}
	return s, nil
}

func limitClause(q Query) (string, []any) {
	if q.Limit == 0 && q.Offset == 0 {
		return "", nil
	}
	lim := q.Limit
	if lim == 0 {
		lim = -1
	}
	return " LIMIT ? OFFSET ?", []any{lim, q.Offset}
}

// Search lists the games q selects, oldest first.
func (a *Archive) Search(ctx context.Context, q Query) ([]Summary, error) {
	var out []Summary
	err := a.each(ctx, q, false, func(s Summary, _ []byte) error {
		out = append(out, s)
		return nil
	})
	return out, err
}

// Each calls fn for every game q selects, oldest first, with its
// canonical record.
func (a *Archive) Each(ctx context.Context, q Query, fn func(s Summary, record []byte) error) error {
	return a.each(ctx, q, true, fn)
}

func (a *Archive) each(ctx context.Context, q Query, withRecord bool, fn func(Summary, []byte) error) error {
	b, err := a.build(ctx, q)
	if err != nil {
		return err
	}
	cols := summaryCols
	if withRecord {
		cols += ", g.record"
	}
	lim, largs := limitClause(q)
	rows, err := a.db.QueryContext(ctx, "SELECT "+cols+" FROM games g"+b.where()+" ORDER BY g.id"+lim, append(b.args, largs...)...)
	if err != nil {
		return fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var packed []byte
		var extra []any
		if withRecord {
			extra = append(extra, &packed)
		}
		s, err := scanSummary(rows, extra...)
		if err != nil {
			return err
		}
		var text []byte
		if withRecord {
			if text, err = unpackRecord(packed); err != nil {
				return fmt.Errorf("game %d: %w", s.ID, err)
			}
		}
		if err := fn(s, text); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Count returns how many games q selects (Limit and Offset apply).
func (a *Archive) Count(ctx context.Context, q Query) (int, error) {
	b, err := a.build(ctx, q)
	if err != nil {
		return 0, err
	}
	lim, largs := limitClause(q)
	var n int
	err = a.db.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM games g"+b.where()+lim+")", append(b.args, largs...)...).Scan(&n)
	return n, err
}

// ErrNotFound: no game has that id.
var ErrNotFound = errors.New("no such game")

// Stored is one game with its record.
type Stored struct {
	Summary
	Record []byte // canonical
	Offset int64  // byte offset in Source
}

// Get returns the game with this id.
func (a *Archive) Get(ctx context.Context, id int64) (*Stored, error) {
	var st Stored
	var packed []byte
	var off sql.NullInt64
	row := a.db.QueryRowContext(ctx, "SELECT "+summaryCols+", g.record, g.source_offset FROM games g WHERE g.id = ?", id)
	s, err := scanSummary(row, &packed, &off)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %d", ErrNotFound, id)
	}
	if err != nil {
		return nil, err
	}
	st.Summary, st.Offset = s, off.Int64
	if st.Record, err = unpackRecord(packed); err != nil {
		return nil, err
	}
	return &st, nil
}

// Delete removes a game and everything stored about it.
func (a *Archive) Delete(ctx context.Context, id int64) error {
	st, err := a.Get(ctx, id)
	if err != nil {
		return err
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := deletePositions(ctx, tx, id, st.Record); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_text WHERE docid = ?`, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// deletePositions removes a game's rows from the position index: by key
// when the record still replays, else by a scan.
func deletePositions(ctx context.Context, tx *sql.Tx, id int64, record []byte) error {
	g, err := replayText("", record)
	if err != nil {
		_, err := tx.ExecContext(ctx, `DELETE FROM positions WHERE game_id = ?`, id)
		return err
	}
	st, err := tx.PrepareContext(ctx, `DELETE FROM positions WHERE hash = ? AND game_id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, s := range g.States {
		if _, err := st.ExecContext(ctx, PositionHash(s), id); err != nil {
			return err
		}
	}
	return nil
}

// AddAlias makes alias another spelling of the player called name: games
// already stored under alias move to name, and later ones go there too.
func (a *Archive) AddAlias(ctx context.Context, name, alias string) error {
	key, akey := normalizeName(name), normalizeName(alias)
	if key == "" || akey == "" || key == akey {
		return queryErr("alias: give a player's name and a different spelling")
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `SELECT player_id FROM player_aliases WHERE alias = ?1 UNION ALL SELECT id FROM players WHERE key = ?1 LIMIT 1`, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := tx.ExecContext(ctx, `INSERT INTO players(key, name) VALUES (?, ?)`, key, strings.TrimSpace(name))
		if err != nil {
			return err
		}
		id, _ = res.LastInsertId()
	} else if err != nil {
		return err
	}
	var old int64
	err = tx.QueryRowContext(ctx, `SELECT id FROM players WHERE key = ?`, akey).Scan(&old)
	switch {
	case err == nil && old != id:
		for _, s := range []string{
			`UPDATE seats SET player_id = ?1 WHERE player_id = ?2`,
			`UPDATE player_aliases SET player_id = ?1 WHERE player_id = ?2`,
			`DELETE FROM players WHERE id = ?2`,
		} {
			if _, err := tx.ExecContext(ctx, s, id, old); err != nil {
				return err
			}
		}
	case err != nil && !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO player_aliases(alias, player_id) VALUES (?, ?)
		ON CONFLICT(alias) DO UPDATE SET player_id = excluded.player_id`, akey, id); err != nil {
		return err
	}
	return tx.Commit()
}
