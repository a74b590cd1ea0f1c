// Package mailgames is the read model of the games by mail: the games as
// the daemon's tables hold them (pbem_games, pbem_seats), their records
// replayed, the time left to the player to move, the open seeks
// (pbem_seeks), and the tournaments (pbem_events, pbem_event_games) with
// their state decoded.
//
// It exists so that the web site and the operator's view can read the
// daemon's games without the daemon: on a read-only connection, with no
// server, no secret and no mail code behind them. The daemon (pbem) loads
// its games and reads its clocks through the same functions (Load,
// ClockAt), so a stored game is read, and its time counted, in one place.
// This package imports nothing of pbem.
package mailgames

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"icepost/notation"
)

// A game's status, as pbem_games.status holds it.
const (
	Invited   = "invited"
	Active    = "active"
	Finished  = "finished"
	Declined  = "declined"
	Cancelled = "cancelled"
)

// ErrNoGame is returned for a game id that does not exist.
var ErrNoGame = errors.New("no such game")

// ErrRefused wraps the operator's requests that do not apply: cancelling
// a finished game, a result marker that is not one, forgetting a player
// with a game in progress or an address nothing is kept about.
var ErrRefused = errors.New("refused")

// Querier is what *sql.DB and *sql.Tx share for reading.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Seat is one player of a game by mail.
type Seat struct {
	Address  string // lower case
	Name     string
	Accepted bool
	// Bot is the level of the computer opponent that plays the seat, 0
	// for a person.
	Bot int
}

// Stored is a game by mail as its tables hold it, with its record
// replayed: what the daemon changes and what Game describes.
type Stored struct {
	ID         int64
	Status     string
	Seats      []Seat // index 0 is seat 1
	DrawOffers int    // bit i-1: seat i offers a draw
	Days       int    // days per move; 0: no time control
	// TurnStarted is when the player to move's turn began, as loaded:
	// the daemon moves it when the turn changes (ClockAt counts from it).
	TurnStarted time.Time
	Play        *notation.Game
}

// Load reads game id and replays its record. A record that no longer
// replays (the rules changed under a stored game) is an error of the
// server, never the player's fault.
func Load(ctx context.Context, q Querier, id int64) (*Stored, error) {
	g := &Stored{ID: id}
	var text string
	var start int64
	err := q.QueryRowContext(ctx, `SELECT status, record, draw_offers, days_per_move, turn_started_at FROM pbem_games WHERE id = ?`, id).
		Scan(&g.Status, &text, &g.DrawOffers, &g.Days, &start)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNoGame
	}
	if err != nil {
		return nil, err
	}
	g.TurnStarted = time.Unix(start, 0)
	rows, err := q.QueryContext(ctx, `SELECT address, name, accepted, bot_level FROM pbem_seats WHERE game_id = ? ORDER BY seat`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var st Seat
		if err := rows.Scan(&st.Address, &st.Name, &st.Accepted, &st.Bot); err != nil {
			return nil, err
		}
		g.Seats = append(g.Seats, st)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	games, errs := notation.Check(fmt.Sprintf("game %d", id), []byte(text))
	if len(errs) > 0 || len(games) != 1 {
		return nil, fmt.Errorf("game %d: the stored record no longer replays: %v", id, errs.Err())
	}
	g.Play = games[0]
	return g, nil
}

// Game is one game by mail as the operator's view and the web site show
// it.
type Game struct {
	ID       int64
	Game     string
	Status   string
	Players  []string // addresses, seat order
	ToMove   string   // the address to move; "" unless active
	Ply      int
	Days     int           // days per move; 0: no time control
	Left     time.Duration // the mover's time left, with Days
	Paused   bool          // the mover is on vacation
	Record   string
	Position string // the board after the last move, from seat 1's side
	// Changed is when the game last changed hands or status (a move, an
	// undo, its start or its end): while it runs, the time of its last
	// move; once over, of its end. Zero for games that ended before the
	// daemon kept it.
	Changed time.Time
	// Moved is when each move was made, by ply (Moved[0] the first
	// move's); zero for a move made before the daemon kept the times
	// (pbem_move_times).
	Moved []time.Time
}

// Reader reads the games of one daemon's database. Every read runs in a
// transaction that is never committed, so a connection opened read-only
// (sqlitedb.OpenReadOnly) is enough.
type Reader struct {
	DB *sql.DB
	// Now is the time the time left is counted to; nil is time.Now.
	Now func() time.Time
}

func (r *Reader) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// All lists every game, newest first.
func (r *Reader) All(ctx context.Context) ([]Game, error) {
	return r.list(ctx, `SELECT id FROM pbem_games ORDER BY id DESC`)
}

