// Package players is what the daemon keeps about a player, for the
// operator: a player's data exported (icepost players export), a player
// forgotten under a pseudonym (players forget), an address blocked. It
// works on the daemon's tables and the archive beside them, not through
// the game service, so the operator's commands reach it without a
// server; nothing in the game service imports it.
package players

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"icepost/notation"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailgames"
	"icepost/pbem/store"
)

// See docs/mail.md, "Retention and a player's data".

// Archive finds, and rewrites, the archived games with a seat at an
// address (cmd/icepost's adapter calls the archive package): what Export
// and Forget need of it.
type Archive interface {
	// AddressGames lists the archived games with a seat at address.
	AddressGames(ctx context.Context, tx *sql.Tx, address string) ([]ArchivedGame, error)
	// RewriteAddressGames rewrites their records with edit, which
	// changes tags and comments only, and what the archive derives from
	// them (its seats, players and full-text index).
	RewriteAddressGames(ctx context.Context, tx *sql.Tx, address string, edit func(*notation.Record) error) (int, error)
}

// ArchivedGame is a finished game in the archive.
type ArchivedGame struct {
	ID       int64  `json:"id"`                  // the archive's
	MailGame string `json:"mail_game,omitempty"` // the daemon's game number, for a game by mail
	Record   string `json:"record"`
}

// Data is everything kept about an address.
type Data struct {
	Address string `json:"address"`
	// Settings are the player's own (digest) and the operator's (a block);
	// nil when none were ever set.
	Settings *Settings `json:"settings"`
	// Games are the games by mail with a seat at the address.
	Games []Game `json:"games"`
	// Observing are the games the address follows.
	Observing []int64        `json:"observing"`
	Vacations []Vacation     `json:"vacations"`
	MailsFrom []MailFrom     `json:"mails_from"` // mails from the address the daemon handled
	MailsTo   []MailTo       `json:"mails_to"`   // mails queued or sent to the address
	Errors    []time.Time    `json:"error_replies"`
	Archived  []ArchivedGame `json:"archived"`
	// Analyses are the computer analyses stored of the player's games
	// by mail (asked for with analyze): annotated records, which name
	// the players as the games' records do.
	Analyses []Analysis `json:"analyses"`
	// Seeks are the address's open challenges to anyone, and those met.
	Seeks []Seek `json:"seeks"`
	// Tournaments are those the address plays in, by number, with each
	// one's stored state (which names the address).
	Tournaments []Tournament `json:"tournaments"`
	// Puzzles are the daily puzzle's settings and the answers sent.
	Puzzles *Puzzles `json:"puzzles,omitempty"`
}

// Seek is one of the address's seeks.
type Seek struct {
	ID      int64     `json:"id"`
	Game    string    `json:"game"`
	Terms   string    `json:"terms"`
	Created time.Time `json:"created"`
	Expires time.Time `json:"expires"`
	MetBy   int64     `json:"game_started,omitempty"` // the game it started, once met
}

// Tournament is a tournament the address is in.
type Tournament struct {
	ID     int64  `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"`
	State  string `json:"state"` // the tournament as stored (JSON)
}

// Puzzles is the address's daily puzzle.
type Puzzles struct {
	On    bool        `json:"on"`
	Tries []PuzzleTry `json:"tries"`
}

// PuzzleTry is an answer to one puzzle sent.
type PuzzleTry struct {
	Puzzle int64  `json:"puzzle"`
	Moves  string `json:"moves"`
	Status string `json:"status"`
}

// Analysis is a stored analysis of one of the player's games.
type Analysis struct {
	Game    int64     `json:"game"`
	Level   int       `json:"level"`
	Created time.Time `json:"created"`
	Record  string    `json:"record"`
}

// Settings is a row of pbem_players.
type Settings struct {
	Digest       bool       `json:"digest"`
	DigestSentAt *time.Time `json:"digest_sent_at,omitempty"`
	Blocked      bool       `json:"blocked"`
}

// Game is a game by mail and the player's seat in it.
type Game struct {
	ID         int64     `json:"id"`
	Game       string    `json:"game"`
	Status     string    `json:"status"`
	Seat       int       `json:"seat"`
	Name       string    `json:"name"`
	Accepted   bool      `json:"accepted"`
	Created    time.Time `json:"created"`
	Updated    time.Time `json:"updated"`
	Record     string    `json:"record"`
	Conditions string    `json:"conditional_moves,omitempty"`
	// Moved is when each move was made, by ply, where the daemon kept it.
	Moved []MoveTime `json:"move_times,omitempty"`
}

