package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"icepost/notation"
)

// The games of a player by mail, by their address: what the archive keeps
// about them (the mail daemon's players export), and their records
// rewritten under another name (players forget).

// AddressGame is a stored game one of whose seats has a given address.
type AddressGame struct {
	ID       int64
	MailGame string // the mail daemon's id for it, when it came from there
	Record   []byte // canonical
}

// AddressGames returns, read through tx, the games with a seat at the
// mail address addr (its ASCII letters in any case: SQLite's lower() and
// lowerASCII fold those alone, so that no other letter, a KELVIN SIGN
// say, is taken for k), oldest first, with their records.
func AddressGames(ctx context.Context, tx *sql.Tx, addr string) ([]AddressGame, error) {
	rows, err := tx.QueryContext(ctx, `SELECT g.id, coalesce(g.mail_game, ''), g.record FROM games g
		WHERE g.id IN (SELECT game_id FROM seats WHERE lower(address) = ?) ORDER BY g.id`, lowerASCII(addr))
	if err != nil {
		return nil, err
	}
	type stored struct {
		AddressGame
		packed []byte
	}
	var found []stored
	for rows.Next() {
		var s stored
		if err := rows.Scan(&s.ID, &s.MailGame, &s.packed); err != nil {
			rows.Close()
			return nil, err
		}
		found = append(found, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	toks := tokensFrom(ctx, tx, &tokenCache{})
	out := make([]AddressGame, len(found))
	for i, s := range found {
		if s.Record, err = unpackRecord(s.packed, toks); err != nil {
			return nil, fmt.Errorf("game %d: %w", s.ID, err)
		}
		out[i] = s.AddressGame
	}
	return out, nil
}

// RewriteAddressGames rewrites, inside tx, the record of every game with a
// seat at the address addr (in any case): edit changes the record's tags
// and comments, and may not change its moves or its result. What the
// archive keeps from the record is then set from the new one, as an
// import would have set it: the seats' names and addresses, the players
// they belong to (a player left with no seat is deleted, with its
// aliases), and the full-text index. The games' positions, keys and
// results stay. It returns how many games it rewrote.
func RewriteAddressGames(ctx context.Context, tx *sql.Tx, addr string, edit func(*notation.Record) error) (int, error) {
	games, err := AddressGames(ctx, tx, addr)
	if err != nil {
		return 0, err
	}
	var formerPlayers []int64
	for _, g := range games {
		old, err := rewriteGame(ctx, tx, g, edit)
		if err != nil {
			return 0, fmt.Errorf("game %d: %w", g.ID, err)
		}
		formerPlayers = append(formerPlayers, old...)
	}
	slices.Sort(formerPlayers)
	for _, id := range slices.Compact(formerPlayers) {
		if _, err := tx.ExecContext(ctx, `DELETE FROM players WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM seats WHERE player_id = ?1)`, id); err != nil {
			return 0, err
		}
	}
	return len(games), nil
}

// rewriteGame rewrites one game's record with edit and what derives from
// it, and returns the players its seats no longer belong to.
func rewriteGame(ctx context.Context, tx *sql.Tx, g AddressGame, edit func(*notation.Record) error) ([]int64, error) {
	recs, errs := notation.Parse("", g.Record)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("%d records where one was expected", len(recs))
	}
	rec := recs[0]
	moves, result := joinTokens(rec.Main.Moves), rec.Result
	if err := edit(rec); err != nil {
		return nil, err
	}
	if joinTokens(rec.Main.Moves) != moves || rec.Result != result {
		return nil, errors.New("rewriting a record changed its moves or its result")
	}
	var packed []byte
	if err := tx.QueryRowContext(ctx, `SELECT record FROM games WHERE id = ?`, g.ID).Scan(&packed); err != nil {
		return nil, err
	}
	if len(packed) > 0 && packed[0] == recordMoves && plainRecord(rec) {
		// The same moves, numbered as before: only the tags change.
		_, _, rest, err := format2Head(packed[1:])
		if err != nil {
			return nil, err
		}
		packed = append(packTags(rec.Tags, rec.Result), rest...)
	} else {
		text := notation.AppendFormat(nil, rec)
		if len(text) > MaxRecordBytes {
			return nil, fmt.Errorf("%w: %d bytes, the archive takes up to %d", ErrTooLarge, len(text), MaxRecordBytes)
		}
		packed = packRecord(text)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE games SET record = ? WHERE id = ?`, packed, g.ID); err != nil {
		return nil, err
	}

	rows, err := tx.QueryContext(ctx, `SELECT seat, coalesce(player_id, 0), name, coalesce(address, '') FROM seats WHERE game_id = ? ORDER BY seat`, g.ID)
	if err != nil {
		return nil, err
	}
	type seatNow struct {
		seat          int
		player        int64
		name, address string
	}
	var seats []seatNow
	for rows.Next() {
		var s seatNow
		if err := rows.Scan(&s.seat, &s.player, &s.name, &s.address); err != nil {
			rows.Close()
			return nil, err
		}
		seats = append(seats, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	names := rec.Players()
	var former []int64
	var playerText []string
	for _, s := range seats {
		var name, address string
		if s.seat-1 < len(names) {
			name, address = notation.SplitPlayer(names[s.seat-1])
		}
		if name != "" && name != "?" {
			playerText = append(playerText, name)
		}
		if name == s.name && address == s.address {
			continue
		}
		pid, err := findOrAddPlayer(ctx, tx, name)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE seats SET name = ?, address = ?, player_id = ? WHERE game_id = ? AND seat = ?`,
			name, nullString(address, address != ""), pid, g.ID, s.seat); err != nil {
			return nil, err
		}
		if s.player != 0 && (!pid.Valid || pid.Int64 != s.player) {
			former = append(former, s.player)
		}
	}
	key, err := storedTextKey(ctx, tx, g.ID)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE game_text SET players = ?, comments = ? WHERE docid = ?`,
		strings.Join(playerText, " "), strings.Join(comments(rec), " "), key); err != nil {
		return nil, err
	}
	return former, nil
}

// findOrAddPlayer is the player a seat with this name belongs to, as an
// import finds it (by alias first), made when there is none; none for an
// unknown name.
func findOrAddPlayer(ctx context.Context, tx *sql.Tx, name string) (sql.NullInt64, error) {
	key := normalizeName(name)
	if key == "" || key == "?" {
		return sql.NullInt64{}, nil
	}
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT player_id FROM player_aliases WHERE alias = ?1 UNION ALL SELECT id FROM players WHERE key = ?1 LIMIT 1`, key).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		res, err := tx.ExecContext(ctx, `INSERT INTO players(key, name) VALUES (?, ?)`, key, strings.TrimSpace(name))
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
	return sql.NullInt64{Int64: id, Valid: true}, nil
}

// lowerASCII folds the ASCII letters of s to lower case and no other, as
// SQLite's lower() does and as the mail daemon keys its addresses
// (pbem/mailaddr).
func lowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}
