package events

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"icepost/notation"
	"icepost/pbem"
	"icepost/rules"
	"icepost/tournament"
)

// The tournaments' mail commands (pbem.Events): tournaments, join,
// withdraw, standings. Each runs in the mail's transaction.

var _ pbem.Events = (*Service)(nil)

// Tournaments lists the tournaments open to join, and addr's own.
func (s *Service) Tournaments(tx *pbem.Tx, addr string) (string, error) {
	rows, err := tx.SQL().QueryContext(tx.Context(), `SELECT id FROM pbem_events WHERE status IN (?, ?) ORDER BY id`, Open, Running)
	if err != nil {
		return "", err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return "", err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return "", err
	}
	var open, mine strings.Builder
	for _, id := range ids {
		ev, err := load(tx.Context(), tx.SQL(), id)
		if err != nil {
			return "", err
		}
		_, playing := ev.T.Player(addr)
		switch {
		case ev.Status == Open && !playing:
			fmt.Fprintf(&open, "  Tournament %d: %s. %s.\n    To join: join %d\n", ev.ID, ev.Name, describe(ev), ev.ID)
		case playing:
			fmt.Fprintf(&mine, "  Tournament %d: %s (%s). %s.\n    Its table: standings %d\n", ev.ID, ev.Name, ev.Status, describe(ev), ev.ID)
		}
	}
	var b strings.Builder
	if open.Len() == 0 {
		b.WriteString("No tournament is open to join now.\n")
	} else {
		b.WriteString("Open to join:\n\n" + open.String())
	}
	if mine.Len() > 0 {
		b.WriteString("\nYours:\n\n" + mine.String())
	}
	return b.String(), nil
}

// describe says a tournament's game, format and players in a line.
func describe(ev *Event) string {
	t := ev.T
	parts := []string{ev.Game}
	for _, k := range slices.Sorted(maps.Keys(ev.Options)) {
		parts[0] += " " + k + "=" + ev.Options[k]
	}
	switch t.Format {
	case tournament.Swiss:
		parts = append(parts, fmt.Sprintf("Swiss of %d rounds", t.Options.Rounds))
	case tournament.RoundRobin:
		f := "round robin"
		if t.Options.Double {
			f = "double round robin"
		}
		if t.Seats > 2 {
			f += fmt.Sprintf(" at tables of %d", t.Seats)
		}
		parts = append(parts, f)
	case tournament.Knockout:
		parts = append(parts, "knockout of two-game matches")
	case tournament.Ladder:
		parts = append(parts, "ladder")
	}
	if ev.Days > 0 {
		parts = append(parts, fmt.Sprintf("%d days a move", ev.Days))
	}
	if d := t.Options.Deadline; d > 0 {
		parts = append(parts, fmt.Sprintf("a game still under way after %d days is drawn", d))
	}
	n := len(t.Players)
	if t.Options.MaxPlayers > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d players", n, t.Options.MaxPlayers))
	} else {
		parts = append(parts, fmt.Sprintf("%d players", n))
	}
	switch {
	case ev.Status != Open:
	case !ev.StartsAt.IsZero():
		parts = append(parts, "starts "+ev.StartsAt.UTC().Format("Mon 2 Jan 2006 15:04 UTC"))
	case ev.WhenFull:
		parts = append(parts, "starts when full")
	default:
		parts = append(parts, "starts when the operator starts it")
	}
	return strings.Join(parts, ", ")
}

// Join enters addr in tournament id.
func (s *Service) Join(tx *pbem.Tx, id int64, addr string) (string, error) {
	ev, err := load(tx.Context(), tx.SQL(), id)
	if errors.Is(err, ErrNoEvent) {
		return "", pbem.UserError("there is no tournament %d: send \"tournaments\" to see those open.", id)
	}
	if err != nil {
		return "", err
	}
	if ev.Status != Open && !(ev.Status == Running && ev.T.Format == tournament.Ladder) {
		return "", pbem.UserError("%s (tournament %d) is %s: it takes no more players.", ev.Name, id, ev.Status)
	}
	err = ev.T.Join(tournament.Player{ID: addr, Rating: s.rating(tx.Context(), addr, ev.Game)})
	switch {
	case errors.Is(err, tournament.ErrJoined):
		return "", pbem.UserError("you are in %s (tournament %d) already.", ev.Name, id)
	case errors.Is(err, tournament.ErrFull):
		return "", pbem.UserError("%s (tournament %d) is full.", ev.Name, id)
	case err != nil:
		return "", pbem.UserError("%v", err)
	}
	text := fmt.Sprintf("You joined %s (tournament %d): %s.\n\nWhen your games start you get their boards: one mail for the games that start together. To leave before: withdraw %d\n", ev.Name, id, describe(ev), id)
	if ev.WhenFull && ev.T.Full() {
		text += "\nThe field is full: the tournament starts now. Your first board comes in a mail of its own.\n"
		return text, s.step(tx, ev)
	}
	return text, save(tx, ev)
}

