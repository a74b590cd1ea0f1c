package archive

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
)

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
	key, err := storedTextKey(ctx, tx, id)
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_text WHERE docid = ?`, key); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM games WHERE id = ?`, id); err != nil {
		return err
	}
	return tx.Commit()
}

// deletePositions removes a game's entries from the position index: by
// its positions when the record still replays, else by reading every
// block.
func deletePositions(ctx context.Context, tx *sql.Tx, id int64, record []byte) error {
	g, err := replayText("", record)
	if err != nil {
		return removeGame(ctx, tx, id, nil)
	}
	hashes := make([]uint64, len(g.States))
	for i, s := range g.States {
		hashes[i] = uint64(PositionHash(s))
	}
	slices.Sort(hashes)
	return removeGame(ctx, tx, id, slices.Compact(hashes))
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
