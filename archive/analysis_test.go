package archive

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"icepost/analysis"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// shortGames makes n records of a few plies each (so that the engine at
// level 1 analyses them in a moment), of every game in turn with a
// variety of seats and boards, named players, and a comment, a NAG and
// a variation of their own on the second move.
func shortGames(t testing.TB, n int, seed uint64) string {
	t.Helper()
	kinds := []struct {
		game string
		opt  rules.Options
	}{
		{"IceSickle", rules.Options{}},
		{"Pikemen", rules.Options{Seats: 3}},
		{"IceLady", rules.Options{}},
		{"IceFrogs", rules.Options{Board: "hex"}},
		{"IceFrogs", rules.Options{Seats: 3}},
		{"Pikemen", rules.Options{}},
	}
	names := []string{"Ada", "Bob", "Cy", "Di", "Ed"}
	rng := rand.New(rand.NewPCG(seed, 11))
	var out strings.Builder
	for i := range n {
		k := kinds[i%len(kinds)]
		g, ok := games.Lookup(k.game)
		if !ok {
			t.Fatalf("no game %s", k.game)
		}
		start, err := g.Start(k.opt)
		if err != nil {
			t.Fatalf("%s %+v: %v", k.game, k.opt, err)
		}
		tags := []notation.Tag{{Name: "Event", Value: fmt.Sprintf("short %d", i)}}
		for s := range start.Options().Seats {
			tags = append(tags, notation.Tag{Name: fmt.Sprintf("Player%d", s+1), Value: names[(i+s)%len(names)]})
		}
		moves := notation.RandomGame(start, rng, 6+rng.IntN(5))
		rec, err := notation.FromMoves(tags, start, moves)
		if err != nil {
			t.Fatal(err)
		}
		m := rec.Main.Moves[1]
		m.After = []string{"their own comment " + fmt.Sprint(i)}
		m.NAGs = []int{1}
		m.Variations = []*notation.Line{{Moves: []*notation.Move{{Token: rec.Main.Moves[1].Token, After: []string{"the same, as a variation"}}}}}
		if i > 0 {
			out.WriteString("\n")
		}
		out.WriteString(rec.String())
	}
	return out.String()
}

func importText(t testing.TB, a *Archive, text string) ImportStats {
	t.Helper()
	st, err := a.Import(context.Background(), strings.NewReader(text), "short.rec", ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// storedRecord parses a stored game's record.
func storedRecord(t testing.TB, a *Archive, id int64) *notation.Record {
	t.Helper()
	g, err := a.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	recs, errs := notation.Parse("", g.Record)
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("game %d: %v\n%s", id, errs, g.Record)
	}
	return recs[0]
}

// checkStored checks every game against the rows beside it: a game with
// a row in analysis has an analysis at that level in its record (Read),
// and analysis_seats holds its seats' sums; a game without has no
// Annotator of icepost's, and its record is the one imported. It
// returns how many games are analysed, by level.
func checkStored(t *testing.T, a *Archive, imported map[int64]string) map[int]int {
	t.Helper()
	ctx := context.Background()
	levels := map[int]int{}
	ids, err := a.ids(ctx, "games g", &builder{}, "g.id", 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		rec := storedRecord(t, a, id)
		var level int
		err := a.db.QueryRow(`SELECT level FROM analysis WHERE game_id = ?`, id).Scan(&level)
		if err != nil {
			if analysis.Level(rec) != 0 {
				t.Errorf("game %d: no analysis row, but its record has an Annotator: %s", id, rec)
			}
			if want, ok := imported[id]; ok && rec.String() != want {
				t.Errorf("game %d: not analysed, yet its record changed:\n%s\nwas\n%s", id, rec, want)
			}
			continue
		}
		levels[level]++
		rep, ok, err := analysis.Read(rec)
		if err != nil || !ok || rep.Level != level {
			t.Errorf("game %d: analysis row at level %d; Read: %v %v %+v\n%s", id, level, ok, err, rep, rec)
			continue
		}
		want := seatSums(rep)
		rows, err := a.db.Query(`SELECT seat, moves, loss, inaccuracies, mistakes, blunders FROM analysis_seats WHERE game_id = ?`, id)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var seat int
			var s seatAnalysis
			if err := rows.Scan(&seat, &s.moves, &s.loss, &s.inaccuracies, &s.mistakes, &s.blunds); err != nil {
				t.Fatal(err)
			}
			n++
			w := want[seat]
			if w == nil || w.moves != s.moves || math.Abs(w.loss-s.loss) > 1e-9 || w.inaccuracies != s.inaccuracies || w.mistakes != s.mistakes || w.blunds != s.blunds {
				t.Errorf("game %d seat %d: stored %+v, the record says %+v", id, seat, s, w)
			}
		}
		rows.Close()
		if n != len(want) {
			t.Errorf("game %d: %d seats stored, the record has %d", id, n, len(want))
		}
		var ann string
		if err := a.db.QueryRow(`SELECT value FROM tags WHERE game_id = ? AND name = 'Annotator'`, id).Scan(&ann); err != nil || ann != fmt.Sprintf("icepost level %d", level) {
			t.Errorf("game %d: the tags table has Annotator %q (%v)", id, ann, err)
		}
	}
	return levels
}

