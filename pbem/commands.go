package pbem

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net/mail"
	"slices"
	"strconv"
	"strings"

	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// userError is a problem with what a player sent: they are told, in
// words, and nothing changes.
type userError struct {
	msg  string
	game *game // the game concerned, for a board in the reply; may be nil
	seat int   // the seat the reply goes to in that game (0: the sender)
}

func (e *userError) Error() string { return e.msg }

func userErrorf(g *game, format string, args ...any) error {
	return &userError{msg: fmt.Sprintf(format, args...), game: g}
}

// dispatch runs the mail's commands in order and returns the outcome for
// the log. It returns an error only for internal failures.
func (h *handling) dispatch() (string, error) {
	if !h.authenticated() {
		return "refused: no DMARC or DKIM pass from " + h.s.AuthServID, nil
	}
	if blocked, err := h.senderBlocked(); err != nil || blocked {
		return "refused: the operator blocked this sender", err
	}
	tok, hasTok := h.findReplyToken()
	var tp *replyToken
	if hasTok {
		tp = &tok
	}
	if len(h.msg.Commands) == 0 {
		text := "I found no command in your mail. Reply with just your move on the first line (like L@c3), or one of the commands below.\n\n" + helpText()
		if err := h.errorReply(h.msg.From, "no command found", text, nil, 0); err != nil {
			return "", err
		}
		return "no command", nil
	}
	// The comment belongs to the last command that takes one (a move,
	// resign, draw), so that conditional moves after a move leave it
	// with the move; failing that, to the last command.
	withComment := len(h.msg.Commands) - 1
	for i, cmd := range h.msg.Commands {
		if w, _, _ := strings.Cut(cmd, " "); w == "move" || w == "resign" || w == "draw" {
			withComment = i
		}
	}
	var done []string
	for i, cmd := range h.msg.Commands {
		comment := ""
		if i == withComment {
			comment = h.msg.Comment
		}
		err := h.command(cmd, tp, comment)
		var ue *userError
		var pe *pickError
		if errors.As(err, &ue) {
			if err := h.replyError(cmd, ue); err != nil {
				return "", err
			}
			done = append(done, cmd+": refused: "+ue.msg)
			break
		}
		if errors.As(err, &pe) {
			if err := h.replyPick(cmd, pe); err != nil {
				return "", err
			}
			done = append(done, cmd+": which game? boards sent")
			break
		}
		if err != nil {
			return "", err
		}
		done = append(done, cmd)
	}
	if err := h.confirmConditions(); err != nil {
		return "", err
	}
	return strings.Join(done, "; "), nil
}

// pickError is a command from a mail that answers no game's mail, when
// several of the sender's games could be meant: the answer is the board
// (or invitation) of each, with its own reply token, so that one more
// reply does it.
type pickError struct {
	ids []int64
	why string // what the boards say, "" for the usual words
}

func (e *pickError) Error() string { return fmt.Sprintf("which of games %v?", e.ids) }

// replyPick sends the boards a pickError asks for, within the per-sender
// limit on error replies (they count as one).
func (h *handling) replyPick(cmd string, pe *pickError) error {
	ok, err := h.allowErrorReply(strings.ToLower(h.msg.From))
	if err != nil || !ok {
		return err
	}
	why := pe.why
	if why == "" {
		why = fmt.Sprintf("Your mail said %q but did not answer a game's mail, and you have %d games it could be about. This is one of them: to do it here, reply to this mail with the same command.", cmd, len(pe.ids))
	}
	for _, id := range pe.ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		seatNo := g.seatOf(h.msg.From)
		if g.status == statusInvited {
			m := h.threadMail(g, seatNo, replyToken{kind: 'i', game: g.id, seat: seatNo})
			m.Text = why + "\n\nThe invitation: " + g.title() + ". Reply \"accept\" or \"decline\".\n"
			m.Reply = true
			h.send(m)
			continue
		}
		m := h.boardMail(g, seatNo, why, "")
		m.Reply = true
		h.send(m)
	}
	return nil
}

