package archive

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/icesickle"
)

// TestGlickoExample is the worked example of Glickman's "Example of the
// Glicko-2 system": 1500/200 beats 1400/30 and loses to 1550/100 and
// 1700/300 in one period.
func TestGlickoExample(t *testing.T) {
	p := Glicko{1500, 200, 0.06}
	got := p.Update([]GlickoResult{
		{Glicko{1400, 30, 0.06}, 1},
		{Glicko{1550, 100, 0.06}, 0},
		{Glicko{1700, 300, 0.06}, 0},
	})
	if math.Abs(got.Rating-1464.06) > 0.01 || math.Abs(got.RD-151.52) > 0.01 || math.Abs(got.Volatility-0.05999) > 0.00001 {
		t.Errorf("got %+v, want 1464.06, 151.52, 0.05999", got)
	}
	// A period without games: only the deviation grows.
	idle := Glicko{1500, 50, 0.06}.Update(nil)
	if idle.Rating != 1500 || math.Abs(idle.RD-math.Sqrt(50*50+math.Pow(0.06*glickoScale, 2))) > 1e-9 {
		t.Errorf("idle period: %+v", idle)
	}
}

// ratedRecord is a short IceSickle record between the players with a
// result marker (the game ended by resignation or agreement).
func ratedRecord(t *testing.T, seed uint64, date, p1, p2, result string) string {
	t.Helper()
	start, _ := icesickle.Game.Start(rules.Options{})
	moves := notation.RandomGame(start, rand.New(rand.NewPCG(seed, 9)), 1000)[:4]
	tags := []notation.Tag{{Name: "Date", Value: date}, {Name: "Player1", Value: p1}, {Name: "Player2", Value: p2}}
	rec, err := notation.FromMoves(tags, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	rec.Result = result
	rec.SetTag("Result", result)
	term := "resignation"
	if result == "1/2-1/2" {
		term = "agreement"
	} else if result == "*" {
		rec.DeleteTag("Termination")
	}
	if result != "*" {
		rec.SetTag("Termination", term)
	}
	rec.DeleteTag("Score")
	return rec.String()
}

func TestRatings(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	var src strings.Builder
	add := func(seed uint64, date, p1, p2, result string) {
		src.WriteString(ratedRecord(t, seed, date, p1, p2, result))
		src.WriteString("\n")
	}
	// Ada beats Bob three times, draws once; "ADA  lovelace" is Ada too
	// after the alias; Cy loses to Bob; one game is undecided; one has
	// an unknown player.
	add(1, "2024.01.05", "Ada", "Bob", "1-0")
	add(2, "2024.01.20", "Bob", "Ada", "0-1")
	add(3, "2024.02.01", "Ada Lovelace", "Bob", "1-0")
	add(4, "2024.03.01", "Ada", "Bob", "1/2-1/2")
	add(5, "2024.03.02", "Cy", "Bob", "0-1")
	add(6, "2024.03.03", "Cy", "Ada", "*")
	add(7, "????.??.??", "?", "Ada", "0-1")
	if _, err := a.Import(ctx, strings.NewReader(src.String()), "r.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := a.AddAlias(ctx, "Ada", "ada lovelace"); err != nil {
		t.Fatal(err)
	}
	rs, err := a.Ratings(ctx, "icesickle")
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("got %d ratings, want Ada, Bob and Cy: %+v", len(rs), rs)
	}
	by := map[string]Rating{}
	for _, r := range rs {
		by[r.Player] = r
	}
	ada, bob, cy := by["Ada"], by["Bob"], by["Cy"]
	if ada.Games != 4 || ada.Wins != 3 || ada.Draws != 1 || ada.Losses != 0 {
		t.Errorf("Ada: %+v (the game with an unknown opponent and the undecided one do not count)", ada)
	}
	if bob.Games != 5 || bob.Wins != 1 || bob.Losses != 3 || cy.Games != 1 || cy.Losses != 1 {
		t.Errorf("Bob %+v, Cy %+v", bob, cy)
	}
	if rs[0].Player != "Ada" || !(ada.Rating > 1500 && bob.Rating < ada.Rating && cy.Rating < 1500) {
		t.Errorf("order or values wrong: %+v", rs)
	}
	if ada.RD >= glickoStartRD || ada.RD <= 0 {
		t.Errorf("Ada's deviation %v", ada.RD)
	}
	if rs2, err := a.Ratings(ctx, ""); err != nil || len(rs2) != 3 {
		t.Errorf("all games: %v, %d ratings", err, len(rs2))
	}
	if _, err := a.Ratings(ctx, "chess"); err == nil {
		t.Error("an unknown game should be an error")
	}
	if got := periodOf("2024.??.??"); got != "~" {
		t.Errorf("periodOf: %q", got)
	}
}

