package pbem

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/pbem/mailaddr"
	"icepost/pbem/mailgames"
	"icepost/pbem/mailread"
	"icepost/pbem/store"
	"icepost/rules"
	"icepost/rules/games"
)

// Seeks: an open challenge to anyone (docs/mail.md, "Finding an
// opponent"). A seek names a game and its terms (options, days per move,
// seats); a seek of another player with the same game and terms, whose
// rating each accepts, meets it, and the game starts at once with every
// seat accepted. A seek not met runs out after seekDays.

const (
	// seekDays is how long a seek stays open.
	seekDays = 7
	// maxOpenSeeks bounds the seeks one address keeps open.
	maxOpenSeeks = 5
	// unratedRating is the rating of a player the archive has not rated
	// in the game: Glicko-2's start.
	unratedRating = 1500
)

// RatingArchive is an Archiver that also tells a player's rating in a
// game, by the address the player plays from (cmd/icepost's adapter asks
// the archive's Glicko-2 ratings): what a seek's rating range is checked
// against. Without it every player is unrated (unratedRating).
type RatingArchive interface {
	Archiver
	Rating(ctx context.Context, address, game string) (rating float64, rated bool, err error)
}

// seekTerms is a seek as read and checked.
type seekTerms struct {
	rules    rules.Game
	opts     rules.Options
	days     int
	seats    int
	terms    string // what two seeks must share, canonical
	min, max int    // the opponents' ratings taken; 0 for no bound
}

// openSeek is a seek waiting in pbem_seeks.
type openSeek struct {
	id       int64
	address  string
	rating   float64
	min, max int
	expires  time.Time
}

// takes says whether the seek's range holds a rating.
func (s openSeek) takes(r float64) bool { return inRange(s.min, s.max, r) }

func inRange(min, max int, r float64) bool {
	return (min == 0 || r >= float64(min)) && (max == 0 || r <= float64(max))
}

// readSeek checks a seek's game and options.
func (h *handling) readSeek(c mailread.Command) (*seekTerms, error) {
	if len(h.s.Starters) > 0 && !slices.ContainsFunc(h.s.Starters, func(a string) bool { return mailaddr.Equal(a, h.msg.From) }) {
		return nil, userErrorf(nil, "this server starts games only for the players its operator listed; ask them to add %s.", h.msg.From)
	}
	rg, ok := games.Lookup(c.Game)
	if !ok {
		return nil, userErrorf(nil, "I do not know the game %q. The games: %s.", c.Game, strings.Join(games.Names(), ", "))
	}
	st := &seekTerms{rules: rg, days: h.s.Deadlines.DaysPerMove, seats: rg.Info().Seats[0]}
	var terms []string
	for _, o := range c.Options {
		switch o.Name {
		case "days":
			n, err := parseDays(o.Value)
			if err != nil {
				return nil, err
			}
			st.days = n
		case "seats":
			n, err := strconv.Atoi(o.Value)
			if err != nil || !slices.Contains(rg.Info().Seats, n) {
				return nil, userErrorf(nil, "seats=%s: %s is played by %s players.", o.Value, rg.Name(), seatCounts(rg))
			}
			st.seats = n
		case "rating":
			lo, hi, ok := strings.Cut(o.Value, "-")
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if !ok || err1 != nil || err2 != nil || a < 0 || b < a || b > 4000 {
				return nil, userErrorf(nil, "rating=%s: give the ratings you take on as LOW-HIGH, like rating=1400-1700.", o.Value)
			}
			st.min, st.max = a, b
		default:
			if err := setSeekOption(rg, &st.opts, o.Name, o.Value); err != nil {
				return nil, err
			}
			terms = append(terms, o.Name+"="+strings.ToLower(o.Value))
		}
	}
	st.opts.Seats = st.seats
	if _, err := rg.Start(st.opts); err != nil {
		return nil, userErrorf(nil, "%v.", err)
	}
	slices.Sort(terms)
	terms = append(terms, "seats="+strconv.Itoa(st.seats), "days="+strconv.Itoa(st.days))
	st.terms = strings.Join(terms, " ")
	return st, nil
}

// setSeekOption is setOption with the words a seek takes beside the
// game's own in its answer.
func setSeekOption(g rules.Game, o *rules.Options, name, value string) error {
	for _, opt := range g.Info().Options {
		if strings.EqualFold(opt.Name, name) {
			return setOption(g, o, name, value)
		}
	}
	usage := []string{"seats=N", "days=N (per move, or none)", "rating=LOW-HIGH (the opponents' ratings you take on)"}
	for _, opt := range g.Info().Options {
		usage = append(usage, opt.Usage()+" ("+opt.Help+")")
	}
	return userErrorf(nil, "unknown option %q: a seek for %s takes %s.", name, g.Name(), strings.Join(usage, ", "))
}

