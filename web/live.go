package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/rules"
)

// The games by mail: the games in progress with their boards, whose turn
// and the time left, and a page per game. The pages update when a move
// lands: a server-sent event stream (/live/events) says when the games
// change, and the page's script fetches the page again and swaps the
// part that shows the games. Without the script the page reloads itself
// every minute (a <noscript> refresh).

// liveInfo is what the mail daemon says of a game beyond its record.
type liveInfo struct {
	ID       int64
	Status   string
	ToMove   string // the name of the player to move; "" when no one is
	TimeLeft string // "2 days 3 hours", "" without a time control
	Paused   bool
	Days     int
}

type liveCard struct {
	liveInfo
	Game    string
	Href    string
	Players []playerView
	Ply     int
	Plies   string // "1 ply", "4 plies"
	Board   template.HTML
	Last    string
}

type livePage struct {
	HasMail bool
	Games   []liveCard
	Count   string
}

func (s *Site) livePage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	lp := livePage{HasMail: s.mail != nil}
	if s.mail != nil {
		gis, err := s.mail.Active(r.Context())
		if err != nil {
			return err
		}
		for _, gi := range gis {
			c, err := liveCardOf(gi)
			if err != nil {
				s.log.Warn("a game by mail does not replay", "game", gi.ID, "err", err)
				continue
			}
			lp.Games = append(lp.Games, c)
		}
		lp.Count = plural(len(lp.Games), "game in progress", "games in progress")
	}
	return s.ok(w, r, "live", "Games by mail", lp)
}

// liveInfoOf is what the page says of game gi beside its board, g its
// record replayed: the player to move is the seat to move in g, the
// position the board shows, never found by an address (a bot's seats all
// have the server's, and a player may hold two seats).
// mailName names game id by mail as its mails do ("IceSickle #3", the
// daemon's number, pbem_games.id) and says that it is by mail:
// "IceSickle #3 by mail". Every page and feed names a game by mail so,
// its archived copy too (mailNumber), so that one game has one number.
func mailName(game string, id int64) string {
	return fmt.Sprintf("%s #%d by mail", game, id)
}

// mailNumber is the number by mail of an archived game that the mail
// daemon archived (its mail_game column holds "mail game N", as
// pbem.archiveSource writes it), 0 for any other game.
func mailNumber(s archive.Summary) int64 {
	n, ok := strings.CutPrefix(s.MailGame, "mail game ")
	if !ok {
		return 0
	}
	id, err := strconv.ParseInt(n, 10, 64)
	if err != nil || id < 1 {
		return 0
	}
	return id
}

func liveInfoOf(gi mailgames.Game, g *notation.Game, names []string) liveInfo {
	li := liveInfo{ID: gi.ID, Status: gi.Status, Paused: gi.Paused, Days: gi.Days}
	if gi.Status == "active" && !g.Over() {
		if seat := g.Final().ToMove(); seat > 0 {
			li.ToMove = nameAt(names, seat)
		}
	}
	if gi.Days > 0 && gi.Status == "active" {
		li.TimeLeft = duration(gi.Left)
	}
	return li
}

func liveCardOf(gi mailgames.Game) (liveCard, error) {
	g, err := replay([]byte(gi.Record))
	if err != nil {
		return liveCard{}, err
	}
	names := displayNames(g.Record.Players())
	c := liveCard{liveInfo: liveInfoOf(gi, g, names), Game: g.Rules.Name(), Href: "/live/" + strconv.FormatInt(gi.ID, 10), Ply: len(g.Moves),
		Plies: plural(len(g.Moves), "ply", "plies")}
	v := newGameView(g, c.Href, len(g.Moves))
	c.Players = v.Players
	var prev rules.State
	var last rules.Move
	if n := len(g.Moves); n > 0 {
		prev, last = g.States[n-1], g.Moves[n-1]
		c.Last = g.Token(n)
	}
	c.Board = boardHTML(g.Final(), prev, last, names)
	return c, nil
}

// duration writes a time left in days and hours (minutes under an hour).
func duration(d time.Duration) string {
	if d <= 0 {
		return "no time left"
	}
	days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	switch {
	case days > 0 && hours > 0:
		return plural(days, "day", "days") + " " + plural(hours, "hour", "hours")
	case days > 0:
		return plural(days, "day", "days")
	case hours > 0:
		return plural(hours, "hour", "hours")
	}
	return plural(max(1, int(d/time.Minute)), "minute", "minutes")
}

