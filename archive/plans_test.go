package archive

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// planGames writes n random games of every game in turn, between few
// players (so that a player sits in two seats of some games), with
// events that differ in case or only by a suffix, dates known, partly
// known, unknown and missing, and words in some comments.
func planGames(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(31, 31))
	var starts []rules.State
	for _, g := range games.All() {
		s, err := g.Start(rules.Options{})
		if err != nil {
			t.Fatal(err)
		}
		starts = append(starts, s)
	}
	events := []string{"Spring Open", "spring open", "Summer Cup", "bench 7", "bench 70", "50%_off", ""}
	dates := []string{"2010.05.01", "2015.12.31", "2015.??.??", "????.??.??", "", "2008.02.29", "2016.01.01", "2012.07", "201?.05.??", "2015.1?.3?"}
	var src strings.Builder
	for i := range n {
		start := starts[i%len(starts)]
		var tags []notation.Tag
		if e := events[rng.IntN(len(events))]; e != "" {
			tags = append(tags, notation.Tag{Name: "Event", Value: e})
		}
		d := dates[rng.IntN(len(dates))]
		if rng.IntN(3) == 0 {
			d = fmt.Sprintf("%04d.%02d.%02d", 2005+rng.IntN(15), 1+rng.IntN(12), 1+rng.IntN(28))
		}
		if d != "" {
			tags = append(tags, notation.Tag{Name: "Date", Value: d})
		}
		tags = append(tags, notation.Tag{Name: "Round", Value: strconv.Itoa(i + 1)})
		for k := 1; k <= start.Options().Seats; k++ {
			tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: "P" + strconv.Itoa(rng.IntN(6))})
		}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 60+rng.IntN(200)))
		if err != nil {
			t.Fatal(err)
		}
		if rng.IntN(4) == 0 {
			rec.Main.Moves[0].After = []string{"a quiet opening"}
		}
		src.WriteString(rec.String() + "\n")
	}
	return src.String()
}

