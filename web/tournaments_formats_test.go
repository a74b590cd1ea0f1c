package web

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"icepost/pbem/mailgames"
	"icepost/tournament"
)

// The tournament's page for what the fixture's daemon does not run:
// sections and a final at tables of three, byes, a knockout's bye and
// walkover, withdrawals. The tournaments are made here with package
// tournament alone and served through a MailGames that holds them.

// heldTournaments is a MailGames with tournaments and no games.
type heldTournaments struct {
	list []mailgames.Tournament
}

func (h *heldTournaments) Active(context.Context) ([]mailgames.Game, error) { return nil, nil }
func (h *heldTournaments) Game(context.Context, int64) (mailgames.Game, error) {
	return mailgames.Game{}, mailgames.ErrNoGame
}
func (h *heldTournaments) Revision(context.Context) (string, error) { return "1", nil }
func (h *heldTournaments) Finished(context.Context, time.Time) ([]mailgames.Game, error) {
	return nil, nil
}
func (h *heldTournaments) Address(context.Context) (string, error)         { return "", nil }
func (h *heldTournaments) Seeks(context.Context) ([]mailgames.Seek, error) { return nil, nil }
func (h *heldTournaments) Tournaments(context.Context) ([]mailgames.TournamentSummary, error) {
	var out []mailgames.TournamentSummary
	for _, t := range h.list {
		out = append(out, t.TournamentSummary)
	}
	return out, nil
}
func (h *heldTournaments) Tournament(_ context.Context, id int64) (mailgames.Tournament, error) {
	for _, t := range h.list {
		if t.ID == id {
			return t, nil
		}
	}
	return mailgames.Tournament{}, mailgames.ErrNoTournament
}