// MoveTime is when a move of a game was made.
type MoveTime struct {
	Ply int       `json:"ply"`
	At  time.Time `json:"at"`
}

// Vacation is one of the player's vacations.
type Vacation struct {
	Starts time.Time `json:"starts"`
	Ends   time.Time `json:"ends"`
}

// MailFrom is a mail from the player, as handled: its key (the
// Message-ID) and what it did.
type MailFrom struct {
	Key     string    `json:"key"`
	At      time.Time `json:"handled"`
	Outcome string    `json:"outcome"`
}

// MailTo is a mail of the outbox to the player. Message is empty once
// the mail's body was pruned (keep_sent).
type MailTo struct {
	ID        int64      `json:"id"`
	Queued    time.Time  `json:"queued"`
	Sent      *time.Time `json:"sent,omitempty"`
	Failed    *time.Time `json:"given_up,omitempty"`
	Attempts  int        `json:"attempts"`
	LastError string     `json:"last_error,omitempty"`
	Message   string     `json:"message"`
}

// normalAddress is an address as the daemon's tables keep it, checked.
func normalAddress(address string) (string, error) {
	a, err := mailaddr.Canonical(strings.TrimSpace(address))
	if err != nil {
		return "", fmt.Errorf("%w: %v: give a mail address, like bob@example.org", mailgames.ErrRefused, err)
	}
	return a, nil
}

