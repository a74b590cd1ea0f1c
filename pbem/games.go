package pbem

import (
	"fmt"
	"strings"

	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/rules"
)

// Game statuses.
const (
	statusInvited   = mailgames.Invited
	statusActive    = mailgames.Active
	statusFinished  = mailgames.Finished
	statusDeclined  = mailgames.Declined
	statusCancelled = mailgames.Cancelled
)

// seat is one player of a game by mail.
type seat struct {
	address, name string
	accepted      bool
	// bot is the level of the computer opponent that plays this seat, 0
	// for a person (see bot.go).
	bot int
}

// game is a game by mail as stored, with its record replayed.
type game struct {
	id         int64
	status     string
	seats      []seat // index 0 is seat 1
	observers  []string
	drawOffers int
	// play is the record and its positions, kept in step: the same model
	// of a game in progress that the table uses (notation.Game).
	play *notation.Game
	// conds are the conditional moves that stand, by author's seat.
	conds map[int][]chain
	// dropped says, by author's seat, which conditional moves the last
	// move dropped and why: told in that seat's next board mail.
	dropped map[int]string
	// stored is the ply the stored game had, and timesFrom the first ply
	// whose time saveGame writes (pbem_move_times): the one after it, or
	// an undone one.
	stored, timesFrom int
}

var errNoGame = mailgames.ErrNoGame

// loadGame reads a game and replays its record (mailgames.Load, the
// read model's loading), with its observers and conditional moves.
func (h *handling) loadGame(id int64) (*game, error) {
	st, err := mailgames.Load(h.ctx, h.tx, id)
	if err != nil {
		return nil, err
	}
	g := &game{id: id, status: st.Status, drawOffers: st.DrawOffers, play: st.Play}
	g.stored = g.ply()
	g.timesFrom = g.stored + 1
	for _, s := range st.Seats {
		g.seats = append(g.seats, seat{address: s.Address, name: s.Name, accepted: s.Accepted, bot: s.Bot})
	}
	rows, err := h.tx.QueryContext(h.ctx, `SELECT address FROM pbem_observers WHERE game_id = ? ORDER BY address`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			rows.Close()
			return nil, err
		}
		g.observers = append(g.observers, a)
	}
	rows.Close()
	if err := h.loadConditions(g); err != nil {
		return nil, err
	}
	return g, nil
}

// state is the position now.
func (g *game) state() rules.State { return g.play.Final() }

func (g *game) ply() int { return g.play.Ply() }

func (g *game) gameName() string { return g.play.Rules.Name() }

// record is the game's record now.
func (g *game) record() *notation.Record { return g.play.Record }

// seatOf returns the seat (1-based) of an address, or 0. A bot's seat
// belongs to no address: no mail acts for it.
func (g *game) seatOf(addr string) int {
	for i, st := range g.seats {
		if st.bot == 0 && st.address == addr {
			return i + 1
		}
	}
	return 0
}

func (g *game) title() string {
	names := make([]string, len(g.seats))
	for i, st := range g.seats {
		names[i] = st.name
	}
	return fmt.Sprintf("%s #%d: %s", g.gameName(), g.id, strings.Join(names, " vs "))
}

// save writes the game back: status, record, ply and draw offers.
func (h *handling) saveGame(g *game) error {
	if err := h.turnChanged(g); err != nil {
		return err
	}
	if g.status != statusActive {
		if err := h.dropConditions(g.id); err != nil {
			return err
		}
	}
	text := g.play.Record.String()
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_games SET status = ?, record = ?, ply = ?, draw_offers = ?, updated_at = ? WHERE id = ?`,
		g.status, text, g.ply(), g.drawOffers, h.now.Unix(), g.id); err != nil {
		return err
	}
	if err := h.saveMoveTimes(g); err != nil {
		return err
	}
	return h.queueBot(g)
}

// saveMoveTimes notes the time of the moves made since the game was
// loaded (pbem_move_times), after taking away those of plies undone.
func (h *handling) saveMoveTimes(g *game) error {
	from := max(g.timesFrom, 1)
	if from <= g.stored {
		if _, err := h.tx.ExecContext(h.ctx, `DELETE FROM pbem_move_times WHERE game_id = ? AND ply >= ?`, g.id, from); err != nil {
			return err
		}
	}
	for ply := from; ply <= g.ply(); ply++ {
		if _, err := h.tx.ExecContext(h.ctx, `INSERT OR REPLACE INTO pbem_move_times (game_id, ply, at) VALUES (?, ?, ?)`, g.id, ply, h.now.Unix()); err != nil {
			return err
		}
	}
	g.stored, g.timesFrom = g.ply(), g.ply()+1
	return nil
}

// end ends the game other than by the rules (resignation, agreement, time
// forfeit, abandoned) with the seat that wins, 0 for a draw.
func (g *game) end(termination string, winner int) error {
	return g.endWith(termination, winner, "")
}

// endWith is end with a note after the last move in the record, "" for
// none (a player's comment on their resignation).
func (g *game) endWith(termination string, winner int, note string) error {
	if err := g.play.End(termination, winner, note); err != nil {
		return err
	}
	g.finished()
	return nil
}

// finished marks a game over (by the rules or by end) as finished.
func (g *game) finished() {
	g.status = statusFinished
	g.drawOffers = 0
}
