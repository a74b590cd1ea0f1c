package pbem

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/engine"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailread"
	"icepost/rules"
	"icepost/rules/games"
)

// The surface of the game service for a service beside it (package
// events: tournaments): games started and mails queued in one
// transaction of the game service, the service's own tables written in
// the same one, so that what it decides happens once or not at all. The
// game service knows such a service only through Events, for the mail
// commands that belong to it.

// GameSpec is a game a service starts: every seat accepted, begun at
// once.
type GameSpec struct {
	Game string // a game's name or alias, as the registry knows it
	// Options are the game's options by name ("target": "15"), as a
	// challenge gives them.
	Options map[string]string
	// Seats are the players in seat order: canonical addresses, or
	// "bot:LEVEL" for a seat the server plays (bot:LEVEL:ANYTHING too:
	// a field may hold several bots of a level).
	Seats []string
	Days  int // days per move; 0 for none
	// Event and Round are the record's tags ("Club Swiss 2027", "2.3").
	Event, Round string
	// News is what the first board says before the board ("Round 2 of
	// Club Swiss 2027 begins.").
	News string
	// Quiet: no first boards to the players; the service sends them,
	// with a player's other games started with it, by Tx.RoundMail.
	Quiet bool
}

// Tx is one transaction of the game service, given to a service by
// Transact, or to Events in the transaction of a mail.
type Tx struct{ h *handling }

// SQL is the transaction, for the service's own tables.
func (t *Tx) SQL() *sql.Tx { return t.h.tx }

// Context is the transaction's context.
func (t *Tx) Context() context.Context { return t.h.ctx }

// Now is the game service's time.
func (t *Tx) Now() time.Time { return t.h.now }

// Start creates a game, every seat accepted, and queues its first
// boards: it returns the game's number.
func (t *Tx) Start(spec GameSpec) (int64, error) { return t.h.startGame(spec) }

// Mail queues a mail to a player: text under subject, with the player's
// address token, so that a command in the reply acts for them.
func (t *Tx) Mail(to, subject, text string) { t.h.send(t.h.mailTo(to, subject, text)) }

// EndGame ends an active game with a result ("1-0", "0-1", "1/2-1/2",
// or one score per seat, "0-1-0"), as an adjudication, and sends its last
// boards with news (why: "ada withdrew from Club Swiss.").
func (t *Tx) EndGame(id int64, result, news string) error { return t.h.adjudicate(id, result, news) }

// CancelGame ends an invited or active game without a result, and tells
// its players why (news).
func (t *Tx) CancelGame(id int64, news string) error {
	return t.h.cancelGame(id, strings.ReplaceAll(news, "%", "%%")+" The game %s ends without a result and is not archived.\n")
}

// Transact runs f in one transaction of the game service, its write lock
// held: what f writes and the games it starts are committed with the
// mails they queue when f returns nil, and nothing is when it fails. In
// a dry run nothing is committed.
func (s *Handler) Transact(ctx context.Context, f func(t *Tx) error) error {
	_, err := s.act(ctx, func(h *handling) (string, error) {
		if err := f(&Tx{h}); err != nil {
			return "", err
		}
		return "service", nil
	})
	return err
}

// Events is what the game service asks of the tournaments (package
// events implements it) for the mail commands that are theirs. Each runs
// in the mail's transaction and returns the answer's text; an error
// made with UserError is the player's to fix, any other the server's.
type Events interface {
	// Tournaments lists what addr may join and what it plays in.
	Tournaments(t *Tx, addr string) (string, error)
	// Join, Withdraw: addr enters or leaves tournament id.
	Join(t *Tx, id int64, addr string) (string, error)
	Withdraw(t *Tx, id int64, addr string) (string, error)
	// Standings is tournament id's table.
	Standings(t *Tx, id int64) (string, error)
	// Climb: addr challenges the player at place on ladder id; Defend:
	// addr answers the challenge against them there.
	Climb(t *Tx, id int64, place int, addr string) (string, error)
	Defend(t *Tx, id int64, addr string) (string, error)
	// Organize: addr, one of the server's starters, creates a tournament
	// (c is an organize command: its game, format, settings and name).
	Organize(t *Tx, c mailread.Command, addr string) (string, error)
}

// UserError is a refusal a service gives a player: the answer says it,
// and nothing changes.
func UserError(format string, args ...any) error { return userErrorf(nil, format, args...) }

