package archive

import (
	"context"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// TestDateOrder: the orders by date put the latest (or earliest) Date
// first, the games of one date in the order they were added (the last
// added first when newest first), and undated games last either way.
func TestDateOrder(t *testing.T) {
	a, _ := openTemp(t)
	gs := append(testGames(t), // dates 2020.03.01, 2021.07.15, 2022.01.01, none, 2021.??.??
		makeGame(t, 6, 12, []string{"Eve", "Bob"}, "", "2021.07.15", nil, ""),
		makeGame(t, 7, 14, []string{"Eve", "Carol"}, "", "????.??.??", nil, ""))
	importGames(t, a, gs)
	ctx := context.Background()
	start, _ := icesickle.Game.Start(rules.Options{})
	ids := func(o Order, q Query) []int64 {
		t.Helper()
		ss, err := a.SearchOrdered(ctx, q, o)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, c := range []struct {
		name string
		o    Order
		q    Query
		want []int64
	}{
		{"newest", DateNewest, Query{}, []int64{3, 5, 6, 2, 1, 7, 4}},
		{"oldest", DateOldest, Query{}, []int64{1, 2, 6, 5, 3, 4, 7}},
		{"newest, a page", DateNewest, Query{Limit: 3, Offset: 2}, []int64{6, 2, 1}},
		// Pages of oldest first: the dated games up the index, then the
		// undated ones, a page across the two, a page of undated only.
		{"oldest, a page", DateOldest, Query{Limit: 3}, []int64{1, 2, 6}},
		{"oldest, across", DateOldest, Query{Limit: 3, Offset: 3}, []int64{5, 3, 4}},
		{"oldest, undated", DateOldest, Query{Limit: 5, Offset: 5}, []int64{4, 7}},
		{"oldest, the last", DateOldest, Query{Limit: 1, Offset: 6}, []int64{7}},
		{"oldest, past the end", DateOldest, Query{Limit: 1, Offset: 7}, nil},
		{"oldest, a player", DateOldest, Query{Player: "carol", Limit: 2, Offset: 1}, []int64{5, 3}},
		{"a player's latest", DateNewest, Query{Player: "bob", Limit: 10}, []int64{5, 6, 2, 1}},
		// Every game reached the start: the first page is read from the
		// date index (INDEXED BY), a long page is sorted; the same order.
		{"a position's latest, from the index", DateNewest, Query{Position: start.Code(), Limit: 1}, []int64{3}},
		{"a position's latest, sorted", DateNewest, Query{Position: start.Code(), Limit: 20}, []int64{3, 5, 6, 2, 1, 7, 4}},
	} {
		if got := ids(c.o, c.q); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// By opening moves, the same: the index's first page is the sort's.
	first := gs[0].tokens[0]
	one, all := ids(DateNewest, Query{Moves: first, Limit: 1}), ids(DateNewest, Query{Moves: first, Limit: 20})
	if len(one) != 1 || len(all) == 0 || one[0] != all[0] {
		t.Errorf("games that began with %s: %v from the index, %v sorted", first, one, all)
	}
}

// TestDateOrderReadsTheIndex: a page of the newest (or oldest) games,
// or of the newest of one game, is read from an index (games_date,
// games_game_date), not sorted: dateKey must stay the indexes'
// expression.
func TestDateOrderReadsTheIndex(t *testing.T) {
	a, _ := openTemp(t)
	importGames(t, a, testGames(t))
	for _, query := range []string{
		" ORDER BY " + orderBy[DateNewest],
		" WHERE g.plies > 0 ORDER BY " + orderBy[DateNewest],
		" WHERE g.game = 'IceSickle' ORDER BY " + orderBy[DateNewest],
		// DateOldest's first part (SearchOrdered).
		" WHERE " + dateKey + " IS NOT NULL ORDER BY " + dateKey + ", g.id",
		" WHERE g.game = 'IceSickle' AND " + dateKey + " IS NOT NULL ORDER BY " + dateKey + ", g.id",
	} {
		rows, err := a.DB().Query("EXPLAIN QUERY PLAN SELECT g.id FROM games g" + query + " LIMIT 50")
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, notused int
			var detail string
			if err := rows.Scan(&id, &parent, &notused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if !strings.Contains(p, "INDEX games_date") && !strings.Contains(p, "INDEX games_game_date") || strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%q: the plan is %q, not a scan of games_date or games_game_date", query, p)
		}
	}
}

// TestPlayersIgnoreAccents: the list of players finds names however
// they are accented, either way round, as a word search does.
func TestPlayersIgnoreAccents(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	var src strings.Builder
	for i, r := range []struct{ p1, p2 string }{{"José García", "Bob"}, {"Jose Garcia Lopez", "Antonín Dvořák"}, {"Zoë 50%_off", "Bob"}} {
		src.WriteString(ratedRecord(t, uint64(i+1), "2024.01.01", r.p1, r.p2, "1-0") + "\n")
	}
	if _, err := a.Import(ctx, strings.NewReader(src.String()), "r.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	for match, want := range map[string][]string{
		"garcia":  {"Jose Garcia Lopez", "José García"},
		"GARCÍA":  {"Jose Garcia Lopez", "José García"},
		"dvorak":  {"Antonín Dvořák"},
		"zoe 50%": {"Zoë 50%_off"},
		"50_":     nil,
		"bob":     {"Bob"},
	} {
		ps, n, err := a.Players(ctx, match, 10, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.Name)
		}
		slices.Sort(got)
		if !slices.Equal(got, want) || n != len(want) {
			t.Errorf("Players(%q) = %q (%d in all), want %q", match, got, n, want)
		}
	}
	if got := foldAccents("Ærø Ångström Łódź"); got != "Ærø Angstrom Łodz" {
		t.Errorf("foldAccents: %q", got)
	}
}
