package archive

import (
	"context"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
)

// countingRecord is a random game of Counting for three, in canonical
// form, with comment after its second move when comment is not "".
func countingRecord(t *testing.T, seed uint64, date, comment string) string {
	t.Helper()
	g, ok := games.Lookup("counting")
	if !ok {
		t.Fatal("Counting is not registered")
	}
	start, err := g.Start(rules.Options{Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	moves := notation.RandomGame(start, rand.New(rand.NewPCG(seed, 38)), 100)
	tags := []notation.Tag{{Name: "Event", Value: "Counting cup"}, {Name: "Date", Value: date},
		{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}, {Name: "Player3", Value: "Cy"}}
	rec, err := notation.FromMoves(tags, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	if comment != "" {
		rec.Main.Moves[1].After = []string{comment}
	}
	rg, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	rg.Canonicalize()
	return string(notation.AppendFormat(nil, rg.Record))
}

// TestNewGameInTheArchive registers a game that no file of the archive
// knows (rules/counting) and takes it through the archive: imported, it
// gets the next language of the full-text index, is found by its words
// (alone and with its game, newest first, and not in another game's
// language), added by the mail daemon's path, exported as it was
// imported, and verified.
func TestNewGameInTheArchive(t *testing.T) {
	defer games.Register(counting.Game)()
	ctx := context.Background()
	a, path := openTemp(t)
	// No Counting game stored yet: a search of its words finds none.
	if n, err := a.Count(ctx, Query{Text: "climb", Game: "Counting"}); n != 0 || err != nil {
		t.Errorf("words in Counting before any is stored: %d, %v", n, err)
	}
	recs := []string{
		countingRecord(t, 1, "2024.03.01", "a steady climb"),
		countingRecord(t, 2, "2025.06.15", "climb and climb"),
		countingRecord(t, 3, "2023.01.01", ""), // plain: format 2
	}
	sickle := makeGame(t, 7, 0, []string{"Ada", "Dee"}, "Spring Open", "2026.01.01", nil, "no climb here")
	src := strings.Join(append(slices.Clone(recs), sickle.text), "\n")
	st, err := a.Import(ctx, strings.NewReader(src), "counting.rec", ImportOptions{})
	if err != nil || st != (ImportStats{Imported: 4}) {
		t.Fatalf("import: %v, %v", st, err)
	}
	langs, err := readTextLanguages(ctx, a.DB())
	if err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(firstLanguages)
	want["Counting"] = 5
	if !maps.Equal(langs, want) {
		t.Errorf("languages %v, want %v", langs, want)
	}
	ids := func(q Query, o Order) []int64 {
		t.Helper()
		ss, err := a.SearchOrdered(ctx, q, o)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		var out []int64
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	for _, c := range []struct {
		q    Query
		o    Order
		want []int64
	}{
		{Query{Text: "climb"}, OldestFirst, []int64{1, 2, 4}},
		{Query{Text: "climb", Game: "Counting"}, OldestFirst, []int64{1, 2}},
		{Query{Text: "climb", Game: "counting"}, DateNewest, []int64{2, 1}},
		{Query{Text: "climb", Game: "Counting", Limit: 1}, DateNewest, []int64{2}},
		{Query{Text: "climb", Limit: 2}, DateNewest, []int64{4, 2}},
		{Query{Text: "climb", Game: "IceSickle"}, OldestFirst, []int64{4}},
		{Query{Text: "cy"}, DateNewest, []int64{2, 1, 3}},
		{Query{Text: "cy", Game: "Pikemen"}, OldestFirst, nil},
		{Query{Text: "counting cup", Player: "bob"}, OldestFirst, []int64{1, 2, 3}},
	} {
		if got := ids(c.q, c.o); !slices.Equal(got, c.want) {
			t.Errorf("%+v (order %d): %v, want %v", c.q, c.o, got, c.want)
		}
		if n, err := a.Count(ctx, c.q); err != nil || (c.q.Limit == 0 && n != len(c.want)) {
			t.Errorf("count %+v: %d, %v; want %d", c.q, n, err, len(c.want))
		}
	}
	// The mail daemon's path: AddGame in its own transaction.
	mailed := countingRecord(t, 4, "2026.02.02", "by mail")
	parsed, errs := notation.Parse("", []byte(mailed))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	g, err := notation.Replay(parsed[0])
	if err != nil {
		t.Fatal(err)
	}
	tx, err := a.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	id, dup, err := AddGame(ctx, tx, g, Provenance{MailGame: "7"})
	if err != nil || dup {
		t.Fatalf("AddGame: %d, %v, %v", id, dup, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	recs = append(recs, mailed)
	if got := ids(Query{Text: "mail", Game: "Counting"}, DateNewest); !slices.Equal(got, []int64{id}) {
		t.Errorf("the mailed game by its words: %v, want [%d]", got, id)
	}
	// Stored in both record formats, exported as imported.
	var formats []int
	rows, err := a.DB().Query(`SELECT unicode(substr(record, 1, 1)) FROM games WHERE game = 'Counting' ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var f int
		rows.Scan(&f)
		formats = append(formats, f)
	}
	rows.Close()
	if !slices.Contains(formats, recordDict1) || !slices.Contains(formats, recordMoves) {
		t.Errorf("Counting records stored in formats %v; the test wants both 1 and 2", formats)
	}
	var exported []string
	if err := a.Each(ctx, Query{Game: "Counting"}, func(_ Summary, rec []byte) error {
		exported = append(exported, string(rec))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(exported, recs) {
		t.Errorf("exported:\n%s\nwant:\n%s", strings.Join(exported, "\n"), strings.Join(recs, "\n"))
	}
	if st, err := a.Import(ctx, strings.NewReader(strings.Join(exported, "\n")), "export.rec", ImportOptions{}); err != nil || st != (ImportStats{Duplicates: 4}) {
		t.Errorf("the export imported again: %v, %v; want 4 duplicates", st, err)
	}
	checked, failed, err := a.verify(ctx, func(id int64, err error) { t.Errorf("verify: game %d: %v", id, err) })
	if err != nil || checked != 5 || failed != 0 {
		t.Errorf("verify: %d checked, %d failed, %v", checked, failed, err)
	}
	// Reopened, Counting keeps its language.
	a.Close()
	a, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := ids(Query{Text: "climb", Game: "Counting"}, OldestFirst); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("after reopening: %v", got)
	}
}

// TestMigration10: an archive that holds games of a registered game
// other than the four, whose words migration 9 and the code of then put
// in language 0, gets each such game a language of its own, in the
// order of its first game, and its words moved there: verify is clean
// and the searches find what they found.
func TestMigration10(t *testing.T) {
	plan := planGames(t, 12) // the four games
	// Registered Counting first, Tally stored first.
	defer games.Register(counting.Game)()
	defer games.Register(renamed{counting.Game, "Tally"})()
	ctx := context.Background()
	a, path := openTemp(t)
	tally := strings.Replace(countingRecord(t, 9, "2020.01.01", "tally ho"), `[Game "Counting"]`, `[Game "Tally"]`, 1)
	src := strings.Join([]string{tally, plan, countingRecord(t, 1, "2024.03.01", "a steady climb"),
		countingRecord(t, 2, "2021.03.01", "")}, "\n")
	if st, err := a.Import(ctx, strings.NewReader(src), "old.rec", ImportOptions{}); err != nil || st.Imported != 15 {
		t.Fatalf("import: %v, %v", st, err)
	}
	if langs, err := readTextLanguages(ctx, a.DB()); err != nil || langs["Counting"] != 5 || langs["Tally"] != 6 {
		t.Errorf("languages as imported: %v, %v; want Counting 5 and Tally 6, by registration", langs, err)
	}
	queries := []Query{{Text: "climb", Limit: 50}, {Text: "cy", Game: "Counting", Limit: 5}, {Text: "ho", Game: "Tally"}, {Text: "p2", Limit: 50}}
	want := newestIDs(t, a, queries)
	// Back to the archive of migration 9: Counting's and Tally's words in
	// language 0, no table of languages.
	if _, err := a.DB().Exec(`CREATE TABLE moved AS SELECT docid, players, event, comments FROM game_text WHERE lang > 4;
		DELETE FROM game_text WHERE docid IN (SELECT docid FROM moved);
		INSERT INTO game_text(docid, lang, players, event, comments) SELECT docid, 0, players, event, comments FROM moved;
		DROP TABLE moved; DROP TABLE game_languages; DELETE FROM archive_migrations WHERE version = 10`); err != nil {
		t.Fatal(err)
	}
	var zero int
	a.DB().QueryRow(`SELECT count(*) FROM game_text WHERE lang = 0`).Scan(&zero)
	if zero != 3 {
		t.Fatalf("%d rows in language 0, want 3 (the test no longer tests migration 10)", zero)
	}
	a.Close()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	langs, err := readTextLanguages(ctx, a.DB())
	if err != nil {
		t.Fatal(err)
	}
	wantLangs := maps.Clone(firstLanguages)
	wantLangs["Tally"], wantLangs["Counting"] = 5, 6 // by their first game stored
	if !maps.Equal(langs, wantLangs) {
		t.Errorf("languages after migration 10: %v, want %v", langs, wantLangs)
	}
	checked, failed, err := a.verify(ctx, func(id int64, err error) { t.Errorf("verify: game %d: %v", id, err) })
	if err != nil || checked != 15 || failed != 0 {
		t.Errorf("verify after migration 10: %d checked, %d failed, %v", checked, failed, err)
	}
	for i, ids := range newestIDs(t, a, queries) {
		if !slices.Equal(ids, want[i]) {
			t.Errorf("%+v after migration 10: %v, want %v", queries[i], ids, want[i])
		}
	}
	a.DB().QueryRow(`SELECT count(*) FROM game_text WHERE lang = 0`).Scan(&zero)
	if zero != 0 {
		t.Errorf("%d rows left in language 0", zero)
	}
}