func (h *handling) command(cmd string, tok *replyToken, comment string) error {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return userErrorf(nil, "empty command")
	}
	switch f[0] {
	case "move":
		if len(f) != 2 {
			return userErrorf(nil, "write a move as one word, like L@c3")
		}
		return h.move(tok, f[1], comment)
	case "challenge":
		return h.challenge(f[1:])
	case "accept":
		return h.answer(tok, true)
	case "decline":
		return h.answer(tok, false)
	case "board":
		return h.board(tok)
	case "history":
		return h.history(tok)
	case "resign":
		return h.resign(tok, comment)
	case "draw":
		return h.draw(tok, comment)
	case "if":
		return h.conditional(tok, cmd)
	case "conditions":
		return h.clearConditions(tok)
	case "preview":
		if len(f) < 2 {
			return userErrorf(nil, "write preview and the moves, like: preview L@c3")
		}
		return h.preview(tok, f[1:])
	case "games":
		return h.listGames()
	case "help":
		return h.help(tok)
	case "observe":
		if len(f) != 2 {
			return userErrorf(nil, "write observe and the game's number, like: observe 12")
		}
		return h.observe(f[1])
	case "vacation":
		return h.vacation(strings.Join(f[1:], " "))
	case "digest":
		return h.digestCommand(strings.Join(f[1:], " "))
	case "undo":
		return h.undo(tok)
	}
	return userErrorf(nil, "%q is not a command I know.\n\n%s", f[0], helpText())
}

// replyError tells the player what went wrong, with the board when a game
// is concerned. It goes to the seat's address when the error concerns a
// seat (so a forged From is never answered), else to the sender.
func (h *handling) replyError(cmd string, ue *userError) error {
	to := h.msg.From
	if ue.game != nil && ue.seat > 0 {
		to = ue.game.seats[ue.seat-1].address
	}
	return h.errorReply(to, "about your command "+strconv.Quote(cmd), ue.msg, ue.game, ue.seat)
}

// errorReply sends an error reply within the per-sender limit.
func (h *handling) errorReply(to, subject, text string, g *game, seatNo int) error {
	ok, err := h.allowErrorReply(strings.ToLower(to))
	if err != nil {
		return err
	}
	if !ok {
		h.s.log().Warn("error reply withheld: rate limit", "to", to)
		return nil
	}
	if g != nil {
		m := h.boardMail(g, seatNo, text, "")
		m.To = to
		m.Reply = true
		h.threadReply(m)
		h.send(m)
		return nil
	}
	m := &outMail{To: to, Subject: "icepost: " + subject, Text: text + "\n", Reply: true}
	h.threadReply(m)
	h.send(m)
	return nil
}

// threadReply makes m a reply to the mail being handled.
func (h *handling) threadReply(m *outMail) {
	if id := h.msg.MessageID; id != "" {
		m.InReplyTo = id
		m.References = append(slices.Clone(m.References), id)
	}
}

