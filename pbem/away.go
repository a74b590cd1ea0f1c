package pbem

import (
	"fmt"
	"strings"
	"time"

	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
)

// This file holds the players' commands about time and the operator's
// block: vacation, digest, undo.

const day = 24 * time.Hour

// senderBlocked says whether the operator blocked the mail's sender:
// such mail is recorded and otherwise ignored, with no reply.
func (h *handling) senderBlocked() (bool, error) {
	var blocked bool
	err := h.tx.QueryRowContext(h.ctx, `SELECT count(*) > 0 FROM pbem_players WHERE address = ? AND blocked = 1`, h.msg.From).Scan(&blocked)
	return blocked, err
}

// vacationDaysUsed counts the vacation days address has taken in now's
// calendar year (UTC), each vacation rounded up to whole days; a vacation
// running now counts up to its end, or up to cut when cut is not zero.
func (h *handling) vacationDaysUsed(addr string, cut int64) (int, error) {
	year := time.Date(h.now.UTC().Year(), 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	rows, err := h.tx.QueryContext(h.ctx, `SELECT starts_at, ends_at FROM pbem_vacations WHERE address = ? AND starts_at >= ?`, addr, year)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	used := 0
	for rows.Next() {
		var from, to int64
		if err := rows.Scan(&from, &to); err != nil {
			return 0, err
		}
		if cut != 0 && to > cut {
			to = cut
		}
		used += int((time.Duration(to-from)*time.Second + day - 1) / day)
	}
	return used, rows.Err()
}

// currentVacation returns the id and end of address's vacation running
// now (id 0: none).
func (h *handling) currentVacation(addr string) (int64, time.Time, error) {
	var id, end int64
	err := h.tx.QueryRowContext(h.ctx, `SELECT coalesce(max(id), 0), coalesce(max(ends_at), 0) FROM pbem_vacations WHERE address = ? AND starts_at <= ? AND ends_at > ?`,
		addr, h.now.Unix(), h.now.Unix()).Scan(&id, &end)
	return id, time.Unix(end, 0), err
}

// vacation is "vacation DAYS" (from now; it replaces a vacation running
// now) and "vacation off".
func (h *handling) vacation(r *request) error {
	addr := h.msg.From
	allowance := h.s.Deadlines.vacationDays()
	if allowance == 0 {
		return userErrorf(nil, "this server has no vacations: its operator set none.")
	}
	cur, curEnd, err := h.currentVacation(addr)
	if err != nil {
		return err
	}
	if r.cmd.Off {
		if cur == 0 {
			return userErrorf(nil, "you are not on vacation.")
		}
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_vacations SET ends_at = ?, noticed = 1 WHERE id = ?`, h.now.Unix(), cur); err != nil {
			return err
		}
		return h.announceReturn(addr, true)
	}
	days := int(r.cmd.Number)
	if days < 1 {
		return userErrorf(nil, "write vacation and a number of days, like: vacation 7 (or: vacation off).")
	}
	used, err := h.vacationDaysUsed(addr, h.now.Unix())
	if err != nil {
		return err
	}
	if days > allowance-used {
		return userErrorf(nil, "you asked for %d vacation days, but you have %d of your %d for this year left.", days, max(allowance-used, 0), allowance)
	}
	if cur != 0 {
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_vacations SET ends_at = ?, noticed = 1 WHERE id = ?`, h.now.Unix(), cur); err != nil {
			return err
		}
	}
	end := h.now.Add(time.Duration(days) * day)
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_vacations (address, starts_at, ends_at) VALUES (?, ?, ?)`, addr, h.now.Unix(), end.Unix()); err != nil {
		return err
	}
	ids, err := h.activeGames(addr)
	if err != nil {
		return err
	}
	var list strings.Builder
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(&list, "  %s\n", g.title())
		me := g.seatOf(addr)
		for i := range g.seats {
			if i+1 == me {
				continue
			}
			m := h.threadMail(g, i+1, replytoken.Token{})
			m.Text = fmt.Sprintf("%s is on vacation until %s: their clock in this game is paused until then. Your own clock runs as usual.\n", g.seats[me-1].name, when(end))
			h.send(m)
		}
	}
	text := fmt.Sprintf("You are on vacation until %s (%d days): your clocks are paused in all your games, and the other players are told.\n", when(end), days)
	if cur != 0 {
		text = fmt.Sprintf("Your vacation now ends %s (it was to end %s).\n", when(end), when(curEnd)) + text
	}
	if list.Len() > 0 {
		text += "\nYour games:\n" + list.String()
	}
	text += fmt.Sprintf("\nYou have %d of your %d vacation days for this year left. Send \"vacation off\" when you are back sooner.\n", allowance-used-days, allowance)
	h.replyText("your vacation", text)
	return nil
}

// vacationOver tells a player whose vacation ended (and the players of
// their games) that their clocks run again.
func (h *handling) vacationOver(addr string) (string, error) {
	res, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_vacations SET noticed = 1 WHERE address = ? AND noticed = 0 AND ends_at <= ?`, addr, h.now.Unix())
	if err != nil {
		return "", err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return "", nil
	}
	if cur, _, err := h.currentVacation(addr); err != nil || cur != 0 {
		return "", err // a new vacation follows at once: nothing to tell
	}
	return "vacation of " + addr + " is over", h.announceReturn(addr, false)
}

