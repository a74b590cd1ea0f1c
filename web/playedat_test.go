package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"icepost/archive"
)

// A game imported from Abstract Play says where it was played and links
// to its page there, built from its game id; a club game says nothing of
// the kind.
func TestPlayedOnAbstractPlay(t *testing.T) {
	ts, _, a := newTestSite(t, 2, nil)
	files, err := filepath.Glob("../../shared/ap-records/ap-7-0.json")
	if err != nil || len(files) != 1 {
		t.Fatalf("no ../../shared/ap-records/ap-7-0.json: %v", err)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if st, err := a.Import(context.Background(), f, "ap-7-0.json", archive.ImportOptions{}); err != nil || st.Imported != 1 {
		t.Fatalf("%v %v", st, err)
	}
	p := page(t, ts.URL, "/game/3")
	want := `<p class="lead" id="played-at">Played on Abstract Play, where it is game ap-7-0: <a href="https://play.abstractplay.com/move/pikemen/0/ap-7-0" rel="external">its page on Abstract Play</a>.</p>`
	if !strings.Contains(p, want) {
		t.Errorf("no link back:\n%s", p)
	}
	for id := 1; id <= 2; id++ {
		if p := page(t, ts.URL, fmt.Sprintf("/game/%d", id)); strings.Contains(p, "played-at") {
			t.Errorf("game %d, a club game, says it was played elsewhere", id)
		}
	}
}
