package archive

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"math"
	"slices"
	"strings"

	"icepost/rules/games"
)

// Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system",
// 2013) computed from the finished games of the archive, one list per
// game. The decisions, also in docs/web.md:
//
//   - A player is an archive player: aliases count as one, a seat whose
//     name is unknown ("?") is not rated and its games count only for the
//     seats that are known.
//   - Rating periods are calendar months of the Date tag. A game whose
//     date has no year or month is rated in one last period, after every
//     dated game. Undecided games ("*") do not count.
//   - A game of three or four seats counts as the pairs it decides: the
//     winner beat each other seat; the others, whom the result does not
//     order, are not compared. A draw is a draw between every pair.
//   - Everyone starts at 1500, deviation 350, volatility 0.06; tau is 0.5.
//     A player's deviation grows over the periods they do not play, from
//     their first game on, as Glicko-2 says.

// Glicko-2's constants, on the Glicko scale.
const (
	glickoStart      = 1500.0
	glickoStartRD    = 350.0
	glickoStartSigma = 0.06
	glickoTau        = 0.5
	glickoScale      = 173.7178
	glickoEpsilon    = 0.000001
)

// Rating is one player's rating at one game.
type Rating struct {
	Game       string  `json:"game"`
	Player     string  `json:"player"`
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"` // rating deviation: about 95% of the time the strength is within 2 RD
	Volatility float64 `json:"volatility"`
	Games      int     `json:"games"` // rated games (decided, with at least one other known seat)
	Wins       int     `json:"wins"`
	Draws      int     `json:"draws"`
	Losses     int     `json:"losses"`
}

// Glicko is a rating on the Glicko scale with its volatility.
type Glicko struct{ Rating, RD, Volatility float64 }

// NewGlicko is a new player's rating.
func NewGlicko() Glicko { return Glicko{glickoStart, glickoStartRD, glickoStartSigma} }

// GlickoResult is one game of a rating period against an opponent rated
// as at the start of the period: Score 1 a win, 1/2 a draw, 0 a loss.
type GlickoResult struct {
	Opponent Glicko
	Score    float64
}

// Update is Glicko-2's step for one player over one rating period with
// the results given (none: only the deviation grows).
func (p Glicko) Update(results []GlickoResult) Glicko {
	mu := (p.Rating - glickoStart) / glickoScale
	phi := p.RD / glickoScale
	sigma := p.Volatility
	if len(results) == 0 {
		phi = math.Min(math.Sqrt(phi*phi+sigma*sigma), glickoStartRD/glickoScale)
		return Glicko{p.Rating, phi * glickoScale, sigma}
	}
	var vInv, delta float64
	for _, r := range results {
		muj := (r.Opponent.Rating - glickoStart) / glickoScale
		phij := r.Opponent.RD / glickoScale
		g := 1 / math.Sqrt(1+3*phij*phij/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-g*(mu-muj)))
		vInv += g * g * e * (1 - e)
		delta += g * (r.Score - e)
	}
	v := 1 / vInv
	delta *= v

	// The new volatility: Illinois' regula falsi on f (step 5).
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(glickoTau*glickoTau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*glickoTau) < 0 {
			k++
		}
		B = a - k*glickoTau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > glickoEpsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	sigma2 := math.Exp(A / 2)

	phiStar := math.Sqrt(phi*phi + sigma2*sigma2)
	phi2 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu2 := mu + phi2*phi2*delta/v
	return Glicko{mu2*glickoScale + glickoStart, phi2 * glickoScale, sigma2}
}

// ratedGame is one decided game as the ratings read it.
type ratedGame struct {
	period  string  // YYYY.MM, or "~" for undated (after every digit)
	players []int64 // by seat; 0 for an unknown name
	winner  int     // seat, 0 a draw
}