func unixTime(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

func unixPtr(sec sql.NullInt64) *time.Time {
	if !sec.Valid {
		return nil
	}
	t := unixTime(sec.Int64)
	return &t
}

// Export returns everything the daemon's database keeps about an
// address: its seats with the games' records, their moves' times and
// their stored analyses, its settings, vacations, the games it observes,
// the mails from it the daemon handled and those queued or sent to it,
// the times of the error replies it got, and the archived games it
// played. An address nothing is kept about is refused
// (mailgames.ErrRefused), so that a mistyped one is not taken for a player with no
// data.
func Export(ctx context.Context, db *sql.DB, a Archive, address string) (*Data, error) {
	addr, err := normalAddress(address)
	if err != nil {
		return nil, err
	}
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	p := &Data{Address: addr, Games: []Game{}, Observing: []int64{}, Vacations: []Vacation{},
		MailsFrom: []MailFrom{}, MailsTo: []MailTo{}, Errors: []time.Time{}, Archived: []ArchivedGame{}, Analyses: []Analysis{},
		Seeks: []Seek{}, Tournaments: []Tournament{}}
	each := func(query string, scan func(*sql.Rows) error, args ...any) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			if err := scan(rows); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	var st Settings
	var digestAt int64
	switch err := tx.QueryRowContext(ctx, `SELECT digest, digest_sent_at, blocked FROM pbem_players WHERE address = ?`, addr).Scan(&st.Digest, &digestAt, &st.Blocked); {
	case err == nil:
		if digestAt > 0 {
			st.DigestSentAt = new(unixTime(digestAt))
		}
		p.Settings = &st
	case !errors.Is(err, sql.ErrNoRows):
		return nil, err
	}
	err = each(`SELECT g.id, g.game, g.status, s.seat, s.name, s.accepted, g.created_at, g.updated_at, g.record, coalesce(c.chains, '')
		FROM pbem_seats s JOIN pbem_games g ON g.id = s.game_id
		LEFT JOIN pbem_conditions c ON c.game_id = s.game_id AND c.seat = s.seat
		WHERE s.address = ? ORDER BY g.id, s.seat`, func(r *sql.Rows) error {
		var g Game
		var created, updated int64
		if err := r.Scan(&g.ID, &g.Game, &g.Status, &g.Seat, &g.Name, &g.Accepted, &created, &updated, &g.Record, &g.Conditions); err != nil {
			return err
		}
		g.Created, g.Updated = unixTime(created), unixTime(updated)
		p.Games = append(p.Games, g)
		return nil
	}, addr)
	if err != nil {
		return nil, err
	}
	for i := range p.Games {
		g := &p.Games[i]
		err = each(`SELECT ply, at FROM pbem_move_times WHERE game_id = ? ORDER BY ply`, func(r *sql.Rows) error {
			var m MoveTime
			var at int64
			if err := r.Scan(&m.Ply, &at); err != nil {
				return err
			}
			m.At = unixTime(at)
			g.Moved = append(g.Moved, m)
			return nil
		}, g.ID)
		if err != nil {
			return nil, err
		}
	}
	err = each(`SELECT a.game_id, a.level, a.created_at, a.record FROM pbem_analyses a
		WHERE a.game_id IN (SELECT game_id FROM pbem_seats WHERE address = ?) ORDER BY a.game_id, a.level`, func(r *sql.Rows) error {
		var a Analysis
		var created int64
		if err := r.Scan(&a.Game, &a.Level, &created, &a.Record); err != nil {
			return err
		}
		a.Created = unixTime(created)
		p.Analyses = append(p.Analyses, a)
		return nil
	}, addr)
	if err != nil {
		return nil, err
	}
	if p.Observing, err = store.Column[int64](ctx, tx, `SELECT game_id FROM pbem_observers WHERE address = ? ORDER BY game_id`, addr); err != nil {
		return nil, err
	}
	err = each(`SELECT starts_at, ends_at FROM pbem_vacations WHERE address = ? ORDER BY starts_at`, func(r *sql.Rows) error {
		var a, b int64
		if err := r.Scan(&a, &b); err != nil {
			return err
		}
		p.Vacations = append(p.Vacations, Vacation{Starts: unixTime(a), Ends: unixTime(b)})
		return nil
	}, addr)
	if err != nil {
		return nil, err
	}
	err = each(`SELECT mail_key, processed_at, outcome FROM pbem_processed WHERE lower(sender) = ? ORDER BY processed_at, mail_key`, func(r *sql.Rows) error {
		var m MailFrom
		var at int64
		if err := r.Scan(&m.Key, &at, &m.Outcome); err != nil {
			return err
		}
		m.At = unixTime(at)
		p.MailsFrom = append(p.MailsFrom, m)
		return nil
	}, addr)
	if err != nil {
		return nil, err
	}
	err = each(`SELECT id, created_at, sent_at, failed_at, attempts, last_error, message FROM pbem_outbox WHERE lower(recipient) = ? ORDER BY id`, func(r *sql.Rows) error {
		var m MailTo
		var queued int64
		var sent, failed sql.NullInt64
		var msg []byte
		if err := r.Scan(&m.ID, &queued, &sent, &failed, &m.Attempts, &m.LastError, &msg); err != nil {
			return err
		}
		m.Queued, m.Sent, m.Failed, m.Message = unixTime(queued), unixPtr(sent), unixPtr(failed), string(msg)
		p.MailsTo = append(p.MailsTo, m)
		return nil
	}, addr)
	if err != nil {
		return nil, err
	}
	times, err := store.Column[int64](ctx, tx, `SELECT sent_at FROM pbem_error_replies WHERE lower(address) = ? ORDER BY sent_at`, addr)
	if err != nil {
		return nil, err
	}
	for _, t := range times {
		p.Errors = append(p.Errors, unixTime(t))
	}
	if err := exportSeeksAndEvents(ctx, tx, addr, p); err != nil {
		return nil, err
	}
	if a != nil {
		gs, err := a.AddressGames(ctx, tx, addr)
		if err != nil {
			return nil, fmt.Errorf("the archive: %w", err)
		}
		p.Archived = append(p.Archived, gs...)
	}
	if p.Settings == nil && p.Puzzles == nil && len(p.Games)+len(p.Observing)+len(p.Vacations)+len(p.MailsFrom)+len(p.MailsTo)+len(p.Errors)+len(p.Archived)+len(p.Seeks)+len(p.Tournaments) == 0 {
		return nil, fmt.Errorf("%w: nothing is kept about %s", mailgames.ErrRefused, addr)
	}
	return p, nil
}

// Forgotten says what Forget did.
type Forgotten struct {
	Address    string // the address forgotten, in its canonical form
	Pseudonym  string // the address that replaced the player's
	Games      int    // games by mail whose seat and record now carry it
	Archived   int    // archived games likewise
	Mails      int    // outbox mails to the player, emptied (and the unsent ones given up)
	WasBlocked bool   // the operator's block of the address is gone with it
}

// forgottenDomain is the domain of pseudonyms: .invalid, which no mail
// can reach (RFC 2606).
const forgottenDomain = "forgotten.invalid"

// Forget replaces an address, and the name the server gave it, by
// a pseudonym (player-<12 random hex digits>@forgotten.invalid, from
// which nothing leads back), in one transaction: in its seats and the
// records of its games by mail and their analyses (the Player tags, and
// the comments the server wrote with the name: "ada resigns: ...", "ada
// offers a draw: ..."), in the records of the finished games of the archive with their
// seats and players, and in the mails handled from it. Its settings
// (digest, the operator's block), vacations, error-reply times and
// subscriptions as an observer are deleted; the outbox's mails to it are
// emptied (those not yet sent are given up), and so are the sent mails to
// others that name its address. The games stay, with their moves,
// results and comments; so do the keys of the mails handled, which make
// handling exactly once (a Message-ID may name the sender's domain).
// A player with a game invited or in progress is refused (mailgames.ErrRefused):
// the operator cancels or adjudicates it first.
func Forget(ctx context.Context, db *sql.DB, pa Archive, address string, now time.Time) (*Forgotten, error) {
	addr, err := normalAddress(address)
	if err != nil {
		return nil, err
	}
	var b [6]byte
	rand.Read(b[:])
	name := "player-" + hex.EncodeToString(b[:])
	f := &Forgotten{Address: addr, Pseudonym: name + "@" + forgottenDomain}

	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	open, err := store.Column[int64](ctx, tx, `SELECT DISTINCT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id
		WHERE s.address = ? AND g.status IN (?, ?) ORDER BY g.id`, addr, mailgames.Invited, mailgames.Active)
	if err != nil {
		return nil, err
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("%w: %s has games invited or in progress (%s): cancel or adjudicate them first (icepost games cancel ID)", mailgames.ErrRefused, addr, joinIDs(open))
	}
	// A tournament still open or running would pair the pseudonym.
	events, err := store.Column[int64](ctx, tx, `SELECT id FROM pbem_events WHERE status IN ('open', 'running') AND instr(state, ?) > 0 ORDER BY id`, jsonString(addr))
	if err != nil {
		return nil, err
	}
	if len(events) > 0 {
		return nil, fmt.Errorf("%w: %s plays in tournaments still open or running (%s): they withdraw first (withdraw N by mail), or cancel the tournament (icepost tournament cancel ID)", mailgames.ErrRefused, addr, joinIDs(events))
	}
	if err := refuseUnknown(ctx, tx, addr, pa); err != nil {
		return nil, err
	}
	edit := func(rec *notation.Record) error { forgetInRecord(rec, addr, name, f.Pseudonym); return nil }

	games, err := store.Column[int64](ctx, tx, `SELECT DISTINCT game_id FROM pbem_seats WHERE address = ? ORDER BY game_id`, addr)
	if err != nil {
		return nil, err
	}
	for _, id := range games {
		var text string
		if err := tx.QueryRowContext(ctx, `SELECT record FROM pbem_games WHERE id = ?`, id).Scan(&text); err != nil {
			return nil, err
		}
		recs, errs := notation.Parse("", []byte(text))
		if len(errs) > 0 || len(recs) != 1 {
			return nil, fmt.Errorf("game %d: its record does not read: %w", id, errs.Err())
		}
		edit(recs[0])
		if _, err := tx.ExecContext(ctx, `UPDATE pbem_games SET record = ? WHERE id = ?`, recs[0].String(), id); err != nil {
			return nil, err
		}
		if err := forgetInAnalyses(ctx, tx, id, edit); err != nil {
			return nil, err
		}
	}
	f.Games = len(games)
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(blocked), 0) FROM pbem_players WHERE address = ?`, addr).Scan(&f.WasBlocked); err != nil {
		return nil, err
	}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`UPDATE pbem_seats SET address = ?, name = ? WHERE address = ?`, []any{f.Pseudonym, name, addr}},
		{`DELETE FROM pbem_observers WHERE address = ?`, []any{addr}},
		{`DELETE FROM pbem_players WHERE address = ?`, []any{addr}},
		{`DELETE FROM pbem_vacations WHERE address = ?`, []any{addr}},
		{`DELETE FROM pbem_error_replies WHERE lower(address) = ?`, []any{addr}},
		{`DELETE FROM pbem_seeks WHERE address = ?`, []any{addr}},
		{`DELETE FROM pbem_puzzle_players WHERE address = ?`, []any{addr}},
		{`DELETE FROM pbem_puzzle_tries WHERE address = ?`, []any{addr}},
		// The tournaments name their players by address, as JSON strings.
		{`UPDATE pbem_events SET state = replace(state, ?, ?) WHERE instr(state, ?) > 0`, []any{jsonString(addr), jsonString(f.Pseudonym), jsonString(addr)}},
		{`UPDATE pbem_processed SET sender = ? WHERE lower(sender) = ?`, []any{f.Pseudonym, addr}},
		// Sent mails to others that name the address.
		{`UPDATE pbem_outbox SET message = x'' WHERE sent_at IS NOT NULL AND lower(recipient) <> ?1 AND instr(lower(CAST(message AS TEXT)), ?1) > 0`, []any{addr}},
	} {
		if _, err := tx.ExecContext(ctx, q.sql, q.args...); err != nil {
			return nil, err
		}
	}
	res, err := tx.ExecContext(ctx, `UPDATE pbem_outbox SET recipient = ?1, message = x'',
		last_error = CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN 'not sent: the operator forgot this player' ELSE replace(last_error, ?2, ?1) END,
		failed_at = CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN ?3 ELSE failed_at END
		WHERE lower(recipient) = ?2`, f.Pseudonym, addr, now.Unix())
	if err != nil {
		return nil, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return nil, err
	}
	f.Mails = int(n)
	// The outcomes of mails handled quote their commands, which may name
	// the address (a challenge, an observer's).
	rows, err := tx.QueryContext(ctx, `SELECT mail_key, outcome FROM pbem_processed WHERE instr(lower(outcome), ?) > 0`, addr)
	if err != nil {
		return nil, err
	}
	outcomes := map[string]string{}
	for rows.Next() {
		var k, o string
		if err := rows.Scan(&k, &o); err != nil {
			rows.Close()
			return nil, err
		}
		outcomes[k] = replaceFold(o, addr, f.Pseudonym)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for k, o := range outcomes {
		if _, err := tx.ExecContext(ctx, `UPDATE pbem_processed SET outcome = ? WHERE mail_key = ?`, o, k); err != nil {
			return nil, err
		}
	}
	if pa != nil {
		if f.Archived, err = pa.RewriteAddressGames(ctx, tx, addr, edit); err != nil {
			return nil, fmt.Errorf("the archive: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return f, nil
}

// refuseUnknown refuses an address nothing is kept about.
func refuseUnknown(ctx context.Context, tx *sql.Tx, addr string, pa Archive) error {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM pbem_seats WHERE address = ?1) + (SELECT count(*) FROM pbem_players WHERE address = ?1)
		+ (SELECT count(*) FROM pbem_observers WHERE address = ?1) + (SELECT count(*) FROM pbem_vacations WHERE address = ?1)
		+ (SELECT count(*) FROM pbem_processed WHERE lower(sender) = ?1) + (SELECT count(*) FROM pbem_outbox WHERE lower(recipient) = ?1)
		+ (SELECT count(*) FROM pbem_error_replies WHERE lower(address) = ?1)`, addr).Scan(&n)
	if err != nil {
		return err
	}
	if n == 0 && pa != nil {
		gs, err := pa.AddressGames(ctx, tx, addr)
		if err != nil {
			return fmt.Errorf("the archive: %w", err)
		}
		n = len(gs)
	}
	if n == 0 {
		return fmt.Errorf("%w: nothing is kept about %s", mailgames.ErrRefused, addr)
	}
	return nil
}

