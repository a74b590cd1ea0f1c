// icepost serve -web: the web site and its play pages in the daemon's
// own process, so that a club runs one program.

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"icepost/pbem"
	"icepost/pbem/mailgames"
	"icepost/sqlitedb"
	"icepost/web"
)

// serveWeb starts the web site on addr beside the daemon whose server is
// srv: the archive and the games by mail of its database, each read on a
// connection of its own (the games read-only, as icepost web reads
// them), and the play pages acting through srv itself. When srv has no
// WebURL, the board mails it sends link to this site. It returns the
// address it listens on and the func that stops it.
func serveWeb(e *env, log *slog.Logger, addr, dbPath string, srv *pbem.Handler) (string, func(), error) {
	a, err := openArchive(e, dbPath)
	if err != nil {
		return "", nil, err
	}
	mdb, err := sqlitedb.OpenReadOnly(e.ctx, dbPath)
	if err != nil {
		a.Close()
		return "", nil, err
	}
	closeDBs := func() { mdb.Close(); a.Close() }
	site, err := web.New(a, &mailgames.Reader{DB: mdb}, log)
	if err != nil {
		closeDBs()
		return "", nil, err
	}
	site.Play = srv
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		closeDBs()
		return "", nil, fmt.Errorf("-web: cannot listen on %s: %w (another program may hold the port)", addr, err)
	}
	got := ln.Addr().String()
	if srv.WebURL == "" {
		srv.WebURL = "http://" + got
	}
	hs := site.Server(got)
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("web site stopped", "err", err)
		}
	}()
	return got, func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(e.ctx), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		closeDBs()
	}, nil
}
