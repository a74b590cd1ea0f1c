package pbem

import (
	"context"
	"database/sql"
	"fmt"

	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
)

// The operator's view: what `icepost games` and `icepost players` do
// and what `icepost players` shows (the games are listed and shown by
// the read model, pbem/mailgames). Changes go through the database and
// the outbox, so a running daemon sends the mails they queue.

// StoredIdentity returns the server's address, as the daemon notes it at
// each start, and the token secret when the database keeps it (the
// embedded mail system); either may be empty.
func StoredIdentity(ctx context.Context, db *sql.DB) (address string, secret []byte, err error) {
	if address, err = store.State(ctx, db, "address"); err != nil {
		return "", nil, err
	}
	s, err := store.State(ctx, db, "secret")
	if s != "" {
		secret = []byte(s)
	}
	return address, secret, err
}

// read runs fn in a transaction that is never committed.
func (s *Handler) read(ctx context.Context, fn func(h *handling) error) error {
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(s.newHandling(ctx, tx))
}

// CancelGame ends an invited or active game without a result; its
// players are told by mail. A game that does not exist is
// mailgames.ErrNoGame. Cancelled games are not archived.
func (s *Handler) CancelGame(ctx context.Context, id int64) error {
	_, err := s.act(ctx, func(h *handling) (string, error) {
		return fmt.Sprintf("game %d cancelled by the operator", id),
			h.cancelGame(id, "The server's operator cancelled the game %s. It ends without a result and is not archived.\n")
	})
	return err
}

// cancelGame ends an invited or active game without a result, and tells
// its players with text, where %s is the game's title.
func (h *handling) cancelGame(id int64, text string) error {
	g, err := h.loadGame(id)
	if err != nil {
		return err
	}
	if g.status != statusActive && g.status != statusInvited {
		return fmt.Errorf("%w: game %d is %s: only invited or active games can be cancelled", mailgames.ErrRefused, id, g.status)
	}
	g.status = statusCancelled
	if err := h.saveGame(g); err != nil {
		return err
	}
	for i := range g.seats {
		m := h.threadMail(g, i+1, replytoken.Token{})
		m.Text = fmt.Sprintf(text, g.title())
		h.send(m)
	}
	return nil
}

// Adjudicate ends an active game with the result the operator decides
// (a result marker like 1-0, 0-1, 1/2-1/2 or 1-0-0) and archives it. The
// notation knows no "adjudication": the record's Termination is
// "abandoned".
func (s *Handler) Adjudicate(ctx context.Context, id int64, result string) error {
	_, err := s.act(ctx, func(h *handling) (string, error) {
		return fmt.Sprintf("game %d adjudicated %s", id, result), h.adjudicate(id, result, "The server's operator adjudicated the game.")
	})
	return err
}

// adjudicate ends an active game with result, archives it, and sends
// the last boards with news.
func (h *handling) adjudicate(id int64, result, news string) error {
	g, err := h.loadGame(id)
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return fmt.Errorf("%w: game %d is %s: only active games can be adjudicated", mailgames.ErrRefused, id, g.status)
	}
	winner, decided, err := notation.ParseResult(result, len(g.seats))
	if err != nil || !decided {
		return fmt.Errorf("%w: %q is not a result for %d seats (like 1-0, 0-1, 1/2-1/2, or one score per seat: 1-0-0)", mailgames.ErrRefused, result, len(g.seats))
	}
	if err := g.end("abandoned", winner); err != nil {
		return err
	}
	if err := h.archive(g); err != nil {
		return err
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, news+"\n\n"+g.endText())
	return nil
}

// PlayerInfo is one player as the operator lists them.
type PlayerInfo struct {
	Address      string
	Games        int // active games
	VacationLeft int // days this year
	OnVacation   bool
	Digest       bool
	Blocked      bool
}

// Players lists everyone who has a seat or settings.
func (s *Handler) Players(ctx context.Context) ([]PlayerInfo, error) {
	var out []PlayerInfo
	err := s.read(ctx, func(h *handling) error {
		addrs, err := store.Column[string](ctx, h.tx, `SELECT address FROM pbem_seats UNION SELECT address FROM pbem_players ORDER BY 1`)
		if err != nil {
			return err
		}
		for _, a := range addrs {
			p := PlayerInfo{Address: a}
			if err := h.tx.QueryRowContext(ctx, `SELECT count(DISTINCT g.id) FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id WHERE s.address = ? AND g.status = ?`,
				a, statusActive).Scan(&p.Games); err != nil {
				return err
			}
			if err := h.tx.QueryRowContext(ctx, `SELECT coalesce(max(digest), 0), coalesce(max(blocked), 0) FROM pbem_players WHERE address = ?`, a).
				Scan(&p.Digest, &p.Blocked); err != nil {
				return err
			}
			used, err := h.vacationDaysUsed(a, 0)
			if err != nil {
				return err
			}
			p.VacationLeft = max(s.Deadlines.vacationDays()-used, 0)
			cur, _, err := h.currentVacation(a)
			if err != nil {
				return err
			}
			p.OnVacation = cur != 0
			out = append(out, p)
		}
		return nil
	})
	return out, err
}