// gameFor finds the game a command is about: the token's, or the
// sender's only game in one of the statuses given.
func (h *handling) gameFor(tok *replyToken, statuses ...string) (*game, int, error) {
	if tok != nil {
		g, err := h.loadGame(tok.game)
		if errors.Is(err, errNoGame) {
			return nil, 0, userErrorf(nil, "game %d does not exist", tok.game)
		}
		if err != nil {
			return nil, 0, err
		}
		if tok.seat > len(g.seats) {
			return nil, 0, userErrorf(nil, "game %d has no seat %d", tok.game, tok.seat)
		}
		if g.seatOf(h.msg.From) != tok.seat {
			return nil, 0, &userError{msg: fmt.Sprintf("this mail came from %s, but the game mail it answers was sent to %s: only that address may act for seat %d.", h.msg.From, g.seats[tok.seat-1].address, tok.seat), game: g, seat: tok.seat}
		}
		return g, tok.seat, nil
	}
	var ids []int64
	q := `SELECT DISTINCT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id WHERE s.address = ? AND g.status IN (` +
		strings.TrimSuffix(strings.Repeat("?,", len(statuses)), ",") + `) ORDER BY g.id`
	args := []any{strings.ToLower(h.msg.From)}
	for _, st := range statuses {
		args = append(args, st)
	}
	rows, err := h.tx.QueryContext(h.ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	switch len(ids) {
	case 0:
		return nil, 0, userErrorf(nil, "you have no game this command could be about. Send \"games\" to list your games.")
	case 1:
		g, err := h.loadGame(ids[0])
		if err != nil {
			return nil, 0, err
		}
		return g, g.seatOf(h.msg.From), nil
	}
	return nil, 0, &pickError{ids: ids}
}

func (h *handling) move(tok *replyToken, moveTok, comment string) error {
	var g *game
	var seatNo int
	var err error
	if tok == nil {
		g, seatNo, err = h.freshMove(moveTok)
	} else {
		g, seatNo, err = h.gameFor(tok)
	}
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return &userError{msg: fmt.Sprintf("game %d is %s: no moves now.", g.id, g.status), game: g, seat: seatNo}
	}
	s := g.state()
	if tok != nil && tok.kind == 'm' && tok.ply != g.ply() {
		return &userError{msg: fmt.Sprintf("your reply answers the board after move %d, but the game has gone on to move %d since. Nothing was played; here is the board now.", tok.ply, g.ply()), game: g, seat: seatNo}
	}
	if s.ToMove() != seatNo {
		return &userError{msg: fmt.Sprintf("it is %s's turn (seat %d), not yours.", g.seats[s.ToMove()-1].name, s.ToMove()), game: g, seat: seatNo}
	}
	m, err := g.play.PlayToken(moveTok, comment)
	if err != nil {
		msg := fmt.Sprintf("your move was not played: %v.", err)
		if legal := s.Moves(nil); len(legal) <= 30 {
			toks := make([]string, len(legal))
			for i, l := range legal {
				toks[i] = s.FormatMove(l)
			}
			slices.Sort(toks)
			msg += "\n\nThe legal moves: " + strings.Join(toks, " ")
		}
		return &userError{msg: msg, game: g, seat: seatNo}
	}
	return h.played(g, seatNo, s, m, comment)
}

// played does what follows a move, whoever made it (a player or a bot):
// offers dropped, conditional moves answered, the end of the game, the
// game saved and every board sent. s is the position the move was played
// in.
func (h *handling) played(g *game, seatNo int, s rules.State, m rules.Move, comment string) error {
	g.drawOffers = 0
	mover := g.seats[seatNo-1].name
	news := fmt.Sprintf("%s played %s (move %d).", mover, s.FormatMove(m), g.ply())
	if comment != "" {
		news += "\n" + mover + " wrote: " + comment
	}
	answer, err := h.answerConditions(g, seatNo, s.FormatMove(m))
	if err != nil {
		return err
	}
	if answer != "" {
		news += "\n\n" + answer
	}
	if g.play.Over() {
		g.finished()
		news += "\n\n" + g.endText()
		if err := h.archive(g); err != nil {
			return err
		}
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, news)
	return nil
}

// archive stores a finished game in the archive, in this transaction.
func (h *handling) archive(g *game) error {
	if h.s.Archive == nil {
		return nil
	}
	return h.s.Archive.AddGame(h.ctx, h.tx, g.play, fmt.Sprintf("mail game %d", g.id))
}

func (g *game) endText() string {
	rec := g.record()
	w, decided, _ := notation.ParseResult(rec.Result, len(g.seats))
	how := ""
	if t, ok := rec.Tag("Termination"); ok && t != "normal" {
		how = " by " + t
	}
	switch {
	case !decided:
		return "The game has ended."
	case w == 0:
		return fmt.Sprintf("Game over: a draw%s (%s).", how, rec.Result)
	}
	return fmt.Sprintf("Game over: %s wins%s (%s).", g.seats[w-1].name, how, rec.Result)
}

// sendBoards sends the board to every player (each with their own token,
// from their own side) and observer.
func (h *handling) sendBoards(g *game, news string) {
	var att []attachment
	if g.status == statusFinished {
		// The game-over mail carries the finished record, as history does.
		att = []attachment{recordAttachment(g)}
	}
	for i := range g.seats {
		if p, ok := h.boardPicture(g, i+1); ok {
			h.drawAhead(p)
		}
	}
	if len(g.observers) > 0 {
		if p, ok := h.boardPicture(g, 0); ok {
			h.drawAhead(p)
		}
	}
	for i := range g.seats {
		m := h.boardMail(g, i+1, news, "")
		m.Attachments = append(m.Attachments, att...)
		h.send(m)
	}
	for _, o := range g.observers {
		m := h.boardMail(g, 0, news, o)
		m.Attachments = append(m.Attachments, att...)
		h.send(m)
	}
}

