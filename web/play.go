package web

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/render"
	"icepost/rules"
)

// Playing from the browser: a board mail's link opens /play/CAPABILITY,
// the game as that seat sees it, with a form for its move and commands.
// The site decides nothing of the game: what is sent goes to the mail
// daemon's code (pbem.Handler.WebAct, through Player), the same table of
// commands, handlers and transaction as a mail; the legal moves shown
// are the rules package's. Only `icepost web -config` plays.

// Player is what the play pages ask of the mail daemon (pbem.Handler).
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
	// Pick, when the board has handles to pick a move on (moves.json),
	// says how; the script shows it.
	Pick string
}

// forbidden is a request the site refuses: a form from another site.
type forbidden struct{ msg string }

func (e *forbidden) Error() string { return e.msg }

// maxForm bounds a play form's body.
const maxForm = 4 << 10

// playSeat reads the capability of a play page's address: the game and
// seat it names, or a 404.
func (s *Site) playSeat(r *http.Request) (capability string, id int64, seat int, err error) {
	if s.Play == nil || s.mail == nil {
		return "", 0, 0, &notFound{"this site takes no moves (icepost web -config FILE plays the games of that mail server)"}
	}
	capability = r.PathValue("cap")
	// A capability has one spelling: the path as sent must hold it as it
	// is, not percent-encoded ("%77" for its "w"), so that one link is
	// one string wherever it is counted or logged.
	if rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/play/"+capability); !ok || rest != "" && rest[0] != '/' {
		return "", 0, 0, &notFound{"this play link is not valid: use the link of your latest board mail, as it is"}
	}
	id, seat, err = s.Play.PlaySeat(capability)
	if err != nil {
		return "", 0, 0, &notFound{err.Error()}
	}
	return capability, id, seat, nil
}

// seatGame is a game by mail as one seat's play page shows it.
type seatGame struct {
	info  mailgames.Game
	g     *notation.Game
	names []string // the players' names, no addresses
	seat  int
}

// loadSeatGame reads game id for seat: a 404 for a game that was never
// played (invited, declined, cancelled).
func (s *Site) loadSeatGame(ctx context.Context, id int64, seat int) (*seatGame, error) {
	gi, err := s.mail.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if gi.Status == "invited" || gi.Status == "declined" || gi.Status == "cancelled" {
		return nil, &notFound{fmt.Sprintf("game %d is %s: there is nothing to play", id, gi.Status)}
	}
	g, err := replay([]byte(gi.Record))
	if err != nil {
		return nil, fmt.Errorf("game by mail %d: %w", id, err)
	}
	return &seatGame{info: gi, g: g, names: displayNames(g.Record.Players()), seat: seat}, nil
}

// toMove is the position now when the game goes on and it is the seat's
// move, else nil.
func (sg *seatGame) toMove() rules.State {
	if st := sg.g.Final(); sg.info.Status == "active" && st.ToMove() == sg.seat {
		return st
	}
	return nil
}

// name is the seat's player.
func (sg *seatGame) name() string {
	if sg.seat >= 1 && sg.seat <= len(sg.names) {
		return sg.names[sg.seat-1]
	}
	return ""
}

// after draws the board after the move tok, to confirm: the move in its
// canonical token, the board and a status that says nothing is played.
func (sg *seatGame) after(st rules.State, tok string) (move string, board template.HTML, status string, err error) {
	next, m, err := rules.Play(st, tok)
	if err != nil {
		return "", "", "", err
	}
	move = st.FormatMove(m)
	return move, boardHTML(next, st, m, sg.names), fmt.Sprintf("The board after %s, if you play it: nothing is played until you confirm.", move), nil
}

func (s *Site) playPage(w http.ResponseWriter, r *http.Request) error {
	capability, id, seat, err := s.playSeat(r)
	if err != nil {
		return err
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
	sg, err := s.loadSeatGame(r.Context(), id, seat)
	if err != nil {
		return err
	}
	g := sg.g
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
	li := liveInfoOf(sg.info, g, sg.names)
	v.MailInfo = &li
	v.Live = sg.info.Status == "active"
	// The forms stand under the board as it is now, not under a move
	// stepped back to.
	pf := &playForm{Action: base, Ply: len(g.Moves), Open: v.Live && v.Ply == v.Plies, Message: message, Name: sg.name()}
	if st := sg.toMove(); pf.Open && st != nil {
		for _, m := range st.Moves(nil) {
			pf.Moves = append(pf.Moves, st.FormatMove(m))
		}
		slices.Sort(pf.Moves)
		// "See the board after it": the position after the chosen move,
		// drawn by the server, with the move to confirm.
		try := strings.TrimSpace(r.URL.Query().Get("move"))
		switch {
		case r.Method != http.MethodGet:
		case try == "" && r.URL.Query().Has("move"):
			// "See the board after it" with no move chosen: the list
			// chooses none by itself.
			pf.Message = "Choose a move in the list first, then see the board after it."
		case try != "":
			if move, board, status, err := sg.after(st, try); err != nil {
				pf.Message = fmt.Sprintf("%s: %v.", try, err)
			} else {
				pf.Try, v.Board, v.Status = move, board, status
			}
		}
		if pf.Try == "" {
			// The board as it is, with a handle on each cell, for the
			// script that picks a move on it (moves.json).
			var prev rules.State
			var last rules.Move
			if n := len(g.Moves); n > 0 {
				prev, last = g.States[n-1], g.Moves[n-1]
			}
			v.Board = boardHTML(st, prev, last, sg.names, render.Cells())
			pf.Pick = "Pick a piece on the board to see where it can go, then pick where; or choose from the list."
			if moves, _ := rules.CellMoves(st); slices.ContainsFunc(moves, func(m rules.CellMove) bool { return m.Placed }) {
				pf.Pick = "Pick a cell on the board to see the moves from it (a piece, or where a piece comes on), then pick where it goes; or choose from the list."
			}
		}
	}
	v.PlayForm = pf
	v.Title = mailName(g.Rules.Name(), id) + ": " + pf.Name + " plays"
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
