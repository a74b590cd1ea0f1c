package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"icepost/rules"
)

// where reads what q needs from the database (the games the position
// index finds for a position or for opening moves, the kinds of game
// stored for the moves, and the games' languages for words) and builds
// q's conditions on games g.
func (a *Archive) where(ctx context.Context, q Query) (*builder, error) {
	c, err := check(q)
	if err != nil {
		return nil, err
	}
	if c.hasPosition {
		if c.positionIDs, err = gamesAt(ctx, a.db, uint64(c.position), -1); err != nil {
			return nil, err
		}
	}
	if c.text != "" {
		if c.langs, err = readTextLanguages(ctx, a.db); err != nil {
			return nil, err
		}
	}
	if len(c.moves) > 0 {
		kinds, err := a.kinds(ctx, c.game)
		if err != nil {
			return nil, err
		}
		if c.paths, err = movePaths(c.moves, kinds); err != nil {
			return nil, err
		}
		for i := range c.paths {
			if c.paths[i].ids, err = a.beganWith(ctx, c.paths[i].hashes); err != nil {
				return nil, err
			}
		}
	}
	return build(c), nil
}

// beganWith returns the games that reached hashes[i] at ply i+1 for every
// i, from the deepest position (the fewest games) back.
func (a *Archive) beganWith(ctx context.Context, hashes []uint64) ([]int64, error) {
	var ids []int64
	for i := len(hashes) - 1; i >= 0; i-- {
		at, err := gamesAt(ctx, a.db, hashes[i], i+1)
		if err != nil {
			return nil, err
		}
		if i == len(hashes)-1 {
			ids = at
		} else {
			ids = intersect(ids, at)
		}
		if len(ids) == 0 {
			break
		}
	}
	return ids, nil
}

// intersect keeps the ids of a (sorted) that are in b (sorted).
func intersect(a, b []int64) []int64 {
	out := a[:0]
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			out = append(out, x)
		}
	}
	return out
}