func TestPlayerAndPlayers(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	var src strings.Builder
	for i, r := range []struct{ p1, p2, res string }{{"Ada", "Bob", "1-0"}, {"Bob", "Ada", "1-0"}, {"Ada", "Cy", "1/2-1/2"}, {"Ada", "Bob", "*"}} {
		src.WriteString(ratedRecord(t, uint64(i+1), "2024.01.01", r.p1, r.p2, r.res) + "\n")
	}
	if _, err := a.Import(ctx, strings.NewReader(src.String()), "r.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	pr, err := a.Player(ctx, "  ADA ", 10)
	if err != nil {
		t.Fatal(err)
	}
	if pr.Name != "Ada" || pr.Results != (Results{Games: 4, Wins: 1, Draws: 1, Losses: 1, Undecided: 1}) {
		t.Errorf("Ada: %+v", pr)
	}
	if len(pr.Opponents) != 2 || pr.Opponents[0].Name != "Bob" || pr.Opponents[0].Results != (Results{Games: 3, Wins: 1, Losses: 1, Undecided: 1}) {
		t.Errorf("opponents: %+v", pr.Opponents)
	}
	if _, err := a.Player(ctx, "Nobody", 10); err == nil {
		t.Error("an unknown player should be ErrNotFound")
	}
	ps, total, err := a.Players(ctx, "", 2, 0)
	if err != nil || total != 3 || len(ps) != 2 || ps[0].Name != "Ada" {
		t.Errorf("players: %v %d %+v", err, total, ps)
	}
	ps, total, err = a.Players(ctx, "b", 10, 0)
	if err != nil || total != 1 || len(ps) != 1 || ps[0].Name != "Bob" {
		t.Errorf("players b: %v %d %+v", err, total, ps)
	}
	ss, err := a.SearchOrdered(ctx, Query{Limit: 2}, NewestFirst)
	if err != nil || len(ss) != 2 || ss[0].ID != 4 {
		t.Errorf("newest first: %v %+v", err, ss)
	}
	for _, o := range []Order{LongestFirst, ShortestFirst, DateNewest, DateOldest, OldestFirst} {
		ss, err := a.SearchOrdered(ctx, Query{}, o)
		if err != nil || len(ss) != 4 {
			t.Fatalf("order %d: %v, %d games", o, err, len(ss))
		}
		for i := 1; i < len(ss); i++ {
			p, c := ss[i-1], ss[i]
			bad := o == LongestFirst && p.Plies < c.Plies || o == ShortestFirst && p.Plies > c.Plies ||
				o == DateNewest && p.Date < c.Date || o == DateOldest && p.Date > c.Date || o == OldestFirst && p.ID > c.ID
			if bad {
				t.Errorf("order %d: %+v before %+v", o, p, c)
			}
		}
	}
	if _, err := a.SearchOrdered(ctx, Query{}, Order(99)); err == nil {
		t.Error("an unknown order should be an error")
	}
}

// TestAddressRating: the rating of the player who plays from an address,
// as a seek checks it; an address the archive does not know, or a game
// the player has no rated game of, is unrated.
func TestAddressRating(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	var src strings.Builder
	for i, r := range []struct{ p1, p2, res string }{
		{"Ada <ada@club.test>", "Bob <bob@club.test>", "1-0"},
		{"Bob <bob@club.test>", "Ada <Ada@Club.test>", "0-1"},
	} {
		src.WriteString(ratedRecord(t, uint64(i+1), "2024.01.01", r.p1, r.p2, r.res) + "\n")
	}
	if _, err := a.Import(ctx, strings.NewReader(src.String()), "r.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	rs, err := a.Ratings(ctx, "icesickle")
	if err != nil || len(rs) != 2 {
		t.Fatalf("ratings: %v, %+v", err, rs)
	}
	for _, c := range []struct {
		addr, game string
		want       string // the player, "" for unrated
	}{
		{"ada@club.test", "IceSickle", "Ada"},
		{"ADA@club.test", "icesickle", "Ada"},
		{"bob@club.test", "IceSickle", "Bob"},
		{"cy@club.test", "IceSickle", ""},
		{"ada@club.test", "Pikemen", ""},
	} {
		r, ok, err := a.AddressRating(ctx, c.addr, c.game)
		if err != nil || ok != (c.want != "") || ok && (r.Player != c.want || r.Rating != rs[slices.IndexFunc(rs, func(x Rating) bool { return x.Player == c.want })].Rating) {
			t.Errorf("AddressRating(%s, %s) = %+v, %v, %v; want %q's", c.addr, c.game, r, ok, err, c.want)
		}
	}
}