// Withdraw takes addr out of tournament id: before the start, as if they
// had not joined; after, by the rules of docs/tournaments.md, their games
// under way annulled or lost.
func (s *Service) Withdraw(tx *pbem.Tx, id int64, addr string) (string, error) {
	ev, err := load(tx.Context(), tx.SQL(), id)
	if errors.Is(err, ErrNoEvent) {
		return "", pbem.UserError("there is no tournament %d.", id)
	}
	if err != nil {
		return "", err
	}
	if ev.Status == Finished || ev.Status == Cancelled {
		return "", pbem.UserError("%s (tournament %d) is %s: there is nothing to withdraw from.", ev.Name, id, ev.Status)
	}
	// Games that ended since the last tick count as they ended: only
	// those under way are the withdrawal's to decide.
	if err := s.recordResults(tx, ev); err != nil {
		return "", err
	}
	stop, err := ev.T.Withdraw(addr)
	switch {
	case errors.Is(err, tournament.ErrNoPlayer):
		return "", pbem.UserError("you are not a player of %s (tournament %d).", ev.Name, id)
	case errors.Is(err, tournament.ErrWithdrawn):
		return "", pbem.UserError("you withdrew from %s (tournament %d) already.", ev.Name, id)
	case err != nil:
		return "", pbem.UserError("%v", err)
	}
	why := playerName(addr) + " withdrew from " + ev.Name + "."
	for _, g := range stop {
		gid, ok := ev.GameIDs[g.Tag()]
		if !ok {
			continue
		}
		switch {
		case g.Annulled:
			err = tx.CancelGame(gid, why)
		case g.Result != nil:
			err = tx.EndGame(gid, resultText(*g.Result), why)
		}
		if err != nil {
			return "", err
		}
	}
	text := fmt.Sprintf("You withdrew from %s (tournament %d).\n", ev.Name, id)
	if ev.Status == Running {
		text += "Your games under way end now, as docs/tournaments.md says: before half your games are played they are annulled, after it the rest are lost.\n"
		return text, s.step(tx, ev)
	}
	return text, save(tx, ev)
}

// resultText is a result as a game by mail can end with it (the
// adjudication's result marker): one winner, or a draw. A result that
// places more than one seat first (at a table of three, one player
// withdrawn: the other two share the first place) ends the game by mail
// a draw; the tournament counts its own result, which it holds already.
func resultText(r tournament.Result) string {
	n := len(r.Places)
	winner := 0
	for i, p := range r.Places {
		if p != 1 {
			continue
		}
		if winner != 0 {
			return notation.ResultString(rules.Outcome{Over: true}, n)
		}
		winner = i + 1
	}
	return notation.ResultString(rules.Outcome{Over: true, Winner: winner}, n)
}

// Standings is tournament id's table.
func (s *Service) Standings(tx *pbem.Tx, id int64) (string, error) {
	ev, err := load(tx.Context(), tx.SQL(), id)
	if errors.Is(err, ErrNoEvent) {
		return "", pbem.UserError("there is no tournament %d: send \"tournaments\" to see them.", id)
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (tournament %d, %s): %s.\n\n%s", ev.Name, id, ev.Status, describe(ev), StandingsText(ev)), nil
}

// StandingsText is the tables of a tournament as text: rank, player,
// points, games and the format's tie-breaks.
func StandingsText(ev *Event) string {
	var b strings.Builder
	for _, g := range ev.T.Standings() {
		if g.Name != "" {
			b.WriteString(g.Name + ":\n")
		}
		tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		head := "  #\tplayer\tpoints\tgames"
		for _, tb := range g.TieBreaks {
			head += "\t" + tieName(tb)
		}
		fmt.Fprintln(tw, head)
		for _, r := range g.Rows {
			line := "  " + strconv.Itoa(r.Rank) + "\t" + playerName(r.Player)
			if r.Withdrawn {
				line += " (withdrew)"
			}
			line += "\t" + r.Points.String() + "\t" + strconv.Itoa(r.Played)
			for _, tb := range g.TieBreaks {
				line += "\t" + tieValue(r, tb)
			}
			fmt.Fprintln(tw, line)
		}
		tw.Flush()
		b.WriteString("\n")
	}
	return b.String()
}

func tieName(tb string) string {
	switch tb {
	case tournament.TieSonnebornBerger:
		return "SB"
	case tournament.TieBuchholz:
		return "Buchholz"
	case tournament.TieMedianBuchholz:
		return "median"
	case tournament.TieDirect:
		return "direct"
	case tournament.TieWins:
		return "wins"
	}
	return tb
}

func tieValue(r tournament.Row, tb string) string {
	switch tb {
	case tournament.TieSonnebornBerger:
		return r.SonnebornBerger.String()
	case tournament.TieBuchholz:
		return r.Buchholz.String()
	case tournament.TieMedianBuchholz:
		return r.MedianBuchholz.String()
	case tournament.TieDirect:
		return r.Direct.String()
	case tournament.TieWins:
		return strconv.Itoa(r.Wins)
	}
	return ""
}