func (s *Site) liveGame(w http.ResponseWriter, r *http.Request) error {
	if s.mail == nil {
		return &notFound{"this site shows no games by mail (icepost web -mail-db FILE)"}
	}
	id, err := gameID(r)
	if err != nil {
		return err
	}
	ply, err := plyParam(r)
	if err != nil {
		return err
	}
	line, err := lineParam(r)
	if err != nil {
		return err
	}
	gi, err := s.mail.Game(r.Context(), id)
	if err != nil {
		return err
	}
	if gi.Status == "invited" || gi.Status == "declined" || gi.Status == "cancelled" {
		return &notFound{fmt.Sprintf("game %d by mail is %s: there is nothing to show", id, gi.Status)}
	}
	g, err := replay([]byte(gi.Record))
	if err != nil {
		return fmt.Errorf("game by mail %d: %w", id, err)
	}
	if ply > len(g.Moves) {
		return bad("ply=%d: game %d has %d plies", ply, id, len(g.Moves))
	}
	v := newGameViewLine(g, "/live/"+strconv.FormatInt(id, 10), ply, line)
	if err := v.checkLine(ply, line); err != nil {
		return err
	}
	// A player by mail has a page only once the archive holds a game of
	// theirs: no link to a page that does not exist.
	for i, p := range v.Players {
		if p.Link == "" {
			continue
		}
		if _, err := s.archive.Player(r.Context(), p.Name, 0); errors.Is(err, archive.ErrNotFound) {
			v.Players[i].Link = ""
		} else if err != nil {
			return err
		}
	}
	li := liveInfoOf(gi, g, displayNames(g.Record.Players()))
	v.MailInfo = &li
	v.Live = gi.Status == "active"
	v.Title = mailName(g.Rules.Name(), id) + ": " + strings.Join(displayNames(g.Record.Players()), " – ")
	return s.ok(w, r, "game", v.Title, v)
}

// liveHub polls the mail daemon's database while someone watches, and
// tells every watcher when the games change.
type liveHub struct {
	site    *Site
	mu      sync.Mutex
	subs    map[chan string]struct{}
	running bool
	last    string
	done    chan struct{} // closed when the server shuts down
	once    sync.Once
}

func (h *liveHub) doneCh() chan struct{} {
	h.once.Do(func() { h.done = make(chan struct{}) })
	return h.done
}

// stop ends every stream (at the server's shutdown).
func (h *liveHub) stop() {
	d := h.doneCh()
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-d:
	default:
		close(d)
	}
}

// maxWatchers bounds the open streams.
const maxWatchers = 200

func (h *liveHub) subscribe() (chan string, string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) >= maxWatchers {
		return nil, "", false
	}
	if h.subs == nil {
		h.subs = map[chan string]struct{}{}
	}
	ch := make(chan string, 1)
	h.subs[ch] = struct{}{}
	if !h.running {
		h.running = true
		go h.poll()
	}
	return ch, h.last, true
}

func (h *liveHub) unsubscribe(ch chan string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, ch)
}

// poll reads the games' revision every LivePoll while anyone watches.
func (h *liveHub) poll() {
	t := time.NewTicker(h.site.LivePoll)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		rev, err := h.site.mail.Revision(ctx)
		cancel()
		h.mu.Lock()
		if err != nil {
			h.site.log.Warn("reading the games by mail", "err", err)
		} else if rev != h.last {
			h.last = rev
			for ch := range h.subs {
				select {
				case ch <- rev:
				default:
					// A watcher that has not read the last change gets
					// this one instead.
					select {
					case <-ch:
					default:
					}
					ch <- rev
				}
			}
		}
		if len(h.subs) == 0 {
			h.running = false
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
		select {
		case <-t.C:
		case <-h.doneCh():
			h.mu.Lock()
			h.running = false
			h.mu.Unlock()
			return
		}
	}
}

// maxStream is how long one stream lasts; the browser then opens a new
// one by itself (EventSource reconnects).
const maxStream = 10 * time.Minute

// liveEvents is the stream of changes: an event "games" with the games'
// revision when they change, and a comment line now and then to keep
// the connection open.
func (s *Site) liveEvents(w http.ResponseWriter, r *http.Request) {
	if s.mail == nil {
		http.Error(w, "this site shows no games by mail", http.StatusNotFound)
		return
	}
	if r.URL.RawQuery != "" {
		http.Error(w, "the stream takes no parameters", http.StatusBadRequest)
		return
	}
	ch, last, ok := s.live.subscribe()
	if !ok {
		w.Header().Set("Retry-After", "60")
		http.Error(w, "too many watchers; try again later", http.StatusServiceUnavailable)
		return
	}
	defer s.live.unsubscribe(ch)
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{}) // the server's ReadTimeout would end the stream
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	send := func(text string) bool {
		rc.SetWriteDeadline(time.Now().Add(30 * time.Second))
		if _, err := fmt.Fprint(w, text); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send("retry: 3000\n\n") {
		return
	}
	if last != "" && !send("event: games\ndata: "+last+"\n\n") {
		return
	}
	end := time.NewTimer(maxStream)
	defer end.Stop()
	keep := time.NewTicker(25 * time.Second)
	defer keep.Stop()
	for {
		select {
		case rev := <-ch:
			if !send("event: games\ndata: " + rev + "\n\n") {
				return
			}
		case <-keep.C:
			if !send(": still here\n\n") {
				return
			}
		case <-end.C:
			return
		case <-r.Context().Done():
			return
		case <-s.live.doneCh():
			return
		}
	}
}
