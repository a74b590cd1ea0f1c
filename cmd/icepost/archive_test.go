package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"icepost/analysis"
	"icepost/archive"
	"icepost/notation"
)

// runArchive runs icepost archive -db db with args and stdin.
func runArchive(t *testing.T, db, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"archive", "-db", db}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func selfplay(t *testing.T, n string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"selfplay", "-game", "icesickle", "-n", n, "-seed", "1"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("selfplay: %s", errb.String())
	}
	return out.String()
}

func TestArchiveCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	games := selfplay(t, "20")
	file := filepath.Join(dir, "games.rec")
	bad := "\n[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n"
	if err := os.WriteFile(file, []byte(games+bad), 0o644); err != nil {
		t.Fatal(err)
	}
	badLine := strings.Count(games, "\n") + 4

	code, out, errs := runArchive(t, db, "", "import", file)
	if code != exitInvalid || !strings.Contains(out, "20 imported, 0 duplicates, 1 quarantined") {
		t.Fatalf("import: exit %d\n%s%s", code, out, errs)
	}
	if want := file + ":" + itoa(badLine) + ":9: ply 2: L@c3"; !strings.Contains(errs, want) {
		t.Errorf("import errors %q lack %q", errs, want)
	}
	// Again, from standard input: nothing new.
	code, out, _ = runArchive(t, db, games, "import", "-")
	if code != exitOK || !strings.Contains(out, "0 imported, 20 duplicates, 0 quarantined") {
		t.Errorf("re-import: exit %d %s", code, out)
	}

	code, out, errs = runArchive(t, db, "", "search", "-player", "random 1", "-result", "win", "-limit", "3")
	if code != exitOK || !strings.HasPrefix(out, "ID") || strings.Count(out, "\n") != 4 {
		t.Errorf("search table: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runArchive(t, db, "", "search", "-count", "-plies", "50-", "-event", "selfplay")
	if code != exitOK || strings.TrimSpace(out) == "" || strings.TrimSpace(out) == "0" {
		t.Errorf("search -count: exit %d %q", code, out)
	}
	code, out, _ = runArchive(t, db, "", "search", "-format", "json", "-tag", "Round=3")
	var obj struct {
		ID      int64    `json:"id"`
		Players []string `json:"players"`
		Record  string   `json:"record"`
	}
	if code != exitOK || strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &obj) != nil || obj.ID != 3 || obj.Players[0] != "Random 1" {
		t.Errorf("search json: exit %d %q", code, out)
	}
	code, out, _ = runArchive(t, db, "", "search", "-format", "records", "-limit", "0")
	if code != exitOK || out != games {
		t.Errorf("search -format records does not give back the imported file (exit %d)", code)
	}
	code, out, _ = runArchive(t, db, "", "export", "-moves", "S@b2 S@d5")
	if code != exitOK || !strings.HasPrefix(out, "[Game \"IceSickle\"]") || !strings.Contains(out, "1. S@b2 S@d5") {
		t.Errorf("export -moves: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "show", "2")
	if code != exitOK || !strings.Contains(out, "[Round \"2\"]") || !strings.Contains(out, "Position: IceSickle ") {
		t.Errorf("show: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "stats")
	if code != exitOK || !strings.Contains(out, "IceSickle") || !strings.Contains(out, "Random 1") {
		t.Errorf("stats: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "stats", "-explore", "-game", "icesickle")
	if code != exitOK || !strings.Contains(out, "S@b2") {
		t.Errorf("explore: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "quarantine")
	if code != exitOK || !strings.Contains(out, "c3 is occupied") || !strings.Contains(out, "1 quarantined") {
		t.Errorf("quarantine: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "quarantine", "retry")
	if code != exitOK || !strings.Contains(out, "0 imported, 0 duplicates, 1 still quarantined") {
		t.Errorf("quarantine retry: exit %d\n%s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "verify")
	if code != exitOK || !strings.Contains(out, "20 games checked, 0 faults") {
		t.Errorf("verify: exit %d\n%s", code, out)
	}
	// A game whose words are indexed in another game's language: verify
	// names it and says what is wrong, then the words go back.
	a, err := archive.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	const third = `(SELECT docid FROM game_text WHERE docid & 34359738367 = 3)`
	if _, err := a.DB().Exec(`UPDATE game_text SET lang = 4 WHERE docid = ` + third); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runArchive(t, db, "", "verify")
	if code != exitInvalid || !strings.Contains(out, "20 games checked, 1 fault\n") || !strings.Contains(errs, "game 3: the full-text index does not match the games") {
		t.Errorf("verify of a game indexed in another language: exit %d\n%s%s", code, out, errs)
	}
	if _, err := a.DB().Exec(`UPDATE game_text SET lang = 1 WHERE docid = ` + third); err != nil {
		t.Fatal(err)
	}
	a.Close()
	code, out, _ = runArchive(t, db, "", "alias", "Random 1", "R. One")
	if code != exitOK {
		t.Errorf("alias: exit %d %s", code, out)
	}
	code, out, _ = runArchive(t, db, "", "search", "-count", "-player", "r. one")
	if strings.TrimSpace(out) != "20" {
		t.Errorf("search by alias: exit %d %q", code, out)
	}
	code, out, _ = runArchive(t, db, "", "delete", "1")
	if code != exitOK || !strings.Contains(out, "deleted game 1") {
		t.Errorf("delete: exit %d %s", code, out)
	}
	code, _, errs = runArchive(t, db, "", "show", "1")
	if code != exitUsage || !strings.Contains(errs, "no such game") {
		t.Errorf("show of a deleted game: exit %d %s", code, errs)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestArchiveCLIErrors(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	runArchive(t, db, selfplay(t, "2"), "import", "-")
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{}, exitUsage, "Usage: icepost archive"},
		{[]string{"frobnicate"}, exitUsage, "unknown command"},
		{[]string{"import"}, exitUsage, "name one or more"},
		{[]string{"import", filepath.Join(dir, "missing.rec")}, exitUsage, "no such file"},
		{[]string{"search", "-game", "chess"}, exitUsage, "unknown game"},
		{[]string{"search", "-result", "win"}, exitUsage, "needs a player or a seat"},
		{[]string{"search", "-plies", "40-20"}, exitUsage, "write a range"},
		{[]string{"search", "-tag", "Event"}, exitUsage, "Name=value"},
		{[]string{"search", "-since", "2020'; DROP TABLE games; --"}, exitUsage, "write YYYY"},
		{[]string{"search", "-position", "IceSickle garbage"}, exitUsage, "position"},
		{[]string{"search", "-format", "xml"}, exitUsage, "use table, records, json or ap"},
		{[]string{"search", "stray"}, exitUsage, "unexpected argument"},
		{[]string{"show", "x' OR 1=1"}, exitUsage, "not a game id"},
		{[]string{"show", "99"}, exitUsage, "no such game"},
		{[]string{"delete", "99"}, exitUsage, "no such game"},
		{[]string{"quarantine", "flush"}, exitUsage, "retry"},
		{[]string{"stats", "-explore"}, exitUsage, "give -game"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			code, out, errs := runArchive(t, db, "", c.args...)
			if code != c.code || !strings.Contains(errs, c.msg) {
				t.Errorf("exit %d (want %d), stderr %q (want %q); stdout %q", code, c.code, errs, c.msg, out)
			}
		})
	}
	// Hostile values that are valid searches find nothing and break nothing.
	for _, args := range [][]string{
		{"search", "-player", "'; DROP TABLE games; --"},
		{"search", "-event", "%' OR '1'='1"},
		{"search", "-text", "\") OR 1=1 --"},
		{"search", "-tag", "Opening=' OR 1=1 --"},
	} {
		code, out, errs := runArchive(t, db, "", args...)
		if code != exitOK || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
	code, out, _ := runArchive(t, db, "", "search", "-count")
	if code != exitOK || strings.TrimSpace(out) != "2" {
		t.Errorf("games after hostile searches: %q", out)
	}
	// -h prints usage on stdout.
	code, out, _ = runArchive(t, db, "", "search", "-h")
	if code != exitOK || !strings.Contains(out, "-position") {
		t.Errorf("search -h: exit %d %q", code, out)
	}
}

// TestArchiveNeedsAnArchive: a mistyped -db is said, and makes no file;
// only import makes an archive.
func TestArchiveNeedsAnArchive(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "typo.db")
	for _, sub := range []string{"search", "stats", "ratings", "delete", "verify"} {
		code, _, errs := runArchive(t, db, "", sub)
		if code != exitUsage || !strings.Contains(errs, "no archive at "+db) {
			t.Errorf("archive %s on a missing file: exit %d, stderr %q", sub, code, errs)
		}
		if _, err := os.Stat(db); err == nil {
			t.Fatalf("archive %s made %s", sub, db)
		}
	}
	if code, _, errs := runArchive(t, db, selfplay(t, "1"), "import", "-"); code != exitOK {
		t.Fatalf("import: exit %d, %s", code, errs)
	}
	if code, _, errs := runArchive(t, db, "", "search"); code != exitOK {
		t.Errorf("search after import: exit %d, %s", code, errs)
	}
}

// TestArchiveAnalyzeCLI: archive analyze writes the analysis into the
// stored records (show and export give it; validate and fmt accept it),
// says what it did, skips what it did on a second run, and search
// -blunder and stats read what it stored.
func TestArchiveAnalyzeCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"selfplay", "-game", "icesickle", "-n", "3", "-seed", "2", "-max-plies", "8"}, nil, &out, &errb); code != exitOK {
		t.Fatalf("selfplay: %s", errb.String())
	}
	if code, _, errs := runArchive(t, db, out.String(), "import", "-q", "-"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	code, o, errs := runArchive(t, db, "", "analyze", "-level", "1", "-seed", "3", "-player", "random 1")
	if code != exitOK || !strings.HasPrefix(o, "3 games selected: 3 analysed (24 moves)") {
		t.Fatalf("analyze: exit %d\n%s%s", code, o, errs)
	}
	code, o, _ = runArchive(t, db, "", "analyze", "-level", "1")
	if code != exitOK || !strings.HasPrefix(o, "0 games selected") {
		t.Errorf("analyze again: exit %d %s", code, o)
	}
	code, o, _ = runArchive(t, db, "", "show", "1")
	if code != exitOK || !strings.Contains(o, `[Annotator "icepost level 1"]`) || !strings.Contains(o, "{[%eval ") {
		t.Errorf("show after analyze: exit %d\n%s", code, o)
	}
	code, exported, _ := runArchive(t, db, "", "export")
	file := filepath.Join(dir, "analysed.rec")
	if err := os.WriteFile(file, []byte(exported), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if c := run(context.Background(), []string{"validate", file}, nil, &out, &errb); code != exitOK || c != exitOK {
		t.Errorf("validate the export: exit %d %s", c, errb.String())
	}
	out.Reset()
	if c := run(context.Background(), []string{"fmt", file}, nil, &out, &errb); c != exitOK || out.String() != exported {
		t.Errorf("fmt changes the exported records (exit %d):\n%s\nwas\n%s", c, out.String(), exported)
	}
	// The blunders, as the records say them.
	recs, errl := notation.Parse("", []byte(exported))
	if len(errl) > 0 {
		t.Fatal(errl)
	}
	want := map[string]int{}
	for _, rec := range recs {
		rep, ok, err := analysis.Read(rec)
		if err != nil || !ok {
			t.Fatalf("Read: %v %v", ok, err)
		}
		by := map[string]bool{}
		for _, m := range rep.Moves {
			if m.Mark == analysis.Blunder {
				by[rec.Players()[m.Seat-1]] = true
			}
		}
		for p := range by {
			want[p]++
		}
	}
	for _, p := range []string{"Random 1", "Random 2"} {
		code, o, _ = runArchive(t, db, "", "search", "-count", "-blunder", p)
		if code != exitOK || strings.TrimSpace(o) != strconv.Itoa(want[p]) {
			t.Errorf("search -blunder %q -count: exit %d %q, the records say %d", p, code, o, want[p])
		}
	}
	code, o, _ = runArchive(t, db, "", "stats")
	if code != exitOK || !strings.Contains(o, "AVG LOSS") {
		t.Errorf("stats after analyze:\n%s", o)
	}
	if code, _, errs := runArchive(t, db, "", "analyze", "-level", "7"); code != exitUsage || !strings.Contains(errs, "levels go from 1 to 5") {
		t.Errorf("analyze -level 7: exit %d %s", code, errs)
	}
	if code, _, errs := runArchive(t, db, "", "search", "-blunder", " "); code != exitUsage || !strings.Contains(errs, "needs a name") {
		t.Errorf("search -blunder with no name: exit %d %s", code, errs)
	}
}
