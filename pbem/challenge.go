package pbem

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"icepost/engine"
	"icepost/notation"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailgames"
	"icepost/pbem/mailread"
	"icepost/pbem/replytoken"
	"icepost/rules"
	"icepost/rules/games"
)

// The commands that start a game: challenge (read, then create, then
// invite), accept and decline.

// newGame is a challenge as read and checked: all that creating its game
// needs.
type newGame struct {
	rules  rules.Game
	start  rules.State
	seats  []string // addresses in seat order, "" for a bot's seat
	level  int      // the bots' level
	days   int      // days per move, 0 for none
	sender string   // the challenger's address, among seats
	// levels, when set, is each bot seat's level (0 for level), for a
	// game a service starts.
	levels []int
	// event and round are the record's Event and Round tags; event ""
	// is "icepost by mail".
	event, round string
}

// botLevel is seat i's bot level.
func (ng *newGame) botLevel(i int) int {
	if i < len(ng.levels) && ng.levels[i] > 0 {
		return ng.levels[i]
	}
	return ng.level
}

// challenge starts a game: the challenger's seat accepted, the other
// people invited, and a game against bots alone begun at once.
func (h *handling) challenge(r *request) error {
	ng, err := h.readChallenge(r.cmd)
	if err != nil {
		return err
	}
	g, err := h.createGame(ng)
	if err != nil {
		return err
	}
	return h.invite(g, ng.sender)
}

// readChallenge checks a challenge: the game, its options, the seats.
func (h *handling) readChallenge(c mailread.Command) (*newGame, error) {
	if len(h.s.Starters) > 0 && !slices.ContainsFunc(h.s.Starters, func(a string) bool { return mailaddr.Equal(a, h.msg.From) }) {
		return nil, userErrorf(nil, "this server takes challenges only from the players its operator listed; ask them to add %s.", h.msg.From)
	}
	rg, ok := games.Lookup(c.Game)
	if !ok {
		return nil, userErrorf(nil, "I do not know the game %q. The games: %s.", c.Game, strings.Join(games.Names(), ", "))
	}
	ng := &newGame{rules: rg, days: h.s.Deadlines.DaysPerMove, sender: h.msg.From}
	var opts rules.Options
	random := false
	for _, o := range c.Options {
		switch o.Name {
		case "level":
			n, err := parseLevel(o.Value)
			if err != nil {
				return nil, err
			}
			ng.level = n
		case "seats":
			if o.Value != "random" {
				return nil, userErrorf(nil, "seats=random shuffles the seats; otherwise the seats follow the order of the addresses, the challenger first.")
			}
			random = true
		case "days":
			n, err := parseDays(o.Value)
			if err != nil {
				return nil, err
			}
			ng.days = n
		default:
			if err := setOption(rg, &opts, o.Name, o.Value); err != nil {
				return nil, err
			}
		}
	}
	// The seats in order: addresses, and "" for a bot. The challenger
	// takes seat 1, unless they name themselves among the seats.
	for _, a := range c.Seats {
		if strings.EqualFold(a, botWord) {
			ng.seats = append(ng.seats, "")
			continue
		}
		lower, err := mailaddr.Canonical(a)
		if err != nil {
			return nil, userErrorf(nil, "%s is not a mail address: %v.", mailaddr.Quote(a), err)
		}
		if slices.Contains(ng.seats, lower) {
			return nil, userErrorf(nil, "%s is named twice: each player has one seat.", lower)
		}
		if lower == h.s.self() {
			return nil, userErrorf(nil, "to have me play a seat, write the word bot for it (bot level=N for a level from 1 to %d), not my address.", engine.MaxLevel)
		}
		ng.seats = append(ng.seats, lower)
	}
	if !slices.Contains(ng.seats, ng.sender) {
		ng.seats = append([]string{ng.sender}, ng.seats...)
	}
	if len(ng.seats) < 2 {
		return nil, userErrorf(nil, "name at least one opponent: an address, or bot to play me.")
	}
	if ng.level > 0 && !slices.Contains(ng.seats, "") {
		return nil, userErrorf(nil, "level=%d is the level of a bot, and this challenge names none: write bot for the seat I should play, like: challenge %s bot level=%d", ng.level, strings.ToLower(rg.Name()), ng.level)
	}
	if ng.level == 0 {
		ng.level = h.s.Bots.level()
	}
	opts.Seats = len(ng.seats)
	start, err := rg.Start(opts)
	if err != nil {
		return nil, userErrorf(nil, "%v.", err)
	}
	ng.start = start
	if random {
		for i := len(ng.seats) - 1; i > 0; i-- {
			j, _ := rand.Int(rand.Reader, big.NewInt(int64(i+1)))
			ng.seats[i], ng.seats[j.Int64()] = ng.seats[j.Int64()], ng.seats[i]
		}
	}
	return ng, nil
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

// createGame stores a new game, invited: its record with the tags, its
// time control and its seats, the challenger's and the bots' accepted.
func (h *handling) createGame(ng *newGame) (*game, error) {
	event := ng.event
	if event == "" {
		event = "icepost by mail"
	}
	tags := []notation.Tag{
		{Name: "Event", Value: event},
		{Name: "Site", Value: h.s.Address},
		{Name: "Date", Value: notation.FormatDate(h.now.UTC())},
	}
	if ng.round != "" {
		tags = append(tags, notation.Tag{Name: "Round", Value: ng.round})
	}
	for i, a := range ng.seats {
		player := nameOf(a) + " <" + a + ">"
		if a == "" {
			player = botName(ng.botLevel(i))
		}
		tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(i+1), Value: player})
	}
	if ng.days > 0 {
		tags = append(tags, notation.Tag{Name: "TimeControl", Value: timeControlTag(ng.days)})
	}
	rec := notation.NewGame(ng.start, tags).Record
	res, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_games (game, status, record, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`,
		ng.rules.Name(), statusInvited, rec.String(), h.now.Unix(), h.now.Unix())
	if err != nil {
		return nil, err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, err
	}
	if err := h.setTimeControl(id, ng.days); err != nil {
		return nil, err
	}
	for i, a := range ng.seats {
		accepted := a == ng.sender
		name, bot := nameOf(a), 0
		if a == "" {
			// A bot's seat: the server's address, which is never written
			// to, and a name that says its level. It accepts at once.
			a, name, bot, accepted = h.s.self(), botName(ng.botLevel(i)), ng.botLevel(i), true
		}
		if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_seats (game_id, seat, address, name, accepted, bot_level) VALUES (?, ?, ?, ?, ?, ?)`,
			id, i+1, a, name, accepted, bot); err != nil {
			return nil, err
		}
	}
	return h.loadGame(id)
}