// seatCounts is a game's numbers of players in words: "2, 3 or 4".
func seatCounts(g rules.Game) string {
	var ns []string
	for _, n := range g.Info().Seats {
		ns = append(ns, strconv.Itoa(n))
	}
	if len(ns) == 1 {
		return ns[0]
	}
	return strings.Join(ns[:len(ns)-1], ", ") + " or " + ns[len(ns)-1]
}

// rating is the sender's rating in a game, as the archive has it.
func (h *handling) rating(addr, game string) (float64, error) {
	ra, ok := h.s.Archive.(RatingArchive)
	if !ok {
		return unratedRating, nil
	}
	r, rated, err := ra.Rating(h.ctx, addr, game)
	if err != nil || !rated {
		return unratedRating, err
	}
	return r, nil
}

// seek posts a seek, or meets the seeks waiting with the same terms.
func (h *handling) seek(r *request) error {
	st, err := h.readSeek(r.cmd)
	if err != nil {
		return err
	}
	game := st.rules.Name()
	waiting, err := h.openSeeks(`game = ? AND terms = ?`, game, st.terms)
	if err != nil {
		return err
	}
	for _, w := range waiting {
		if w.address == h.msg.From {
			return userErrorf(nil, "you seek that already (seek %d, open until %s): when another player seeks the same, the game starts. Send \"unseek\" to take it back.", w.id, when(w.expires))
		}
	}
	mine, err := h.countOpenSeeks(h.msg.From)
	if err != nil {
		return err
	}
	if mine >= maxOpenSeeks {
		return userErrorf(nil, "you have %d seeks open, as many as one player may: send \"unseek\" to take them back, or wait for them to be met.", mine)
	}
	rating, err := h.rating(h.msg.From, game)
	if err != nil {
		return err
	}
	// The oldest seeks that take this rating and whose ratings this
	// seek takes, each of another address, until the game's seats are
	// full (every pair taking each other).
	met := []openSeek{{address: h.msg.From, rating: rating, min: st.min, max: st.max}}
	for _, w := range waiting {
		if len(met) == st.seats {
			break
		}
		fits := !slices.ContainsFunc(met, func(m openSeek) bool { return m.address == w.address })
		for _, m := range met {
			fits = fits && m.takes(w.rating) && w.takes(m.rating)
		}
		if fits {
			met = append(met, w)
		}
	}
	res, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_seeks (address, game, terms, seats, rating, rating_min, rating_max, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		h.msg.From, game, st.terms, st.seats, rating, st.min, st.max, h.now.Unix(), h.now.AddDate(0, 0, seekDays).Unix())
	if err != nil {
		return err
	}
	id, err := res.LastInsertId()
	if err != nil {
		return err
	}
	if len(met) < st.seats {
		m := h.addressMail("icepost: seek "+strconv.FormatInt(id, 10)+" posted", fmt.Sprintf(
			"Your seek %d is posted: %s, %s, your rating %.0f%s.\n\nWhen another player seeks the same, the game starts at once and you get its first board. It stays open until %s.\n\nTo see the open seeks: seeks\nTo take yours back: unseek\n",
			id, game, st.terms, rating, rangeText(st.min, st.max), when(h.now.AddDate(0, 0, seekDays))))
		m.Reply = true
		h.threadReply(m)
		h.send(m)
		return nil
	}
	met[0].id = id
	return h.startSought(st, met)
}

// rangeText says a seek's range of ratings, "" for any.
func rangeText(min, max int) string {
	switch {
	case min == 0 && max == 0:
		return ""
	case max == 0:
		return fmt.Sprintf(", opponents rated %d or more", min)
	default:
		return fmt.Sprintf(", opponents rated %d to %d", min, max)
	}
}