// blundered lists, from the stored records, the games in which a player
// made a blunder.
func blundered(t *testing.T, a *Archive, player string) []int64 {
	t.Helper()
	var out []int64
	err := a.Each(context.Background(), Query{}, func(s Summary, text []byte) error {
		recs, _ := notation.Parse("", text)
		rep, ok, err := analysis.Read(recs[0])
		if err != nil || !ok {
			return err
		}
		for _, m := range rep.Moves {
			if m.Mark == analysis.Blunder && normalizeName(s.Players[m.Seat-1]) == normalizeName(player) {
				out = append(out, s.ID)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func searchIDs(t *testing.T, a *Archive, q Query) []int64 {
	t.Helper()
	res, err := a.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, s := range res {
		ids = append(ids, s.ID)
	}
	return ids
}

// TestAnalyzeInPlace analyses a small archive of every game at level 1:
// each record then holds the analysis Read gives back, its own comment,
// NAG and variation kept, the rows beside it say the same, the game is
// still the same game to the archive (dedupe, position index, verify),
// a second run analyses nothing, another level analyses again, a seed
// makes it repeatable, and -blunder finds what the records say.
func TestAnalyzeInPlace(t *testing.T) {
	ctx := context.Background()
	text := shortGames(t, 6, 1)
	a, _ := openTemp(t)
	importText(t, a, text)
	before := map[int64]string{}
	for id := int64(1); id <= 6; id++ {
		before[id] = storedRecord(t, a, id).String()
	}
	var progress []int
	st, err := a.Analyze(ctx, Query{}, AnalyzeOptions{Level: 1, Seed: 7, Workers: 2, Progress: func(done, total int) {
		if total != 6 {
			t.Errorf("progress total %d, want 6", total)
		}
		progress = append(progress, done)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if st.Selected != 6 || st.Analysed != 6 || st.Failed != 0 || st.Moves == 0 {
		t.Fatalf("first run: %+v", st)
	}
	if !slices.Equal(progress, []int{1, 2, 3, 4, 5, 6}) {
		t.Errorf("progress %v", progress)
	}
	if got := checkStored(t, a, nil); got[1] != 6 {
		t.Errorf("analysed by level: %v", got)
	}
	for id, was := range before {
		rec := storedRecord(t, a, id)
		m := rec.Main.Moves[1]
		if !strings.HasPrefix(strings.Join(m.After, "|"), "their own comment") || m.NAGs[0] != 1 || len(m.Variations) == 0 || m.Variations[0].Moves[0].After[0] != "the same, as a variation" {
			t.Errorf("game %d: its own annotations were not kept first:\n%s", id, rec)
		}
		if err := notation.Validate(rec); err != nil {
			t.Errorf("game %d: the stored record does not validate: %v", id, err)
		}
		if f := notation.AppendFormat(nil, rec); string(f) != rec.String() {
			t.Errorf("game %d: not canonical", id)
		}
		analysis.Strip(rec)
		if rec.String() != was {
			t.Errorf("game %d: stripped of its analysis, the record is\n%s\nwas\n%s", id, rec, was)
		}
	}
	// The same games, to the archive: importing them again adds nothing,
	// the index still holds exactly their positions.
	if st := importText(t, a, text); st.Imported != 0 || st.Duplicates != 6 {
		t.Errorf("importing the games again: %+v", st)
	}
	if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("verify: game %d: %v", id, err) }); err != nil || f != 0 || c != 6 {
		t.Errorf("verify: %d %d %v", c, f, err)
	}
	if n, _ := a.Count(ctx, Query{Tags: []TagFilter{{"Annotator", "icepost level 1"}}}); n != 6 {
		t.Errorf("-tag Annotator: %d games", n)
	}
	// Words: the records' own comments, not the analysis's numbers.
	if n, _ := a.Count(ctx, Query{Text: "own comment"}); n != 6 {
		t.Errorf("-text \"own comment\": %d games", n)
	}
	if n, _ := a.Count(ctx, Query{Text: "eval"}); n != 0 {
		t.Errorf("-text eval: %d games", n)
	}

	// Again at the same level: nothing to do, nothing changed.
	snapshot := map[int64]string{}
	for id := range before {
		snapshot[id] = storedRecord(t, a, id).String()
	}
	st, err = a.Analyze(ctx, Query{}, AnalyzeOptions{Level: 1, Seed: 7})
	if err != nil || st != (AnalyzeStats{}) {
		t.Errorf("second run: %+v %v", st, err)
	}
	for id, s := range snapshot {
		if storedRecord(t, a, id).String() != s {
			t.Errorf("game %d changed on the second run", id)
		}
	}

	// The -blunder filter gives the games the records say.
	found := false
	for _, p := range []string{"Ada", "bob", "CY", "Di", "Ed"} {
		want := blundered(t, a, p)
		got := searchIDs(t, a, Query{Blunder: p})
		if !slices.Equal(got, want) {
			t.Errorf("-blunder %s: %v, the records say %v", p, got, want)
		}
		found = found || len(want) > 0
		if n, err := a.Count(ctx, Query{Blunder: p, Game: "IceSickle"}); err != nil || n > len(want) {
			t.Errorf("-blunder %s -game IceSickle: %d %v", p, n, err)
		}
	}
	if !found {
		t.Log("no blunder at level 1 in these games: the filter was checked on empty sets only")
	}

	// Another level, the filters as in search: only that game again.
	st, err = a.Analyze(ctx, Query{Game: "IceSickle"}, AnalyzeOptions{Level: 2, Seed: 7})
	if err != nil || st.Selected != 1 || st.Analysed != 1 {
		t.Fatalf("level 2 on IceSickle: %+v %v", st, err)
	}
	if got := checkStored(t, a, nil); got[1] != 5 || got[2] != 1 {
		t.Errorf("analysed by level: %v", got)
	}
	if rec := storedRecord(t, a, 1); analysis.Level(rec) != 2 {
		t.Errorf("game 1 now at level %d:\n%s", analysis.Level(rec), rec)
	}

	// The same seed, the same analysis, in another archive.
	b, _ := openTemp(t)
	importText(t, b, text)
	if _, err := b.Analyze(ctx, Query{Game: "Pikemen"}, AnalyzeOptions{Level: 1, Seed: 7, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{2, 6} {
		if x, y := storedRecord(t, a, id).String(), storedRecord(t, b, id).String(); x != y {
			t.Errorf("game %d analysed with the same seed twice:\n%s\nthen\n%s", id, x, y)
		}
	}
}

// TestAnalyzeReadsAnalysedRecords: a record imported with an analysis
// has its rows at once, and archive analyze at that level (for one
// imported before the import kept them) stores them from the record,
// without the engine; the blunder filter and each player's average loss
// then give exactly the hand-made report's numbers, through aliases.
func TestAnalyzeReadsAnalysedRecords(t *testing.T) {
	ctx := context.Background()
	start, _ := games.Lookup("IceSickle")
	s0, _ := start.Start(rules.Options{})
	moves := notation.RandomGame(s0, rand.New(rand.NewPCG(3, 3)), 6)
	rec, err := notation.FromMoves([]notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}, s0, moves)
	if err != nil {
		t.Fatal(err)
	}
	toks := rec.MainTokens()
	rep := &analysis.Report{Level: 3, Seats: 2}
	losses := []float64{0, 0.3, 0.12, 0, 0.06, 0.02}
	marks := []analysis.Mark{analysis.Good, analysis.Blunder, analysis.Mistake, analysis.Good, analysis.Inaccuracy, analysis.Good}
	for i, tok := range toks {
		m := analysis.Move{Ply: i + 1, Seat: i%2 + 1, Token: tok, Before: 0.5, After: 0.5 - losses[i], Mark: marks[i]}
		if marks[i] >= analysis.Mistake {
			m.Better, m.BetterEval = toks[i], 0.5
		}
		rep.Moves = append(rep.Moves, m)
	}
	if err := analysis.Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	a, _ := openTemp(t)
	importText(t, a, rec.String()+"\n"+shortGames(t, 1, 9))
	if got := searchIDs(t, a, Query{Blunder: "Bob"}); !slices.Equal(got, []int64{1}) {
		t.Errorf("-blunder Bob after the import: %v", got)
	}
	checkStored(t, a, nil)
	analysed := Query{Tags: []TagFilter{{"Annotator", "icepost level 3"}}}
	if st, err := a.Analyze(ctx, analysed, AnalyzeOptions{Level: 3}); err != nil || st.Read != 0 || st.Analysed != 0 {
		t.Errorf("analyze after the import: %+v %v; the analysed game is not analysed again", st, err)
	}
	// As an import before it kept the rows left it.
	if _, err := a.DB().Exec(`DELETE FROM analysis_seats; DELETE FROM analysis`); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Count(ctx, Query{Blunder: "Bob"}); n != 0 {
		t.Errorf("-blunder Bob without the rows: %d games", n)
	}
	if n, _ := a.Count(ctx, Query{Text: "eval engine"}); n != 0 {
		t.Errorf("-text \"eval engine\" finds %d games: the analysis's comments went into the full-text index", n)
	}
	// The other game is Ada's and Bob's too; the Annotator tag tells the
	// analysed one.
	st, err := a.Analyze(ctx, analysed, AnalyzeOptions{Level: 3})
	if err != nil || st != (AnalyzeStats{Selected: 1, Read: 1}) {
		t.Fatalf("analyze: %+v %v", st, err)
	}
	checkStored(t, a, nil)
	// A game added one at a time (AddGame, as the daemon adds its games)
	// keeps its analysis's rows too.
	one, _ := openTemp(t)
	played, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := one.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := AddGame(ctx, tx, played, Provenance{MailGame: "g1"}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, one, Query{Blunder: "Bob"}); !slices.Equal(got, []int64{1}) {
		t.Errorf("-blunder Bob after AddGame: %v", got)
	}
	checkStored(t, one, nil)
	if got := searchIDs(t, a, Query{Blunder: "bob"}); !slices.Equal(got, []int64{1}) {
		t.Errorf("-blunder bob: %v", got)
	}
	if got := searchIDs(t, a, Query{Blunder: "Ada"}); len(got) != 0 {
		t.Errorf("-blunder Ada (a mistake, no blunder): %v", got)
	}
	if err := a.AddAlias(ctx, "Bob", "Robert"); err != nil {
		t.Fatal(err)
	}
	if got := searchIDs(t, a, Query{Blunder: "robert", Player: "Ada"}); !slices.Equal(got, []int64{1}) {
		t.Errorf("-blunder robert (an alias) -player Ada: %v", got)
	}
	if _, err := a.Search(ctx, Query{Blunder: "  "}); !errors.Is(err, ErrQuery) {
		t.Errorf("-blunder with no name: %v", err)
	}
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-9 }
	bob, err := a.Player(ctx, "Bob", 5)
	if err != nil {
		t.Fatal(err)
	}
	if an := bob.Analysis; an.Games != 1 || an.Moves != 3 || !near(an.Loss, 0.32/3) || an.Blunders != 1 || an.Inaccuracies != 0 || an.Mistakes != 0 {
		t.Errorf("Bob's analysis: %+v", an)
	}
	ada, err := a.Player(ctx, "Ada", 5)
	if err != nil {
		t.Fatal(err)
	}
	if an := ada.Analysis; an.Games != 1 || an.Moves != 3 || !near(an.Loss, 0.06) || an.Mistakes != 1 || an.Inaccuracies != 1 || an.Blunders != 0 {
		t.Errorf("Ada's analysis: %+v", an)
	}
	stats, err := a.Stats(ctx, Query{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stats.Players {
		switch p.Name {
		case "Bob":
			if p.Analysis.Moves != 3 || !near(p.Analysis.Loss, 0.32/3) || p.Games != 2 {
				t.Errorf("stats, Bob: %+v", p)
			}
		case "Ada":
			if p.Analysis.Moves != 3 || !near(p.Analysis.Loss, 0.06) {
				t.Errorf("stats, Ada: %+v", p)
			}
		default:
			if p.Analysis != (AnalysisSummary{}) {
				t.Errorf("stats, %s, of no analysed game: %+v", p.Name, p.Analysis)
			}
		}
	}
	all, err := a.PlayerAnalyses(ctx)
	if err != nil || len(all) != 2 || all["Bob"] != bob.Analysis || all["Ada"] != ada.Analysis {
		t.Errorf("PlayerAnalyses: %v %v", all, err)
	}
	// verify checks the rows against the records.
	if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("verify: game %d: %v", id, err) }); c != 2 || f != 0 || err != nil {
		t.Errorf("verify: %d %d %v", c, f, err)
	}
	for _, bad := range []string{
		`UPDATE analysis_seats SET blunders = 0 WHERE game_id = 1 AND seat = 2`,
		`UPDATE analysis_seats SET loss = loss + 0.01 WHERE game_id = 1 AND seat = 1`,
		`DELETE FROM analysis_seats WHERE game_id = 1 AND seat = 1`,
		`UPDATE analysis SET level = 2 WHERE game_id = 1`,
	} {
		tx, _ := a.db.Begin()
		if _, err := tx.Exec(bad); err != nil {
			t.Fatal(err)
		}
		var ids []int64
		// verify reads outside the transaction: commit, check, then put
		// the rows back by analysing again from the record.
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		_, f, err := a.verify(ctx, func(id int64, err error) {
			ids = append(ids, id)
			if !errors.Is(err, ErrAnalysis) {
				t.Errorf("%s: verify: %v", bad, err)
			}
		})
		if err != nil || f != 1 || !slices.Equal(ids, []int64{1}) {
			t.Errorf("%s: verify found %v (%d, %v)", bad, ids, f, err)
		}
		a.db.Exec(`DELETE FROM analysis WHERE game_id = 1`)
		if st, err := a.Analyze(ctx, Query{Tags: []TagFilter{{"Annotator", "icepost level 3"}}}, AnalyzeOptions{Level: 3}); err != nil || st != (AnalyzeStats{Selected: 1, Read: 1}) {
			t.Fatalf("analyse again: %+v %v", st, err)
		}
	}
	// Deleting the game deletes its analysis.
	if err := a.Delete(ctx, 1); err != nil {
		t.Fatal(err)
	}
	var n int
	a.db.QueryRow(`SELECT (SELECT count(*) FROM analysis) + (SELECT count(*) FROM analysis_seats)`).Scan(&n)
	if n != 0 {
		t.Errorf("%d analysis rows left after the game was deleted", n)
	}
}

// TestAnalyzeRefusesBadOptions: the level and the limit are checked
// before anything is read.
func TestAnalyzeRefusesBadOptions(t *testing.T) {
	a, _ := openTemp(t)
	for _, o := range []AnalyzeOptions{{Level: 9}, {Level: -1}, {Limit: -1}} {
		if _, err := a.Analyze(context.Background(), Query{}, o); !errors.Is(err, ErrQuery) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if _, err := a.Analyze(context.Background(), Query{Game: "chess"}, AnalyzeOptions{}); !errors.Is(err, ErrQuery) {
		t.Errorf("an unknown game: %v", err)
	}
}

// TestAnalyzeKilledHelper is the process TestAnalyzeKilled kills: it
// analyses the archive ICEPOST_ANALYZE_DB at level 1.
func TestAnalyzeKilledHelper(t *testing.T) {
	db := os.Getenv("ICEPOST_ANALYZE_DB")
	if db == "" {
		t.Skip("run by TestAnalyzeKilled")
	}
	a, err := Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Analyze(context.Background(), Query{}, AnalyzeOptions{Level: 1, Workers: 2}); err != nil {
		t.Fatal(err)
	}
}

// An analysis killed (SIGKILL) at a random moment leaves every game
// either analysed whole (record and rows) or untouched, and the next run
// analyses exactly the games left: none twice.
func TestAnalyzeKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	ctx := context.Background()
	const n = 10
	text := shortGames(t, n, 5)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 2))
	for round := range 2 {
		db := filepath.Join(t.TempDir(), "a.db")
		a, err := Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		importText(t, a, text)
		imported := map[int64]string{}
		for id := int64(1); id <= n; id++ {
			imported[id] = storedRecord(t, a, id).String()
		}
		a.Close()
		cmd := exec.Command(os.Args[0], "-test.run=^TestAnalyzeKilledHelper$")
		cmd.Env = append(os.Environ(), "ICEPOST_ANALYZE_DB="+db)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(400+rng.IntN(900)) * time.Millisecond
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the analysis failed before it was killed: %v\n%s", err, out.String())
			}
		case <-time.After(delay):
			cmd.Process.Kill()
			<-done
		}
		a, err = Open(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		before := checkStored(t, a, imported)[1]
		st, err := a.Analyze(ctx, Query{}, AnalyzeOptions{Level: 1})
		if err != nil {
			t.Fatal(err)
		}
		if st.Selected != n-before || st.Analysed != n-before || st.Read != 0 || st.Skipped != 0 || st.Failed != 0 {
			t.Errorf("killed after %v with %d games analysed; the next run: %+v", delay, before, st)
		}
		if got := checkStored(t, a, imported); got[1] != n {
			t.Errorf("after the second run: %v analysed", got)
		}
		if c, f, err := a.verify(ctx, nil); err != nil || f != 0 || c != n {
			t.Errorf("verify: %d %d %v", c, f, err)
		}
		t.Logf("round %d: killed after %v with %d of %d games analysed; then %+v", round, delay, before, n, st)
		a.Close()
	}
}
