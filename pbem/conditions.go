package pbem

import (
	"fmt"
	"strings"

	"icepost/rules"
)

// Conditional moves (docs/mail.md, "Conditional moves"). In a two-player
// game, a player whose opponent is to move may say what they will answer:
// "if M@d4 then S@a1", and chains of them, "if M@d4 then S@a1 if S@b2
// then M@e5". They are checked when given, by playing each chain forward
// from the position now; kept in pbem_conditions for the position they
// were given at (its ply and code), so that anything that moves the game
// elsewhere leaves them stale; listed only in their author's board mails;
// and answered in the transaction that plays the opponent's move (move
// calls answerConditions), so that the answer is played exactly once.

// chain is one line of conditions: the opponent's move, the author's
// answer, the opponent's next move, the author's answer, ... as canonical
// tokens.
type chain []string

func (c chain) String() string {
	var b strings.Builder
	for i := 0; i+1 < len(c); i += 2 {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "if %s then %s", c[i], c[i+1])
	}
	return b.String()
}

// loadConditions reads the conditions of g that still stand: the game
// active and where they were given.
func (h *handling) loadConditions(g *game) error {
	g.conds = map[int][]chain{}
	if g.status != statusActive || len(g.seats) != 2 {
		return nil
	}
	rows, err := h.tx.QueryContext(h.ctx, `SELECT seat, ply, position, chains FROM pbem_conditions WHERE game_id = ?`, g.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	code := g.state().Code()
	for rows.Next() {
		var seat, ply int
		var pos, text string
		if err := rows.Scan(&seat, &ply, &pos, &text); err != nil {
			return err
		}
		if ply != g.ply() || pos != code {
			continue // stale: the game went elsewhere
		}
		for _, line := range strings.Split(text, "\n") {
			if f := strings.Fields(line); len(f) >= 2 && len(f)%2 == 0 {
				g.conds[seat] = append(g.conds[seat], chain(f))
			}
		}
	}
	return rows.Err()
}

// saveConditions writes seat's conditions for the position now, or
// deletes them when there are none.
func (h *handling) saveConditions(g *game, seat int) error {
	cs := g.conds[seat]
	if len(cs) == 0 {
		_, err := h.tx.ExecContext(h.ctx, `DELETE FROM pbem_conditions WHERE game_id = ? AND seat = ?`, g.id, seat)
		return err
	}
	lines := make([]string, len(cs))
	for i, c := range cs {
		lines[i] = strings.Join(c, " ")
	}
	_, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_conditions (game_id, seat, ply, position, chains, created_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(game_id, seat) DO UPDATE SET ply = excluded.ply, position = excluded.position, chains = excluded.chains, created_at = excluded.created_at`,
		g.id, seat, g.ply(), g.state().Code(), strings.Join(lines, "\n"), h.now.Unix())
	return err
}

// dropConditions deletes every condition of a game (after an undo, or at
// its end).
func (h *handling) dropConditions(id int64) error {
	_, err := h.tx.ExecContext(h.ctx, `DELETE FROM pbem_conditions WHERE game_id = ?`, id)
	return err
}

// noteDropped remembers, for the author's next board mail, that their
// conditional moves were dropped and why.
func (g *game) noteDropped(author int, chains []chain, why string) {
	if g.dropped == nil {
		g.dropped = map[int]string{}
	}
	lines := make([]string, len(chains))
	for i, c := range chains {
		lines[i] = "  " + c.String()
	}
	g.dropped[author] = fmt.Sprintf("Your conditional moves were dropped: %s.\n%s\n", why, strings.Join(lines, "\n"))
}

// conditionsText is what a seat's board mail says of its conditions: ""
// when it has none. Only the author sees them.
func (g *game) conditionsText(seatNo int) string {
	if d := g.dropped[seatNo]; seatNo > 0 && d != "" {
		return d
	}
	cs := g.conds[seatNo]
	if seatNo == 0 || len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Your conditional moves (only you see them; reply \"conditions clear\" to drop them):\n")
	for _, c := range cs {
		b.WriteString("  " + c.String() + "\n")
	}
	return b.String()
}

// conditional is "if A then B [if C then D]...": a chain of conditions,
// checked by playing it forward from the position now.
func (h *handling) conditional(r *request) error {
	g, seatNo, cmd := r.g, r.seat, r.cmd.String()
	switch {
	case g.status != statusActive:
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	case len(g.seats) != 2:
		return &userError{msg: "conditional moves are for two-player games.", game: g, seat: seatNo}
	case g.state().ToMove() == seatNo:
		return &userError{msg: "it is your move: conditional moves come after it, for your opponent's answer (your move, then if THEIR-MOVE then YOUR-MOVE on the next lines).", game: g, seat: seatNo}
	}
	var c chain
	st := g.state()
	for i, tk := range r.cmd.Moves {
		if i > 0 && st.Outcome().Over {
			return &userError{msg: fmt.Sprintf("%s: the game is over before %s.", cmd, tk), game: g, seat: seatNo}
		}
		next, m, err := rules.Play(st, tk)
		if err != nil {
			who := "your opponent's"
			if len(c)%2 == 1 {
				who = "your"
			}
			return &userError{msg: fmt.Sprintf("%s: %s move %s is not legal there: %v. Nothing was kept from this line.", cmd, who, tk, err), game: g, seat: seatNo}
		}
		if len(c)%2 == 0 {
			// The opponent's move as written, which may leave a part
			// open (rules.Matches): checked forward as it decodes.
			c = append(c, tk)
		} else {
			c = append(c, st.FormatMove(m))
		}
		st = next
	}
	for _, old := range g.conds[seatNo] {
		for k := 0; k < len(old) && k < len(c); k++ {
			if old[k] == c[k] {
				continue
			}
			if k%2 == 1 {
				return &userError{msg: fmt.Sprintf("%s: you answer %s already with %s (%s). Send \"conditions clear\" first to change it.", cmd, c[k-1], old[k], old), game: g, seat: seatNo}
			}
			break
		}
	}
	g.conds[seatNo] = append(g.conds[seatNo], c)
	if err := h.saveConditions(g, seatNo); err != nil {
		return err
	}
	h.noteConditions(g.id, seatNo)
	return nil
}

// clearConditions is "conditions clear".
func (h *handling) clearConditions(r *request) error {
	g, seatNo := r.g, r.seat
	g.conds[seatNo] = nil
	if err := h.saveConditions(g, seatNo); err != nil {
		return err
	}
	h.noteConditions(g.id, seatNo)
	return nil
}

// noteConditions remembers that a seat's conditions changed: the author
// gets one board mail listing them when the mail's commands are done.
func (h *handling) noteConditions(id int64, seat int) {
	for _, c := range h.condsChanged {
		if c.game == id && c.seat == seat {
			return
		}
	}
	h.condsChanged = append(h.condsChanged, condChange{id, seat})
}

type condChange struct {
	game int64
	seat int
}

// confirmConditions sends each author whose conditions changed the board
// with them listed.
func (h *handling) confirmConditions() error {
	for _, c := range h.condsChanged {
		g, err := h.loadGame(c.game)
		if err != nil {
			return err
		}
		if m, ok := h.confirmations[c]; ok {
			// The move's confirmation from this same mail lists them:
			// one mail, not two.
			list := g.conditionsText(c.seat)
			if list == "" {
				list = "You have no conditional moves in this game now.\n"
			}
			m.Text += "\n" + list
			continue
		}
		news := "Your conditional moves are kept, as listed below. Any other move of your opponent's drops them."
		if len(g.conds[c.seat]) == 0 {
			news = "You have no conditional moves in this game now."
		}
		m := h.boardMail(g, c.seat, news, "")
		m.Reply = true
		h.threadReply(m)
		h.send(m)
	}
	h.condsChanged = nil
	return nil
}

// answerConditions is called when the opponent of the author has just
// played token: a chain that begins with it plays its answer at once, and
// what follows in the chains that match stands for the position after
// it; any other move drops the author's conditions. It returns what the
// players are told ("" when nothing was answered).
func (h *handling) answerConditions(g *game, mover int, before rules.State, played rules.Move) (string, error) {
	if len(g.seats) != 2 {
		return "", nil
	}
	author := 3 - mover
	chains := g.conds[author]
	delete(g.conds, mover) // stale now in any case
	g.conds[author] = nil
	if len(chains) == 0 {
		return "", nil
	}
	token := before.FormatMove(played)
	answer := ""
	var rest []chain
	for _, c := range chains {
		// A token written without what the author leaves open (a
		// Pikemen charge's final orientation) matches each move it
		// stands for (rules.Matches).
		if c[0] != token && !rules.Matches(before, c[0], played) {
			continue
		}
		answer = c[1]
		if len(c) > 2 {
			rest = append(rest, c[2:])
		}
	}
	if answer == "" && !g.play.Over() {
		g.noteDropped(author, chains, fmt.Sprintf("%s played %s, which none of them answers", g.seats[mover-1].name, token))
	}
	if answer == "" || g.play.Over() {
		return "", h.saveConditions(g, author)
	}
	st := g.state()
	m, err := g.play.PlayToken(answer, "")
	if err != nil {
		// Checked when given, after the move the condition was written
		// as; a move it stands for that ended otherwise (a charge
		// turned another way) may leave the answer illegal.
		g.noteDropped(author, chains, fmt.Sprintf("%s played %s, after which your answer %s is not legal (%v)", g.seats[mover-1].name, token, answer, err))
		return "", h.saveConditions(g, author)
	}
	if !g.play.Over() {
		g.conds[author] = rest
	}
	if err := h.saveConditions(g, author); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s answered at once with a conditional move: %s played %s (move %d).",
		g.seats[author-1].name, g.seats[author-1].name, st.FormatMove(m), g.ply()), nil
}
