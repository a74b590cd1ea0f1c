package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"icepost/rules/games"
)

// Every flag a command's -h lists is in its usage line too, for the
// commands without subcommands (whose usage lines name their flags one
// by one; the archive's say [filters]).
func TestUsageLinesNameEveryFlag(t *testing.T) {
	flagLine := regexp.MustCompile(`(?m)^  (-[a-z-]+)`)
	for _, c := range commands {
		if len(c.subcommands) > 0 || c.name == "help" {
			continue
		}
		_, out, _ := icepost(t, "", c.name, "-h")
		usage, _, _ := strings.Cut(out, "\n")
		for _, m := range flagLine.FindAllStringSubmatch(out, -1) {
			if !strings.Contains(usage+" ", "["+m[1]+" ") && !strings.Contains(usage+" ", "["+m[1]+"]") && !strings.Contains(usage+" ", " "+m[1]+" ") {
				t.Errorf("%s -h lists %s, its usage line does not:\n%s", c.name, m[1], usage)
			}
		}
	}
}

// docs/record.md says so: icepost help record lists the games.
func TestHelpRecordListsGames(t *testing.T) {
	code, out, _ := icepost(t, "", "help", "record")
	if code != exitOK {
		t.Fatalf("help record: exit %d", code)
	}
	for _, name := range games.Names() {
		if !strings.Contains(out, name) {
			t.Errorf("help record does not name %s:\n%s", name, out)
		}
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		code, out, errs := icepost(t, "", args...)
		if code != exitOK || !strings.HasPrefix(out, "icepost ") || !strings.Contains(out, "go1.") {
			t.Errorf("%v: exit %d %q %q", args, code, out, errs)
		}
	}
}

// A file that cannot be read is an error in the summary, and the summary
// says 1 record, 1 error.
func TestValidateCountsUnreadableFiles(t *testing.T) {
	good := writeFile(t, "good.txt", "[Game \"IceSickle\"]\n\n1. L@c3 *\n")
	missing := filepath.Join(t.TempDir(), "missing.txt")
	code, out, errs := icepost(t, "", "validate", good, missing)
	if code != exitUsage || !strings.Contains(errs, "no such file") || !strings.Contains(out, "1 valid record, 1 error\n") {
		t.Errorf("validate good missing: exit %d %q %q", code, out, errs)
	}
	code, out, _ = icepost(t, "", "validate", good, good)
	if code != exitOK || !strings.Contains(out, "2 valid records, 0 errors\n") {
		t.Errorf("validate good good: exit %d %q", code, out)
	}
}

// search says on standard error how many games matched when it shows
// fewer; stats takes -format json.
func TestArchiveSearchCountAndStatsJSON(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	if code, _, errs := runArchive(t, db, selfplay(t, "12"), "import", "-q", "-"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	code, out, errs := runArchive(t, db, "", "search", "-limit", "5")
	if code != exitOK || strings.Count(out, "\n") != 6 || !strings.Contains(errs, "5 of 12 games shown") {
		t.Errorf("search -limit 5: exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runArchive(t, db, "", "search", "-limit", "5", "-offset", "10")
	if code != exitOK || !strings.Contains(errs, "2 of 12 games shown (from game 11)") {
		t.Errorf("search -offset 10: exit %d %q", code, errs)
	}
	if code, _, errs = runArchive(t, db, "", "search", "-limit", "0"); code != exitOK || errs != "" {
		t.Errorf("search -limit 0 shows all and says nothing more: exit %d %q", code, errs)
	}

	code, out, errs = runArchive(t, db, "", "stats", "-format", "json")
	if code != exitOK {
		t.Fatalf("stats -format json: exit %d %s", code, errs)
	}
	var st struct {
		Kinds []struct {
			Game  string `json:"game"`
			Seats int    `json:"seats"`
			Games int    `json:"games"`
			Wins  []int  `json:"wins"`
		} `json:"kinds"`
		Players []struct {
			Name  string  `json:"name"`
			Games int     `json:"games"`
			Score float64 `json:"score"`
		} `json:"players"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("stats -format json: %v\n%s", err, out)
	}
	if len(st.Kinds) != 1 || st.Kinds[0].Game != "IceSickle" || st.Kinds[0].Games != 12 || len(st.Kinds[0].Wins) != 2 || len(st.Players) == 0 {
		t.Errorf("stats json: %+v\n%s", st, out)
	}
	code, out, _ = runArchive(t, db, "", "stats", "-explore", "-game", "icesickle", "-format", "json")
	var ex struct {
		Position string `json:"position"`
		Moves    []struct {
			Move  string `json:"move"`
			Games int    `json:"games"`
		} `json:"moves"`
	}
	if err := json.Unmarshal([]byte(out), &ex); code != exitOK || err != nil || ex.Position == "" || len(ex.Moves) == 0 {
		t.Errorf("stats -explore -format json: exit %d %v\n%s", code, err, out)
	}
	if code, _, _ := runArchive(t, db, "", "stats", "-format", "records"); code != exitUsage {
		t.Errorf("stats -format records: exit %d, want %d", code, exitUsage)
	}
}
