package tournament

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Unit is how many Points make one point. Every score the package counts
// is a whole number of them: a game's points by placing are halves (two
// seats), quarters (three) or sixths (four), and Sonneborn-Berger halves
// them again, so 24 keeps all of it exact, with no rounding anywhere.
const Unit = 24

// Points is a score in 1/Unit of a point: 36 is 1½. In JSON it is the
// number of points (1.5), rounded to four decimals, which reads back to
// the same Points.
type Points int64

// Float is the number of points.
func (p Points) Float() float64 { return float64(p) / Unit }

// fractions are the fractions a score shows as a glyph, in Units.
var fractions = map[Points]string{
	3: "⅛", 4: "⅙", 6: "¼", 8: "⅓", 9: "⅜", 12: "½",
	15: "⅝", 16: "⅔", 18: "¾", 20: "⅚", 21: "⅞",
}

// String is the score as a person writes it: "2", "1½", "⅔", "-½"; a
// score that no glyph spells (twelfths, from Sonneborn-Berger at
// four-seat tables) has two decimals: "1.42".
func (p Points) String() string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	whole, frac := p/Unit, p%Unit
	if frac == 0 {
		return sign + strconv.FormatInt(int64(whole), 10)
	}
	if g, ok := fractions[frac]; ok {
		if whole == 0 {
			return sign + g
		}
		return sign + strconv.FormatInt(int64(whole), 10) + g
	}
	return sign + strconv.FormatFloat(p.Float(), 'f', 2, 64)
}

// MarshalJSON writes the number of points.
func (p Points) MarshalJSON() ([]byte, error) {
	f := math.Round(p.Float()*1e4) / 1e4
	return strconv.AppendFloat(nil, f, 'f', -1, 64), nil
}

// UnmarshalJSON reads a number of points, to the nearest Unit.
func (p *Points) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("tournament: points %s: %w", b, err)
	}
	*p = Points(math.Round(f * Unit))
	return nil
}

// Result is how a finished game ended for each seat: its place, in seat
// order, 1 the best. Seats that tie share the better place: a two-seat
// draw is [1 1], a three-seat game won by seat 2 with the others level is
// [2 1 2]. Places, not the game's own scores, are what the tournament
// counts, so that every game and seat count scores alike (pointsOf).
type Result struct {
	Places []int `json:"places"`
	// Forfeit: decided without play (a withdrawal's games, a ladder
	// challenge not answered); a crosstable shows it as + and -.
	Forfeit bool `json:"forfeit,omitempty"`
}

// ErrResult is what ParseResult and Result.check wrap.
var ErrResult = errors.New("not a result")

// ResultOf is the result of a game whose seats scored these (higher is
// better, equal is a tie): ResultOf(1, 0) is a win for seat 1,
// ResultOf(14, 16, 3) a three-seat game that seat 2 won ahead of seat 1.
func ResultOf(scores ...float64) Result {
	places := make([]int, len(scores))
	for i, s := range scores {
		places[i] = 1
		for _, t := range scores {
			if t > s {
				places[i]++
			}
		}
	}
	return Result{Places: places}
}

// ParseResult reads a record's result: its Result tag ("1-0", "0-1",
// "1/2-1/2", or each seat's game points joined by "-" for three or four
// seats, "0-1-0"), or its Score tag (each seat's score joined by ":",
// "14:16:3"). Higher is better in both. A three- or four-seat record's
// Result names the winner alone and leaves the others level; its Score,
// when the game keeps one, places every seat, so a service that has both
// should give the Score (or call ResultOf with its own order). "*" (not
// finished) is not a result.
func ParseResult(s string) (Result, error) {
	sep := "-"
	if strings.Contains(s, ":") {
		sep = ":"
	}
	parts := strings.Split(s, sep)
	if len(parts) < 2 || len(parts) > 4 {
		return Result{}, fmt.Errorf("tournament: %q: %w", s, ErrResult)
	}
	scores := make([]float64, len(parts))
	for i, p := range parts {
		switch p {
		case "1/2", "½":
			scores[i] = 0.5
			continue
		}
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return Result{}, fmt.Errorf("tournament: %q: %w", s, ErrResult)
		}
		scores[i] = f
	}
	return ResultOf(scores...), nil
}

// String is the two-seat result as a record writes it ("1-0", "0-1",
// "1/2-1/2"), and for more seats the places in seat order ("2-1-3"); a
// forfeit is marked "+" for the winner ("1-0 forfeit").
func (r Result) String() string {
	var s string
	switch {
	case len(r.Places) == 2 && r.Places[0] < r.Places[1]:
		s = "1-0"
	case len(r.Places) == 2 && r.Places[0] > r.Places[1]:
		s = "0-1"
	case len(r.Places) == 2:
		s = "1/2-1/2"
	default:
		parts := make([]string, len(r.Places))
		for i, p := range r.Places {
			parts[i] = strconv.Itoa(p)
		}
		s = strings.Join(parts, "-")
	}
	if r.Forfeit {
		s += " forfeit"
	}
	return s
}

// check says whether r is a result of a game of n seats: n places, each
// the count of seats ahead of it plus one.
func (r Result) check(n int) error {
	if len(r.Places) != n {
		return fmt.Errorf("tournament: %d places for %d seats: %w", len(r.Places), n, ErrResult)
	}
	for _, p := range r.Places {
		ahead := 0
		for _, q := range r.Places {
			if q < p {
				ahead++
			}
		}
		if p != ahead+1 {
			return fmt.Errorf("tournament: places %v: %w", r.Places, ErrResult)
		}
	}
	return nil
}

// pointsOf is what each seat of a result scores: a game of k seats gives
// the first place 1 point, the last 0, the places between linearly
// ((k-place)/(k-1): ½ for the second of three; ⅔ and ⅓ for the second and
// third of four); seats that tie share the places they cover equally (a
// two-seat draw ½ each; three seats with one winner and two level: 1, ¼,
// ¼). Every value is a whole number of Units.
func pointsOf(r Result) []Points {
	k := len(r.Places)
	out := make([]Points, k)
	for i, p := range r.Places {
		tied := 0
		for _, q := range r.Places {
			if q == p {
				tied++
			}
		}
		var sum Points
		for place := p; place < p+tied; place++ {
			sum += Points((k - place) * Unit / (k - 1))
		}
		out[i] = sum / Points(tied)
	}
	return out
}

// versus is how seat i did against seat j of the same game: 1 when it
// placed ahead, ½ level, 0 behind, in Units. Sonneborn-Berger and the
// direct encounter count a table of three or four as an encounter with
// each other player at it.
func versus(r Result, i, j int) Points {
	switch {
	case r.Places[i] < r.Places[j]:
		return Unit
	case r.Places[i] == r.Places[j]:
		return Unit / 2
	}
	return 0
}

// forfeitAgainst is the result of a game lost by the seats in out (a
// withdrawal): they share the last places, the others the first.
func forfeitAgainst(n int, out []int) Result {
	places := make([]int, n)
	for i := range places {
		if slices.Contains(out, i) {
			places[i] = n - len(out) + 1
		} else {
			places[i] = 1
		}
	}
	return Result{Places: places, Forfeit: true}
}
