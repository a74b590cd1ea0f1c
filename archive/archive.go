// Package archive keeps every finished game in one SQLite file so that
// people can find games again: by player, result, date, event, tag, length,
// words in comments, a position reached or the moves a game began with,
// and so that statistics (first-player advantage, results per player, an
// opening explorer) come from one place.
//
// Games enter through Import (record files, streamed, each record replayed
// and validated; what does not validate goes to a quarantine table with
// the reason) or through AddGame, which the mail daemon calls inside its
// own transaction when a game ends. The schema is created and upgraded by
// numbered migrations embedded in the binary; Migrate runs them on any
// *sql.DB, so that the daemon's tables and the archive's can share a file.
//
// Tables: games (records in record.go's formats), players,
// player_aliases, seats, tags, the position index (pos_runs, pos_blocks,
// move_tokens: posindex.go), game_text (FTS4) and game_languages (text.go),
// quarantine, archive_state, puzzles and puzzle_searches (puzzles.go),
// and archive_migrations for the schema version.
package archive

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"

	"icepost/notation"
	"icepost/sqlitedb"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// schema is the archive's migrations, recorded in archive_migrations.
var schema = sqlitedb.Migrations{Name: "archive", Table: "archive_migrations", Files: migrationFiles, Dir: "migrations"}

// Archive is an open archive database.
type Archive struct {
	db   *sql.DB
	toks tokenCache
}

// DSN returns the connection string with the settings the archive relies
// on (sqlitedb.DSN: WAL, foreign keys, a busy timeout, immediate write
// transactions), for callers that open the file themselves.
func DSN(path string) string { return sqlitedb.DSN(path) }

// Open opens (creating if needed) the archive at path and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Archive, error) {
	return OpenWith(ctx, path, MigrateOptions{})
}

// MigrateOptions tune Migrate. The zero value is fine.
type MigrateOptions struct {
	// Reindexing, when set, is told how many games are indexed again of
	// how many, after each stage, when a migration re-indexes the archive
	// (minutes at a million games).
	Reindexing func(done, total int)
}

// OpenWith is Open with options for the migrations.
func OpenWith(ctx context.Context, path string, opt MigrateOptions) (*Archive, error) {
	db, err := sqlitedb.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := MigrateWith(ctx, db, opt); err != nil {
		db.Close()
		if errors.Is(err, ErrNewerSchema) {
			return nil, err // it names the file and says what to do
		}
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	return &Archive{db: db}, nil
}

// DB returns the underlying database, for callers that want their own
// transactions (AddGame takes one).
func (a *Archive) DB() *sql.DB { return a.db }

// Close closes the database.
func (a *Archive) Close() error { return a.db.Close() }

// schemaVersion is the newest migration this build knows.
func schemaVersion() int { return schema.Latest() }

// ErrNewerSchema: the database was written by a newer icepost. The error
// that wraps it names the file, the versions, and says to use a newer
// icepost.
var ErrNewerSchema = sqlitedb.ErrNewerSchema

// Migrate creates the archive's tables in db, or upgrades them, running
// each pending migration in its own transaction (sqlitedb.Migrations). The
// version is kept in the table archive_migrations (not PRAGMA
// user_version, which the file may share with the mail daemon's own
// schema). A schema newer than this build knows is refused
// (ErrNewerSchema). db should be opened with DSN's settings. Migrate is
// safe to run from several processes at once.
//
// Migration 3 moved the position index to a new form; the games stored
// before it are indexed again from their records, in stages of
// reindexStage games, each committed (reindex).
func Migrate(ctx context.Context, db *sql.DB) error {
	return MigrateWith(ctx, db, MigrateOptions{})
}

// MigrateWith is Migrate with options.
func MigrateWith(ctx context.Context, db *sql.DB, opt MigrateOptions) error {
	if err := schema.Apply(ctx, db); err != nil {
		return err
	}
	return reindex(ctx, db, opt.Reindexing)
}

const reindexStage = 20000

// reindexBounds reads the games left to index again: those with ids
// after the first and up to the second (both NULL when none are left).
const reindexBounds = `SELECT (SELECT value FROM archive_state WHERE key = 'reindex_after'), (SELECT value FROM archive_state WHERE key = 'reindex_upto')`

// reindex puts the games stored before migration 3 into the position
// index, a stage at a time: each stage reads the cursor, indexes the next
// games up to the bound and moves the cursor in one transaction, so that
// a crash or a second process doing the same loses nothing and doubles
// nothing. progress, when not nil, is told the games done of those left
// when it started, after each stage.
func reindex(ctx context.Context, db *sql.DB, progress func(done, total int)) error {
	total, indexed := 0, 0
	if progress != nil {
		var a, u sql.NullInt64
		err := db.QueryRowContext(ctx, reindexBounds).Scan(&a, &u)
		if err == nil && a.Valid && u.Valid {
			err = db.QueryRowContext(ctx, `SELECT count(*) FROM games WHERE id > ? AND id <= ?`, a.Int64, u.Int64).Scan(&total)
		}
		if err != nil {
			return fmt.Errorf("indexing positions again: %w", err)
		}
	}
	for {
		done, staged := false, 0
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		err = func() error {
			var a, u sql.NullInt64
			err := tx.QueryRowContext(ctx, reindexBounds).Scan(&a, &u)
			if err != nil {
				return err
			}
			if !a.Valid || !u.Valid {
				done = true
				return nil
			}
			after, upto := a.Int64, u.Int64
			if after >= upto {
				done = true
				_, err := tx.ExecContext(ctx, `DELETE FROM archive_state WHERE key IN ('reindex_after', 'reindex_upto')`)
				return err
			}
			rows, err := tx.QueryContext(ctx, `SELECT id, record, winner FROM games WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`, after, upto, reindexStage)
			if err != nil {
				return err
			}
			type stored struct {
				id     int64
				packed []byte
				winner sql.NullInt64
			}
			var gs []stored
			for rows.Next() {
				var g stored
				if err := rows.Scan(&g.id, &g.packed, &g.winner); err != nil {
					rows.Close()
					return err
				}
				gs = append(gs, g)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			ins, err := newInserter(ctx, tx, newTokenNumbers())
			if err != nil {
				return err
			}
			defer ins.close()
			staged = len(gs)
			last := upto
			if len(gs) == reindexStage {
				last = gs[len(gs)-1].id
			}
			tokens := tokensFrom(ctx, tx, &tokenCache{}) // one cache a stage, not a game
			for _, g := range gs {
				text, err := unpackRecord(g.packed, tokens)
				if err != nil {
					continue // verify reports it
				}
				recs, errs := notation.Parse("", text)
				if len(errs) > 0 || len(recs) != 1 {
					continue // verify reports it
				}
				// The row as an import makes it (prepareRecord replays
				// without keeping positions); only its positions are used.
				r, err := prepareRecord(recs[0], Provenance{})
				if err != nil {
					continue // a record the rules now refuse: verify reports it
				}
				r.winner = -1
				if g.winner.Valid {
					r.winner = int(g.winner.Int64)
				}
				ids, err := ins.moveIDs(ctx, r)
				if err != nil {
					return err
				}
				ins.addPositions(g.id, r, ids)
			}
			if err := ins.flush(ctx, maxLevel); err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `UPDATE archive_state SET value = ? WHERE key = 'reindex_after'`, last)
			return err
		}()
		if err != nil {
			tx.Rollback()
			return fmt.Errorf("indexing positions again: %w", err)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
		if indexed += staged; progress != nil && staged > 0 {
			progress(indexed, total)
		}
		if done {
			return nil
		}
	}
}
