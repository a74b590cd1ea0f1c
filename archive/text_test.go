package archive

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
)

// TestTextKey: textKey sorts games as the order by date newest first
// reads them backwards (dateKey, NULL least, then id), and textKeySQL
// gives the same keys in SQLite.
func TestTextKey(t *testing.T) {
	a, _ := openTemp(t)
	rng := rand.New(rand.NewPCG(9, 9))
	digit := func() byte {
		if rng.IntN(5) == 0 {
			return '?'
		}
		return byte('0' + rng.IntN(10))
	}
	type game struct {
		date    string
		hasDate bool
		id      int64
	}
	gs := []game{{"", false, 1}, {"????.??.??", true, 2}, {"?999.12.31", true, 3}, {"0000.00.00", true, 4},
		{"9999.99.99", true, maxTextID}, {"????.????", true, 5}, {"2015.xx.01", true, 6}, {"2015.??.??", true, 7}}
	for i := range 2000 {
		b := []byte("0000.00.00")
		for j := range b {
			if j != 4 && j != 7 {
				b[j] = digit()
			}
		}
		if i%3 == 0 {
			copy(b, "2015") // many of one year, for ties of the other digits
		}
		gs = append(gs, game{string(b), true, 10 + rng.Int64N(1000)})
	}
	// dateKey as the orders read it: "" for NULL, which is the least.
	dateKey := func(g game) string {
		if !g.hasDate || strings.HasPrefix(g.date, "?") {
			return ""
		}
		return g.date
	}
	sorted := slices.Clone(gs)
	slices.SortFunc(sorted, func(x, y game) int {
		return cmp.Or(strings.Compare(dateKey(x), dateKey(y)), cmp.Compare(x.id, y.id))
	})
	for i := 1; i < len(sorted); i++ {
		x, y := sorted[i-1], sorted[i]
		if kx, ky := textKey(x.date, x.hasDate, x.id), textKey(y.date, y.hasDate, y.id); kx > ky || (kx == ky && (x.id != y.id || dateKey(x) != dateKey(y))) {
			// "2015.xx.01" and "????.????" are not dates the notation
			// takes: they only need a key, not the order.
			if x.id != 6 && y.id != 6 && x.id != 5 && y.id != 5 {
				t.Errorf("%q/%d (key %d) sorts before %q/%d (key %d)", x.date, x.id, kx, y.date, y.id, ky)
			}
		}
	}
	for _, g := range gs {
		k := textKey(g.date, g.hasDate, g.id)
		if k < 0 || k&textIDMask != g.id {
			t.Errorf("%q/%d: key %d does not hold the id", g.date, g.id, k)
		}
		var date any
		if g.hasDate {
			date = g.date
		}
		var got int64
		if err := a.DB().QueryRow(`SELECT `+textKeySQL+` FROM (SELECT ? AS date, ? AS id) AS g`, date, g.id).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != k {
			t.Errorf("%q/%d: textKeySQL %d, textKey %d", g.date, g.id, got, k)
		}
	}
}

// firstLanguages are the languages migration 9 gave the four games in
// game_text, which migration 10 recorded in game_languages.
var firstLanguages = map[string]int{"IceSickle": 1, "Pikemen": 2, "IceLady": 3, "IceFrogs": 4}

// renamed is a game under another name, for a sixth game in the tests.
type renamed struct {
	rules.Game
	name string
}

func (r renamed) Name() string { return r.name }

