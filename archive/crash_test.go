package archive

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestImportKilledHelper is the process TestImportKilled kills: it imports
// the file named by ICEPOST_KILL_SRC into ICEPOST_KILL_DB in small batches.
func TestImportKilledHelper(t *testing.T) {
	db, src := os.Getenv("ICEPOST_KILL_DB"), os.Getenv("ICEPOST_KILL_SRC")
	if db == "" {
		t.Skip("run by TestImportKilled")
	}
	a, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Import(context.Background(), f, src, ImportOptions{BatchSize: 40}); err != nil {
		t.Fatal(err)
	}
}

// An import killed at a random moment leaves an archive that verifies
// (every stored game indexed exactly), and importing the same file again
// completes it without duplicates.
func TestImportKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "games.rec")
	const n = 400
	if err := os.WriteFile(src, genGames(t, n, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	for round := range 3 {
		db := filepath.Join(dir, "a"+string(rune('0'+round))+".db")
		cmd := exec.Command(os.Args[0], "-test.run=^TestImportKilledHelper$")
		cmd.Env = append(os.Environ(), "ICEPOST_KILL_DB="+db, "ICEPOST_KILL_SRC="+src)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(20+rng.IntN(250)) * time.Millisecond
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the import failed before it was killed: %v\n%s", err, out.String())
			}
		case <-time.After(delay):
			cmd.Process.Kill()
			<-done
		}
		a, err := Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		before, err := a.Count(ctx, Query{})
		if err != nil {
			t.Fatal(err)
		}
		if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("killed after %v: game %d: %v", delay, id, err) }); err != nil || f != 0 || c != before {
			t.Errorf("killed after %v: verify %d %d %v", delay, c, f, err)
		}
		r, _ := os.Open(src)
		st, err := a.Import(ctx, r, src, ImportOptions{})
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		after, _ := a.Count(ctx, Query{})
		if st.Duplicates < before || after != st.Imported+before || st.Imported+st.Duplicates != n {
			t.Errorf("killed after %v with %d games stored; import again: %v, %d games", delay, before, st, after)
		}
		if c, f, err := a.verify(ctx, nil); err != nil || f != 0 || c != after {
			t.Errorf("after the second import: verify %d %d %v", c, f, err)
		}
		t.Logf("killed after %v: %d games stored, then %v", delay, before, st)
		a.Close()
	}
}