// TestSearchPlansAgree: the searches that read the indexes of migration
// 7 (an event among the events' names, dates as the date indexes hold
// them, a player's games from seats_player_date) and of migration 9 (the
// games with words newest first from the full-text index) select the
// same games, in the same order, as the conditions they replaced,
// written here as they were.
func TestSearchPlansAgree(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	if _, err := a.Import(ctx, strings.NewReader(planGames(t, 400)), "plans.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"p3": true, "  P3 ": true, "p3 <p3@example.org>": true, "nobody": false, "": false} {
		if got, err := a.HasPlayer(ctx, name); err != nil || got != want {
			t.Errorf("HasPlayer(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	// before is the search's games, newest first, as it was selected
	// before migration 7.
	before := func(t *testing.T, q Query) []int64 {
		t.Helper()
		c, err := check(q)
		if err != nil {
			t.Fatal(err)
		}
		b := &builder{}
		if c.game != nil {
			b.add("g.game = ?", c.game.Name())
		}
		if c.player != "" || c.seat != 0 || c.opponent != "" {
			seatCond(b, c)
		}
		if c.since != "" {
			b.add("g.date >= ? AND substr(g.date, 1, 1) <> '?'", c.since)
		}
		if c.until != "" {
			b.add("substr(g.date, 1, ?) <= ?", len(c.until), c.until)
		}
		if c.event != "" {
			b.add(`g.event LIKE ? ESCAPE '\'`, "%"+escapeLike(c.event)+"%")
		}
		if c.plies != nil {
			b.add("g.plies >= ? AND (? < 0 OR g.plies <= ?)", c.plies.Min, c.plies.Max, c.plies.Max)
		}
		if c.text != "" {
			// The games with the words, in any language of the index
			// (the docid is the id before migration 9).
			b.add("g.id IN (SELECT docid & ? FROM game_text WHERE game_text MATCH ? AND lang IN (0, 1, 2, 3, 4))", textIDMask, c.text)
		}
		ids, err := a.ids(ctx, "games g", b, orderBy[DateNewest], 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, q := range []Query{
		{},
		{Event: "open"},
		{Event: "OPEN"},
		{Event: "bench 7"},
		{Event: "50%"},
		{Event: "%"},
		{Event: "_"},
		{Event: "no such event"},
		{Since: "2010", Until: "2015"},
		{Since: "2015.12.31"},
		{Until: "2015.12"},
		{Until: "2012.07.01"},
		{Until: "2019"},
		{Event: "bench 7", Since: "2010", Until: "2015"},
		{Event: "spring", Since: "2012.07", Game: "Pikemen"},
		{Player: "p3"},
		{Player: "P3", Result: "win"},
		{Player: "p3", Result: "loss", Since: "2010"},
		{Player: "p3", Seat: 2},
		{Player: "p3", Opponent: "p4"},
		{Player: "p3", Opponent: "p3"},
		{Opponent: "p5"},
		{Seat: 1, Result: "draw"},
		{Player: "p1", Game: "IceLady", Until: "2015"},
		{Player: "nobody"},
		{Text: "quiet"},
		{Text: "quiet", Game: "IceLady"},
		{Text: "quiet", Player: "p2"},
		{Text: "qui*", Event: "cup"},
		{Text: "quiet", Since: "2010", Until: "2015"},
		{Text: "quiet opening", Game: "Pikemen", Since: "2015"},
		{Text: "p3"},
		{Text: "p3 quiet", Game: "IceFrogs"},
		{Text: "nowhere"},
		{Text: "quiet", Game: "IceSickle", Plies: &Range{Min: 100, Max: -1}},
	} {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			want := before(t, q)
			n, err := a.Count(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(want) {
				t.Errorf("Count %d, want %d", n, len(want))
			}
			for _, page := range []struct{ limit, offset int }{{1000, 0}, {1, 0}, {7, 0}, {7, 7}, {50, 3}, {5, len(want) - 2}} {
				pq := q
				pq.Limit, pq.Offset = page.limit, max(0, page.offset)
				ss, err := a.SearchOrdered(ctx, pq, DateNewest)
				if err != nil {
					t.Fatal(err)
				}
				var got []int64
				for _, s := range ss {
					got = append(got, s.ID)
				}
				w := want[min(pq.Offset, len(want)):min(pq.Offset+pq.Limit, len(want))]
				if !slices.Equal(got, w) {
					t.Errorf("limit %d offset %d: %v, want %v", pq.Limit, pq.Offset, got, w)
				}
				if n, err := a.Count(ctx, pq); err != nil || n != len(w) {
					t.Errorf("Count with limit %d offset %d: %d, %v; want %d", pq.Limit, pq.Offset, n, err, len(w))
				}
			}
		})
	}
}

// TestMigration7: an archive made before migration 7 gets its indexes,
// its events and its seats' dates when it is opened, and searches by
// event and by player then find what they found before.
func TestMigration7(t *testing.T) {
	ctx := context.Background()
	a, path := openTemp(t)
	if _, err := a.Import(ctx, strings.NewReader(planGames(t, 80)), "plans.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	queries := []Query{{Event: "open", Since: "2010"}, {Player: "p2", Limit: 5}, {Player: "p2", Result: "win", Until: "2015"}}
	want := newestIDs(t, a, queries)
	// Back to the schema of migration 6.
	if _, err := a.DB().Exec(`DROP TRIGGER games_event_insert; DROP TRIGGER games_event_update; DROP TABLE events;
		DROP INDEX games_event_date; DROP INDEX seats_player_date; ALTER TABLE seats DROP COLUMN sort_date;
		DELETE FROM archive_migrations WHERE version = 7`); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var events, dated, datedSeats int
	a.DB().QueryRow(`SELECT count(*) FROM events`).Scan(&events)
	a.DB().QueryRow(`SELECT count(*) FROM seats s JOIN games g ON g.id = s.game_id WHERE g.date IS NOT NULL AND substr(g.date, 1, 1) <> '?'`).Scan(&dated)
	a.DB().QueryRow(`SELECT count(*) FROM seats WHERE sort_date IS NOT NULL`).Scan(&datedSeats)
	if events != 6 || dated == 0 || datedSeats != dated {
		t.Errorf("after the upgrade: %d events (want 6), %d seats with a date of %d", events, datedSeats, dated)
	}
	for i, ids := range newestIDs(t, a, queries) {
		if !slices.Equal(ids, want[i]) {
			t.Errorf("%+v after the upgrade: %v, want %v", queries[i], ids, want[i])
		}
	}
}

// newestIDs lists the games of each query newest first (DateNewest);
// every query must find some, or the test that asks says nothing.
func newestIDs(t *testing.T, a *Archive, queries []Query) [][]int64 {
	t.Helper()
	var out [][]int64
	for _, q := range queries {
		ss, err := a.SearchOrdered(context.Background(), q, DateNewest)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, s := range ss {
			ids = append(ids, s.ID)
		}
		if len(ids) == 0 {
			t.Fatalf("%+v: no games; the test needs some", q)
		}
		out = append(out, ids)
	}
	return out
}

// TestAppendIDs reads group_concat's lists of ids, and refuses anything
// else.
func TestAppendIDs(t *testing.T) {
	for in, want := range map[string][]int64{"": nil, "7": {7}, "1,22,333": {1, 22, 333}, "34359738367,0": {34359738367, 0}} {
		got, err := appendIDs(nil, []byte(in))
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("appendIDs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1,,2", "1,", ",1", "x", "1 2", "-1", "1234567890123456789"} {
		if got, err := appendIDs(nil, []byte(in)); err == nil {
			t.Errorf("appendIDs(%q) = %v, want an error", in, got)
		}
	}
}
