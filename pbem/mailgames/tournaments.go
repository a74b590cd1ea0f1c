package mailgames

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/tournament"
)

// The tournaments by mail (docs/tournaments.md) as the site shows them:
// the rows of pbem_events, which package pbem/events writes, each with
// its state (package tournament's value) decoded, and its games by mail
// (pbem_event_games). No address leaves this package through them: the
// players' IDs in the tournament are replaced by stand-ins ("p1", "p2",
// ... in joining order) and each is named (EntrantName) in Names.

// A tournament's status, as pbem_events.status holds it; a finished or
// cancelled one is Finished or Cancelled, as a game.
const (
	TournamentOpen    = "open"    // taking players
	TournamentRunning = "running" // paired; games under way
)

// ErrNoTournament is returned for a tournament id that does not exist.
var ErrNoTournament = errors.New("no such tournament")

// TournamentSummary is one tournament as a list shows it.
type TournamentSummary struct {
	ID       int64
	Name     string
	Game     string            // the game's name, as the registry gives it
	Options  map[string]string // the game's options, as the operator gave them ("target": "15")
	Format   tournament.Format
	Seats    int                // players a game
	Settings tournament.Options // the format's settings: rounds, double, sections, ...
	Days     int                // days per move; 0: no time control
	Status   string             // TournamentOpen, TournamentRunning, Finished, Cancelled
	// Players are the entrants who have not withdrawn.
	Players int
	// StartsAt is when it starts by itself; zero for none (when full, or
	// by the operator).
	StartsAt time.Time
	WhenFull bool // it starts once Settings.MaxPlayers have joined
	// Rounds is the highest round paired so far (a ladder's: its
	// challenges accepted).
	Rounds int
	// Paired are the games paired so far (not byes, nor annulled ones),
	// Ended those of them with a result.
	Paired, Ended int
	// Winners name the winner of a finished tournament (several on a
	// shared first place); none while it runs, nor for sections without a
	// final.
	Winners []string
	Created time.Time
	Updated time.Time // its last change: a join, a pairing, a result
}

// Tournament is one tournament whole.
type Tournament struct {
	TournamentSummary
	// T is the tournament's state, its players' IDs replaced by
	// stand-ins ("p1", "p2", ...): Names gives each one's name.
	T     *tournament.Tournament
	Names map[string]string
	// Games are its games by mail, by their Round tag ("2.3"); a game
	// paired but not started (a bye, a forfeit) has none.
	Games map[string]TournamentGame
}

// TournamentGame is a tournament's game by mail.
type TournamentGame struct {
	ID      int64 // its number by mail (pbem_games.id)
	Status  string
	Ply     int
	Started time.Time // when it was paired and started
	// Changed is when it last changed: its last move while it runs, its
	// end once over (as Game.Changed).
	Changed time.Time
}

// EntrantName is how a tournament names a player: a bot by its level
// ("bot:2" is "bot 2", the third of that level "bot:2:3" is "bot 2/3"), a
// person by PlayerName of the address, as the daemon's tournament mails
// do.
func EntrantName(id string) string {
	if lvl, ok := strings.CutPrefix(id, "bot:"); ok {
		lvl, n, _ := strings.Cut(lvl, ":")
		if n != "" {
			return "bot " + lvl + "/" + n
		}
		return "bot " + lvl
	}
	return PlayerName(id)
}

// noTable says whether err is SQLite's for a table that does not exist:
// a database the daemon has not brought up to migration 12 has no
// tournaments, which is not a fault of the site's.
func noTable(err error, table string) bool {
	return err != nil && strings.Contains(err.Error(), "no such table: "+table)
}

const tournamentColumns = `id, name, game, options, days, status, starts_at, when_full, state, created_at, updated_at`

// Tournaments lists every tournament, the newest first.
func (r *Reader) Tournaments(ctx context.Context) ([]TournamentSummary, error) {
	var out []TournamentSummary
	err := r.read(ctx, func(tx *sql.Tx, _ time.Time) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+tournamentColumns+` FROM pbem_events ORDER BY id DESC`)
		if noTable(err, "pbem_events") {
			return nil
		}
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTournament(rows)
			if err != nil {
				return err
			}
			out = append(out, t.TournamentSummary)
		}
		return rows.Err()
	})
	return out, err
}

