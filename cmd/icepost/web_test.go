package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/internal/waitfor"
)

func TestArchiveRatings(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	if code, _, errs := runArchive(t, db, selfplay(t, "30"), "import", "-q", "-"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	code, out, errs := runArchive(t, db, "", "ratings")
	if code != exitOK || !strings.HasPrefix(out, "     GAME") && !strings.Contains(out, "RATING") {
		t.Fatalf("ratings: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "Random 1") || !strings.Contains(out, "Random 2") || !strings.Contains(out, "IceSickle") {
		t.Errorf("ratings:\n%s", out)
	}
	code, out, _ = runArchive(t, db, "", "ratings", "-game", "icesickle", "-limit", "1", "-format", "json")
	var rs []struct {
		Game   string  `json:"game"`
		Player string  `json:"player"`
		Rating float64 `json:"rating"`
		Games  int     `json:"games"`
	}
	if err := json.Unmarshal([]byte(out), &rs); code != exitOK || err != nil || len(rs) != 1 || rs[0].Games == 0 {
		t.Errorf("json: exit %d, %v\n%s", code, err, out)
	}
	if code, _, errs := runArchive(t, db, "", "ratings", "-game", "chess"); code != exitUsage || !strings.Contains(errs, "unknown game") {
		t.Errorf("unknown game: exit %d, %s", code, errs)
	}
}

func TestPlayersListRatings(t *testing.T) {
	db, _ := operatorDB(t)
	code, out, errs := runOp(t, "players", "-db", db, "list")
	if code != exitOK || !strings.Contains(strings.SplitN(out, "\n", 2)[0], "RATINGS") {
		t.Fatalf("players list: exit %d\n%s%s", code, out, errs)
	}
}

func TestWebCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if code, _, errs := runArchive(t, db, selfplay(t, "3"), "import", "-q", "-"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	mailDB, _ := operatorDB(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int, 1) // room for the exit code when the test has given up waiting
	go func() {
		done <- run(ctx, []string{"web", "-q", "-addr", "127.0.0.1:0", "-db", db, "-mail-db", mailDB}, nil, &out, &errb)
	}()
	var url string
	if !waitfor.Within(20*time.Second, func() bool {
		if s := out.String(); strings.Contains(s, "http://") {
			url = strings.Fields(s[strings.Index(s, "http://"):])[0]
		}
		return url != ""
	}) {
		cancel()
		t.Fatalf("no address said: %s %s", out.String(), errb.String())
	}
	for _, path := range []string{"", "search?game=IceSickle", "game/1", "live"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d\n%s", path, resp.StatusCode, body)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d: %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("web did not stop when its context ended")
	}
	// No archive there: refused, and none made.
	missing := filepath.Join(dir, "nothere.db")
	code, _, errs := runOp(t, "web", "-db", missing)
	if _, err := os.Stat(missing); code != exitUsage || !strings.Contains(errs, "no archive at") || err == nil {
		t.Errorf("missing archive: exit %d, %s, %v", code, errs, err)
	}
}