// startSought starts the game of the seeks met: seats in a random
// order, every seat accepted, the first boards sent.
func (h *handling) startSought(st *seekTerms, met []openSeek) error {
	start, err := st.rules.Start(st.opts)
	if err != nil {
		return err
	}
	seats := make([]string, len(met))
	for i, m := range met {
		seats[i] = m.address
	}
	for i := len(seats) - 1; i > 0; i-- {
		j, _ := rand.Int(rand.Reader, big.NewInt(int64(i+1)))
		seats[i], seats[j.Int64()] = seats[j.Int64()], seats[i]
	}
	g, err := h.createGame(&newGame{rules: st.rules, start: start, seats: seats, days: st.days, sender: h.msg.From})
	if err != nil {
		return err
	}
	for _, m := range met {
		if _, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_seeks SET game_id = ? WHERE id = ?`, g.id, m.id); err != nil {
			return err
		}
	}
	return h.beginAccepted(g, "Your seek was met: the game begins. "+g.gameName()+" in short:\n\n"+g.play.Rules.Info().Summary)
}

// openSeeks lists the seeks waiting that fit a condition, oldest first.
func (h *handling) openSeeks(where string, args ...any) ([]openSeek, error) {
	rows, err := h.tx.QueryContext(h.ctx, `SELECT id, address, rating, rating_min, rating_max, expires_at FROM pbem_seeks
		WHERE game_id IS NULL AND expires_at > ? AND `+where+` ORDER BY created_at, id`, append([]any{h.now.Unix()}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []openSeek
	for rows.Next() {
		var s openSeek
		var exp int64
		if err := rows.Scan(&s.id, &s.address, &s.rating, &s.min, &s.max, &exp); err != nil {
			return nil, err
		}
		s.expires = time.Unix(exp, 0)
		out = append(out, s)
	}
	return out, rows.Err()
}

func (h *handling) countOpenSeeks(addr string) (int, error) {
	var n int
	err := h.tx.QueryRowContext(h.ctx, `SELECT count(*) FROM pbem_seeks WHERE game_id IS NULL AND expires_at > ? AND address = ?`, h.now.Unix(), addr).Scan(&n)
	return n, err
}

// listSeeks answers seeks: every seek waiting, with the line that meets
// it.
func (h *handling) listSeeks(*request) error {
	rows, err := h.tx.QueryContext(h.ctx, `SELECT id, address, game, terms, rating, rating_min, rating_max, expires_at FROM pbem_seeks
		WHERE game_id IS NULL AND expires_at > ? ORDER BY game, created_at, id`, h.now.Unix())
	if err != nil {
		return err
	}
	defer rows.Close()
	var b strings.Builder
	n := 0
	for rows.Next() {
		var (
			id, exp         int64
			addr, game, trm string
			rating          float64
			lo, hi          int
		)
		if err := rows.Scan(&id, &addr, &game, &trm, &rating, &lo, &hi, &exp); err != nil {
			return err
		}
		n++
		who := nameOf(addr)
		if addr == h.msg.From {
			who = "you"
		}
		fmt.Fprintf(&b, "  Seek %d: %s, %s; %s, rated %.0f%s; open until %s.\n    To meet it: %s\n",
			id, game, trm, who, rating, rangeText(lo, hi), when(time.Unix(exp, 0)), seekLine(game, trm))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	text := "No seek is open. Post one, and the next player who seeks the same plays you:\n\n    seek GAME [option=value ...]\n"
	if n > 0 {
		text = fmt.Sprintf("Open seeks (%d): a game starts as soon as you send the line under one.\n\n%s\nOr post your own: seek GAME [option=value ...]\n", n, b.String())
	}
	m := h.addressMail("icepost: open seeks", text)
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

// seekLine is the seek command that meets a seek of these terms
// (mailgames.SeekLine, which the site's list of seeks shares).
func seekLine(game, terms string) string { return mailgames.SeekLine(game, terms) }

// unseek takes back the sender's seeks waiting.
func (h *handling) unseek(*request) error {
	res, err := h.tx.ExecContext(h.ctx, `DELETE FROM pbem_seeks WHERE game_id IS NULL AND address = ?`, h.msg.From)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	text := "You had no seek open."
	if n > 0 {
		text = fmt.Sprintf("Your %d open seek(s) are taken back.", n)
	}
	m := h.addressMail("icepost: unseek", text+"\n")
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

// expireSeeks deletes the seeks that ran out, each seeker told once.
func (s *Handler) expireSeeks(ctx context.Context) error {
	addrs, err := store.Column[string](ctx, s.DB, `SELECT DISTINCT address FROM pbem_seeks WHERE game_id IS NULL AND expires_at <= ? ORDER BY address`, s.now().Unix())
	if err != nil {
		return err
	}
	for _, addr := range addrs {
		if _, err := s.act(ctx, func(h *handling) (string, error) { return h.seeksRanOut(addr) }); err != nil {
			return fmt.Errorf("pbem: seeks of %s: %w", addr, err)
		}
	}
	return nil
}

// seeksRanOut deletes addr's seeks that ran out and says so.
func (h *handling) seeksRanOut(addr string) (string, error) {
	var games []string
	rows, err := h.tx.QueryContext(h.ctx, `SELECT id, game FROM pbem_seeks WHERE game_id IS NULL AND expires_at <= ? AND address = ? ORDER BY id`, h.now.Unix(), addr)
	if err != nil {
		return "", err
	}
	for rows.Next() {
		var id int64
		var g string
		if err := rows.Scan(&id, &g); err != nil {
			rows.Close()
			return "", err
		}
		games = append(games, fmt.Sprintf("seek %d (%s)", id, g))
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(games) == 0 {
		return "", err
	}
	if _, err := h.tx.ExecContext(h.ctx, `DELETE FROM pbem_seeks WHERE game_id IS NULL AND expires_at <= ? AND address = ?`, h.now.Unix(), addr); err != nil {
		return "", err
	}
	h.send(h.mailTo(addr, "icepost: seek ran out", fmt.Sprintf(
		"No one met your %s in %d days: it is closed. Post it again to wait another %d days, or send \"seeks\" to see who is waiting.\n",
		strings.Join(games, ", "), seekDays, seekDays)))
	return fmt.Sprintf("seeks of %s ran out: %d", addr, len(games)), nil
}