// recordAttachment is the game's record as a file.
func recordAttachment(g *game) attachment {
	return attachment{Name: fmt.Sprintf("icepost-game-%d.txt", g.id), Type: "text/plain", Data: []byte(g.record().String())}
}

// freshMove finds the game for a move in a mail that answers no game's
// mail: the one game waiting for the sender's move. It is played there
// at once only when the operator's mail server vouches for the sender
// (auth_serv_id): a From line alone is easily forged, and a reply token
// is what keeps an opponent from moving for you. Otherwise, and when
// several games wait, the answer is the board of each, so that one more
// reply plays the move (docs/mail.md).
func (h *handling) freshMove(moveTok string) (*game, int, error) {
	ids, err := h.activeGames(h.msg.From)
	if err != nil {
		return nil, 0, err
	}
	var waiting []*game
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return nil, 0, err
		}
		if s := g.seatOf(h.msg.From); s > 0 && g.state().ToMove() == s {
			waiting = append(waiting, g)
		}
	}
	switch {
	case len(waiting) == 0:
		return nil, 0, userErrorf(nil, "your move %s came in a new mail, and none of your games waits for your move now. Send \"games\" to list your games.", moveTok)
	case len(waiting) == 1 && h.s.AuthServID != "":
		g := waiting[0]
		return g, g.seatOf(h.msg.From), nil
	case len(waiting) == 1:
		g := waiting[0]
		return nil, 0, &userError{msg: fmt.Sprintf("your move %s came in a new mail, not in a reply to a mail of this game, so it was not played: a reply is what shows the move is yours. To play %s, reply to this mail with it.", moveTok, moveTok), game: g, seat: g.seatOf(h.msg.From)}
	}
	ids = ids[:0]
	for _, g := range waiting {
		ids = append(ids, g.id)
	}
	return nil, 0, &pickError{ids: ids, why: fmt.Sprintf("Your move %s came in a new mail, not in a reply to a game's mail, and %d of your games wait for your move. This is one of them: to play %s here, reply to this mail with it.", moveTok, len(waiting), moveTok)}
}

// maxTarget bounds a number option given by mail (a target score), so
// that a challenge cannot start a game that never ends.
const maxTarget = 100

// setOption sets a game's option from a challenge's name=value, or says
// which options the game takes.
func setOption(g rules.Game, o *rules.Options, name, value string) error {
	for _, opt := range g.Info().Options {
		if !strings.EqualFold(opt.Name, name) {
			continue
		}
		if opt.Choices == nil {
			if n, err := strconv.Atoi(value); err != nil || n < 1 || n > maxTarget {
				return userErrorf(nil, "%s=%s: %s is a whole number from 1 to %d.", strings.ToLower(opt.Name), value, opt.Help, maxTarget)
			}
		}
		if err := o.Set(opt.Name, value); err != nil {
			return userErrorf(nil, "%v.", err)
		}
		return nil
	}
	usage := []string{"seats=random", "days=N (per move, or none)"}
	for _, opt := range g.Info().Options {
		usage = append(usage, opt.Usage()+" ("+opt.Help+")")
	}
	return userErrorf(nil, "unknown option %q: the options of %s are %s.", name, g.Name(), strings.Join(usage, ", "))
}