// Ratings computes every player's rating at game (every game when game
// is ""), best first within each game, games in the order of
// rules/games. See the comment at the top of this file for the rules.
func (a *Archive) Ratings(ctx context.Context, game string) ([]Rating, error) {
	names := games.Names()
	if game != "" {
		g, err := lookupGameName(game)
		if err != nil {
			return nil, err
		}
		names = []string{g.Name()}
	}
	var out []Rating
	for _, name := range names {
		rs, err := a.gameRatings(ctx, name)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

func (a *Archive) gameRatings(ctx context.Context, game string) ([]Rating, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT g.id, g.date, g.winner, s.seat, s.player_id
		FROM games g JOIN seats s ON s.game_id = g.id
		WHERE g.game = ? AND g.winner IS NOT NULL ORDER BY g.id, s.seat`, game)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var list []ratedGame
	lastID := int64(-1)
	for rows.Next() {
		var id, winner int64
		var seat int
		var date sql.NullString
		var player sql.NullInt64
		if err := rows.Scan(&id, &date, &winner, &seat, &player); err != nil {
			return nil, err
		}
		if id != lastID {
			list = append(list, ratedGame{period: periodOf(date.String), winner: int(winner)})
			lastID = id
		}
		rg := &list[len(list)-1]
		for len(rg.players) < seat {
			rg.players = append(rg.players, 0)
		}
		rg.players[seat-1] = player.Int64
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Stable: within a period, games keep the archive's order (which
	// does not matter to Glicko-2, but keeps the output reproducible).
	slices.SortStableFunc(list, func(x, y ratedGame) int { return strings.Compare(x.period, y.period) })

	type player struct {
		r                          Glicko
		started                    bool
		games, wins, draws, losses int
		results                    []GlickoResult
	}
	ps := map[int64]*player{}
	get := func(id int64) *player {
		p := ps[id]
		if p == nil {
			p = &player{r: NewGlicko()}
			ps[id] = p
		}
		return p
	}
	var ids []int64
	for i := 0; i < len(list); {
		j := i
		for j < len(list) && list[j].period == list[i].period {
			j++
		}
		// Everyone is compared with opponents as rated at the start of
		// the period: collect first, update after.
		for _, g := range list[i:j] {
			for s, id := range g.players {
				if id == 0 {
					continue
				}
				me := get(id)
				counted := false
				for t, oid := range g.players {
					if t == s || oid == 0 || oid == id {
						continue
					}
					var score float64
					switch g.winner {
					case 0:
						score = 0.5
					case s + 1:
						score = 1
					case t + 1:
						score = 0
					default:
						continue // neither won: not compared
					}
					me.results = append(me.results, GlickoResult{Opponent: get(oid).r, Score: score})
					counted = true
				}
				if counted {
					me.games++
					switch g.winner {
					case 0:
						me.draws++
					case s + 1:
						me.wins++
					default:
						me.losses++
					}
				}
			}
		}
		for id, p := range ps {
			if !p.started && len(p.results) == 0 {
				continue
			}
			if !p.started {
				ids = append(ids, id)
			}
			p.started = true
			p.r = p.r.Update(p.results)
			p.results = p.results[:0]
		}
		i = j
	}
	if len(ids) == 0 {
		return nil, nil
	}
	nameOf, err := a.playerNames(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, 0, len(ids))
	for _, id := range ids {
		p := ps[id]
		if p.games == 0 {
			continue
		}
		out = append(out, Rating{Game: game, Player: nameOf[id], Rating: p.r.Rating, RD: p.r.RD, Volatility: p.r.Volatility,
			Games: p.games, Wins: p.wins, Draws: p.draws, Losses: p.losses})
	}
	slices.SortFunc(out, func(x, y Rating) int {
		if c := cmp.Compare(y.Rating, x.Rating); c != 0 {
			return c
		}
		return strings.Compare(x.Player, y.Player)
	})
	return out, nil
}

// periodOf is the rating period of a Date value: YYYY.MM, or "~" when
// the year or the month is not known.
func periodOf(date string) string {
	if len(date) < 7 {
		return "~"
	}
	p := date[:7]
	for i := 0; i < 7; i++ {
		if i == 4 {
			continue
		}
		if p[i] < '0' || p[i] > '9' {
			return "~"
		}
	}
	return p
}

// playerNames reads the names of the players with these ids.
func (a *Archive) playerNames(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	rows, err := a.db.QueryContext(ctx, `SELECT id, name FROM players`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	want := make(map[int64]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return nil, err
		}
		if want[id] {
			out[id] = name
		}
	}
	return out, rows.Err()
}

// AddressRating is the rating at game of the player who plays from
// address (by mail), and whether the archive rates them there: what a
// seek's range of ratings is checked against.
func (a *Archive) AddressRating(ctx context.Context, address, game string) (Rating, bool, error) {
	var name string
	err := a.db.QueryRowContext(ctx, `SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id
		WHERE lower(s.address) = ? ORDER BY s.game_id DESC LIMIT 1`, lowerASCII(address)).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, false, nil
	}
	if err != nil {
		return Rating{}, false, err
	}
	g, err := lookupGameName(game)
	if err != nil {
		return Rating{}, false, err
	}
	rs, err := a.gameRatings(ctx, g.Name())
	if err != nil {
		return Rating{}, false, err
	}
	for _, r := range rs {
		if r.Player == name {
			return r, true, nil
		}
	}
	return Rating{}, false, nil
}
