package archive

import (
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/icesickle"
)

func openTemp(t *testing.T) (*Archive, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "archive.db")
	a, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, path
}

// testGame is a record written for the tests and what the filters should
// see in it.
type testGame struct {
	text    string
	players []string
	event   string
	date    string
	winner  int // -1 undecided
	plies   int
	tags    map[string]string
	comment string
	states  []rules.State
	tokens  []string
}

// makeGame plays a random IceSickle game (stopped after stop plies when
// stop > 0, ended by resignation) with the tags given.
func makeGame(t *testing.T, seed uint64, stop int, players []string, event, date string, extra map[string]string, comment string) testGame {
	t.Helper()
	start, _ := icesickle.Game.Start(rules.Options{})
	moves := notation.RandomGame(start, rand.New(rand.NewPCG(seed, 7)), 1000)
	if stop > 0 {
		moves = moves[:stop]
	}
	var tags []notation.Tag
	if event != "" {
		tags = append(tags, notation.Tag{Name: "Event", Value: event})
	}
	if date != "" {
		tags = append(tags, notation.Tag{Name: "Date", Value: date})
	}
	for i, p := range players {
		tags = append(tags, notation.Tag{Name: fmt.Sprintf("Player%d", i+1), Value: p})
	}
	for k, v := range extra {
		tags = append(tags, notation.Tag{Name: k, Value: v})
	}
	rec, err := notation.FromMoves(tags, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	if stop > 0 {
		rec.Result = "1-0"
		rec.SetTag("Result", "1-0")
		rec.SetTag("Termination", "resignation")
		rec.DeleteTag("Score")
	}
	if comment != "" {
		rec.Main.Moves[1].After = []string{comment}
	}
	g, err := notation.Replay(rec)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	w, decided, _ := notation.ParseResult(rec.Result, 2)
	if !decided {
		w = -1
	}
	return testGame{text: rec.String(), players: players, event: event, date: date, winner: w, plies: len(moves),
		tags: extra, comment: comment, states: g.States, tokens: rec.MainTokens()}
}

func testGames(t *testing.T) []testGame {
	return []testGame{
		makeGame(t, 1, 0, []string{"Alice <alice@example.org>", "Bob"}, "Spring Open", "2020.03.01", map[string]string{"Opening": "Quiet"}, "a brilliant sacrifice"),
		makeGame(t, 2, 0, []string{"Bob", "Carol"}, "Summer Cup", "2021.07.15", nil, ""),
		makeGame(t, 3, 0, []string{"ALICE", "Carol"}, "Spring Open", "2022.01.01", map[string]string{"Opening": "Sharp"}, "dull endgame"),
		makeGame(t, 4, 10, []string{"Dave", "  alice "}, "", "", nil, ""),
		makeGame(t, 5, 20, []string{"Carol", "Bob"}, "Winter'; DROP TABLE games; --", "2021.??.??", nil, "Robert'); DROP TABLE games;--"),
	}
}

func importGames(t *testing.T, a *Archive, gs []testGame) {
	t.Helper()
	var src strings.Builder
	for i, g := range gs {
		if i > 0 {
			src.WriteString("\n")
		}
		src.WriteString(g.text)
	}
	st, err := a.Import(context.Background(), strings.NewReader(src.String()), "test.rec", ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st != (ImportStats{Imported: len(gs)}) {
		t.Fatalf("import: %v", st)
	}
}

func seatOfPlayer(g testGame, name string) []int {
	var s []int
	for i, p := range g.players {
		if normalizeName(p) == normalizeName(name) {
			s = append(s, i+1)
		}
	}
	return s
}

func reached(g testGame, s rules.State) bool {
	for _, st := range g.states {
		if st.Code() == s.Code() {
			return true
		}
	}
	return false
}

func TestSearchFilters(t *testing.T) {
	a, _ := openTemp(t)
	gs := testGames(t)
	importGames(t, a, gs)
	ctx := context.Background()
	mid := gs[2].states[7]
	alice := func(g testGame) []int { return seatOfPlayer(g, "alice") }
	outcomeFor := func(g testGame, seat int) string {
		switch {
		case g.winner < 0:
			return "undecided"
		case g.winner == 0:
			return "draw"
		case g.winner == seat:
			return "win"
		}
		return "loss"
	}
	hasResult := func(g testGame, seats []int, r string) bool {
		for _, s := range seats {
			if outcomeFor(g, s) == r {
				return true
			}
		}
		return false
	}
	cases := []struct {
		name string
		q    Query
		want func(g testGame) bool
	}{
		{"all", Query{}, func(testGame) bool { return true }},
		{"game", Query{Game: "icesickle"}, func(testGame) bool { return true }},
		{"player any case and spacing", Query{Player: "  Alice"}, func(g testGame) bool { return len(alice(g)) > 0 }},
		{"player seat", Query{Player: "alice", Seat: 2}, func(g testGame) bool { return slices.Contains(alice(g), 2) }},
		{"seat result alone", Query{Seat: 1, Result: "win"}, func(g testGame) bool { return g.winner == 1 }},
		{"player win", Query{Player: "alice", Result: "win"}, func(g testGame) bool { return hasResult(g, alice(g), "win") }},
		{"player loss", Query{Player: "bob", Result: "loss"}, func(g testGame) bool { return hasResult(g, seatOfPlayer(g, "bob"), "loss") }},
		{"player draw", Query{Player: "carol", Result: "draw"}, func(g testGame) bool { return hasResult(g, seatOfPlayer(g, "carol"), "draw") }},
		{"undecided", Query{Result: "undecided"}, func(g testGame) bool { return g.winner < 0 }},
		{"opponent", Query{Player: "bob", Opponent: "carol"}, func(g testGame) bool {
			return len(seatOfPlayer(g, "bob")) > 0 && len(seatOfPlayer(g, "carol")) > 0
		}},
		{"opponent alone", Query{Opponent: "dave"}, func(g testGame) bool { return len(seatOfPlayer(g, "dave")) > 0 }},
		{"since", Query{Since: "2021"}, func(g testGame) bool { return g.date >= "2021" && g.date != "" }},
		{"until", Query{Until: "2021-07-15"}, func(g testGame) bool { return g.date != "" && g.date[:10] <= "2021.07.15" && g.date[5] != '?' }},
		{"since until", Query{Since: "2021.01", Until: "2021.12"}, func(g testGame) bool { return strings.HasPrefix(g.date, "2021.07") }},
		{"event", Query{Event: "spring"}, func(g testGame) bool { return strings.Contains(g.event, "Spring") }},
		{"event like chars", Query{Event: "%"}, func(g testGame) bool { return strings.Contains(g.event, "%") }},
		{"tag extra", Query{Tags: []TagFilter{{"Opening", "Quiet"}}}, func(g testGame) bool { return g.tags["Opening"] == "Quiet" }},
		{"tag column", Query{Tags: []TagFilter{{"Event", "Summer Cup"}}}, func(g testGame) bool { return g.event == "Summer Cup" }},
		{"tag player", Query{Tags: []TagFilter{{"Player2", "CAROL"}}}, func(g testGame) bool { return len(g.players) > 1 && normalizeName(g.players[1]) == "carol" }},
		{"tag termination", Query{Tags: []TagFilter{{"Termination", "resignation"}}}, func(g testGame) bool { return g.plies <= 20 }},
		{"plies range", Query{Plies: &Range{5, 20}}, func(g testGame) bool { return g.plies >= 5 && g.plies <= 20 }},
		{"plies max", Query{Plies: &Range{0, 15}}, func(g testGame) bool { return g.plies <= 15 }},
		{"plies min", Query{Plies: &Range{21, -1}}, func(g testGame) bool { return g.plies >= 21 }},
		{"text comment", Query{Text: "BRILLIANT"}, func(g testGame) bool { return strings.Contains(g.comment, "brilliant") }},
		{"text prefix", Query{Text: "endg*"}, func(g testGame) bool { return strings.Contains(g.comment, "endgame") }},
		{"text name", Query{Text: "dave"}, func(g testGame) bool { return len(seatOfPlayer(g, "dave")) > 0 }},
		{"text event", Query{Text: "summer"}, func(g testGame) bool { return g.event == "Summer Cup" }},
		{"position", Query{Position: mid.Code()}, func(g testGame) bool { return reached(g, mid) }},
		{"start position", Query{Position: gs[0].states[0].Code()}, func(testGame) bool { return true }},
		{"moves", Query{Moves: strings.Join(gs[1].tokens[:3], " ")}, func(g testGame) bool {
			return slices.Equal(g.tokens[:3], gs[1].tokens[:3])
		}},
		{"moves lenient spelling", Query{Moves: strings.ToLower(gs[3].tokens[0])}, func(g testGame) bool { return g.tokens[0] == gs[3].tokens[0] }},
		{"combined", Query{Game: "IceSickle", Player: "alice", Event: "spring", Since: "2020", Plies: &Range{1, -1}, Text: "sacrifice"},
			func(g testGame) bool { return g.comment == "a brilliant sacrifice" }},
		{"combined none", Query{Player: "dave", Event: "Spring"}, func(testGame) bool { return false }},
		{"combined position and player", Query{Position: mid.Code(), Player: "carol", Tags: []TagFilter{{"Opening", "Sharp"}}},
			func(g testGame) bool {
				return reached(g, mid) && len(seatOfPlayer(g, "carol")) > 0 && g.tags["Opening"] == "Sharp"
			}},
		{"unknown player", Query{Player: "nobody"}, func(testGame) bool { return false }},
		{"sql in event", Query{Event: "'; DROP TABLE games; --"}, func(g testGame) bool { return strings.Contains(g.event, "DROP") }},
		{"sql in player", Query{Player: "x' OR '1'='1"}, func(testGame) bool { return false }},
		{"sql in text", Query{Text: "Robert'); DROP TABLE games;--"}, func(g testGame) bool { return strings.Contains(g.comment, "Robert") }},
		{"sql in tag", Query{Tags: []TagFilter{{"Opening", "' OR 1=1 --"}}}, func(testGame) bool { return false }},
		{"fts operators", Query{Text: "NEAR OR NOT AND *"}, func(testGame) bool { return false }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want []int64
			for i, g := range gs {
				if c.want(g) {
					want = append(want, int64(i+1))
				}
			}
			res, err := a.Search(ctx, c.q)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, s := range res {
				got = append(got, s.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got games %v, want %v", got, want)
			}
			n, err := a.Count(ctx, c.q)
			if err != nil || n != len(want) {
				t.Errorf("Count = %d, %v; want %d", n, err, len(want))
			}
			if len(want) > 1 {
				q := c.q
				q.Limit, q.Offset = 1, 1
				res, err := a.Search(ctx, q)
				if err != nil || len(res) != 1 || res[0].ID != want[1] {
					t.Errorf("limit 1 offset 1: %v, %v; want game %d", res, err, want[1])
				}
			}
		})
	}
	var n int
	if err := a.DB().QueryRow(`SELECT count(*) FROM games`).Scan(&n); err != nil || n != len(gs) {
		t.Fatalf("games table after hostile searches: %d, %v", n, err)
	}
}

func TestSearchErrors(t *testing.T) {
	a, _ := openTemp(t)
	importGames(t, a, testGames(t)[:1])
	huge := strings.Repeat("x", maxFilter+1)
	cases := []struct {
		name string
		q    Query
		msg  string
	}{
		{"unknown game", Query{Game: "chess'--"}, "unknown game"},
		{"result without player", Query{Result: "win"}, "needs a player or a seat"},
		{"bad result", Query{Player: "a", Result: "1=1"}, "use win, loss, draw"},
		{"bad since", Query{Since: "2020'; --"}, "write YYYY"},
		{"bad until", Query{Until: "yesterday"}, "write YYYY"},
		{"bad position", Query{Position: "IceSickle '; DROP TABLE games"}, "position"},
		{"position of no game", Query{Position: "Chess rnbqkbnr"}, "starts with the game's name"},
		{"bad moves", Query{Moves: "Z@z9"}, "moves:"},
		{"empty text", Query{Text: "'; --"}, "give words"},
		{"huge value", Query{Event: huge}, "bytes long"},
		{"invalid utf-8", Query{Player: "al\xffice"}, "not valid UTF-8"},
		{"bad tag name", Query{Tags: []TagFilter{{"x' OR 1", "y"}}}, "tag name"},
		{"bad seat", Query{Seat: -1}, "seat"},
		{"negative limit", Query{Limit: -1}, "limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.Search(context.Background(), c.q)
			if !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v, want ErrQuery saying %q", err, c.msg)
			}
		})
	}
	for _, s := range []string{"20-10", "x", "-", "1-2-3", "--5"} {
		if _, err := ParseRange(s); err == nil {
			t.Errorf("ParseRange(%q) accepted", s)
		}
	}
	for s, want := range map[string]Range{"20-40": {20, 40}, "-30": {0, 30}, "50-": {50, -1}, "35": {35, 35}} {
		if r, err := ParseRange(s); err != nil || r != want {
			t.Errorf("ParseRange(%q) = %v, %v; want %v", s, r, err, want)
		}
	}
	if _, err := ParseTagFilter("no equals"); err == nil {
		t.Error("ParseTagFilter accepted a filter without =")
	}
}

