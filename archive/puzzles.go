package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/notation"
	"icepost/puzzle"
)

// Puzzles from the archive's games (migration 11, docs/archive.md,
// "Puzzles"): FindPuzzles searches the games of two seats (package
// puzzle, with package solve's exact search) and stores each missed
// forced win in the table puzzles; the web site and the mail read them
// with Puzzle, Puzzles and NextPuzzle, referee an answer with Answer,
// and count the tries in the puzzle's own row.

// PuzzleOptions say how FindPuzzles works. The zero value of each field
// means its default.
type PuzzleOptions struct {
	// Again searches the games searched before too (after a change of
	// the rules or of the search); by default only the others.
	Again bool
	// Budget bounds each position's search (solve.Win's budget).
	Budget int
	// Workers is how many games are searched at once, one core each;
	// default the cores Go may use.
	Workers int
	// Limit searches at most this many games (0: all selected).
	Limit int
	// Progress, when set, hears after each game how many of the
	// selected are done.
	Progress func(done, total int)
	// Bad, when set, hears of each game that could not be searched (a
	// record the rules now refuse); the others go on.
	Bad func(id int64, err error)
}

// PuzzleStats says what FindPuzzles did.
type PuzzleStats struct {
	Selected int // games of two seats selected (not searched before, unless Again)
	Searched int
	Found    int // puzzles found in them
	Failed   int // reported to Bad
}

// FindPuzzles searches the games q selects (its Limit and Offset are
// ignored; opt.Limit bounds the games) that have two seats and were not
// searched before (unless opt.Again), oldest first, and stores their
// puzzles: for each game in one transaction, its puzzles replace those
// stored before (a puzzle found again keeps its id and its counts of
// tries), and the game is marked searched. A run that is stopped keeps
// every game it stored. The error is the first that is not one game's.
func (a *Archive) FindPuzzles(ctx context.Context, q Query, opt PuzzleOptions) (PuzzleStats, error) {
	var st PuzzleStats
	if opt.Limit < 0 {
		return st, queryErr("limit is 0 or more")
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	q.Limit, q.Offset = 0, 0
	b, err := a.where(ctx, q)
	if err != nil {
		return st, err
	}
	b.add("g.seats = ?", 2)
	if !opt.Again {
		b.add("NOT EXISTS (SELECT 1 FROM puzzle_searches ps WHERE ps.game_id = g.id)")
	}
	ids, err := a.ids(ctx, "games g", b, "g.id", opt.Limit, 0)
	if err != nil {
		return st, err
	}
	st.Selected = len(ids)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int64)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for range min(opt.Workers, len(ids)) {
		wg.Go(func() {
			for id := range work {
				n, bad, err := a.puzzlesOf(ctx, id, opt.Budget)
				mu.Lock()
				switch {
				case err != nil && bad:
					st.Failed++
					if opt.Bad != nil {
						opt.Bad(id, err)
					}
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("game %d: %w", id, err)
						if ctx.Err() != nil {
							firstErr = ctx.Err()
						}
					}
					cancel()
				default:
					st.Searched++
					st.Found += n
				}
				done++
				if opt.Progress != nil {
					opt.Progress(done, len(ids))
				}
				mu.Unlock()
			}
		})
	}
