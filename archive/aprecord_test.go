package archive

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"icepost/notation"
)

// siteRecords is the records Abstract Play's own code wrote
// (shared/ap-records, beside the clone), as one JSON array.
func siteRecords(t *testing.T) ([][]byte, []byte) {
	t.Helper()
	files, err := filepath.Glob("../../shared/ap-records/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in ../../shared/ap-records: %v", err)
	}
	var recs [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, bytes.TrimSpace(b))
	}
	return recs, append(append([]byte("[\n"), bytes.Join(recs, []byte(",\n"))...), "\n]\n"...)
}

// The site's records import, as an array or one a file, with their
// players, result, score, event, round, date and site; the same games
// again are duplicates, whatever the header says (a player renamed);
// and a stored game's record replays.
func TestImportAPRecords(t *testing.T) {
	ctx := context.Background()
	a, _ := openTemp(t)
	recs, array := siteRecords(t)
	st, err := a.Import(ctx, bytes.NewReader(array), "ap.json", ImportOptions{})
	if err != nil || st.Imported != len(recs) || st.Quarantined != 0 {
		t.Fatalf("%v %v", st, err)
	}
	games, err := a.Search(ctx, Query{})
	if err != nil || len(games) != len(recs) {
		t.Fatalf("%d games, %v", len(games), err)
	}
	for _, g := range games {
		if g.Game != "Pikemen" || g.Site != "Abstract Play" || g.Event != "AP records" || g.Date == "" || g.Round == "" ||
			g.Players[0] != "Ada Tester" || g.Players[1] != "Bob Tester" || g.Termination != "normal" || g.Scores == "" {
			t.Errorf("%+v", g)
		}
		s, err := a.Get(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(s.Record, []byte(`[GameId "ap-`)) {
			t.Errorf("no GameId:\n%s", s.Record)
		}
		if _, errs := notation.Check("stored", s.Record); len(errs) > 0 {
			t.Errorf("stored record: %v", errs)
		}
	}
	renamed := bytes.ReplaceAll(recs[0], []byte("Ada Tester"), []byte("Ada T."))
	st, err = a.Import(ctx, bytes.NewReader(renamed), "again.json", ImportOptions{})
	if err != nil || st.Duplicates != 1 || st.Imported != 0 {
		t.Fatalf("the same game again: %v %v", st, err)
	}
}

// A record that does not replay is quarantined with the ply and the
// site's move; bad records of every kind add no game; a record of 10 MB
// is refused by its size; JSON that breaks off stops its file with an
// error of the input, not of the archive.
func TestImportBadAPRecords(t *testing.T) {
	ctx := context.Background()
	a, _ := openTemp(t)
	recs, _ := siteRecords(t)
	one := string(recs[0])
	bad := []string{
		strings.Replace(one, `"a8(NW)"`, `"a8(NNW)"`, 1),
		strings.Replace(one, `"result": 1`, `"result": 0`, 1),
		strings.Replace(one, `"name": "Pikemen"`, `"name": "Pikeman"`, 1),
		strings.Replace(one, `"players": [`, `"players": [{"name": "Cy", "result": 0},`, 1),
		`{"header": {"game": {"name": "Pikemen"}}, "moves": [["` + strings.Repeat("h", 10<<20) + `"]]}`,
	}
	var reports []string
	st, err := a.Import(ctx, strings.NewReader("["+strings.Join(bad, ",\n")+"]"), "bad.json", ImportOptions{Report: func(err error) { reports = append(reports, err.Error()) }})
	if err != nil || st.Imported != 0 || st.Quarantined != len(bad) {
		t.Fatalf("%v %v %q", st, err, reports)
	}
	for i, want := range []string{
		"bad.json:36:4: ply 2: a8(NNW): not Abstract Play's notation",
		"the moves end the game after ply 103 with seat 1 (Ada Tester) won",
		`game "Pikeman": icepost plays no such game of Abstract Play's`,
		"header.players lists 3 players: Pikemen on Abstract Play has 2 players; is a player missing?",
		"record too large",
	} {
		if !strings.Contains(reports[i], want) {
			t.Errorf("report %d: %q, want %q", i, reports[i], want)
		}
	}
	if n, err := a.Count(ctx, Query{}); err != nil || n != 0 {
		t.Fatalf("%d games after bad records, %v", n, err)
	}
	qs, err := a.Quarantine(ctx)
	if err != nil || len(qs) != len(bad) || !strings.HasPrefix(qs[0].Text, "{") || !strings.Contains(qs[0].Reason, "a8(NNW)") {
		t.Fatalf("%v %+v", err, qs)
	}
	// Retried, the quarantined JSON is read as JSON again.
	if st, err := a.RetryQuarantine(ctx); err != nil || st.Quarantined != len(bad) {
		t.Fatalf("retry: %v %v", st, err)
	}

	_, err = a.Import(ctx, strings.NewReader("["+one+",\n"+one[:100]), "cut.json", ImportOptions{})
	if !errors.Is(err, notation.ErrSyntax) || !InputError(err) || !strings.Contains(err.Error(), "the input ends inside record 2") {
		t.Fatalf("broken JSON: %v", err)
	}
}
