// icepost backup: a copy of the daemon's database, consistent while the
// daemon runs, checked before it is kept.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"icepost/pbem/config"
	"icepost/sqlitedb"
)

func cmdBackup(e *env, args []string) int {
	fs := newFlags(e, "backup")
	configPath := fs.String("config", "", "the daemon's configuration file: copy the database it names")
	var dbs []string
	fs.Func("db", "a database file to copy (default icepost.db); give it again for another file, such as an archive of its own", func(v string) error {
		dbs = append(dbs, v)
		return nil
	})
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost backup: name one folder to copy into")
		fs.Usage()
		return exitUsage
	}
	dir := fs.Arg(0)
	if *configPath != "" {
		cfg, err := config.Load(*configPath)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost backup: %v\n", err)
			return exitUsage
		}
		dbs = append([]string{cfg.Database}, dbs...)
	}
	if len(dbs) == 0 {
		dbs = []string{"icepost.db"}
	}
	// Each copy keeps its file's name in dir.
	names := map[string]string{}
	for _, db := range dbs {
		base := filepath.Base(db)
		if other, ok := names[base]; ok {
			fmt.Fprintf(e.stderr, "icepost backup: %s and %s would both be copied to %s\n", other, db, filepath.Join(dir, base))
			return exitUsage
		}
		names[base] = db
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		fmt.Fprintf(e.stderr, "icepost backup: %v\n", err)
		return exitInvalid
	}
	code := exitOK
	for _, db := range dbs {
		dst := filepath.Join(dir, filepath.Base(db))
		start := time.Now()
		if err := sqlitedb.Backup(e.ctx, db, dst); err != nil {
			fmt.Fprintf(e.stderr, "icepost backup: %s: %v\n", db, err)
			code = exitInvalid
			continue
		}
		size := int64(0)
		if fi, err := os.Stat(dst); err == nil {
			size = fi.Size()
		}
		fmt.Fprintf(e.stdout, "%s -> %s: %d bytes, integrity ok (%v)\n", db, dst, size, time.Since(start).Round(time.Millisecond))
	}
	return code
}