// kinds lists the kinds of game stored from the usual start (of game,
// when not nil). It walks games_kind from one kind to the next (a seek
// per kind) instead of reading an entry per game: SELECT DISTINCT read
// the whole index, 100 ms at 1,000,000 games.
func (a *Archive) kinds(ctx context.Context, game rules.Game) ([]kind, error) {
	var out []kind
	k := kind{}
	first := true
	if game != nil {
		// Start just before the game's first kind.
		k = kind{game: game.Name(), seats: -1 << 62}
		first = false
	}
	for {
		var next kind
		var err error
		if first {
			err = a.db.QueryRowContext(ctx, `SELECT game, seats, board, target FROM games ORDER BY game, seats, board, target LIMIT 1`).
				Scan(&next.game, &next.seats, &next.board, &next.target)
			first = false
		} else {
			// The next kind after k: a larger target with the same game,
			// seats and board, else a larger board, ... Each is a seek
			// (SQLite seeks a row-value range on its first column only).
			for _, cond := range []string{
				`game = ?1 AND seats = ?2 AND board = ?3 AND target > ?4`,
				`game = ?1 AND seats = ?2 AND board > ?3`,
				`game = ?1 AND seats > ?2`,
				`game > ?1`,
			} {
				err = a.db.QueryRowContext(ctx, `SELECT game, seats, board, target FROM games INDEXED BY games_kind
					WHERE `+cond+` ORDER BY game, seats, board, target LIMIT 1`, k.game, k.seats, k.board, k.target).
					Scan(&next.game, &next.seats, &next.board, &next.target)
				if !errors.Is(err, sql.ErrNoRows) {
					break
				}
			}
		}
		if errors.Is(err, sql.ErrNoRows) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if game != nil && next.game != game.Name() {
			return out, nil
		}
		var one int
		err = a.db.QueryRowContext(ctx, `SELECT 1 FROM games INDEXED BY games_kind
			WHERE game = ? AND seats = ? AND board = ? AND target = ? AND setup IS NULL LIMIT 1`, next.game, next.seats, next.board, next.target).Scan(&one)
		switch {
		case err == nil:
			out = append(out, next)
		case !errors.Is(err, sql.ErrNoRows):
			return nil, err
		}
		k = next
	}
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
	b, err := a.where(ctx, q)
	if err != nil {
		return err
	}
	cols := summaryCols
	if withRecord {
		cols += ", g.record"
	}
	text, args := selectSQL(cols, b, q.Limit, q.Offset)
	rows, err := a.db.QueryContext(ctx, text, args...)
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
			if text, err = unpackRecord(packed, a.tokens(ctx)); err != nil {
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
	b, err := a.where(ctx, q)
	if err != nil {
		return 0, err
	}
	text, args := countSQL(b, q.Limit, q.Offset)
	if b.seats != nil {
		from, where, pargs, _, _, ok, err := a.playerPlan(ctx, b)
		if err != nil {
			return 0, err
		}
		if ok {
			return a.countPlayer(ctx, from, where, pargs, q.Limit, q.Offset)
		}
	}
	if b.text != nil && q.Limit > 0 {
		// Up to a limit (the web site's count past a page): the games
		// with the words as textSQL reads them, newest first, until the
		// limit; a count of them all is as fast from the set of them.
		sub, sargs := textSQL(b, q.Limit, q.Offset)
		text, args = "SELECT count(*) FROM ("+sub+")", sargs
	}
	var n int
	err = a.db.QueryRowContext(ctx, text, args...).Scan(&n)
	return n, err
}

// countPlayer counts one player's games from their entries of
// seats_player_date (playerPlan's from and where), as Count does with the
// limit and offset. Each game is counted once (the ids sorted in Go and
// repeats dropped): the player may sit in two seats of a game. Read as
// one string of ids,
// 1,051 entries (the web site's count past a page) take a third of the
// time of SQLite's DISTINCT, whose set is a b-tree (0.25 against 0.6 ms
// at a million games); looking for the player in the other seats of
// each game took longer still.
func (a *Archive) countPlayer(ctx context.Context, from, where string, args []any, limit, offset int) (int, error) {
	want := -1 // every game
	if limit > 0 {
		want = limit + offset
	}
	var ids []int64
	games := 0
	for read := want; ; {
		var list sql.RawBytes
		rows, err := a.db.QueryContext(ctx, "SELECT group_concat(game_id) FROM (SELECT sp.game_id FROM "+from+" WHERE "+where+
			" LIMIT ?)", joinArgs(args, []any{read})...)
		if err != nil {
			return 0, fmt.Errorf("search: %w", err)
		}
		ids = ids[:0]
		for rows.Next() {
			if err := rows.Scan(&list); err != nil {
				rows.Close()
				return 0, err
			}
			if ids, err = appendIDs(ids, list); err != nil {
				rows.Close()
				return 0, err
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, err
		}
		slices.Sort(ids)
		games = len(slices.Compact(ids))
		if want < 0 || games >= want || len(ids) < read {
			break // every game wanted, or every entry read
		}
		read += want - games // a game in two seats: read on
	}
	n := games - offset
	if want >= 0 {
		n = min(n, limit)
	}
	return max(0, n), nil
}

// appendIDs appends the ids of a list of decimal numbers separated by
// commas (group_concat's) to ids.
func appendIDs(ids []int64, list []byte) ([]int64, error) {
	var id int64
	digits := 0
	for _, c := range list {
		switch {
		case c >= '0' && c <= '9' && digits < 18:
			id = id*10 + int64(c-'0')
			digits++
		case c == ',' && digits > 0:
			ids = append(ids, id)
			id, digits = 0, 0
		default:
			return nil, fmt.Errorf("search: a list of game ids holds %q", clip(string(list)))
		}
	}
	if digits > 0 {
		ids = append(ids, id)
	} else if len(list) > 0 {
		return nil, fmt.Errorf("search: a list of game ids ends in a comma")
	}
	return ids, nil
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
	if st.Record, err = unpackRecord(packed, a.tokens(ctx)); err != nil {
		return nil, err
	}
	return &st, nil
}