// botSeat reads "bot:LEVEL" (and "bot:LEVEL:ANYTHING"): the level, ok.
func botSeat(s string) (int, bool) {
	rest, ok := strings.CutPrefix(s, "bot:")
	if !ok {
		return 0, false
	}
	lvl, _, _ := strings.Cut(rest, ":")
	n, err := strconv.Atoi(lvl)
	if err != nil || n < 1 || n > engine.MaxLevel {
		return 0, false
	}
	return n, true
}

// startGame creates spec's game, every seat accepted, and sends its
// first boards (or queues the bot's job).
func (h *handling) startGame(spec GameSpec) (int64, error) {
	rg, ok := games.Lookup(spec.Game)
	if !ok {
		return 0, fmt.Errorf("pbem: no game %q", spec.Game)
	}
	var opts rules.Options
	for name, v := range spec.Options {
		if err := opts.Set(name, v); err != nil {
			return 0, fmt.Errorf("pbem: %s: %w", rg.Name(), err)
		}
	}
	opts.Seats = len(spec.Seats)
	start, err := rg.Start(opts)
	if err != nil {
		return 0, fmt.Errorf("pbem: %s: %w", rg.Name(), err)
	}
	ng := &newGame{rules: rg, start: start, days: spec.Days, level: h.s.Bots.level(), event: spec.Event, round: spec.Round}
	for _, p := range spec.Seats {
		if lvl, ok := botSeat(p); ok {
			ng.seats = append(ng.seats, "")
			ng.levels = append(ng.levels, lvl)
			continue
		}
		a, err := mailaddr.Canonical(p)
		if err != nil {
			return 0, fmt.Errorf("pbem: seat %q: %w", p, err)
		}
		ng.seats = append(ng.seats, a)
		ng.levels = append(ng.levels, 0)
	}
	g, err := h.createGame(ng)
	if err != nil {
		return 0, err
	}
	news := spec.News
	if news == "" {
		news = "The game begins."
	}
	if spec.Quiet {
		return g.id, h.beginAccepted(g, "")
	}
	return g.id, h.beginAccepted(g, news+" "+g.gameName()+" in short:\n\n"+g.play.Rules.Info().Summary)
}

// beginAccepted accepts every seat of a game just created and begins
// it: the first boards, with news; none when news is "".
func (h *handling) beginAccepted(g *game, news string) error {
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_seats SET accepted = 1 WHERE game_id = ?`, g.id); err != nil {
		return err
	}
	for i := range g.seats {
		g.seats[i].accepted = true
	}
	g.status = statusActive
	if err := h.saveGame(g); err != nil {
		return err
	}
	if news != "" {
		h.sendBoards(g, news)
	}
	return nil
}

// eventCommand runs a command of the tournaments (Events) and answers
// with its text.
func (h *handling) eventCommand(r *request) error {
	if h.s.Events == nil {
		return userErrorf(nil, "this server runs no tournaments.")
	}
	t := &Tx{h}
	var text string
	var err error
	switch n := r.cmd.Number; r.cmd.Verb {
	case "tournaments":
		text, err = h.s.Events.Tournaments(t, h.msg.From)
	case "join":
		text, err = h.s.Events.Join(t, n, h.msg.From)
	case "withdraw":
		text, err = h.s.Events.Withdraw(t, n, h.msg.From)
	case "standings":
		text, err = h.s.Events.Standings(t, n)
	case "climb":
		text, err = h.s.Events.Climb(t, n, int(r.cmd.Number2), h.msg.From)
	case "defend":
		text, err = h.s.Events.Defend(t, n, h.msg.From)
	case "organize":
		// Only the starters named in the settings; with none named,
		// nobody: a tournament by mail is the operator's to allow.
		if !slices.ContainsFunc(h.s.Starters, func(a string) bool { return mailaddr.Equal(a, h.msg.From) }) {
			return userErrorf(nil, "only the players the server names as starters may organize a tournament by mail: ask the server's operator.")
		}
		text, err = h.s.Events.Organize(t, r.cmd, h.msg.From)
	default:
		return fmt.Errorf("pbem: %q is no command of the tournaments", r.cmd.Verb)
	}
	if err != nil {
		return err
	}
	m := h.addressMail("icepost: "+r.cmd.String(), strings.TrimRight(text, "\n")+"\n")
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}