// TestTextLanguages: the four games keep the languages migration 9 gave
// them; games registered after them are numbered in the order they were
// registered in when the first of them is stored, each a language of its
// own; the numbers stay when the games are registered again in another
// order; textLanguageSQL agrees with the table.
func TestTextLanguages(t *testing.T) {
	ctx := context.Background()
	a, path := openTemp(t)
	langs := func() map[string]int {
		t.Helper()
		l, err := readTextLanguages(ctx, a.DB())
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	if got := langs(); !maps.Equal(got, firstLanguages) {
		t.Fatalf("a new archive's languages %v, want %v", got, firstLanguages)
	}
	tally := renamed{counting.Game, "Tally"}
	unCounting, unTally := games.Register(counting.Game), games.Register(tally)
	// Tally is stored first; Counting, registered before it, gets 5.
	tx, err := a.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := numberTextLanguages(ctx, tx, "Tally")
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	want := maps.Clone(firstLanguages)
	want["Counting"], want["Tally"] = 5, 6
	if !maps.Equal(got, want) || !maps.Equal(langs(), want) {
		t.Errorf("languages after storing Tally: %v (table %v), want %v", got, langs(), want)
	}
	// Registered again the other way round, in another process: nothing
	// moves.
	unTally()
	unCounting()
	defer games.Register(tally)()
	defer games.Register(counting.Game)()
	a.Close()
	a, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if got := langs(); !maps.Equal(got, want) {
		t.Errorf("languages after registering again: %v, want %v", got, want)
	}
	seen := map[int]string{}
	for name, l := range want {
		if other, ok := seen[l]; ok {
			t.Errorf("%s and %s share language %d", name, other, l)
		}
		seen[l] = name
		var got int
		if err := a.DB().QueryRow(`SELECT `+textLanguageSQL+` FROM (SELECT ? AS game) AS g`, name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != l {
			t.Errorf("%s: textLanguageSQL %d, game_languages %d", name, got, l)
		}
	}
	var none sql.NullInt64
	if err := a.DB().QueryRow(`SELECT ` + textLanguageSQL + ` FROM (SELECT 'Chess' AS game) AS g`).Scan(&none); err != nil || none.Valid {
		t.Errorf("textLanguageSQL of a game never stored: %v, %v; want NULL", none, err)
	}
}

// TestTextPlan: the search by words newest first reads the full-text
// index in its order, merging the games' parts, with no sort.
func TestTextPlan(t *testing.T) {
	a, _ := openTemp(t)
	for _, q := range []Query{{Text: "quiet"}, {Text: "quiet", Game: "IceLady"}, {Text: "quiet opening", Event: "cup", Since: "2010"}} {
		b, err := buildQuery(q, nil, firstLanguages)
		if err != nil {
			t.Fatal(err)
		}
		text, args := textSQL(b, 50, 0)
		rows, err := a.DB().Query("EXPLAIN QUERY PLAN "+text, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		p := strings.Join(plan, "; ")
		if strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "VIRTUAL TABLE INDEX") || !strings.Contains(p, ":DESC") {
			t.Errorf("%+v: plan %s; want the index read newest first, no sort", q, p)
		}
		if len(b.text.match.langs) > 1 && !strings.Contains(p, "MERGE") {
			t.Errorf("%+v: plan %s; want the languages merged", q, p)
		}
	}
}

// TestMigration9: an archive whose full-text index is keyed by id (before
// migration 9) is made again by date and game when opened: verify is
// clean and the searches by words find what they found.
func TestMigration9(t *testing.T) {
	ctx := context.Background()
	a, path := openTemp(t)
	if _, err := a.Import(ctx, strings.NewReader(planGames(t, 80)), "plans.rec", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	queries := []Query{{Text: "quiet", Limit: 50}, {Text: "quiet", Game: "Pikemen", Limit: 5}, {Text: "p2", Since: "2010", Limit: 50}}
	want := newestIDs(t, a, queries)
	// Back to the index of migration 1, with a stray row.
	if _, err := a.DB().Exec(`CREATE VIRTUAL TABLE old_text USING fts4(players, event, comments, tokenize=unicode61);
		INSERT INTO old_text(docid, players, event, comments) SELECT docid & ?, players, event, comments FROM game_text;
		INSERT INTO old_text(docid, players, event, comments) VALUES (100000, 'stray', '', '');
		DROP TABLE game_text; ALTER TABLE old_text RENAME TO game_text;
		DELETE FROM archive_migrations WHERE version = 9`, textIDMask); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var stored int
	a.DB().QueryRow(`SELECT count(*) FROM games`).Scan(&stored)
	checked, failed, err := a.verify(ctx, func(id int64, err error) { t.Errorf("verify: game %d: %v", id, err) })
	if err != nil || checked != stored || failed != 0 {
		t.Errorf("verify after the upgrade: %d checked, %d failed, %v", checked, failed, err)
	}
	for i, ids := range newestIDs(t, a, queries) {
		if !slices.Equal(ids, want[i]) {
			t.Errorf("%+v after the upgrade: %v, want %v", queries[i], ids, want[i])
		}
	}
	// verify sees a game whose words are not where they belong...
	var docid int64
	var lang int
	if err := a.DB().QueryRow(`SELECT docid, lang FROM game_text ORDER BY docid DESC LIMIT 1`).Scan(&docid, &lang); err != nil {
		t.Fatal(err)
	}
	if _, err := a.DB().Exec(`UPDATE game_text SET lang = ? WHERE docid = ?`, (lang+1)%5, docid); err != nil {
		t.Fatal(err)
	}
	var bad []error
	a.verify(ctx, func(_ int64, err error) { bad = append(bad, err) })
	if len(bad) != 1 || !errors.Is(bad[0], ErrTextIndex) {
		t.Errorf("verify of a game indexed in another language: %v", bad)
	}
	// ... and a row of a game not stored.
	if _, err := a.DB().Exec(`UPDATE game_text SET lang = ? WHERE docid = ?;
		INSERT INTO game_text(docid, lang, players, event, comments) VALUES (99999, 1, 'stray', '', '')`, lang, docid); err != nil {
		t.Fatal(err)
	}
	bad = nil
	a.verify(ctx, func(id int64, err error) {
		if id != 0 || !errors.Is(err, ErrTextIndex) || !strings.Contains(err.Error(), "1 rows of games not stored") {
			t.Errorf("verify of a stray row: game %d: %v", id, err)
		}
		bad = append(bad, err)
	})
	if len(bad) != 1 {
		t.Errorf("verify of a stray row: %v", bad)
	}
}