// forgetInAnalyses applies edit to the stored analyses of game id
// (analyze.go), which are the game's record with more in it.
func forgetInAnalyses(ctx context.Context, tx *sql.Tx, id int64, edit func(*notation.Record) error) error {
	rows, err := tx.QueryContext(ctx, `SELECT level, record FROM pbem_analyses WHERE game_id = ?`, id)
	if err != nil {
		return err
	}
	type stored struct {
		level int
		text  string
	}
	var all []stored
	for rows.Next() {
		var s stored
		if err := rows.Scan(&s.level, &s.text); err != nil {
			rows.Close()
			return err
		}
		all = append(all, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, s := range all {
		recs, errs := notation.Parse("", []byte(s.text))
		if len(errs) > 0 || len(recs) != 1 {
			return fmt.Errorf("game %d: its analysis at level %d does not read: %w", id, s.level, errs.Err())
		}
		if err := edit(recs[0]); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE pbem_analyses SET record = ? WHERE game_id = ? AND level = ?`, recs[0].String(), id, s.level); err != nil {
			return err
		}
	}
	return nil
}

// forgetInRecord replaces, in a record, the seats at addr by the
// pseudonym: their Player tags, and the comments the server wrote with
// their name in front (a resignation, a draw offer or agreement).
func forgetInRecord(rec *notation.Record, addr, name, pseudonym string) {
	var old []string
	for i, t := range rec.Tags {
		if !strings.HasPrefix(t.Name, "Player") {
			continue
		}
		n, a := notation.SplitPlayer(t.Value)
		if mailaddr.Equal(a, addr) {
			old = append(old, n)
			rec.Tags[i].Value = name + " <" + pseudonym + ">"
		}
	}
	rename := func(cs []string) {
		for i, c := range cs {
			for _, o := range old {
				for _, verb := range []string{" resigns", " offers a draw", " agrees to a draw"} {
					if o != "" && strings.HasPrefix(c, o+verb) {
						cs[i] = name + c[len(o):]
						break
					}
				}
			}
		}
	}
	rename(rec.Main.Comments)
	for _, m := range rec.Main.Moves {
		rename(m.Before)
		rename(m.After)
	}
}

// replaceFold replaces every occurrence of old (lower case, ASCII) in s,
// in any case, by repl.
func replaceFold(s, old, repl string) string {
	var b strings.Builder
	low := strings.ToLower(s)
	for {
		i := strings.Index(low, old)
		if i < 0 || len(low) != len(s) {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s, low = s[i+len(old):], low[i+len(old):]
	}
}

func joinIDs(ids []int64) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprint(id)
	}
	return strings.Join(out, ", ")
}

// Block stops (or, with false, restores) answering an address: its mail
// is recorded and ignored, so it can neither challenge nor move. It
// returns the address in the form the daemon compares (package
// mailaddr).
func Block(ctx context.Context, db *sql.DB, address string, blocked bool) (string, error) {
	address, err := normalAddress(address)
	if err != nil {
		return "", err
	}
	_, err = db.ExecContext(ctx, `INSERT INTO pbem_players (address, blocked) VALUES (?, ?)
		ON CONFLICT(address) DO UPDATE SET blocked = excluded.blocked`, address, blocked)
	return address, err
}

// exportSeeksAndEvents adds to p the address's seeks, tournaments and
// daily puzzle.
func exportSeeksAndEvents(ctx context.Context, tx *sql.Tx, addr string, p *Data) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, game, terms, created_at, expires_at, coalesce(game_id, 0) FROM pbem_seeks WHERE address = ? ORDER BY id`, addr)
	if err != nil {
		return err
	}
	for rows.Next() {
		var sk Seek
		var created, expires int64
		if err := rows.Scan(&sk.ID, &sk.Game, &sk.Terms, &created, &expires, &sk.MetBy); err != nil {
			rows.Close()
			return err
		}
		sk.Created, sk.Expires = unixTime(created), unixTime(expires)
		p.Seeks = append(p.Seeks, sk)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, name, status, state FROM pbem_events WHERE instr(state, ?) > 0 ORDER BY id`, jsonString(addr))
	if err != nil {
		return err
	}
	for rows.Next() {
		var ev Tournament
		if err := rows.Scan(&ev.ID, &ev.Name, &ev.Status, &ev.State); err != nil {
			rows.Close()
			return err
		}
		p.Tournaments = append(p.Tournaments, ev)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var on bool
	switch err := tx.QueryRowContext(ctx, `SELECT active FROM pbem_puzzle_players WHERE address = ?`, addr).Scan(&on); {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return err
	}
	p.Puzzles = &Puzzles{On: on, Tries: []PuzzleTry{}}
	rows, err = tx.QueryContext(ctx, `SELECT puzzle_id, moves, status FROM pbem_puzzle_tries WHERE address = ? ORDER BY puzzle_id`, addr)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var t PuzzleTry
		if err := rows.Scan(&t.Puzzle, &t.Moves, &t.Status); err != nil {
			return err
		}
		p.Puzzles.Tries = append(p.Puzzles.Tries, t)
	}
	return rows.Err()
}

// jsonString is s as a JSON string, quotes included: how a tournament's
// stored state writes a player's address.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
