package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Migrations is one user's schema: numbered .sql files, applied in order
// of their numbers, and the table of the database that records which ran.
// Several users can share a database, each with its own table, which is
// why the version is not kept in PRAGMA user_version.
type Migrations struct {
	// Name says whose schema this is in messages: "archive", "pbem".
	Name string
	// Table records the migrations applied: one row (version, name,
	// applied) each. It is created when missing; a table of an older
	// icepost without the applied column works as well.
	Table string
	// Files holds the migrations in Dir, named NNN_what.sql where NNN is
	// the version, 1 or more (leading zeros are fine). A migration may
	// hold several statements. Once released, a migration never changes:
	// a change is a new migration.
	Files fs.FS
	Dir   string
}

// ErrNewerSchema: the database holds a schema from a newer icepost, which
// this one does not know and will not touch. The error that wraps it says
// which database, which versions, and what to do.
var ErrNewerSchema = errors.New("the database's schema is newer than this icepost")

// NewerSchemaError is the error of Apply on a schema newer than it knows.
type NewerSchemaError struct {
	Path  string // the database file; "" when it has none (in memory)
	Name  string // whose schema (Migrations.Name)
	Have  int    // the database's version
	Known int    // the newest this program knows
}

func (e *NewerSchemaError) Error() string {
	where := "this database"
	if e.Path != "" {
		where = "the database at " + e.Path
	}
	return fmt.Sprintf("%s has %s schema version %d, but this icepost knows only up to %d: use a newer icepost with it", where, e.Name, e.Have, e.Known)
}

func (e *NewerSchemaError) Unwrap() error { return ErrNewerSchema }

// migration is one numbered file.
type migration struct {
	version int
	name    string // the file's base name, as recorded in the table
	sql     string
}

func (m Migrations) list() ([]migration, error) {
	files, err := fs.Glob(m.Files, path.Join(m.Dir, "*.sql"))
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, f := range files {
		base := path.Base(f)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("%s migration %s: name it NNN_what.sql, NNN its number from 1", m.Name, base)
		}
		b, err := fs.ReadFile(m.Files, f)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("%s migrations: two are numbered %d (%s and %s)", m.Name, ms[i].version, ms[i-1].name, ms[i].name)
		}
	}
	return ms, nil
}

// Latest is the newest version the files hold, 0 when there are none or
// they are misnamed (Apply says how).
func (m Migrations) Latest() int {
	ms, err := m.list()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// validTable: the table name goes into SQL text, so it must be a plain
// identifier.
func validTable(t string) bool {
	if t == "" {
		return false
	}
	for i, c := range t {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Apply creates or upgrades the schema in db: every migration the table
// does not record runs, in order of version, each in its own transaction
// with its row in the table, so that a failed migration leaves the
// database as the one before left it. A database whose table records a
// version newer than any file is refused with a *NewerSchemaError (see
// ErrNewerSchema) before anything is written.
//
// db should be opened with DSN's settings: with them, Apply is safe to run
// from several processes at once (a migration that another process ran
// while this one waited for the write lock is not run again).
func (m Migrations) Apply(ctx context.Context, db *sql.DB) error {
	if !validTable(m.Table) {
		return fmt.Errorf("%s migrations: table name %q is not a plain SQL name", m.Name, m.Table)
	}
	ms, err := m.list()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS `+m.Table+` (
		version INTEGER PRIMARY KEY,
		name    TEXT NOT NULL,
		applied INTEGER NOT NULL DEFAULT (unixepoch())
	)`); err != nil {
		return fmt.Errorf("%s migrations table: %w", m.Name, err)
	}
	done := map[int]bool{}
	have := 0
	rows, err := db.QueryContext(ctx, `SELECT version FROM `+m.Table)
	if err != nil {
		return fmt.Errorf("%s migrations table: %w", m.Name, err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		done[v] = true
		have = max(have, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	known := 0
	if len(ms) > 0 {
		known = ms[len(ms)-1].version
	}
	if have > known {
		return &NewerSchemaError{Path: dbPath(ctx, db), Name: m.Name, Have: have, Known: known}
	}
	for _, mg := range ms {
		if done[mg.version] {
			continue
		}
		if err := m.applyOne(ctx, db, mg); err != nil {
			return err
		}
	}
	return nil
}

func (m Migrations) applyOne(ctx context.Context, db *sql.DB, mg migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have run it while we waited for the lock.
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+m.Table+` WHERE version = ?`, mg.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, mg.sql); err != nil {
		return fmt.Errorf("%s migration %s: %w", m.Name, mg.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO `+m.Table+`(version, name) VALUES (?, ?)`, mg.version, mg.name); err != nil {
		return err
	}
	return tx.Commit()
}

// dbPath is the file of db's main database, "" when unknown.
func dbPath(ctx context.Context, db *sql.DB) string {
	var file string
	if err := db.QueryRowContext(ctx, `SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&file); err != nil {
		return ""
	}
	return file
}
