package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// apRecords are the records Abstract Play's own code wrote
// (shared/ap-records, beside the clone).
func apRecords(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../../shared/ap-records/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in ../../../shared/ap-records: %v", err)
	}
	return files
}

// The record commands take Abstract Play's records as they take
// icepost's: validate replays them, fmt writes them as icepost's records
// (and, with -format ap, icepost's as theirs: read back, the same
// records), analyze writes its analysis into icepost's record of them.
func TestAPRecordCommands(t *testing.T) {
	files := apRecords(t)
	if code, out, errs := icepost(t, "", append([]string{"validate"}, files...)...); code != exitOK || out != "4 valid records, 0 errors\n" {
		t.Fatalf("validate: %d %q %q", code, out, errs)
	}
	code, text, errs := icepost(t, "", "fmt", files[0])
	if code != exitOK || !strings.Contains(text, `[Site "Abstract Play"]`) || !strings.Contains(text, "[GameId ") {
		t.Fatalf("fmt: %d %q\n%s", code, errs, text)
	}

	_, games, _ := icepost(t, "", "selfplay", "-game", "pikemen", "-n", "4", "-seed", "9")
	src := writeFile(t, "games.txt", games)
	_, canonical, _ := icepost(t, "", "fmt", src)
	code, js, errs := icepost(t, "", "fmt", "-format", "ap", src)
	var doc []map[string]any
	if err := json.Unmarshal([]byte(js), &doc); code != exitOK || err != nil || len(doc) != 4 {
		t.Fatalf("fmt -format ap: %d %q %v\n%s", code, errs, err, js)
	}
	code, back, errs := icepost(t, "", "fmt", writeFile(t, "games.json", js))
	if code != exitOK || back != canonical {
		t.Fatalf("read back: %d %q\n%s\nwant\n%s", code, errs, back, canonical)
	}
	if code, _, errs := icepost(t, "", "fmt", "-w", "-format", "ap", src); code != exitUsage || !strings.Contains(errs, "standard output") {
		t.Errorf("fmt -w -format ap: %d %q", code, errs)
	}

	_, three, _ := icepost(t, "", "selfplay", "-game", "pikemen", "-seats", "3", "-n", "1")
	if code, out, errs := icepost(t, "", "fmt", "-format", "ap", writeFile(t, "three.txt", three)); code != exitInvalid || out != "" ||
		!strings.Contains(errs, "Abstract Play plays Pikemen with 2 players; this game has 3 seats") {
		t.Errorf("three seats: %d %q %q", code, out, errs)
	}

	code, analysed, errs := icepost(t, "", "analyze", "-level", "1", "-seed", "1", "-workers", "1", files[0])
	if code != exitOK || !strings.Contains(analysed, `[Annotator "icepost level 1"]`) || !strings.Contains(analysed, "[%eval ") {
		t.Errorf("analyze: %d %q\n%s", code, errs, analysed)
	}
}

// A bad record: a clear error where it is, exit status 1.
func TestAPRecordErrors(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"header": {"game": {"name": "Pikemen"}, "site": {"name": "Abstract Play"},
 "players": [{"name": "A", "result": 1}, {"name": "B", "result": 0}]},
 "moves": [["h1(NE)", "a8(NW)"], ["h1(NE)"]]}`)
	code, out, errs := icepost(t, "", "validate", bad)
	if code != exitInvalid || out != "0 valid records, 1 error\n" || !strings.Contains(errs, "bad.json:3:35: ply 3: h1(NE): the large on h1 already points NE") {
		t.Errorf("%d %q %q", code, out, errs)
	}
}

// archive import reads the site's records; the same game twice is one
// game; export -format ap writes them back, and leaves out (by number,
// saying what to do) a game the format cannot hold.
func TestAPRecordArchive(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	files := apRecords(t)
	if code, out, errs := runArchive(t, db, "", append([]string{"import"}, files...)...); code != exitOK || out != "4 imported, 0 duplicates, 0 quarantined\n" {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	if code, out, _ := runArchive(t, db, "", "import", files[0]); code != exitOK || out != "0 imported, 1 duplicates, 0 quarantined\n" {
		t.Fatalf("again: %d %q", code, out)
	}
	code, js, errs := runArchive(t, db, "", "export", "-format", "ap")
	var doc []map[string]any
	if err := json.Unmarshal([]byte(js), &doc); code != exitOK || err != nil || len(doc) != 4 {
		t.Fatalf("export: %d %q %v", code, errs, err)
	}
	_, ice, _ := icepost(t, "", "selfplay", "-game", "icesickle", "-n", "1")
	runArchive(t, db, "", "import", writeFile(t, "ice.txt", ice))
	code, js, errs = runArchive(t, db, "", "export", "-format", "ap")
	if err := json.Unmarshal([]byte(js), &doc); code != exitInvalid || err != nil || len(doc) != 4 ||
		!strings.Contains(errs, "game 5 left out: IceSickle is not played on Abstract Play") || !strings.Contains(errs, "-game Pikemen") {
		t.Errorf("export with an IceSickle game: %d %q %v", code, errs, err)
	}
	if code, _, errs := runArchive(t, db, "", "import", writeFile(t, "cut.json", `[{"header": {`)); code != exitInvalid || !strings.Contains(errs, "the input ends inside record 1") {
		t.Errorf("broken JSON: %d %q", code, errs)
	}
}
