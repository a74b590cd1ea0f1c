package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"icepost/rules"
)

// Playing from the browser: a board mail's link opens /play/CAPABILITY,
// the game as that seat sees it, with a form for its move and commands.
// The site decides nothing of the game: what is sent goes to the mail
// daemon's code (pbem.Server.WebAct, through Player), the same table of
// commands, handlers and transaction as a mail; the legal moves shown
// are the rules package's. Only `icepost web -config` plays.

// Player is what the play pages ask of the mail daemon (pbem.Server).
type Player interface {
	// PlaySeat says which game and seat a capability is for, or fails.
	PlaySeat(capability string) (id int64, seat int, err error)
	// WebAct carries out one command line for that seat, the page
	// having shown the game after ply moves, and says what to tell the
	// player.
	WebAct(ctx context.Context, capability string, ply int, line string) (string, error)
}

// playForm is the play page's part of the game view.
type playForm struct {
	Action  string
	Ply     int
	Name    string   // the seat's player
	Moves   []string // the legal moves, when it is the seat's turn
	Open    bool     // the game goes on: commands are taken
	Message string   // the answer to what was sent
	Try     string   // the move whose board after is shown, to confirm
}

// forbidden is a request the site refuses: a form from another site.
type forbidden struct{ msg string }

func (e *forbidden) Error() string { return e.msg }

// maxForm bounds a play form's body.
const maxForm = 4 << 10

func (s *Site) playPage(w http.ResponseWriter, r *http.Request) error {
	if s.Play == nil || s.mail == nil {
		return &notFound{"this site takes no moves (icepost web -config FILE plays the games of that mail server)"}
	}
	capability := r.PathValue("cap")
	id, seat, err := s.Play.PlaySeat(capability)
	if err != nil {
		return &notFound{err.Error()}
	}
	message := ""
	if r.Method == http.MethodPost {
		if !sameOrigin(r) {
			return &forbidden{"a move is taken only from this site's own page"}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			return bad("the form could not be read: %v", err)
		}
		ply, err := strconv.Atoi(r.PostFormValue("ply"))
		if err != nil || ply < 0 {
			return bad("ply=%q: the form names the move number it answers", r.PostFormValue("ply"))
		}
		line := strings.TrimSpace(r.PostFormValue("line"))
		if line == "" {
			line = strings.TrimSpace(r.PostFormValue("move"))
		}
		if line == "" {
			message = "Nothing was sent: choose a move, or write a command."
		} else if message, err = s.Play.WebAct(r.Context(), capability, ply, line); err != nil {
			return err
		}
	}
	gi, err := s.mail.Game(r.Context(), id)
	if err != nil {
		return err
	}
	if gi.Status == "invited" || gi.Status == "declined" || gi.Status == "cancelled" {
		return &notFound{fmt.Sprintf("game %d is %s: there is nothing to play", id, gi.Status)}
	}
	g, err := replay([]byte(gi.Record))
	if err != nil {
		return fmt.Errorf("game by mail %d: %w", id, err)
	}
	base := "/play/" + url.PathEscape(capability)
	ply, err := plyParam(r) // stepping back through the game, as on /live
	if err != nil {
		return err
	}
	if ply > len(g.Moves) {
		return bad("ply=%d: game %d has %d plies", ply, id, len(g.Moves))
	}
	v := newGameView(g, base, ply)
	for i := range v.Players {
		v.Players[i].Link = "" // the play page leads nowhere else
	}
	names := displayNames(g.Record.Players())
	li := liveInfoOf(gi, names)
	v.MailInfo = &li
	v.Live = gi.Status == "active"
	// The forms stand under the board as it is now, not under a move
	// stepped back to.
	pf := &playForm{Action: base, Ply: len(g.Moves), Open: gi.Status == "active" && v.Ply == v.Plies, Message: message}
	if seat >= 1 && seat <= len(names) {
		pf.Name = names[seat-1]
	}
	if st := g.Final(); pf.Open && st.ToMove() == seat {
		for _, m := range st.Moves(nil) {
			pf.Moves = append(pf.Moves, st.FormatMove(m))
		}
		slices.Sort(pf.Moves)
		// "See the board after it": the position after the chosen move,
		// drawn by the server, with the move to confirm.
		if try := strings.TrimSpace(r.URL.Query().Get("move")); r.Method == http.MethodGet && try != "" {
			next, m, err := rules.Play(st, try)
			if err != nil {
				pf.Message = fmt.Sprintf("%s: %v.", try, err)
			} else {
				pf.Try = st.FormatMove(m)
				v.Board = boardHTML(next, st, m, names)
				v.Status = fmt.Sprintf("The board after %s, if you play it: nothing is played until you confirm.", pf.Try)
			}
		}
	}
	v.PlayForm = pf
	v.Title = fmt.Sprintf("%s by mail #%d: %s plays", g.Rules.Name(), id, pf.Name)
	w.Header().Set("Cache-Control", "no-store")
	return s.ok(w, r, "game", v.Title, v)
}

// sameOrigin says whether a POST comes from a page of this site: its
// Origin is this host, or the browser says so (Sec-Fetch-Site). Without
// either, it is refused.
func sameOrigin(r *http.Request) bool {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		return err == nil && u.Host == r.Host
	}
	return r.Header.Get("Sec-Fetch-Site") == "same-origin"
}