func (h *handling) challenge(args []string) error {
	if len(h.s.Starters) > 0 && !slices.ContainsFunc(h.s.Starters, func(a string) bool { return strings.EqualFold(a, h.msg.From) }) {
		return userErrorf(nil, "this server takes challenges only from the players its operator listed; ask them to add %s.", h.msg.From)
	}
	if len(args) == 0 {
		return userErrorf(nil, "write: challenge GAME [option=value ...] ADDRESS ...\nThe games: %s.", strings.Join(games.Names(), ", "))
	}
	rg, ok := games.Lookup(args[0])
	if !ok {
		return userErrorf(nil, "I do not know the game %q. The games: %s.", args[0], strings.Join(games.Names(), ", "))
	}
	var opts rules.Options
	random := false
	days := h.s.Deadlines.DaysPerMove
	// The seats in order: addresses, and "" for a bot. The challenger
	// takes seat 1, unless they name themselves among the seats.
	challenger := strings.ToLower(h.msg.From)
	var addrs []string
	level := 0
	for _, a := range args[1:] {
		if strings.EqualFold(a, botWord) {
			addrs = append(addrs, "")
			continue
		}
		if name, value, ok := strings.Cut(a, "="); ok {
			switch strings.ToLower(name) {
			case "level":
				n, err := parseLevel(value)
				if err != nil {
					return err
				}
				level = n
			case "seats":
				if value != "random" {
					return userErrorf(nil, "seats=random shuffles the seats; otherwise the seats follow the order of the addresses, the challenger first.")
				}
				random = true
			case "days":
				n, err := parseDays(value)
				if err != nil {
					return err
				}
				days = n
			default:
				if err := setOption(rg, &opts, name, value); err != nil {
					return err
				}
			}
			continue
		}
		addr, err := mail.ParseAddress(a)
		if err != nil || !strings.Contains(addr.Address, "@") {
			return userErrorf(nil, "%q is not a mail address.", a)
		}
		lower := strings.ToLower(addr.Address)
		if slices.Contains(addrs, lower) {
			return userErrorf(nil, "%s is named twice: each player has one seat.", lower)
		}
		if strings.EqualFold(lower, h.s.Address) {
			return userErrorf(nil, "to have me play a seat, write the word bot for it (bot level=N for a level from 1 to %d), not my address.", engine.MaxLevel)
		}
		addrs = append(addrs, lower)
	}
	if !slices.Contains(addrs, challenger) {
		addrs = append([]string{challenger}, addrs...)
	}
	if len(addrs) < 2 {
		return userErrorf(nil, "name at least one opponent: an address, or bot to play me.")
	}
	if level > 0 && !slices.Contains(addrs, "") {
		return userErrorf(nil, "level=%d is the level of a bot, and this challenge names none: write bot for the seat I should play, like: challenge %s bot level=%d", level, strings.ToLower(rg.Name()), level)
	}
	if level == 0 {
		level = h.s.Bots.level()
	}
	opts.Seats = len(addrs)
	start, err := rg.Start(opts)
	if err != nil {
		return userErrorf(nil, "%v.", err)
	}
	if random {
		for i := len(addrs) - 1; i > 0; i-- {
			j, _ := rand.Int(rand.Reader, big.NewInt(int64(i+1)))
			addrs[i], addrs[j.Int64()] = addrs[j.Int64()], addrs[i]
		}
	}
	tags := []notation.Tag{
		{Name: "Event", Value: "icepost by mail"},
		{Name: "Site", Value: h.s.Address},
		{Name: "Date", Value: notation.FormatDate(h.now.UTC())},
	}
	for i, a := range addrs {
		player := nameOf(a) + " <" + a + ">"
		if a == "" {
			player = botName(level)
		}
		tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(i+1), Value: player})
	}
	if days > 0 {
		tags = append(tags, notation.Tag{Name: "TimeControl", Value: timeControlTag(days)})
	}
	rec := notation.NewGame(start, tags).Record
	res, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_games (game, status, record, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		rg.Name(), statusInvited, rec.String(), h.now.Unix(), h.now.Unix())
	if err != nil {
		return err
	}
	id, _ := res.LastInsertId()
	if err := h.setTimeControl(id, days); err != nil {
		return err
	}
	for i, a := range addrs {
		accepted := a == challenger
		name, bot := nameOf(a), 0
		if a == "" {
			// A bot's seat: the server's address, which is never written
			// to, and a name that says its level. It accepts at once.
			a, name, bot, accepted = strings.ToLower(h.s.Address), botName(level), level, true
		}
		if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_seats (game_id, seat, address, name, accepted, bot_level) VALUES (?, ?, ?, ?, ?, ?)`,
			id, i+1, a, name, accepted, bot); err != nil {
			return err
		}
	}
	g, err := h.loadGame(id)
	if err != nil {
		return err
	}
	if g.allAccepted() {
		// The challenger against bots only: the game begins now.
		g.status = statusActive
		if err := h.saveGame(g); err != nil {
			return err
		}
		h.sendBoards(g, "The game begins.")
		return nil
	}
	challengerName := nameOf(h.msg.From)
	for i, st := range g.seats {
		seatNo := i + 1
		var text string
		if st.accepted {
			text = fmt.Sprintf("Your challenge is sent: %s.\nThe game starts when every player has accepted; you will get the first board then.\n", g.title())
		} else {
			text = fmt.Sprintf("%s challenges you to a game of %s by mail: %s.\nYou would play seat %d.\n\nReply \"accept\" to play, or \"decline\".\n\n%s",
				challengerName, rg.Name(), g.title(), seatNo, rg.Info().Summary)
		}
		m := h.threadMail(g, seatNo, replyToken{kind: 'i', game: g.id, seat: seatNo})
		m.Text = text
		h.send(m)
	}
	return nil
}

// nameOf makes a player's name from an address: its local part.
func nameOf(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	return local
}

func (h *handling) answer(tok *replyToken, accept bool) error {
	g, seatNo, err := h.gameFor(tok, statusInvited)
	if err != nil {
		return err
	}
	if g.status != statusInvited {
		return userErrorf(nil, "game %d is %s: there is no invitation to answer.", g.id, g.status)
	}
	if !accept {
		g.status = statusDeclined
		if err := h.saveGame(g); err != nil {
			return err
		}
		for i := range g.seats {
			m := h.threadMail(g, i+1, replyToken{})
			m.Text = fmt.Sprintf("%s declined: the game %s will not be played.\n", g.seats[seatNo-1].name, g.title())
			h.send(m)
		}
		return nil
	}
	if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_seats SET accepted = 1 WHERE game_id = ? AND seat = ?`, g.id, seatNo); err != nil {
		return err
	}
	g.seats[seatNo-1].accepted = true
	var waiting []string
	for _, st := range g.seats {
		if !st.accepted {
			waiting = append(waiting, st.name)
		}
	}
	if len(waiting) > 0 {
		m := h.threadMail(g, seatNo, replyToken{})
		m.Text = fmt.Sprintf("You accepted %s. Still waiting for: %s.\n", g.title(), strings.Join(waiting, ", "))
		h.send(m)
		return nil
	}
	g.status = statusActive
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, "Everyone accepted: the game begins.")
	return nil
}