// invite sends a new game's invitations, and the challenger word that
// they went; a game against bots alone begins at once.
func (h *handling) invite(g *game, challenger string) error {
	if g.allAccepted() {
		g.status = statusActive
		if err := h.saveGame(g); err != nil {
			return err
		}
		// No invitation went out, which is where a player reads the
		// rules: the first board carries them.
		h.sendBoards(g, "The game begins. "+g.gameName()+" in short:\n\n"+g.play.Rules.Info().Summary)
		return nil
	}
	for i, st := range g.seats {
		seatNo := i + 1
		var text string
		if st.accepted {
			text = fmt.Sprintf("Your challenge is sent: %s.\nThe game starts when every player has accepted; you will get the first board then.\n", g.title())
		} else {
			text = fmt.Sprintf("%s challenges you to a game of %s by mail: %s.\nYou would play seat %d.\n\nReply \"accept\" to play, or \"decline\".\n\n%s",
				nameOf(challenger), g.gameName(), g.title(), seatNo, g.play.Rules.Info().Summary)
		}
		m := h.threadMail(g, seatNo, replytoken.Token{Kind: 'i', Game: g.id, Seat: seatNo})
		m.Text = text
		h.send(m)
	}
	return nil
}

// nameOf is the name of a player known only by address: the local part
// (mailgames.PlayerName, which the site's list of seeks shares).
func nameOf(addr string) string { return mailgames.PlayerName(addr) }

func (h *handling) accept(r *request) error  { return h.answer(r, true) }
func (h *handling) decline(r *request) error { return h.answer(r, false) }

// answer is a seat's answer to an invitation.
func (h *handling) answer(r *request, accept bool) error {
	g, seatNo := r.g, r.seat
	if g.status != statusInvited {
		return userErrorf(nil, "game %d is %s: there is no invitation to answer.", g.id, g.status)
	}
	if !accept {
		g.status = statusDeclined
		if err := h.saveGame(g); err != nil {
			return err
		}
		for i := range g.seats {
			m := h.threadMail(g, i+1, replytoken.Token{})
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
		m := h.threadMail(g, seatNo, replytoken.Token{})
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
