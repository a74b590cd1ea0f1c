// Package web is icepost's web site: a read-only view of the archive
// (search, each game move by move, the positions and the opening
// explorer, players and their ratings) and of the mail daemon's games in
// progress, which update in the page when a move lands.
//
// It is built like miniflux's pages: one handler per page, html/template
// pages and the style sheet embedded in the binary, the query parameters
// read and checked in one place (params.go), and a small script that only
// adds to pages that work without it (the ← → keys on a game, the live
// page's updates, picking a move on a play page's board). The archive's
// pages only read: the mail daemon's database is opened read-only, and
// SQL is built only by the archive, with bound parameters. The one way
// in to change a game is the play pages (play.go), which exist only
// when the site is given a Player (icepost web -config) and hand each
// command to the mail daemon's own code; the one other write is the
// count of tries in a puzzle's own row (puzzles.go).
package web

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/archive"
	"icepost/pbem/mailgames"
	"icepost/rules/games"
)

//go:embed templates/*.html
var templateFiles embed.FS

//go:embed static
var staticFiles embed.FS

// MailGames is what the site reads of a mail daemon's games; a
// *mailgames.Reader on a read-only connection is one.
type MailGames interface {
	// Active lists the games in progress, newest first.
	Active(ctx context.Context) ([]mailgames.Game, error)
	// Game is one game; mailgames.ErrNoGame when there is none.
	Game(ctx context.Context, id int64) (mailgames.Game, error)
	// Revision changes whenever a game does.
	Revision(ctx context.Context) (string, error)
	// Finished lists the games that ended since a time, the last first.
	Finished(ctx context.Context, since time.Time) ([]mailgames.Game, error)
	// Address is the server's own address; "" when unknown.
	Address(ctx context.Context) (string, error)
	// Seeks lists the open seeks (not met, not run out), by game then
	// oldest first; each names its seeker, never an address.
	Seeks(ctx context.Context) ([]mailgames.Seek, error)
	// Tournaments lists the tournaments by mail, the newest first.
	Tournaments(ctx context.Context) ([]mailgames.TournamentSummary, error)
	// Tournament is one tournament, its players named by stand-ins and
	// names, never addresses; mailgames.ErrNoTournament when there is
	// none.
	Tournament(ctx context.Context, id int64) (mailgames.Tournament, error)
}

// Site is the web site over one archive and, optionally, one mail
// daemon's games.
type Site struct {
	archive *archive.Archive
	mail    MailGames // nil: no games by mail
	log     *slog.Logger
	pages   map[string]*template.Template

	// LivePoll is how often the live page's stream looks for a change in
	// the games by mail (default 2s).
	LivePoll time.Duration
	// RequestTimeout bounds the work of one page (default 20s).
	RequestTimeout time.Duration

	// Play, when set, takes moves on the play pages (play.go); nil: the
	// site only reads.
	Play Player

	ratings ratingsCache
	live    liveHub
	puzzles puzzleGate // puzzles.go
}

// New makes the site. mail may be nil (an interface holding no value,
// not a nil *mailgames.Reader): the page of games by mail then says that
// there are none to show.
func New(a *archive.Archive, mail MailGames, log *slog.Logger) (*Site, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Site{archive: a, mail: mail, log: log, LivePoll: 2 * time.Second, RequestTimeout: 20 * time.Second}
	s.live.site = s
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s.pages = pages
	return s, nil
}