func (h *handling) board(tok *replyToken) error {
	g, seatNo, err := h.gameFor(tok, statusActive)
	if err != nil {
		return err
	}
	m := h.boardMail(g, seatNo, "The board, as you asked.", "")
	h.threadReply(m)
	h.send(m)
	return nil
}

func (h *handling) history(tok *replyToken) error {
	g, seatNo, err := h.gameFor(tok, statusActive, statusFinished)
	if err != nil {
		return err
	}
	rec := g.record().String()
	m := h.boardMail(g, seatNo, "The record of the game so far (also attached):\n\n"+rec, "")
	m.Attachments = []attachment{recordAttachment(g)}
	h.threadReply(m)
	h.send(m)
	return nil
}

func (h *handling) resign(tok *replyToken, comment string) error {
	g, seatNo, err := h.gameFor(tok, statusActive)
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	name := g.seats[seatNo-1].name
	note, news := "", name+" resigned."
	if comment != "" {
		note = name + " resigns: " + comment
		news += "\n" + name + " wrote: " + comment
	}
	if err := g.endWith("resignation", resignWinner(g, seatNo), note); err != nil {
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

// resignWinner decides who wins when a seat resigns: in a 2-seat game the
// other seat; with 3 or 4 seats the other seat with the highest score, or a
// draw when scores are level or the game has none (see docs/mail.md).
func resignWinner(g *game, resigning int) int {
	if len(g.seats) == 2 {
		return 3 - resigning
	}
	sc := g.state().Scores()
	if sc == nil {
		return 0
	}
	best, winner := -1, 0
	for i, v := range sc {
		switch {
		case i+1 == resigning:
		case v > best:
			best, winner = v, i+1
		case v == best:
			winner = 0
		}
	}
	return winner
}

func (h *handling) draw(tok *replyToken, comment string) error {
	g, seatNo, err := h.gameFor(tok, statusActive)
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return userErrorf(g, "game %d is %s.", g.id, g.status)
	}
	g.drawOffers |= 1 << (seatNo - 1)
	all := 1<<len(g.seats) - 1
	name := g.seats[seatNo-1].name
	wrote := ""
	if comment != "" {
		wrote = "\n" + name + " wrote: " + comment
	}
	if g.drawOffers != all {
		if comment != "" {
			g.play.Comment(name + " offers a draw: " + comment)
		}
		if err := h.saveGame(g); err != nil {
			return err
		}
		var still []string
		for i, st := range g.seats {
			if g.drawOffers&(1<<i) == 0 {
				still = append(still, st.name)
			}
		}
		h.sendBoards(g, fmt.Sprintf("%s offers a draw. To accept, reply \"draw\"; a move declines it. Waiting for: %s.%s", name, strings.Join(still, ", "), wrote))
		return nil
	}
	note := ""
	if comment != "" {
		note = name + " agrees to a draw: " + comment
	}
	if err := g.endWith("agreement", 0, note); err != nil {
		return err
	}
	if err := h.archive(g); err != nil {
		return err
	}
	if err := h.saveGame(g); err != nil {
		return err
	}
	h.sendBoards(g, fmt.Sprintf("%s accepted the draw.%s\n\n%s", name, wrote, g.endText()))
	return nil
}

func (h *handling) listGames() error {
	rows, err := h.tx.QueryContext(h.ctx, `SELECT g.id FROM pbem_games g JOIN pbem_seats s ON s.game_id = g.id
		WHERE s.address = ? AND g.status IN ('invited', 'active') ORDER BY g.id`, strings.ToLower(h.msg.From))
	if err != nil {
		return err
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	var b strings.Builder
	if len(ids) == 0 {
		b.WriteString("You have no games in progress. Start one with: challenge GAME ADDRESS\n")
	}
	for _, id := range ids {
		g, err := h.loadGame(id)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s: ", g.title())
		switch {
		case g.status == statusInvited:
			b.WriteString("waiting for players to accept\n")
		case g.state().ToMove() == g.seatOf(h.msg.From):
			fmt.Fprintf(&b, "your move (move %d)%s\n", g.ply()+1, h.timeLeft(g))
		default:
			fmt.Fprintf(&b, "%s to move (move %d)%s\n", g.seats[g.state().ToMove()-1].name, g.ply()+1, h.timeLeft(g))
		}
	}
	m := &outMail{To: h.msg.From, Subject: "icepost: your games", Text: b.String(), Reply: true}
	h.threadReply(m)
	h.send(m)
	return nil
}

func (h *handling) help(tok *replyToken) error {
	text := helpText()
	if tok != nil {
		if g, err := h.loadGame(tok.game); err == nil {
			text += "\n" + g.play.Rules.Info().Summary
		}
	} else {
		for _, g := range games.All() {
			text += "\n" + g.Info().Summary
		}
	}
	m := &outMail{To: h.msg.From, Subject: "icepost: help", Text: text, Reply: true}
	h.threadReply(m)
	h.send(m)
	return nil
}

func (h *handling) observe(arg string) error {
	id, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64)
	if err != nil {
		return userErrorf(nil, "observe takes the game's number, like: observe 12")
	}
	g, err := h.loadGame(id)
	if errors.Is(err, errNoGame) {
		return userErrorf(nil, "game %d does not exist.", id)
	}
	if err != nil {
		return err
	}
	if g.status != statusActive {
		return userErrorf(nil, "game %d is %s: there is nothing to watch.", id, g.status)
	}
	addr := strings.ToLower(h.msg.From)
	if g.seatOf(addr) > 0 {
		return userErrorf(nil, "you play in game %d: you get its boards already.", id)
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT OR IGNORE INTO pbem_observers (game_id, address) VALUES (?, ?)`, id, addr); err != nil {
		return err
	}
	m := h.boardMail(g, 0, "You now follow this game: every board will come to you.", addr)
	h.threadReply(m)
	h.send(m)
	return nil
}