// Active lists the games in progress, newest first.
func (r *Reader) Active(ctx context.Context) ([]Game, error) {
	return r.list(ctx, `SELECT id FROM pbem_games WHERE status = ? ORDER BY id DESC`, Active)
}

// Game describes one game, with its record and board; ErrNoGame when
// there is no game id.
func (r *Reader) Game(ctx context.Context, id int64) (Game, error) {
	var g Game
	err := r.read(ctx, func(tx *sql.Tx, now time.Time) (err error) {
		g, err = describe(ctx, tx, id, now)
		return err
	})
	return g, err
}

// Finished lists the games that ended since t, the last ended first.
func (r *Reader) Finished(ctx context.Context, since time.Time) ([]Game, error) {
	return r.list(ctx, `SELECT id FROM pbem_games WHERE status = ? AND turn_started_at >= ? ORDER BY turn_started_at DESC, id DESC`,
		Finished, since.Unix())
}

// Address is the server's own address, as the daemon notes it at each
// start (pbem.Handler.Resume); "" when no daemon has noted one.
func (r *Reader) Address(ctx context.Context) (string, error) {
	var a string
	err := r.DB.QueryRowContext(ctx, `SELECT value FROM pbem_state WHERE key = 'address'`).Scan(&a)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return a, err
}

// Revision returns a value that changes whenever a game changes: a
// move, an undo, a new game, a game's end; and whenever a tournament
// does (a player joins, a result is recorded, a round is paired): the
// live pages and the feeds of both watch it. It reads one row of each
// table.
func (r *Reader) Revision(ctx context.Context) (string, error) {
	var n, updated, plies, active int64
	err := r.DB.QueryRowContext(ctx, `SELECT count(*), coalesce(max(updated_at), 0), coalesce(sum(ply), 0),
		coalesce(sum(status = ?), 0) FROM pbem_games`, Active).Scan(&n, &updated, &plies, &active)
	if err != nil {
		return "", err
	}
	rev := fmt.Sprintf("%d.%d.%d.%d", n, updated, plies, active)
	// A tournament's state grows with almost every change (a player, a
	// result, a game), so its length tells most changes within one
	// second apart.
	var events, eventsUpdated, length int64
	err = r.DB.QueryRowContext(ctx, `SELECT count(*), coalesce(max(updated_at), 0), coalesce(sum(length(state)), 0) FROM pbem_events`).
		Scan(&events, &eventsUpdated, &length)
	switch {
	case noTable(err, "pbem_events"):
		return rev, nil
	case err != nil:
		return "", err
	}
	return rev + fmt.Sprintf(".%d.%d.%d", events, eventsUpdated, length), nil
}

func (r *Reader) list(ctx context.Context, query string, args ...any) ([]Game, error) {
	var out []Game
	err := r.read(ctx, func(tx *sql.Tx, now time.Time) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, id := range ids {
			g, err := describe(ctx, tx, id, now)
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// read runs fn in a transaction that is never committed: every game it
// reads is of one moment.
func (r *Reader) read(ctx context.Context, fn func(tx *sql.Tx, now time.Time) error) error {
	tx, err := r.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx, r.now())
}

func describe(ctx context.Context, q Querier, id int64, now time.Time) (Game, error) {
	st, err := Load(ctx, q, id)
	if err != nil {
		return Game{}, err
	}
	s := st.Play.Final()
	g := Game{ID: id, Game: st.Play.Rules.Name(), Status: st.Status, Ply: st.Play.Ply(), Days: st.Days,
		Record: st.Play.Record.String(), Position: s.Board(1)}
	if st.TurnStarted.Unix() > 0 {
		g.Changed = st.TurnStarted
	}
	for _, seat := range st.Seats {
		g.Players = append(g.Players, seat.Address)
	}
	if g.Moved, err = moveTimes(ctx, q, id, g.Ply); err != nil {
		return g, err
	}
	if st.Status != Active {
		return g, nil
	}
	g.ToMove = st.Seats[s.ToMove()-1].Address
	c, err := ClockAt(ctx, q, g.ToMove, st.Days, st.TurnStarted, now)
	if err != nil {
		return g, err
	}
	g.Left, g.Paused = c.Left(), c.Paused
	return g, nil
}

// moveTimes reads when each of a game's moves was made, by ply; zero for
// those with no time kept.
func moveTimes(ctx context.Context, q Querier, id int64, plies int) ([]time.Time, error) {
	out := make([]time.Time, plies)
	rows, err := q.QueryContext(ctx, `SELECT ply, at FROM pbem_move_times WHERE game_id = ? AND ply <= ? ORDER BY ply`, id, plies)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var ply, at int64
		if err := rows.Scan(&ply, &at); err != nil {
			return nil, err
		}
		if ply >= 1 && int(ply) <= plies {
			out[ply-1] = time.Unix(at, 0)
		}
	}
	return out, rows.Err()
}