// Handler routes every page.
func (s *Site) Handler() http.Handler {
	mux := http.NewServeMux()
	page := func(pattern string, h func(w http.ResponseWriter, r *http.Request) error) {
		mux.Handle(pattern, s.wrap(h))
	}
	page("GET /{$}", s.home)
	page("GET /search", s.search)
	page("GET /search/records", s.searchRecords)
	page("GET /game/{id}", s.game)
	page("GET /game/{id}/record", s.gameRecord)
	page("GET /game/{id}/feed", s.gameFeed)
	page("GET /position", s.position)
	page("GET /players", s.players)
	page("GET /player/{name}", s.player)
	page("GET /player/{name}/feed", s.playerFeed)
	page("GET /ratings", s.ratingsPage)
	page("GET /live", s.livePage)
	page("GET /live/{id}", s.liveGame)
	page("GET /live/feed", s.liveFeed)
	page("GET /live/{id}/feed", s.liveGameFeed)
	mux.HandleFunc("GET /live/events", s.liveEvents)
	page("GET /seeks", s.seeksPage)
	page("GET /tournaments", s.tournamentsPage)
	page("GET /tournament/{id}", s.tournamentPage)
	page("GET /tournament/{id}/feed", s.tournamentFeed)
	page("GET /puzzles", s.puzzlesPage)
	page("GET /puzzle/{id}", s.puzzlePage)
	page("POST /puzzle/{id}", s.puzzlePage)
	page("GET /puzzle/{id}/record", s.puzzleRecord)
	mux.Handle("GET /puzzle/{id}/at/{mine}/moves.json", s.wrapJSON(s.puzzleMoves))
	mux.Handle("GET /puzzle/{id}/at/{mine}/after.json", s.wrapJSON(s.puzzleAfter))
	page("GET /play/{cap}", s.playPage)
	page("POST /play/{cap}", s.playPage)
	mux.Handle("GET /play/{cap}/moves.json", s.wrapJSON(s.playMoves))
	mux.Handle("GET /play/{cap}/after.json", s.wrapJSON(s.playAfter))
	static, _ := fs.Sub(staticFiles, "static")
	files := http.FileServerFS(static)
	mux.Handle("GET /static/", http.StripPrefix("/static/", cacheFor(24*time.Hour, files)))
	// Browsers ask for /favicon.ico on their own: the page's icon, which
	// every page names (<link rel="icon">), is the answer.
	mux.Handle("GET /favicon.ico", cacheFor(24*time.Hour, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/favicon.svg"
		files.ServeHTTP(w, r2)
	})))
	mux.Handle("/", s.wrap(func(w http.ResponseWriter, r *http.Request) error {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return &methodNotAllowed{}
		}
		return &notFound{"there is no page at " + r.URL.Path}
	}))
	return securityHeaders(gzipHandler(mux))
}

// Server is an http.Server for the site with timeouts: a slow or idle
// client cannot hold a connection for long. The stream of the live page
// extends its own write deadline.
func (s *Site) Server(addr string) *http.Server {
	srv := &http.Server{
		Addr:              addr,
		Handler:           s.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(s.live.stop)
	return srv
}

type methodNotAllowed struct{}

func (*methodNotAllowed) Error() string {
	return "this page only reads: GET and HEAD are the methods it answers"
}

// wrap turns a page's error into its answer: 400 with what is wrong, 404,
// or 500 with the cause in the log only.
func (s *Site) wrap(h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return s.wrapWith(h, func(w http.ResponseWriter, r *http.Request, code int, msg string) {
		s.render(w, r, code, "error", "Error", errorPage{Code: code, Status: http.StatusText(code), Message: msg})
	})
}

// wrapJSON is wrap for an answer in JSON: an error is {"error": "..."}
// with the same code.
func (s *Site) wrapJSON(h func(w http.ResponseWriter, r *http.Request) error) http.Handler {
	return s.wrapWith(h, func(w http.ResponseWriter, r *http.Request, code int, msg string) {
		b, _ := json.Marshal(map[string]string{"error": msg})
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		w.Write(b)
	})
}

func (s *Site) wrapWith(h func(w http.ResponseWriter, r *http.Request) error, answer func(w http.ResponseWriter, r *http.Request, code int, msg string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.RequestTimeout)
		defer cancel()
		r = r.WithContext(ctx)
		err := h(w, r)
		if err == nil {
			return
		}
		var br *badRequest
		var nf *notFound
		var mna *methodNotAllowed
		var fb *forbidden
		code, msg := http.StatusInternalServerError, "Something went wrong on the server's side; the operator's log says what."
		switch {
		case errors.As(err, &br):
			code, msg = http.StatusBadRequest, br.msg
		case errors.Is(err, archive.ErrQuery):
			code, msg = http.StatusBadRequest, queryMessage(err)
		case errors.As(err, &nf):
			code, msg = http.StatusNotFound, nf.msg
		case errors.Is(err, archive.ErrNotFound) || errors.Is(err, mailgames.ErrNoGame) || errors.Is(err, mailgames.ErrNoTournament):
			code, msg = http.StatusNotFound, err.Error()
		case errors.As(err, &fb):
			code, msg = http.StatusForbidden, fb.msg
		case errors.As(err, &mna):
			w.Header().Set("Allow", "GET, HEAD")
			code, msg = http.StatusMethodNotAllowed, mna.Error()
		case errors.Is(err, context.DeadlineExceeded):
			code, msg = http.StatusServiceUnavailable, "This page took too long to make; try a narrower search."
			s.log.Warn("page timed out", "path", r.URL.Path, "query", r.URL.RawQuery)
		default:
			s.log.Error("page failed", "path", r.URL.Path, "query", r.URL.RawQuery, "err", err)
		}
		answer(w, r, code, msg)
	})
}

