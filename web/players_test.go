package web

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/analysis"
	"icepost/archive"
	"icepost/notation"
	"icepost/rules/games"
)

// TestPlayerAnalysis: a player with an analysed game has the sentence on
// the computer analysis on their page, with the numbers the analysis
// gives; a player without has none.
func TestPlayerAnalysis(t *testing.T) {
	ts, _, a := newTestSite(t, 8, nil)
	ctx := context.Background()
	g, _ := games.Lookup("IceSickle")
	start, _ := g.Start(archiveOptions())
	moves := notation.RandomGame(start, rand.New(rand.NewPCG(4, 4)), 4)
	rec, err := notation.FromMoves([]notation.Tag{{Name: "Player1", Value: "Ada Lovelace"}, {Name: "Player2", Value: "Zed Analysed"}}, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	// Ada: no loss, then a blunder of 0.25; Zed: two inaccuracies of 0.05.
	rep := &analysis.Report{Level: 2, Seats: 2}
	for i, tok := range rec.MainTokens() {
		m := analysis.Move{Ply: i + 1, Seat: i%2 + 1, Token: tok, Before: 0.6, After: 0.6}
		switch i {
		case 1, 3:
			m.After, m.Mark = 0.55, analysis.Inaccuracy
		case 2:
			m.After, m.Mark, m.Better, m.BetterEval = 0.35, analysis.Blunder, tok, 0.6
		}
		rep.Moves = append(rep.Moves, m)
	}
	if err := analysis.Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Import(ctx, strings.NewReader(rec.String()), "analysed.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	_, body, _ := get(t, ts.URL, "/player/Ada%20Lovelace")
	if want := `Computer analysis of 1 analysed game: an average loss of 0.125 a move over 2 moves (1 blunder: <a href="/search?blunder=Ada&#43;Lovelace">the games with a blunder</a>).`; !strings.Contains(body, want) {
		t.Errorf("Ada's page lacks %q:\n%s", want, between(body, "<h1>", "<h2>"))
	}
	// The link finds the game; the form keeps the filter; Zed made none.
	_, body, _ = get(t, ts.URL, "/search?blunder=Ada+Lovelace")
	if !strings.Contains(body, "Zed Analysed") || !strings.Contains(body, `name="blunder" value="Ada Lovelace"`) {
		t.Errorf("the search for Ada's blunders:\n%s", between(body, "<main", "</main>"))
	}
	if _, body, _ = get(t, ts.URL, "/search?blunder=Zed+Analysed"); strings.Contains(body, "Ada Lovelace") {
		t.Errorf("the search for Zed's blunders finds a game:\n%s", between(body, "<main", "</main>"))
	}
	_, body, _ = get(t, ts.URL, "/player/Zed%20Analysed")
	if want := "an average loss of 0.050 a move over 2 moves (2 inaccuracies)."; !strings.Contains(body, want) {
		t.Errorf("Zed's page lacks %q:\n%s", want, between(body, "<h1>", "<h2>"))
	}
	code, body, _ := get(t, ts.URL, "/player/Bob%20Barker")
	if code != 200 || strings.Contains(body, `id="analysis"`) {
		t.Errorf("Bob has no analysed game, yet his page speaks of one:\n%s", between(body, "<h1>", "<h2>"))
	}
}