// announceReturn tells a player back from vacation, and the other players
// of their games, that the clocks run again.
func (h *handling) announceReturn(addr string, asked bool) error {
	ids, err := h.activeGames(addr)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		me := g.seatOf(addr)
		for i := range g.seats {
			if i+1 == me {
				continue
			}
			m := h.threadMail(g, i+1, replytoken.Token{})
			m.Text = fmt.Sprintf("%s is back from vacation: their clock in this game runs again.\n", g.seats[me-1].name)
			h.send(m)
		}
	}
	used, err := h.vacationDaysUsed(addr, 0)
	if err != nil {
		return err
	}
	allowance := h.s.Deadlines.vacationDays()
	text := fmt.Sprintf("Welcome back: your vacation is over and your clocks run again. You have %d of your %d vacation days for this year left.\n", max(allowance-used, 0), allowance)
	if asked {
		h.replyText("your vacation", text)
	} else {
		h.send(&outmail.Mail{To: addr, Subject: "icepost: your vacation is over", Text: text})
	}
	return nil
}

// replyText replies to the mail being handled with a short text.
func (h *handling) replyText(subject, text string) {
	m := &outmail.Mail{To: h.msg.From, Subject: "icepost: " + subject, Text: text, Reply: true}
	h.threadReply(m)
	h.send(m)
}

// digestCommand is "digest on|off".
func (h *handling) digestCommand(r *request) error {
	on := !r.cmd.Off
	addr := h.msg.From
	// Turned on now, the first digest comes at the next digest hour.
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_players (address, digest, digest_sent_at) VALUES (?, ?, ?)
		ON CONFLICT(address) DO UPDATE SET digest = excluded.digest, digest_sent_at = excluded.digest_sent_at`, addr, on, h.now.Unix()); err != nil {
		return err
	}
	text := "Daily digests are off.\n"
	if on {
		text = fmt.Sprintf("Daily digests are on: each day at %02d:00 UTC, when games wait for your move, one mail lists them. Send \"digest off\" to stop them.\n", h.s.Deadlines.DigestHour)
	}
	h.replyText("your digest", text)
	return nil
}

// undo is a request to take back the last move: the player who made it
// asks, every other player must reply "undo" too, and a move by anyone
// cancels the request.
func (h *handling) undo(r *request) error {
	g, seatNo := r.g, r.seat
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	if g.ply() == 0 {
		return &userError{msg: "no move has been played yet: there is nothing to undo.", game: g, seat: seatNo}
	}
	var asks int
	if err := h.tx.QueryRowContext(h.ctx, `SELECT undo_requests FROM pbem_games WHERE id = ?`, g.id).Scan(&asks); err != nil {
		return err
	}
	lastSeat := g.play.States[g.ply()-1].ToMove()
	back := 1 // moves to take back
	if n := g.botUndo(seatNo); n > 0 {
		// Against bots alone, whose answers come at once: the asker's
		// last move and the bots' answers to it.
		back, lastSeat = n, seatNo
	}
	last := g.seats[lastSeat-1].name
	lastMove := g.play.Token(g.ply() - back + 1)
	if asks == 0 && seatNo != lastSeat {
		return &userError{msg: fmt.Sprintf("only %s, who played the last move (%s), may ask to take it back.", last, lastMove), game: g, seat: seatNo}
	}
	asks |= 1<<(seatNo-1) | g.botMask() // bots agree to every request
	if asks != 1<<len(g.seats)-1 {
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_games SET undo_requests = ? WHERE id = ?`, asks, g.id); err != nil {
			return err
		}
		var still []string
		for i, st := range g.seats {
			if asks&(1<<i) == 0 {
				still = append(still, st.name)
			}
		}
		news := fmt.Sprintf("%s asks to take back their last move (%s). To agree, reply \"undo\"; a move refuses it. Waiting for: %s.", last, lastMove, strings.Join(still, ", "))
		if seatNo != lastSeat {
			news = fmt.Sprintf("%s agrees to take back %s's move %s. Waiting for: %s.", g.seats[seatNo-1].name, last, lastMove, strings.Join(still, ", "))
		}
		h.sendBoards(g, news)
		return nil
	}
	for range back {
		if err := g.play.Undo(); err != nil {
			return err
		}
	}
	g.timesFrom = min(g.timesFrom, g.ply()+1) // the undone moves' times go
	// Conditional moves were given for the position before the undo; the
	// same position may come back, but they no longer stand.
	if err := h.dropConditions(g.id); err != nil {
		return err
	}
	g.conds = map[int][]chain{}
	g.drawOffers = 0
	if err := h.saveGame(g); err != nil { // a new turn: the clock starts again
		return err
	}
	h.sendBoards(g, fmt.Sprintf("Everyone agreed: %s's move %s is taken back. %s is to move again.", last, lastMove, last))
	return nil
}