type errorPage struct {
	Code    int
	Status  string
	Message string
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

func cacheFor(d time.Duration, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(d.Seconds())))
		h.ServeHTTP(w, r)
	})
}

// layout is what every page's frame shows.
type layout struct {
	Title       string
	Description string    // the meta description: what the page shows, for search engines and link previews
	Nav         string    // the section of the menu to mark
	Feed        *feedLink // the page's Atom feed, nil for none
	HasMail     bool
	Games       []string
	Page        any
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render writes a page: made whole in a buffer first, so that a template
// error is a 500 and not half a page.
func (s *Site) render(w http.ResponseWriter, r *http.Request, code int, name, title string, data any) {
	t := s.pages[name]
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufPool.Put(buf)
	nav := name
	desc := siteDescription
	if d, ok := data.(describer); ok {
		desc = d.description()
	}
	var feed *feedLink
	if f, ok := data.(feeder); ok {
		feed = f.Feed()
	}
	if err := t.ExecuteTemplate(buf, "layout", layout{Title: title, Description: desc, Nav: nav, Feed: feed, HasMail: s.mail != nil, Games: games.Names(), Page: data}); err != nil {
		s.log.Error("template failed", "page", name, "err", err)
		http.Error(w, "the page could not be made", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	if r.Method != http.MethodHead {
		w.Write(buf.Bytes())
	}
}

// siteDescription is the meta description of a page that has none of
// its own.
const siteDescription = "icepost: an archive of board games played by mail and at the table, to search, replay move by move, and explore by position; players and their ratings; the games by mail in progress."

// describer is a page that says in a sentence what it shows (the meta
// description).
type describer interface{ description() string }

func (s *Site) ok(w http.ResponseWriter, r *http.Request, name, title string, data any) error {
	s.render(w, r, http.StatusOK, name, title, data)
	return nil
}

var funcs = template.FuncMap{
	"pathEscape":  url.PathEscape,
	"queryEscape": url.QueryEscape,
	"join":        strings.Join,
	"add":         func(a, b int) int { return a + b },
	"pct": func(n, of int) string {
		if of == 0 {
			return "–"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(of))
	},
	"score": func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
	"num":   func(n int) string { return thousands(n) },
	"round": func(f float64) string { return fmt.Sprintf("%.0f", f) },
	"dash":  dash,
}

// dash is s, or a dash for nothing.
func dash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

// parsePages parses each page with the layout it shares.
func parsePages() (map[string]*template.Template, error) {
	entries, err := fs.ReadDir(templateFiles, "templates")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".html")
		if name == "layout" || strings.HasPrefix(name, "_") {
			continue
		}
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFiles, "templates/layout.html", "templates/_*.html", "templates/"+e.Name())
		if err != nil {
			return nil, err
		}
		pages[name] = t
	}
	return pages, nil
}

// thousands writes n with thin spaces between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 || len(s) <= 4 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteString("\u202f")
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plural writes "1 game", "2 games".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return thousands(n) + " " + many
}