feed:
	for _, id := range ids {
		select {
		case work <- id:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return st, firstErr
}

// puzzlesOf searches game id and stores its puzzles; bad says the error
// is the game's (its record no longer replays), not the database's.
func (a *Archive) puzzlesOf(ctx context.Context, id int64, budget int) (found int, bad bool, err error) {
	var packed []byte
	err = a.db.QueryRowContext(ctx, `SELECT record FROM games WHERE id = ?`, id).Scan(&packed)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil // deleted since it was selected
	}
	if err != nil {
		return 0, false, err
	}
	rec, err := unpackOne(packed, a.tokens(ctx))
	if err != nil {
		return 0, true, err
	}
	g, err := notation.Replay(rec)
	if err != nil {
		return 0, true, err
	}
	ps, err := puzzle.Find(ctx, g, puzzle.Options{Budget: budget})
	if err != nil {
		return 0, false, err
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	var exists int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE id = ?`, id).Scan(&exists); err != nil || exists == 0 {
		return 0, false, err // deleted meanwhile: nothing to store
	}
	plies := make([]string, 0, len(ps))
	for _, p := range ps {
		plies = append(plies, strconv.Itoa(p.Ply))
		_, err := tx.ExecContext(ctx, `INSERT INTO puzzles(game_id, ply, game, seat, moves, setup, solution, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (game_id, ply) DO UPDATE SET game = excluded.game, seat = excluded.seat, moves = excluded.moves,
				setup = excluded.setup, solution = excluded.solution, played = excluded.played`,
			id, p.Ply, p.Game, p.Seat, p.In, p.Setup, strings.Join(p.Solution, " "), p.Played)
		if err != nil {
			return 0, false, err
		}
	}
	// The puzzles no longer found (the rules or the search changed).
	if _, err := tx.ExecContext(ctx, `DELETE FROM puzzles WHERE game_id = ? AND ply NOT IN (SELECT value FROM json_each(?))`, id, "["+strings.Join(plies, ",")+"]"); err != nil {
		return 0, false, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO puzzle_searches(game_id, searched, found) VALUES (?, ?, ?)
		ON CONFLICT (game_id) DO UPDATE SET searched = excluded.searched, found = excluded.found`, id, time.Now().Unix(), len(ps)); err != nil {
		return 0, false, err
	}
	return len(ps), false, tx.Commit()
}

// StoredPuzzle is a puzzle as the archive keeps it: its id, the game it
// comes from, and how many tried and solved it. Its Tags are read from
// the game (Event, Site, Date, Round, the players' names).
type StoredPuzzle struct {
	puzzle.Puzzle
	ID       int64
	GameID   int64
	Attempts int
	Solved   int
}

// Record is the puzzle as a record (puzzle.Puzzle.Record), naming the
// archive's game.
func (p *StoredPuzzle) Record() (*notation.Record, error) { return p.Puzzle.Record(p.GameID) }

// PuzzleQuery selects stored puzzles. The zero value selects all.
type PuzzleQuery struct {
	Game  string // a game's name (any spelling games.Lookup takes); "" all
	Moves int    // only wins in this many moves; 0 all
	// GameIDs, when not nil, keeps the puzzles of these games only.
	GameIDs []int64
	Limit   int // 0: no limit
	Offset  int
}

const puzzleCols = `p.id, p.game_id, p.ply, p.game, p.seat, p.moves, p.setup, p.solution, p.played, p.attempts, p.solved,
	coalesce(g.event, ''), coalesce(g.site, ''), coalesce(g.date, ''), coalesce(g.round, ''),
	(SELECT group_concat(name, char(31)) FROM (SELECT name FROM seats WHERE game_id = g.id ORDER BY seat))`

func scanPuzzle(sc interface{ Scan(...any) error }) (*StoredPuzzle, error) {
	var p StoredPuzzle
	var solution, event, site, date, round string
	var names sql.NullString
	err := sc.Scan(&p.ID, &p.GameID, &p.Ply, &p.Game, &p.Seat, &p.In, &p.Setup, &solution, &p.Played, &p.Attempts, &p.Solved,
		&event, &site, &date, &round, &names)
	if err != nil {
		return nil, err
	}
	p.Solution = strings.Fields(solution)
	for _, t := range [][2]string{{"Event", event}, {"Site", site}, {"Date", date}, {"Round", round}} {
		if t[1] != "" && t[1] != "?" {
			p.Tags = append(p.Tags, notation.Tag{Name: t[0], Value: t[1]})
		}
	}
	if names.Valid {
		for i, n := range strings.Split(names.String, "\x1f") {
			p.Tags = append(p.Tags, notation.Tag{Name: "Player" + strconv.Itoa(i+1), Value: n})
		}
	}
	return &p, nil
}

// puzzleWhere is the WHERE clause and arguments of q.
func puzzleWhere(q PuzzleQuery) (string, []any, error) {
	var conds []string
	var args []any
	if q.Game != "" {
		g, err := lookupGameName(q.Game)
		if err != nil {
			return "", nil, err
		}
		conds, args = append(conds, "p.game = ?"), append(args, g.Name())
	}
	if q.Moves != 0 {
		conds, args = append(conds, "p.moves = ?"), append(args, q.Moves)
	}
	if q.GameIDs != nil {
		list := make([]string, len(q.GameIDs))
		for i, id := range q.GameIDs {
			list[i] = strconv.FormatInt(id, 10)
		}
		conds, args = append(conds, "p.game_id IN (SELECT value FROM json_each(?))"), append(args, "["+strings.Join(list, ",")+"]")
	}
	if len(conds) == 0 {
		return "", nil, nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args, nil
}

// Puzzles lists the stored puzzles q selects, by id (the order they
// were found in: the games' order, then the plies').
func (a *Archive) Puzzles(ctx context.Context, q PuzzleQuery) ([]*StoredPuzzle, error) {
	where, args, err := puzzleWhere(q)
	if err != nil {
		return nil, err
	}
	lim, largs := limitClause(q.Limit, q.Offset)
	rows, err := a.db.QueryContext(ctx, "SELECT "+puzzleCols+" FROM puzzles p JOIN games g ON g.id = p.game_id"+where+" ORDER BY p.id"+lim, joinArgs(args, largs)...)
	if err != nil {
		return nil, fmt.Errorf("puzzles: %w", err)
	}
	defer rows.Close()
	var out []*StoredPuzzle
	for rows.Next() {
		p, err := scanPuzzle(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// CountPuzzles is how many stored puzzles q selects (Limit and Offset
// aside).
func (a *Archive) CountPuzzles(ctx context.Context, q PuzzleQuery) (int, error) {
	where, args, err := puzzleWhere(q)
	if err != nil {
		return 0, err
	}
	var n int
	err = a.db.QueryRowContext(ctx, "SELECT count(*) FROM puzzles p"+where, args...).Scan(&n)
	return n, err
}

// Puzzle is the stored puzzle with this id (ErrNotFound when there is
// none).
func (a *Archive) Puzzle(ctx context.Context, id int64) (*StoredPuzzle, error) {
	p, err := scanPuzzle(a.db.QueryRowContext(ctx, "SELECT "+puzzleCols+" FROM puzzles p JOIN games g ON g.id = p.game_id WHERE p.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no puzzle %d", ErrNotFound, id)
	}
	return p, err
}

// NextPuzzle is the puzzle to send after the one with id after (0: the
// first): the next by id of the game named (any game for ""), from the
// first again after the last; ErrNotFound when there is none. The mail's
// daily puzzle keeps, for each player who asked, the id of the last one
// sent, and asks for the next.
func (a *Archive) NextPuzzle(ctx context.Context, game string, after int64) (*StoredPuzzle, error) {
	where, args, err := puzzleWhere(PuzzleQuery{Game: game})
	if err != nil {
		return nil, err
	}
	cond := " WHERE "
	if where != "" {
		cond = where + " AND "
	}
	for _, from := range []int64{after, 0} {
		p, err := scanPuzzle(a.db.QueryRowContext(ctx, "SELECT "+puzzleCols+" FROM puzzles p JOIN games g ON g.id = p.game_id"+cond+"p.id > ? ORDER BY p.id LIMIT 1", append(args, from)...))
		if err == nil {
			return p, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: no puzzles stored%s (icepost archive puzzles finds them)", ErrNotFound, map[bool]string{true: " of " + game}[game != ""])
}

// Answer referees an answer to puzzle id (puzzle.Play): mine are the
// player's own moves so far, the last one the move just sent. When
// count is set, the puzzle's row counts the try: an attempt when mine
// holds one move (the first move sent), a solve when the answer wins.
// budget is solve's (0: its default).
func (a *Archive) Answer(ctx context.Context, id int64, mine []string, count bool, budget int) (*StoredPuzzle, puzzle.Attempt, error) {
	p, err := a.Puzzle(ctx, id)
	if err != nil {
		return nil, puzzle.Attempt{}, err
	}
	at, err := puzzle.Play(ctx, p.Puzzle, mine, budget)
	if err != nil || !count || len(mine) == 0 {
		return p, at, err
	}
	first, solved := 0, 0
	if len(mine) == 1 {
		first = 1
	}
	if at.Solved {
		solved = 1
	}
	if first+solved > 0 {
		if err := a.CountTry(ctx, id, first == 1, at.Solved); err != nil {
			return p, at, err
		}
		p.Attempts += first
		p.Solved += solved
	}
	return p, at, nil
}

// CountTry adds to puzzle id's counts: an attempt, and a solve. It
// writes one row that exists already: no caller can make the table
// grow.
func (a *Archive) CountTry(ctx context.Context, id int64, attempt, solved bool) error {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	_, err := a.db.ExecContext(ctx, `UPDATE puzzles SET attempts = attempts + ?, solved = min(solved + ?, attempts + ?) WHERE id = ?`,
		b(attempt), b(solved), b(attempt), id)
	return err
}

// PuzzlesIn lists the stored puzzles of the games q selects (its Limit
// and Offset ignored), by id: what archive puzzles writes.
func (a *Archive) PuzzlesIn(ctx context.Context, q Query) ([]*StoredPuzzle, error) {
	q.Limit, q.Offset = 0, 0
	b, err := a.where(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := a.db.QueryContext(ctx, "SELECT "+puzzleCols+" FROM puzzles p JOIN games g ON g.id = p.game_id"+b.where()+" ORDER BY p.id", b.args...)
	if err != nil {
		return nil, fmt.Errorf("puzzles: %w", err)
	}
	defer rows.Close()
	var out []*StoredPuzzle
	for rows.Next() {
		p, err := scanPuzzle(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
