// Package events runs tournaments by mail, beside the game service: it
// keeps each tournament's state (package tournament's, as JSON) in the
// daemon's database, starts the games it pairs through pbem's Transact,
// reads their results when they end, and answers the tournaments' mail
// commands (pbem.Events). Pairing a round, starting its games and
// queueing their boards are one transaction, so a round is paired once
// whatever stops the daemon.
//
// The game service knows nothing of tournaments: a tournament's game is
// a game by mail with an Event and a Round tag, and its end is seen on
// the next tick.
package events

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/engine"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailgames"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/tournament"
)

// The statuses of a tournament.
const (
	Open      = "open"      // taking players
	Running   = "running"   // paired; games under way
	Finished  = "finished"  // every game played
	Cancelled = "cancelled" // stopped by the operator
)

// Service runs the tournaments of one game service.
type Service struct {
	Handler *pbem.Handler
}

// Spec is a tournament as the operator creates it.
type Spec struct {
	Name     string
	Game     string            // a game's name or alias
	Options  map[string]string // the game's options ("target": "15")
	Format   tournament.Format
	Seats    int // players a game; 0 is the game's least
	Settings tournament.Options
	Days     int       // days per move; 0 for none
	StartsAt time.Time // when it starts by itself; zero: by the operator, or when full
	WhenFull bool      // it starts once Settings.MaxPlayers have joined
	// Players join at once: addresses, or "bot:LEVEL" for the server's
	// bot (several of a level are told apart as bot:LEVEL:2, ...).
	Players []string
}

// Event is one tournament as stored.
type Event struct {
	ID       int64
	Name     string
	Game     string
	Options  map[string]string
	Days     int
	Status   string
	StartsAt time.Time // zero: none
	WhenFull bool
	T        *tournament.Tournament
	// GameIDs are the games by mail of the tournament's games, by their
	// Round tag ("2.3").
	GameIDs map[string]int64
}

// Create stores a new tournament, open, with its first players.
func (s *Service) Create(ctx context.Context, spec Spec) (int64, error) {
	p, err := prepare(spec)
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
		id, err = s.insert(tx, p)
		return err
	})
	return id, err
}

// prepared is a tournament's spec checked, before it is stored.
type prepared struct {
	spec Spec
	t    *tournament.Tournament
	game string // the game's name
	opts string // its options, as JSON
}

// prepare checks spec, and makes its tournament.
func prepare(spec Spec) (prepared, error) {
	rg, ok := games.Lookup(spec.Game)
	if !ok {
		return prepared{}, fmt.Errorf("no game %q: the games are %s", spec.Game, strings.Join(games.Names(), ", "))
	}
	if strings.TrimSpace(spec.Name) == "" {
		return prepared{}, errors.New("give the tournament a name")
	}
	seats := spec.Seats
	if seats == 0 {
		seats = rg.Info().Seats[0]
	}
	// The game as the tournament will start it, tried now: a bad option
	// or seat count is the operator's to fix at once, not an apology to
	// the players when the field fills.
	var opts rules.Options
	for name, v := range spec.Options {
		if err := opts.Set(name, v); err != nil {
			return prepared{}, fmt.Errorf("%s: option %s=%s: %w", rg.Name(), name, v, err)
		}
	}
	opts.Seats = seats
	if _, err := rg.Start(opts); err != nil {
		return prepared{}, fmt.Errorf("%s at %d seats: %w", rg.Name(), seats, err)
	}
	t, err := tournament.New(spec.Name, spec.Format, seats, spec.Settings)
	if err != nil {
		return prepared{}, err
	}
	if spec.WhenFull && spec.Settings.MaxPlayers == 0 {
		return prepared{}, errors.New("a tournament that starts when full needs its number of players: -max N (by mail, max=N)")
	}
	optsJSON, err := json.Marshal(spec.Options)
	if err != nil {
		return prepared{}, err
	}
	return prepared{spec: spec, t: t, game: rg.Name(), opts: string(optsJSON)}, nil
}