// Tournament reads tournament id whole; ErrNoTournament when there is
// none.
func (r *Reader) Tournament(ctx context.Context, id int64) (Tournament, error) {
	var t Tournament
	err := r.read(ctx, func(tx *sql.Tx, _ time.Time) error {
		var err error
		t, err = scanTournament(tx.QueryRowContext(ctx, `SELECT `+tournamentColumns+` FROM pbem_events WHERE id = ?`, id))
		switch {
		case errors.Is(err, sql.ErrNoRows) || noTable(err, "pbem_events"):
			return fmt.Errorf("%w: there is no tournament %d", ErrNoTournament, id)
		case err != nil:
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT e.round, e.board, g.id, g.status, g.ply, g.created_at, g.turn_started_at
			FROM pbem_event_games e JOIN pbem_games g ON g.id = e.game_id WHERE e.event_id = ?`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var round, board int
			var g TournamentGame
			var started, changed int64
			if err := rows.Scan(&round, &board, &g.ID, &g.Status, &g.Ply, &started, &changed); err != nil {
				return err
			}
			g.Started = time.Unix(started, 0)
			if changed > 0 {
				g.Changed = time.Unix(changed, 0)
			}
			t.Games[tournament.Game{Round: round, Board: board}.Tag()] = g
		}
		return rows.Err()
	})
	return t, err
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanTournament reads a row of tournamentColumns and decodes its state.
func scanTournament(row scanner) (Tournament, error) {
	var t Tournament
	var opts, state string
	var starts sql.NullInt64
	var created, updated int64
	if err := row.Scan(&t.ID, &t.Name, &t.Game, &opts, &t.Days, &t.Status, &starts, &t.WhenFull, &state, &created, &updated); err != nil {
		return t, err
	}
	if starts.Valid {
		t.StartsAt = time.Unix(starts.Int64, 0)
	}
	t.Created, t.Updated = time.Unix(created, 0), time.Unix(updated, 0)
	if err := json.Unmarshal([]byte(opts), &t.Options); err != nil {
		return t, fmt.Errorf("tournament %d: its options: %w", t.ID, err)
	}
	t.T = new(tournament.Tournament)
	if err := json.Unmarshal([]byte(state), t.T); err != nil {
		return t, fmt.Errorf("tournament %d: its state: %w", t.ID, err)
	}
	t.Names = standIns(t.T)
	t.Games = map[string]TournamentGame{}
	tt := t.T
	t.Format, t.Seats, t.Settings, t.Rounds = tt.Format, tt.Seats, tt.Options, tt.Rounds()
	for _, p := range tt.Players {
		if !p.Withdrawn {
			t.Players++
		}
	}
	for _, g := range tt.Games {
		if !g.Bye && !g.Annulled {
			t.Paired++
			if g.Result != nil {
				t.Ended++
			}
		}
	}
	if t.Status == Finished {
		t.Winners = winners(tt, t.Names)
	}
	return t, nil
}

// standIns replaces every player's ID in t by a stand-in, "p1", "p2", ...
// in joining order (an ID its games name that is not among its players,
// which the package never makes, by "x1", ...), and returns each
// stand-in's name: EntrantName of the ID, with " (2)", " (3)" after a
// name another player had first.
func standIns(t *tournament.Tournament) map[string]string {
	ids := map[string]string{}
	names := map[string]string{}
	taken := map[string]int{}
	name := func(id, stand string) {
		n := EntrantName(id)
		if taken[n]++; taken[n] > 1 {
			n += " (" + strconv.Itoa(taken[n]) + ")"
		}
		ids[id], names[stand] = stand, n
	}
	for i, p := range t.Players {
		if _, ok := ids[p.ID]; !ok {
			name(p.ID, "p"+strconv.Itoa(i+1))
		}
	}
	others := 0
	to := func(id string) string {
		if id == "" {
			return ""
		}
		if s, ok := ids[id]; ok {
			return s
		}
		others++
		name(id, "x"+strconv.Itoa(others))
		return ids[id]
	}
	for i := range t.Players {
		t.Players[i].ID = to(t.Players[i].ID)
	}
	for i := range t.Games {
		for j, p := range t.Games[i].Players {
			t.Games[i].Players[j] = to(p)
		}
	}
	for i, p := range t.Finalists {
		t.Finalists[i] = to(p)
	}
	for i, p := range t.Ladder {
		t.Ladder[i] = to(p)
	}
	for i := range t.Challenges {
		c := &t.Challenges[i]
		c.Challenger, c.Defender, c.Winner = to(c.Challenger), to(c.Defender), to(c.Winner)
	}
	return names
}

// winners are the names at the top of a finished tournament's last
// table: the whole event's, or the final's; none when it has sections
// and no final.
func winners(t *tournament.Tournament, names map[string]string) []string {
	groups := t.Standings()
	if len(groups) == 0 {
		return nil
	}
	last := groups[len(groups)-1]
	if len(groups) > 1 && !last.Final {
		return nil
	}
	var out []string
	for _, r := range last.Rows {
		if r.Rank == 1 && !r.Annulled {
			out = append(out, names[r.Player])
		}
	}
	return out
}
