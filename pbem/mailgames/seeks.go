package mailgames

import (
	"context"
	"database/sql"
	"net/mail"
	"strconv"
	"strings"
	"time"
)

// Seek is an open seek (pbem_seeks: an open challenge to anyone, met by
// the first player who seeks the same; docs/mail.md, "Finding an
// opponent") as the site shows it. It names the seeker by name only: no
// address leaves this package through it.
type Seek struct {
	ID   int64
	Game string // the game's name, as the registry gives it
	// Terms are what a seek that meets it must share, canonical: the
	// game's options as written ("target=9"), then seats=N and days=N.
	Terms string
	// Options are the game's options among Terms, in their order.
	Options []SeekOption
	Seats   int    // how many players the game takes
	Days    int    // days per move; 0: no time control
	Name    string // the seeker's name (PlayerName of the address)
	// Rating is the seeker's rating in the game when the seek came (1500
	// for a player the archive had not rated).
	Rating float64
	// RatingMin and RatingMax bound the opponents' ratings the seeker
	// takes; 0 for no bound.
	RatingMin, RatingMax int
	Posted, Until        time.Time // when it came; when it runs out
	// Line is the mail command that meets it.
	Line string
}

// SeekOption is one of the game's options in a seek's terms, as the
// terms write it ("target", "9").
type SeekOption struct{ Name, Value string }

// Seeks lists the open seeks (not met, not run out, not taken back) by
// game, then oldest first: the order of the mail command seeks.
func (r *Reader) Seeks(ctx context.Context) ([]Seek, error) {
	var out []Seek
	err := r.read(ctx, func(tx *sql.Tx, now time.Time) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, address, game, terms, seats, rating, rating_min, rating_max, created_at, expires_at
			FROM pbem_seeks WHERE game_id IS NULL AND expires_at > ? ORDER BY game, created_at, id`, now.Unix())
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var s Seek
			var addr string
			var posted, until int64
			if err := rows.Scan(&s.ID, &addr, &s.Game, &s.Terms, &s.Seats, &s.Rating, &s.RatingMin, &s.RatingMax, &posted, &until); err != nil {
				return err
			}
			s.Name = PlayerName(addr)
			s.Posted, s.Until = time.Unix(posted, 0), time.Unix(until, 0)
			for _, t := range strings.Fields(s.Terms) {
				name, value, _ := strings.Cut(t, "=")
				switch name {
				case "seats":
				case "days":
					s.Days, _ = strconv.Atoi(value)
				default:
					s.Options = append(s.Options, SeekOption{Name: name, Value: value})
				}
			}
			s.Line = SeekLine(s.Game, s.Terms)
			out = append(out, s)
		}
		return rows.Err()
	})
	return out, err
}

// SeekLine is the seek command that meets a seek of a game and its
// terms: "seek pikemen target=9 seats=2 days=3", every term written out
// (what the mail command seeks shows under each seek, and the site).
func SeekLine(game, terms string) string {
	line := "seek " + strings.ToLower(game)
	for _, t := range strings.Fields(terms) {
		line += " " + t
	}
	return line
}

// PlayerName is the name a player goes by when only their address is
// known: its local part, without what would need quoting in a board, a
// record or a subject; "player" when nothing is left. The daemon names
// a new seat so (pbem_seats.name), and the site a seeker.
func PlayerName(addr string) string {
	local := addr[:max(strings.LastIndexByte(addr, '@'), 0)]
	if a, err := mail.ParseAddress("<" + addr + ">"); err == nil {
		local = a.Address[:strings.LastIndexByte(a.Address, '@')]
	}
	name := strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || strings.ContainsRune(`<>"\()[],;:@`, r) {
			return -1
		}
		return r
	}, local)
	if name = strings.TrimSpace(name); name == "" {
		return "player"
	}
	return name
}