// insert stores pr's tournament with its first players in tx, and
// returns its number.
func (s *Service) insert(tx *pbem.Tx, pr prepared) (int64, error) {
	spec, t, game := pr.spec, pr.t, pr.game
	bots := map[string]int{}
	for _, p := range spec.Players {
		if lvl, ok := strings.CutPrefix(p, "bot:"); ok {
			if n, err := strconv.Atoi(lvl); err != nil || n < 1 || n > engine.MaxLevel {
				return 0, fmt.Errorf("player %q: a bot is bot:LEVEL, a level from 1 to %d", p, engine.MaxLevel)
			}
			bots[p]++
			if n := bots[p]; n > 1 {
				p += ":" + strconv.Itoa(n)
			}
		} else {
			a, err := mailaddr.Canonical(p)
			if err != nil {
				return 0, fmt.Errorf("player %q: %v: give a mail address, or bot:LEVEL", p, err)
			}
			p = a
		}
		if err := t.Join(tournament.Player{ID: p, Rating: s.rating(tx.Context(), p, game)}); err != nil {
			return 0, err
		}
	}
	state, err := json.Marshal(t)
	if err != nil {
		return 0, err
	}
	var starts any
	if !spec.StartsAt.IsZero() {
		starts = spec.StartsAt.Unix()
	}
	now := tx.Now().Unix()
	res, err := tx.SQL().ExecContext(tx.Context(), `INSERT INTO pbem_events (name, game, options, days, status, starts_at, when_full, state, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, spec.Name, game, pr.opts, spec.Days, Open, starts, spec.WhenFull, string(state), now, now)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return 0, fmt.Errorf("a tournament is named %q already: choose another name", spec.Name)
		}
		return 0, err
	}
	return res.LastInsertId()
}

// rating is a player's rating in a game, for the seeding: the archive's,
// or 1500 for the unrated and the bots.
func (s *Service) rating(ctx context.Context, player, game string) float64 {
	if ra, ok := s.Handler.Archive.(pbem.RatingArchive); ok && !strings.HasPrefix(player, "bot:") {
		if r, rated, err := ra.Rating(ctx, player, game); err == nil && rated {
			return r
		}
	}
	return 1500
}

// load reads a tournament in q.
func load(ctx context.Context, q querier, id int64) (*Event, error) {
	ev := &Event{ID: id, GameIDs: map[string]int64{}}
	var opts, state string
	var starts sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT name, game, options, days, status, starts_at, when_full, state FROM pbem_events WHERE id = ?`, id).
		Scan(&ev.Name, &ev.Game, &opts, &ev.Days, &ev.Status, &starts, &ev.WhenFull, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: there is no tournament %d", ErrNoEvent, id)
	}
	if err != nil {
		return nil, err
	}
	if starts.Valid {
		ev.StartsAt = time.Unix(starts.Int64, 0)
	}
	if err := json.Unmarshal([]byte(opts), &ev.Options); err != nil {
		return nil, fmt.Errorf("tournament %d: its options: %w", id, err)
	}
	ev.T = new(tournament.Tournament)
	if err := json.Unmarshal([]byte(state), ev.T); err != nil {
		return nil, fmt.Errorf("tournament %d: its state: %w", id, err)
	}
	rows, err := q.QueryContext(ctx, `SELECT round, board, game_id FROM pbem_event_games WHERE event_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var r, b int
		var g int64
		if err := rows.Scan(&r, &b, &g); err != nil {
			return nil, err
		}
		ev.GameIDs[tournament.Game{Round: r, Board: b}.Tag()] = g
	}
	return ev, rows.Err()
}

// ErrNoEvent is the error for a tournament that does not exist.
var ErrNoEvent = errors.New("no such tournament")

// querier is what *sql.DB and *sql.Tx share for reading.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// save writes ev's status and state.
func save(tx *pbem.Tx, ev *Event) error {
	state, err := json.Marshal(ev.T)
	if err != nil {
		return err
	}
	_, err = tx.SQL().ExecContext(tx.Context(), `UPDATE pbem_events SET status = ?, state = ?, updated_at = ? WHERE id = ?`,
		ev.Status, string(state), tx.Now().Unix(), ev.ID)
	return err
}

// Show is one tournament.
func (s *Service) Show(ctx context.Context, id int64) (*Event, error) {
	return load(ctx, s.Handler.DB, id)
}

// List is every tournament, the newest first.
func (s *Service) List(ctx context.Context) ([]*Event, error) {
	rows, err := s.Handler.DB.QueryContext(ctx, `SELECT id FROM pbem_events ORDER BY id DESC`)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []*Event
	for _, id := range ids {
		ev, err := s.Show(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, ev)
	}
	return out, nil
}

// Start starts an open tournament now: it is seeded and its first games
// begin.
func (s *Service) Start(ctx context.Context, id int64) error {
	return s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
		ev, err := load(tx.Context(), tx.SQL(), id)
		if err != nil {
			return err
		}
		if ev.Status != Open {
			return fmt.Errorf("tournament %d is %s: only an open one can start", id, ev.Status)
		}
		return s.step(tx, ev)
	})
}

// Pair looks at a running tournament now, as the tick does: the results
// of its games that ended, and the games due next.
func (s *Service) Pair(ctx context.Context, id int64) error {
	return s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
		ev, err := load(tx.Context(), tx.SQL(), id)
		if err != nil {
			return err
		}
		if ev.Status != Running {
			return fmt.Errorf("tournament %d is %s: only a running one is paired", id, ev.Status)
		}
		return s.step(tx, ev)
	})
}

// Cancel stops a tournament: no more games are paired; its games under
// way go on as games by mail.
func (s *Service) Cancel(ctx context.Context, id int64) error {
	return s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
		ev, err := load(tx.Context(), tx.SQL(), id)
		if err != nil {
			return err
		}
		if ev.Status == Finished || ev.Status == Cancelled {
			return fmt.Errorf("tournament %d is %s already", id, ev.Status)
		}
		ev.Status = Cancelled
		for _, p := range ev.T.Players {
			if human(p.ID) {
				tx.Mail(p.ID, "icepost: "+ev.Name+" is cancelled", fmt.Sprintf(
					"The server's operator cancelled the tournament %s. Its games under way go on as games by mail, without counting for it.\n", ev.Name))
			}
		}
		return save(tx, ev)
	})
}

// Tick starts the tournaments whose time has come and pairs the running
// ones whose games ended: the daemon calls it with the game service's
// tick. Each tournament is one transaction; one failing does not hold up
// the others.
func (s *Service) Tick(ctx context.Context) error {
	rows, err := s.Handler.DB.QueryContext(ctx, `SELECT id FROM pbem_events WHERE status = ? OR (status = ? AND starts_at <= ?) ORDER BY id`,
		Running, Open, s.now().Unix())
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
	var errs []error
	for _, id := range ids {
		err := s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
			ev, err := load(tx.Context(), tx.SQL(), id)
			if err != nil {
				return err
			}
			return s.tickOne(tx, ev)
		})
		if errors.Is(err, tournament.ErrTooFew) {
			// Its start time came with too few players: it is called
			// off, once, rather than tried every minute.
			err = s.callOff(ctx, id, err)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tournament %d: %w", id, err))
		}
	}
	return errors.Join(errs...)
}

// callOff cancels an open tournament that could not start, and tells its
// players why.
func (s *Service) callOff(ctx context.Context, id int64, why error) error {
	return s.Handler.Transact(ctx, func(tx *pbem.Tx) error {
		ev, err := load(tx.Context(), tx.SQL(), id)
		if err != nil || ev.Status != Open {
			return err
		}
		ev.Status = Cancelled
		for _, p := range ev.T.Players {
			if human(p.ID) {
				tx.Mail(p.ID, "icepost: "+ev.Name+" is called off", fmt.Sprintf(
					"The tournament %s was to start now, but it could not: %v. It is called off; ask the server's operator about another.\n", ev.Name, why))
			}
		}
		return save(tx, ev)
	})
}

func (s *Service) now() time.Time {
	if s.Handler.Now != nil {
		return s.Handler.Now()
	}
	return time.Now()
}

// step brings a tournament up to date in tx: the results of its games
// that ended, the games due next started, the end told.
func (s *Service) step(tx *pbem.Tx, ev *Event) error {
	if err := s.advance(tx, ev); err != nil {
		return err
	}
	return save(tx, ev)
}

// tickOne is step for the tick: a tournament where nothing happened is
// not written again.
func (s *Service) tickOne(tx *pbem.Tx, ev *Event) error {
	before, err := json.Marshal(ev.T)
	if err != nil {
		return err
	}
	status := ev.Status
	if err := s.advance(tx, ev); err != nil {
		return err
	}
	if after, err := json.Marshal(ev.T); err == nil && ev.Status == status && string(after) == string(before) {
		return nil
	}
	return save(tx, ev)
}

// advance is step without the store.
func (s *Service) advance(tx *pbem.Tx, ev *Event) error {
	if err := s.enforceDeadline(tx, ev); err != nil {
		return err
	}
	if err := s.recordResults(tx, ev); err != nil {
		return err
	}
	starting := ev.Status == Open
	due, err := ev.T.Pair()
	if err != nil {
		if starting {
			return fmt.Errorf("%s cannot start: %w", ev.Name, err)
		}
		return err
	}
	ev.Status = Running
	// Each player hears of the games that start now in one mail, with
	// their boards (Tx.RoundMail): a round robin's games all at once, a
	// round of a Swiss.
	started := map[string][]tournament.Game{}
	var order []string
	ids := map[string][]int64{}
	for _, g := range due {
		id, err := s.begin(tx, ev, g, "", true)
		if err != nil || id == 0 {
			if err != nil {
				return err
			}
			continue
		}
		for _, p := range g.Players {
			if !human(p) {
				continue
			}
			if started[p] == nil {
				order = append(order, p)
			}
			started[p] = append(started[p], g)
			ids[p] = append(ids[p], id)
		}
	}
	for _, p := range order {
		subject, news := roundNews(ev.Name, started[p])
		if err := tx.RoundMail(p, subject, news, ids[p]); err != nil {
			return err
		}
	}
	if ev.T.Format == tournament.Ladder {
		s.expire(tx, ev)
	}
	if ev.T.Done() {
		ev.Status = Finished
		text := "The tournament " + ev.Name + " has ended. The final standings:\n\n" + StandingsText(ev)
		for _, p := range ev.T.Players {
			if human(p.ID) {
				tx.Mail(p.ID, "icepost: "+ev.Name+": final standings", text)
			}
		}
	}
	return nil
}

// roundNews is the subject and the news of the mail that brings a
// player their games starting now.
func roundNews(name string, games []tournament.Game) (subject, news string) {
	if len(games) == 1 {
		g := games[0]
		return fmt.Sprintf("icepost: %s, round %d", name, g.Round),
			fmt.Sprintf("Round %d of %s: your game begins (game %d of the round).", g.Round, name, g.Board)
	}
	round := games[0].Round
	for _, g := range games {
		if g.Round != round {
			return fmt.Sprintf("icepost: %s: your %d games begin", name, len(games)),
				fmt.Sprintf("%s begins: your %d games start at once, as the games of a round robin do.", name, len(games))
		}
	}
	return fmt.Sprintf("icepost: %s, round %d: your %d games", name, round, len(games)),
		fmt.Sprintf("Round %d of %s: your %d games begin.", round, name, len(games))
}

// begin starts a game the tournament paired and returns its number, or
// tells a player of a bye (0). Its first boards say news; quiet, it sends
// none (the caller sends them with the player's other new games,
// Tx.RoundMail).
func (s *Service) begin(tx *pbem.Tx, ev *Event, g tournament.Game, news string, quiet bool) (int64, error) {
	if _, ok := ev.GameIDs[g.Tag()]; ok {
		return 0, nil
	}
	if g.Bye {
		if p := g.Players[0]; human(p) {
			tx.Mail(p, "icepost: "+ev.Name+", round "+strconv.Itoa(g.Round), fmt.Sprintf(
				"You have a bye in round %d of %s: no game this round, and it counts as a win. Your next game comes with the next round.\n", g.Round, ev.Name))
		}
		return 0, nil
	}
	if !g.Playable() {
		return 0, nil // decided already: against a player who withdrew
	}
	id, err := tx.Start(pbem.GameSpec{Game: ev.Game, Options: ev.Options, Seats: slices.Clone(g.Players), Days: ev.Days,
		Event: ev.Name, Round: g.Tag(), News: news, Quiet: quiet})
	if err != nil {
		return 0, fmt.Errorf("game %s: %w", g.Tag(), err)
	}
	if _, err := tx.SQL().ExecContext(tx.Context(), `INSERT INTO pbem_event_games (event_id, round, board, game_id) VALUES (?, ?, ?, ?)`,
		ev.ID, g.Round, g.Board, id); err != nil {
		return 0, err
	}
	ev.GameIDs[g.Tag()] = id
	return id, nil
}

// enforceDeadline ends as a draw each of the tournament's games still
// under way its Deadline days after it began (tournament.Options), and
// tells its players why.
func (s *Service) enforceDeadline(tx *pbem.Tx, ev *Event) error {
	days := ev.T.Options.Deadline
	if days <= 0 {
		return nil
	}
	cut := tx.Now().Add(-time.Duration(days) * 24 * time.Hour).Unix()
	for _, g := range ev.T.Games {
		id, ok := ev.GameIDs[g.Tag()]
		if !ok || !g.Playable() {
			continue
		}
		var status string
		var began int64
		if err := tx.SQL().QueryRowContext(tx.Context(), `SELECT status, created_at FROM pbem_games WHERE id = ?`, id).Scan(&status, &began); err != nil {
			return err
		}
		if status != mailgames.Active || began > cut {
			continue
		}
		draw := notation.ResultString(rules.Outcome{Over: true}, len(g.Players))
		news := fmt.Sprintf("The game reached %s's deadline: %d days after it began, it is ended a draw.", ev.Name, days)
		if err := tx.EndGame(id, draw, news); err != nil {
			return fmt.Errorf("game %d (%s) at its deadline: %w", id, g.Tag(), err)
		}
	}
	return nil
}

// recordResults records the results of the tournament's games that
// ended since the last look.
func (s *Service) recordResults(tx *pbem.Tx, ev *Event) error {
	for _, g := range ev.T.Games {
		id, ok := ev.GameIDs[g.Tag()]
		if !ok || !g.Playable() {
			continue
		}
		var status, record string
		if err := tx.SQL().QueryRowContext(tx.Context(), `SELECT status, record FROM pbem_games WHERE id = ?`, id).Scan(&status, &record); err != nil {
			return err
		}
		if status != mailgames.Finished {
			continue
		}
		r, err := resultOf(record, len(g.Players))
		if err != nil {
			return fmt.Errorf("game %d (%s): %w", id, g.Tag(), err)
		}
		if err := ev.T.Record(g.Round, g.Board, r); err != nil {
			return err
		}
	}
	return nil
}

// resultOf reads a finished game's result from its record: its Score
// when it has one for three or four seats (which places every seat),
// else its Result.
func resultOf(record string, seats int) (tournament.Result, error) {
	gs, errs := notation.Check("game", []byte(record))
	if len(errs) > 0 || len(gs) != 1 {
		return tournament.Result{}, fmt.Errorf("its record does not read: %v", errs.Err())
	}
	rec := gs[0].Record
	if seats > 2 {
		if sc, ok := rec.Tag("Score"); ok && sc != "" {
			return tournament.ParseResult(sc)
		}
	}
	res, _ := rec.Tag("Result")
	return tournament.ParseResult(res)
}

// human says whether a player is a person (an address), not a bot.
func human(id string) bool { return !strings.HasPrefix(id, "bot:") }

// playerName is how a tournament's texts name a player.
func playerName(id string) string {
	if lvl, ok := strings.CutPrefix(id, "bot:"); ok {
		lvl, n, _ := strings.Cut(lvl, ":")
		if n != "" {
			return "bot " + lvl + "/" + n
		}
		return "bot " + lvl
	}
	return mailgames.PlayerName(id)
}