// held makes a tournament of n players p1..pn (named "player 1", ...,
// rated in that order), pairs it, and plays its games by play (nil:
// none), pairing again after each round, until it has nothing more to
// pair or rounds rounds are played.
func held(t *testing.T, id int64, f tournament.Format, seats, n int, o tournament.Options, rounds int, play func(*tournament.Tournament, tournament.Game) *tournament.Result) mailgames.Tournament {
	t.Helper()
	tt, err := tournament.New(fmt.Sprintf("Held %d", id), f, seats, o)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for i := 1; i <= n; i++ {
		p := fmt.Sprintf("p%d", i)
		names[p] = fmt.Sprintf("player %d", i)
		if err := tt.Join(tournament.Player{ID: p, Rating: float64(2000 - i)}); err != nil {
			t.Fatal(err)
		}
	}
	for r := 0; r < rounds; r++ {
		if _, err := tt.Pair(); err != nil {
			t.Fatal(err)
		}
		if play == nil {
			break
		}
		for _, g := range tt.Games {
			if g.Playable() {
				if res := play(tt, g); res != nil {
					if err := tt.Record(g.Round, g.Board, *res); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
	if _, err := tt.Pair(); err != nil {
		t.Fatal(err)
	}
	mt := mailgames.Tournament{T: tt, Names: names, Games: map[string]mailgames.TournamentGame{}}
	mt.ID, mt.Name, mt.Game, mt.Format, mt.Seats, mt.Settings = id, tt.Name, "Pikemen", f, seats, o
	mt.Status, mt.Players, mt.Rounds = mailgames.TournamentRunning, n, tt.Rounds()
	if tt.Done() {
		mt.Status = mailgames.Finished
	}
	for i, g := range tt.Games {
		if !g.Bye {
			st := mailgames.Active
			if g.Result != nil {
				st = mailgames.Finished
			}
			mt.Games[g.Tag()] = mailgames.TournamentGame{ID: int64(100*id) + int64(i), Status: st, Ply: 3, Started: time.Unix(1, 0)}
		}
	}
	return mt
}

func TestTournamentFormats(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 1))
	random := func(_ *tournament.Tournament, g tournament.Game) *tournament.Result {
		scores := make([]float64, len(g.Players))
		for i := range scores {
			scores[i] = float64(rng.IntN(3))
		}
		r := tournament.ResultOf(scores...)
		return &r
	}
	// Sections of tables of three, and a final of the section winners.
	sections := held(t, 1, tournament.RoundRobin, 3, 9, tournament.Options{Sections: 3, Final: true}, 3, random)
	// A Swiss of five: a bye each round; player 5 withdraws after the
	// first.
	swiss := held(t, 2, tournament.Swiss, 2, 5, tournament.Options{Rounds: 3}, 1, random)
	if _, err := swiss.T.Withdraw("p5"); err != nil {
		t.Fatal(err)
	}
	// A knockout of three: the top seed has a bye; player 3 withdraws
	// with their games under way, lost.
	ko := held(t, 3, tournament.Knockout, 2, 3, tournament.Options{}, 1, nil)
	if _, err := ko.T.Withdraw("p3"); err != nil {
		t.Fatal(err)
	}
	if _, err := ko.T.Pair(); err != nil {
		t.Fatal(err)
	}
	// A knockout of four: player 1 wins their match, then withdraws
	// before the final, which player 2 wins by walkover.
	won := func(tt *tournament.Tournament, g tournament.Game) *tournament.Result {
		if g.Match != 1 {
			return nil
		}
		r := tournament.ResultOf(0, 1)
		if g.Players[0] == "p1" {
			r = tournament.ResultOf(1, 0)
		}
		return &r
	}
	walkover := held(t, 4, tournament.Knockout, 2, 4, tournament.Options{}, 1, won)
	if _, err := walkover.T.Withdraw("p1"); err != nil {
		t.Fatal(err)
	}
	for _, g := range walkover.T.Games {
		if g.Playable() {
			r := tournament.ResultOf(0, 1)
			if g.Players[0] == "p2" {
				r = tournament.ResultOf(1, 0)
			}
			if err := walkover.T.Record(g.Round, g.Board, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := walkover.T.Pair(); err != nil {
		t.Fatal(err)
	}
	a, _ := clubArchive(t, 2)
	site, err := New(a, &heldTournaments{list: []mailgames.Tournament{sections, swiss, ko, walkover}}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(site.Handler())
	t.Cleanup(ts.Close)

	body := tpage(t, ts.URL, "/tournament/1")
	for _, want := range []string{
		"<dt>Format</dt><dd>Round robin at tables of 3 in 3 sections and a final</dd>",
		"points go by placing, 1 for first and 0 for last",
		"Ordered by points (by placing: 1 first, 0 last), then Sonneborn-Berger",
		`<h2 id="section-1">Section 1</h2>`, `<h2 id="section-3">Section 3</h2>`,
		`<h2 id="final">Final</h2>`,
		"<h3>Crosstable: Section 2</h3>", "<h3>Crosstable: Final</h3>",
		`<span class="hint">Section 1:</span>`, `<span class="hint">Final:</span>`,
		"1 placed ahead of them at the table, ½ level, 0 behind",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("sections at tables of three: the page lacks %q", want)
		}
	}
	if !strings.Contains(body, " · ") {
		t.Error("a game of three has no result by placing (1 · ½ · 0)")
	}

	body = tpage(t, ts.URL, "/tournament/2")
	for _, want := range []string{
		"player 5 <span class=\"hint\">(withdrew)</span>",
		`<span class="hint">bye</span>`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("a Swiss of five: the page lacks %q", want)
		}
	}

	body = tpage(t, ts.URL, "/tournament/3")
	for _, want := range []string{
		"a bye: through without playing",
		`<span class="hint">forfeit</span>`,
		"player 3 <span class=\"hint\">(withdrew)</span>",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("a knockout of three: the page lacks %q", want)
		}
	}
	body = tpage(t, ts.URL, "/tournament/4")
	if !strings.Contains(between(body, `<h3 id="round-2-title">Final</h3>`, "</section>"), "a walkover: the opponent withdrew") {
		t.Errorf("a knockout's final won by walkover:\n%s", between(body, `<div class="bracket">`, "</div>\n</div>"))
	}
	if list := tpage(t, ts.URL, "/tournaments"); !strings.Contains(list, "4 tournaments.") {
		t.Errorf("the list: %s", between(list, `<p class="count">`, "</p>"))
	}
}