// reopenIndexed opens the archive of two games at path, which runs the
// pending migrations, and checks that both games verify and that one of
// them is found at position.
func reopenIndexed(t *testing.T, path, what, position string) *Archive {
	t.Helper()
	ctx := context.Background()
	var told [][2]int
	a, err := OpenWith(ctx, path, MigrateOptions{Reindexing: func(done, total int) { told = append(told, [2]int{done, total}) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || told[0] != [2]int{2, 2} {
		t.Errorf("after %s: reindexing told %v, want [[2 2]]", what, told)
	}
	if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("after %s: game %d: %v", what, id, err) }); c != 2 || f != 0 || err != nil {
		t.Errorf("verify after %s: %d %d %v", what, c, f, err)
	}
	if n, err := a.Count(ctx, Query{Position: position}); n != 1 || err != nil {
		t.Errorf("position search after %s: %d, %v", what, n, err)
	}
	return a
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "m.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	importGames(t, a, testGames(t)[:2])
	a.Close()
	// Reopening runs no migration again and keeps the data.
	a, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var v, n int
	a.DB().QueryRow(`SELECT max(version) FROM archive_migrations`).Scan(&v)
	a.DB().QueryRow(`SELECT count(*) FROM archive_migrations`).Scan(&n)
	if files, _ := migrationFiles.ReadDir("migrations"); v != schemaVersion() || n != len(files) {
		t.Errorf("version %d (%d rows), want %d", v, n, schemaVersion())
	}
	if c, _ := a.Count(ctx, Query{}); c != 2 {
		t.Errorf("%d games after reopening, want 2", c)
	}
	// An archive written before migration 2 is upgraded on opening.
	if _, err := a.DB().Exec(`DROP INDEX games_kind; DELETE FROM archive_migrations WHERE version = 2`); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if a, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	var idx int
	a.DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'games_kind'`).Scan(&idx)
	if idx != 1 {
		t.Error("migration 2 did not run on an archive at version 1")
	}
	// An archive written before migration 3 (positions as rows) gets the
	// new index, built again from its records.
	gs := testGames(t)[:2]
	// (its records in format 1: format 2 came with migration 4)
	for id := int64(1); id <= 2; id++ {
		st, err := a.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.DB().Exec(`UPDATE games SET record = ? WHERE id = ?`, packRecord(st.Record), id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := a.DB().Exec(`DROP TABLE pos_blocks; DROP TABLE pos_runs; DROP TABLE move_tokens; DROP TABLE archive_state;
		CREATE TABLE positions (hash INTEGER NOT NULL, game_id INTEGER NOT NULL, ply INTEGER NOT NULL, PRIMARY KEY (hash, game_id, ply)) WITHOUT ROWID;
		DELETE FROM archive_migrations WHERE version = 3`); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a = reopenIndexed(t, path, "migration 3", gs[1].states[5].Code())
	if m, err := a.Explore(ctx, Query{}, gs[0].states[0]); err != nil || len(m) == 0 {
		t.Errorf("explorer after migration 3: %v %v", m, err)
	}
	var left int
	a.DB().QueryRow(`SELECT count(*) FROM archive_state`).Scan(&left)
	if left != 0 {
		t.Errorf("%d rows of work left in archive_state", left)
	}
	// An archive written before migration 5 (its index keyed by hashes
	// of position codes) is indexed again by position keys.
	oldHash := map[uint64]uint64{}
	for _, g := range gs {
		for _, s := range g.states {
			oldHash[uint64(PositionHash(s))] = codeHashBytes([]byte(s.Code()))
		}
	}
	var old []entry
	blocks, err := a.DB().Query(`SELECT data FROM pos_blocks`)
	if err != nil {
		t.Fatal(err)
	}
	for blocks.Next() {
		var data []byte
		blocks.Scan(&data)
		if err := decodeBlock(data, func(e entry) bool {
			e.hash = oldHash[e.hash]
			old = append(old, e)
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	blocks.Close()
	old, _ = sortEntries(old, nil)
	tx, _ := a.DB().BeginTx(ctx, nil)
	if _, err := tx.Exec(`DELETE FROM pos_blocks; DELETE FROM pos_runs; DELETE FROM archive_migrations WHERE version = 5`); err != nil {
		t.Fatal(err)
	}
	if _, err := writeRun(ctx, tx, old); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if n, err := a.Count(ctx, Query{Position: gs[1].states[5].Code()}); n != 0 || err != nil {
		t.Fatalf("position search in an index of code hashes: %d, %v (the test no longer tests migration 5)", n, err)
	}
	a.Close()
	a = reopenIndexed(t, path, "migration 5", gs[1].states[5].Code())
	// A schema from the future is refused.
	if _, err := a.DB().Exec(`INSERT INTO archive_migrations(version, name) VALUES (999, 'future')`); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if _, err := Open(ctx, path); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Open of a newer schema: %v", err)
	} else if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "archive schema version 999") || !strings.Contains(msg, "use a newer icepost") {
		t.Errorf("the refusal %q should name the file and the version and say what to do", msg)
	}
	// Migrate on the daemon's own database, which has tables of its own.
	db, err := sql.Open("sqlite3", DSN(filepath.Join(t.TempDir(), "daemon.db")))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`PRAGMA user_version = 7; CREATE TABLE mail_games(id INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = Migrate(ctx, db) }()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var uv int
	db.QueryRow(`PRAGMA user_version`).Scan(&uv)
	if uv != 7 {
		t.Errorf("Migrate changed user_version to %d", uv)
	}
}

func TestImportDedupeAndQuarantine(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	gs := testGames(t)
	bad := "[Game \"IceSickle\"]\n[Player1 \"X\"]\n[Player2 \"Y\"]\n\n1. L@c3 L@c3 *\n"
	unknown := "[Game \"Chess\"]\n\n1. e4 *\n"
	syntax := "[Game \"IceSickle\"]\n\n1. L@c3 {unclosed\n"
	src := gs[0].text + "\n" + bad + "\n" + gs[1].text + "\n" + gs[0].text + "\n" + unknown + "\n" + gs[2].text + "\n" + syntax
	var reports []string
	st, err := a.Import(ctx, strings.NewReader(src), "mixed.rec", ImportOptions{Report: func(err error) { reports = append(reports, err.Error()) }, BatchSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st != (ImportStats{Imported: 3, Duplicates: 1, Quarantined: 3}) {
		t.Fatalf("stats %v", st)
	}
	badLine := strings.Count(gs[0].text+"\n", "\n") + 5
	if len(reports) != 3 || !strings.HasPrefix(reports[0], fmt.Sprintf("mixed.rec:%d:9: ply 2", badLine)) {
		t.Errorf("reports %q, want the first at mixed.rec:%d:10", reports, badLine)
	}
	// The same file again adds nothing.
	st, err = a.Import(ctx, strings.NewReader(src), "mixed.rec", ImportOptions{})
	if err != nil || st != (ImportStats{Duplicates: 4, Quarantined: 3}) {
		t.Fatalf("re-import: %v, %v", st, err)
	}
	qs, err := a.Quarantine(ctx)
	if err != nil || len(qs) != 3 {
		t.Fatalf("quarantine %d, %v", len(qs), err)
	}
	if qs[0].Text != bad || qs[0].Source != "mixed.rec" || qs[0].Line != badLine-4 {
		t.Errorf("quarantined %+v", qs[0])
	}
	// Retry: fix the bad record in place (as a rules fix would make it
	// valid) and retry.
	if _, err := a.DB().Exec(`UPDATE quarantine SET text = replace(text, 'L@c3 L@c3', 'L@c3 L@c4') WHERE id = ?`, qs[0].ID); err != nil {
		t.Fatal(err)
	}
	rs, err := a.RetryQuarantine(ctx)
	if err != nil || rs != (ImportStats{Imported: 1, Quarantined: 2}) {
		t.Fatalf("retry: %v, %v", rs, err)
	}
	if qs, _ := a.Quarantine(ctx); len(qs) != 2 {
		t.Errorf("%d left in quarantine, want 2", len(qs))
	}
	// gzip input.
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write([]byte(gs[3].text + "\n" + gs[4].text))
	zw.Close()
	st, err = a.Import(ctx, &zb, "more.rec.gz", ImportOptions{})
	if err != nil || st != (ImportStats{Imported: 2}) {
		t.Fatalf("gzip import: %v, %v", st, err)
	}
	// The index holds each game's positions once, with its moves, and
	// nothing of the duplicates.
	if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("game %d: %v", id, err) }); c != 6 || f != 0 || err != nil {
		t.Errorf("verify: %d checked, %d bad, %v", c, f, err)
	}
}

func TestImportHostile(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	g := testGames(t)[0]
	huge := "[Game \"IceSickle\"]\n[Note \"" + strings.Repeat("A", maxChunk+100) + "\"]\n\n1. L@c3 *\n"
	badUTF := strings.Replace(g.text, "Bob", "B\xffb", 1)
	sqlTag := strings.Replace(g.text, "[Event \"Spring Open\"]", "[Event \"'); DROP TABLE games; --\"]", 1)
	src := huge + "\n" + badUTF + "\n" + sqlTag + "\n\x00\x01 garbage [[[\n"
	var reports []error
	st, err := a.Import(ctx, strings.NewReader(src), "hostile.rec", ImportOptions{Report: func(err error) { reports = append(reports, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if st.Quarantined < 1 || !errors.Is(reports[0], ErrTooLarge) {
		t.Fatalf("stats %v, reports %v", st, reports)
	}
	qs, _ := a.Quarantine(ctx)
	if len(qs[0].Text) > quarantineKeep {
		t.Errorf("kept %d bytes of an oversized record", len(qs[0].Text))
	}
	res, err := a.Search(ctx, Query{Event: "DROP TABLE"})
	if err != nil || len(res) != 1 {
		t.Errorf("search for the hostile event: %v, %v", res, err)
	}
	// The record with invalid UTF-8 and the garbage are quarantined; the
	// record with SQL in a tag is stored as text.
	if st != (ImportStats{Imported: 1, Quarantined: 3}) {
		t.Errorf("stats %v", st)
	}
}

func TestAddGameInCallersTransaction(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	g := testGames(t)[1]
	replay := func() *notation.Game {
		rg, err := replayText("", []byte(g.text))
		if err != nil {
			t.Fatal(err)
		}
		return rg
	}
	// The daemon's transaction rolls back: nothing stays.
	tx, err := a.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, dup, err := AddGame(ctx, tx, replay(), Provenance{MailGame: "g42"}); err != nil || dup {
		t.Fatal(dup, err)
	}
	tx.Rollback()
	if n, _ := a.Count(ctx, Query{}); n != 0 {
		t.Fatalf("%d games after rollback", n)
	}
	tx, _ = a.DB().BeginTx(ctx, nil)
	id, dup, err := AddGame(ctx, tx, replay(), Provenance{MailGame: "g42"})
	if err != nil || dup {
		t.Fatal(dup, err)
	}
	id2, dup, err := AddGame(ctx, tx, replay(), Provenance{MailGame: "g42"})
	if err != nil || !dup || id2 != id {
		t.Fatalf("second add: %d %v %v", id2, dup, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	st, err := a.Get(ctx, id)
	if err != nil || st.MailGame != "g42" || string(st.Record) != g.text {
		t.Fatalf("stored %+v, %v", st, err)
	}
}

func TestDeleteAliasVerifyStats(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	gs := testGames(t)
	importGames(t, a, gs)
	// Alias: "Bobby" games join Bob's.
	extra := makeGame(t, 9, 0, []string{"Bobby", "Eve"}, "", "", nil, "")
	if _, err := a.Import(ctx, strings.NewReader(extra.text), "x", ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	before, _ := a.Count(ctx, Query{Player: "bob"})
	if err := a.AddAlias(ctx, "Bob", "BOBBY"); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Count(ctx, Query{Player: "bob"}); n != before+1 {
		t.Errorf("bob has %d games after the alias, want %d", n, before+1)
	}
	if n, _ := a.Count(ctx, Query{Player: "bobby"}); n != before+1 {
		t.Errorf("the alias finds %d games, want %d", n, before+1)
	}
	st, err := a.Stats(ctx, Query{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Kinds) != 1 || st.Kinds[0].Games != 6 || st.Kinds[0].Seats != 2 {
		t.Errorf("kinds %+v", st.Kinds)
	}
	var bob PlayerStats
	for _, p := range st.Players {
		if p.Name == "Bob" {
			bob = p
		}
	}
	if bob.Games != before+1 || bob.Wins+bob.Losses+bob.Draws != bob.Games {
		t.Errorf("Bob's stats %+v", bob)
	}
	moves, err := a.Explore(ctx, Query{}, gs[0].states[0])
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range moves {
		total += m.Games
	}
	if total != 6 {
		t.Errorf("explorer from the start counts %d games, want 6: %+v", total, moves)
	}
	moves, _ = a.Explore(ctx, Query{}, gs[0].states[1])
	if len(moves) == 0 || moves[0].Move != gs[0].tokens[1] {
		t.Errorf("explorer after ply 1: %+v, want %s first", moves, gs[0].tokens[1])
	}
	if c, f, err := a.verify(ctx, nil); c != 6 || f != 0 || err != nil {
		t.Errorf("verify: %d %d %v", c, f, err)
	}
	// A stored record that the rules now refuse is reported.
	if _, err := a.DB().Exec(`UPDATE games SET record = ? WHERE id = 2`, packRecord([]byte("[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n"))); err != nil {
		t.Fatal(err)
	}
	var badIDs []int64
	if _, f, _ := a.verify(ctx, func(id int64, err error) { badIDs = append(badIDs, id) }); f != 1 || !slices.Equal(badIDs, []int64{2}) {
		t.Errorf("verify found %v", badIDs)
	}
	// Delete leaves nothing behind, even when the record no longer replays.
	for _, id := range []int64{1, 2} {
		if err := a.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
		var entries int
		rows, err := a.DB().Query(`SELECT data FROM pos_blocks`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var data []byte
			rows.Scan(&data)
			decodeBlock(data, func(e entry) bool {
				if e.game == id {
					entries++
				}
				return true
			})
		}
		rows.Close()
		if entries != 0 {
			t.Errorf("%d index entries of game %d left", entries, id)
		}
		for _, table := range []string{"seats", "tags"} {
			var n int
			a.DB().QueryRow(`SELECT count(*) FROM `+table+` WHERE game_id = ?`, id).Scan(&n)
			if n != 0 {
				t.Errorf("%d rows of game %d left in %s", n, id, table)
			}
		}
		var n int
		a.DB().QueryRow(`SELECT count(*) FROM game_text WHERE docid = ?`, id).Scan(&n)
		if n != 0 {
			t.Errorf("game %d left in game_text", id)
		}
	}
	if err := a.Delete(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleting again: %v", err)
	}
}

// TestConcurrentWriterAndReaders runs an importer, a daemon-style writer
// and searchers at once on one file, from two handles as two processes
// would: none may see "database is locked".
func TestConcurrentWriterAndReaders(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.db")
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	r, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	src := genGames(t, 600, 3)
	// The games the mail writer adds are made here: makeGame fails the
	// test with t.Fatal, which only the test's goroutine may call. The
	// goroutines below send their errors to errc, which the test reads
	// when they are done.
	var mailGames []testGame
	for i := range 30 {
		mailGames = append(mailGames, makeGame(t, uint64(100+i), 0, []string{"Mail A", "Mail B"}, "mail", "", nil, ""))
	}
	var wg sync.WaitGroup
	errc := make(chan error, 100)
	wg.Add(1)
	go func() {
		defer wg.Done()
		_, err := w.Import(ctx, bytes.NewReader(src), "c.rec", ImportOptions{BatchSize: 50})
		errc <- err
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i, g := range mailGames {
			rg, err := replayText("", []byte(g.text))
			if err != nil {
				errc <- err
				return
			}
			tx, err := r.DB().BeginTx(ctx, nil)
			if err != nil {
				errc <- err
				return
			}
			if _, _, err := AddGame(ctx, tx, rg, Provenance{MailGame: fmt.Sprint(i)}); err != nil {
				tx.Rollback()
				errc <- err
				return
			}
			if err := tx.Commit(); err != nil {
				errc <- err
				return
			}
		}
	}()
	for k := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				var err error
				switch (i + k) % 4 {
				case 0:
					_, err = r.Search(ctx, Query{Player: "player 5", Limit: 10})
				case 1:
					_, err = r.Count(ctx, Query{Text: "quiet"})
				case 2:
					_, err = r.Stats(ctx, Query{}, 5)
				case 3:
					_, err = r.Search(ctx, Query{Plies: &Range{10, 40}, Limit: 5})
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Error(err)
		}
	}
	if n, _ := r.Count(ctx, Query{}); n != 630 {
		t.Errorf("%d games, want 630", n)
	}
}

func TestPackRecord(t *testing.T) {
	for _, s := range []string{"", "x", testGames(t)[0].text, strings.Repeat("\xff", 100)} {
		got, err := unpackRecord(packRecord([]byte(s)), nil)
		if err != nil || string(got) != s {
			t.Errorf("round trip of %q: %q, %v", s, got, err)
		}
	}
	if _, err := unpackRecord([]byte{9, 1}, nil); err == nil {
		t.Error("unknown format accepted")
	}
}

// Format 2: a record of tags, moves and a result comes back as the same
// canonical text from its tags and move numbers; one with a comment is
// not plain.
func TestPackMoves(t *testing.T) {
	for _, g := range testGames(t) {
		recs, errs := notation.Parse("", []byte(g.text))
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		rg, err := notation.Replay(recs[0])
		if err != nil {
			t.Fatal(err)
		}
		rg.Canonicalize()
		text := notation.AppendFormat(nil, rg.Record)
		if !plainRecord(rg.Record) {
			continue
		}
		if n := textBound(rg.Record); n < len(text) {
			t.Errorf("textBound %d for a text of %d bytes", n, len(text))
		}
		toks := tokensOf(rg.Record)
		num := map[string]uint32{}
		byNum := map[uint32]string{}
		ids := make([]uint32, len(toks))
		for i, tk := range toks {
			if num[tk] == 0 {
				num[tk] = uint32(len(num) + 1)
				byNum[num[tk]] = tk
			}
			ids[i] = num[tk]
		}
		packed := packMoves(packTags(rg.Record.Tags, rg.Record.Result), ids)
		got, err := unpackRecord(packed, func(ids []uint32) ([]string, error) {
			out := make([]string, len(ids))
			for i, id := range ids {
				out[i] = byNum[id]
			}
			return out, nil
		})
		if err != nil || string(got) != string(text) {
			t.Errorf("format 2 round trip:\n%s\ngot\n%s (%v)", text, got, err)
		}
		if len(packed) >= len(packRecord(text)) {
			t.Logf("format 2 %d bytes, DEFLATE %d", len(packed), len(packRecord(text)))
		}
		for i := range packed {
			if _, err := unpackRecord(packed[:i], func(ids []uint32) ([]string, error) { return make([]string, len(ids)), nil }); err == nil && i > 0 {
				t.Errorf("format 2 cut at %d bytes read without error", i)
				break
			}
		}
	}
	rec := &notation.Record{Tags: []notation.Tag{{Name: "Game", Value: "IceSickle"}}, Result: "*"}
	rec.Main.Moves = []*notation.Move{{Token: "L@c3", After: []string{"a comment"}}}
	if plainRecord(rec) {
		t.Error("a record with a comment is plain")
	}
}

func TestSplitKeepsCommentsWhole(t *testing.T) {
	g := testGames(t)[0]
	// A comment with a line that starts with '[' must not split a record.
	text := strings.Replace(g.text, "{a brilliant sacrifice}", "{a brilliant\n[sacrifice]}", 1)
	if text == g.text {
		t.Fatal("comment not found in the test record")
	}
	a, _ := openTemp(t)
	st, err := a.Import(context.Background(), strings.NewReader("\uFEFF"+text+"\n"+testGames(t)[1].text), "c.rec", ImportOptions{})
	if err != nil || st != (ImportStats{Imported: 2}) {
		t.Fatalf("%v, %v", st, err)
	}
}

func TestEndsWithResult(t *testing.T) {
	for line, want := range map[string]bool{
		"1. a1 b2 1-0\n":      true,
		"12. x 0-1 \t\r\n":    true,
		"1/2-1/2":             true,
		"*\n":                 true,
		"5. a *":              true,
		"1-0-0\n":             true, // three seats' points
		"0-0-1-0":             true,
		"1-0-0-0-0":           false, // five
		"1. a1 b2\n":          false,
		"1-\n":                false,
		"-1\n":                false,
		"1--0\n":              false,
		"2-0\n":               false,
		"{1-0}\n":             false,
		"\n":                  false,
		"":                    false,
		"1-0\u00a0\n":         false, // the scanner's spaces are ASCII
		"a1 1/2-1/2 ; note\n": false,
	} {
		if got := endsWithResult([]byte(line)); got != want {
			t.Errorf("endsWithResult(%q) = %v, want %v", line, got, want)
		}
	}
}

// An import (prepareRecord: a Walk, no positions kept) and AddGame
// (prepare: a replayed Game) make the same row of the same record, so
// that a mail game imported later from a file is the same game.
func TestPrepareRecordAgreesWithPrepare(t *testing.T) {
	// Lenient tokens and variations: both paths write them canonically.
	var texts []string
	for _, f := range []string{"../notation/testdata/fmt/lenient.txt", "../notation/testdata/fmt/variations.txt"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	for _, g := range testGames(t) {
		texts = append(texts, g.text)
	}
	for i, text := range texts {
		recs, errs := notation.Parse("t", []byte(text))
		if len(errs) > 0 || len(recs) != 1 {
			t.Fatalf("text %d: %v", i, errs)
		}
		again, _ := notation.Parse("t", []byte(text))
		g, err := notation.Replay(recs[0])
		if err != nil {
			t.Fatalf("text %d: %v", i, err)
		}
		want, err := prepare(g, Provenance{File: "f", Line: 1})
		if err != nil {
			t.Fatal(err)
		}
		got, err := prepareRecord(again[0], Provenance{File: "f", Line: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("text %d: prepareRecord made\n%+v\nprepare\n%+v", i, got, want)
		}
	}
}

// An import numbers the tokens its replaying goroutines could not in two
// statements a batch: the tokens another writer stored since the import
// read them keep their numbers, new ones get new numbers, and a token
// met twice is numbered once.
func TestNumberBatch(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	moves := newTokenNumbers()
	moves.add("L@a1", 1) // what the import read at its start
	err := a.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		// Another writer's token, stored after the import read them.
		_, err := tx.ExecContext(ctx, `INSERT INTO move_tokens(id, token) VALUES (1, 'L@a1'), (7, 'M@b2')`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	rows := []*gameRow{{tokens: "L@a1 M@b2 S@c3 "}, {tokens: "S@c3 \"q\" "}}
	for _, r := range rows {
		moves.number(r)
	}
	err = a.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		ins, err := newInserter(ctx, tx, moves)
		if err != nil {
			return err
		}
		defer ins.close()
		if err := ins.numberBatch(ctx, rows); err != nil {
			return err
		}
		for _, tok := range []string{"M@b2", "S@c3", `"q"`} {
			if moves.m[tok] == 0 {
				t.Errorf("%s not numbered by numberBatch", tok)
			}
		}
		for _, r := range rows {
			ids, err := ins.moveIDs(ctx, r)
			if err != nil {
				return err
			}
			k := 0
			for tok := range eachToken(r.tokens) {
				var want uint32
				if err := tx.QueryRowContext(ctx, `SELECT id FROM move_tokens WHERE token = ?`, tok).Scan(&want); err != nil {
					return fmt.Errorf("%s: %w", tok, err)
				}
				if ids[k] != want {
					t.Errorf("%s numbered %d, the archive says %d", tok, ids[k], want)
				}
				k++
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM move_tokens`).Scan(&n); err != nil {
			return err
		}
		if n != 4 {
			t.Errorf("%d tokens stored, want 4", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if moves.m["M@b2"] != 7 {
		t.Errorf("M@b2 is %d in the import's numbers, want the archive's 7", moves.m["M@b2"])
	}
}
