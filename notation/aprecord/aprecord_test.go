package aprecord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// siteDir holds records that Abstract Play's own code wrote
// (shared/ap-records, beside the clone).
const siteDir = "../../../shared/ap-records"

var generated = time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)

// schema is the APGameRecord schema (testdata/README.md).
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile("testdata/gamerecord.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, doc []byte) {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(v); err != nil {
		t.Fatalf("not an APGameRecord: %v\n%s", err, doc)
	}
}

func siteRecords(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(siteDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no records in %s (shared/ap-records beside the clone): %v", siteDir, err)
	}
	return files
}

// generic is JSON as encoding/json reads it, for comparing documents.
func generic(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// The site's own records: they validate against the schema, import with
// every move and its points as the site wrote them (the moves written
// back are the site's, entry for entry, results included), the players,
// their results and scores, dates, event, round and the game's id kept;
// and written back, their moves and results are the site's.
func TestSiteRecords(t *testing.T) {
	sch := schema(t)
	for _, file := range siteRecords(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, sch, src)
			rec, err := Parse(file, src, 1, 1)
			if err != nil {
				t.Fatal(err)
			}
			if err := notation.Validate(rec); err != nil {
				t.Fatalf("icepost's record does not replay: %v", err)
			}
			orig := generic(t, src)
			hdr := orig["header"].(map[string]any)
			for tag, want := range map[string]string{
				"Site": "Abstract Play", TagGameID: hdr["site"].(map[string]any)["gameid"].(string),
				"Event": hdr["event"].(string), "Round": hdr["round"].(string),
				TagDateStart: hdr["date-start"].(string), TagDateEnd: hdr["date-end"].(string),
				"Date":        strings.ReplaceAll(hdr["date-start"].(string)[:10], "-", "."),
				"Termination": "normal",
			} {
				if got, _ := rec.Tag(tag); got != want {
					t.Errorf("%s %q, want %q", tag, got, want)
				}
			}
			players := hdr["players"].([]any)
			var scores []string
			for i, p := range players {
				p := p.(map[string]any)
				if got := rec.Players()[i]; got != p["name"] {
					t.Errorf("seat %d is %q, want %q", i+1, got, p["name"])
				}
				if p["result"].(float64) == 1 {
					if want := []string{"1-0", "0-1"}[i]; rec.Result != want {
						t.Errorf("result %s, want %s", rec.Result, want)
					}
				}
				scores = append(scores, fmt.Sprint(p["score"]))
			}
			if got, _ := rec.Tag("Score"); got != strings.Join(scores, ":") {
				t.Errorf("Score %s, want %s", got, strings.Join(scores, ":"))
			}
			if strings.Contains(string(src), "15pts") || strings.Contains(string(src), "15 points") {
				if got, _ := rec.Tag("Target"); got != "15" {
					t.Errorf("Target %s, want 15", got)
				}
			}

			// Every move, one by one, is the site's.
			g, err := notation.Replay(rec)
			if err != nil {
				t.Fatal(err)
			}
			ap := g.Rules.(rules.AbstractPlay).AbstractPlay()
			ply := 0
			for _, round := range orig["moves"].([]any) {
				for _, e := range round.([]any) {
					want := e
					if o, ok := e.(map[string]any); ok {
						want = o["move"]
					}
					if got := ap.FormatMove(g.States[ply], g.Moves[ply]); got != want {
						t.Fatalf("ply %d is %s, the site wrote %s", ply+1, got, want)
					}
					ply++
				}
			}
			if ply != len(g.Moves) {
				t.Fatalf("%d plies, the site wrote %d", len(g.Moves), ply)
			}

			out, err := Marshal(rec, generated)
			if err != nil {
				t.Fatal(err)
			}
			validate(t, sch, out)
			back := generic(t, out)
			if !reflect.DeepEqual(back["moves"], orig["moves"]) {
				t.Errorf("moves written back differ from the site's:\n%s", out)
			}
			bh := back["header"].(map[string]any)
			for _, k := range []string{"game", "event", "round", "site", "date-start", "date-end", "players"} {
				if !reflect.DeepEqual(bh[k], hdr[k]) {
					t.Errorf("header.%s written back as %v, the site's %v", k, bh[k], hdr[k])
				}
			}
			if _, ok := bh[TagIcepost]; ok {
				t.Errorf("a record of the site's needs no icepost-tags: %v", bh[TagIcepost])
			}
		})
	}
}

// A generated game, ended as end says.
func randomRecord(t *testing.T, rng *rand.Rand, o rules.Options, tags []notation.Tag, end string) *notation.Record {
	t.Helper()
	g, _ := games.Lookup("Pikemen")
	start, err := g.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	limit := 400
	if end != "normal" {
		limit = 1 + rng.IntN(60)
	}
	moves := notation.RandomGame(start, rng, limit)
	game := notation.NewGame(start, tags)
	for _, m := range moves {
		if err := game.Play(m, ""); err != nil {
			t.Fatal(err)
		}
	}
	if !game.Over() {
		switch end {
		case "resignation", "time forfeit":
			if err := game.End(end, 1+rng.IntN(2), ""); err != nil {
				t.Fatal(err)
			}
		case "agreement":
			if err := game.End(end, 0, ""); err != nil {
				t.Fatal(err)
			}
		default:
			return nil
		}
	}
	return game.Record
}

// icepost → APGameRecord → icepost gives the same record, for generated
// games of every seat count the site plays (two), to 12 and to 15, ended
// by the rules, by resignation, on time and by agreement, with tags the
// header has fields for and tags it has not; the JSON is the schema's
// each time. And the site's record → icepost → the site's: the same
// moves and results (TestSiteRecords).
func TestRoundTrip(t *testing.T) {
	sch := schema(t)
	rng := rand.New(rand.NewPCG(7, 42))
	tagSets := [][]notation.Tag{
		{{Name: "Event", Value: "icepost selfplay"}, {Name: "Round", Value: "3"}, {Name: "Player1", Value: "Random 1"}, {Name: "Player2", Value: "Random 2"}},
		nil,
		{{Name: "Event", Value: "Club night"}, {Name: "Site", Value: "Oxford"}, {Name: "Date", Value: "2026.03.??"}, {Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}, {Name: "Annotator", Value: "Cy"}, {Name: "WhiteElo", Value: "1500"}},
		{{Name: "Site", Value: "Abstract Play"}, {Name: TagGameID, Value: "abc-1"}, {Name: "Date", Value: "2025.01.02"}, {Name: "Player1", Value: "?"}, {Name: "Player2", Value: "Bob"}, {Name: playerIDTag(2), Value: "u-bob"}, {Name: playerAITag(1), Value: "true"}, {Name: TagUnrated, Value: "true"}},
		{{Name: "Round", Value: "7"}, {Name: TagDateStart, Value: "2025-01-01T10:00:00.000Z"}, {Name: TagDateEnd, Value: "2025-01-03T10:00:00.000Z"}, {Name: "Date", Value: "2025.01.01"}},
	}
	n := 0
	for _, target := range []int{12, 15} {
		for _, end := range []string{"normal", "resignation", "time forfeit", "agreement"} {
			for i, tags := range tagSets {
				rec := randomRecord(t, rng, rules.Options{Seats: 2, Target: target}, tags, end)
				if rec == nil {
					continue
				}
				n++
				name := fmt.Sprintf("target %d %s tags %d", target, end, i)
				want := rec.String()
				out, err := Marshal(rec, generated)
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, want)
				}
				validate(t, sch, out)
				back, err := Parse(name, out, 1, 1)
				if err != nil {
					t.Fatalf("%s: %v\n%s", name, err, out)
				}
				if got := back.String(); got != want {
					t.Fatalf("%s: read back as\n%s\nwant\n%s\nJSON:\n%s", name, got, want, out)
				}
				again, err := Marshal(back, generated)
				if err != nil || !bytes.Equal(again, out) {
					t.Fatalf("%s: written again differs (%v):\n%s\n%s", name, err, again, out)
				}
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d games tried", n)
	}
}

// A mail address is never written, and the name stays.
func TestNoAddress(t *testing.T) {
	rec := randomRecord(t, rand.New(rand.NewPCG(1, 2)), rules.Options{Seats: 2},
		[]notation.Tag{{Name: "Player1", Value: "Ada <ada@example.org>"}, {Name: "Player2", Value: "Bob"}}, "resignation")
	out, err := Marshal(rec, generated)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("example.org")) || !bytes.Contains(out, []byte(`"name": "Ada"`)) {
		t.Fatalf("%s", out)
	}
}

// What the site does not play is refused by name, and nothing is written.
func TestMarshalRefuses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	three := randomRecord(t, rng, rules.Options{Seats: 3}, nil, "normal")
	target := randomRecord(t, rng, rules.Options{Seats: 2, Target: 20}, nil, "normal")
	unfinished := randomRecord(t, rng, rules.Options{Seats: 2}, nil, "resignation")
	unfinished.Result = "*"
	unfinished.SetTag("Result", "*")
	unfinished.DeleteTag("Termination")
	abandoned := randomRecord(t, rng, rules.Options{Seats: 2}, nil, "resignation")
	abandoned.SetTag("Termination", "abandoned")
	sickle, _ := games.Lookup("IceSickle")
	s0, _ := sickle.Start(rules.Options{})
	ice, err := notation.FromMoves(nil, s0, notation.RandomGame(s0, rng, 500))
	if err != nil {
		t.Fatal(err)
	}
	setup := randomRecord(t, rng, rules.Options{Seats: 2}, nil, "resignation")
	g, _ := notation.Replay(setup)
	setup.SetTag("Setup", g.States[0].Code())
	for _, c := range []struct {
		name string
		rec  *notation.Record
		want string
	}{
		{"three seats", three, "Abstract Play plays Pikemen with 2 players; this game has 3 seats"},
		{"target 20", target, `this game's options (Target 20) are none of them`},
		{"unfinished", unfinished, "not finished (*)"},
		{"abandoned", abandoned, `ended by "abandoned"`},
		{"IceSickle", ice, "IceSickle is not played on Abstract Play"},
		{"Setup", setup, "Setup position"},
	} {
		out, err := Marshal(c.rec, generated)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrExport) {
			t.Errorf("%s: %v (%d bytes), want %q", c.name, err, len(out), c.want)
		}
	}
}

// edit returns the first site record with a change made to its JSON.
func edit(t *testing.T, change func(m map[string]any)) []byte {
	t.Helper()
	src, err := os.ReadFile(siteRecords(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	m := generic(t, src)
	change(m)
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hdr(m map[string]any) map[string]any { return m["header"].(map[string]any) }

// Bad records get an error that says what is wrong, where, and for a
// move its ply and the move as the record writes it.
func TestBadRecords(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(m map[string]any)
		want   string
		kind   error
	}{
		{"unknown move", func(m map[string]any) { m["moves"].([]any)[2].([]any)[0] = "f2(Q)" },
			"ply 5: f2(Q): not Abstract Play's notation", notation.ErrMove},
		{"illegal move", func(m map[string]any) { m["moves"].([]any)[1].([]any)[0] = "h5-h6" },
			"ply 3: h5-h6: the small on h5 stands upright and cannot charge", notation.ErrMove},
		{"icepost's spelling", func(m map[string]any) { m["moves"].([]any)[0].([]any)[0] = "h1:NE" },
			"ply 1: h1:NE: not Abstract Play's notation", notation.ErrMove},
		{"result against the position", func(m map[string]any) {
			p := hdr(m)["players"].([]any)
			p[0].(map[string]any)["result"], p[1].(map[string]any)["result"] = 0, 1
		}, "results say seat 2 (Bob Tester) won, but the moves end the game after ply 103 with seat 1 (Ada Tester) won (14:10)", notation.ErrResult},
		{"a draw the moves do not give", func(m map[string]any) {
			hdr(m)["players"].([]any)[1].(map[string]any)["result"] = 1
		}, "results say a draw", notation.ErrResult},
		{"score against the position", func(m map[string]any) {
			hdr(m)["players"].([]any)[0].(map[string]any)["score"] = 13
		}, "header.players[0].score is 13, but the moves give seat 1 14", notation.ErrScore},
		{"points of a move", func(m map[string]any) {
			m["moves"].([]any)[2].([]any)[1].(map[string]any)["result"] = []any{map[string]any{"type": "deltaScore", "delta": 3}}
		}, "ply 6: b6xf2(S): the record says it scores 3, but it scores 2", notation.ErrScore},
		{"missing player", func(m map[string]any) { hdr(m)["players"] = hdr(m)["players"].([]any)[:1] },
			"header.players lists 1 player: Pikemen on Abstract Play has 2 players; is a player missing?", ErrNotPlayed},
		{"player without a name", func(m map[string]any) { delete(hdr(m)["players"].([]any)[1].(map[string]any), "name") },
			"header.players[1] (seat 2) has no name", notation.ErrTag},
		{"player without a result", func(m map[string]any) { delete(hdr(m)["players"].([]any)[1].(map[string]any), "result") },
			"has no result", notation.ErrResult},
		{"wrong game name", func(m map[string]any) { hdr(m)["game"].(map[string]any)["name"] = "Chess" },
			`game "Chess": icepost plays no such game of Abstract Play's; it reads "Pikemen"`, notation.ErrGame},
		{"a game icepost has but not from the site", func(m map[string]any) { hdr(m)["game"].(map[string]any)["name"] = "IceSickle" },
			`game "IceSickle": icepost plays no such game`, notation.ErrGame},
		{"unknown variant", func(m map[string]any) { hdr(m)["game"].(map[string]any)["variants"] = []any{"Quick game"} },
			`variant "Quick game" of Pikemen is not one icepost plays: it plays "Default end condition" (#eog) and "Longer Game: 15 points" (15pts)`, ErrNotPlayed},
		{"moves after the end", func(m map[string]any) { m["moves"] = append(m["moves"].([]any), []any{"h1(N)"}) },
			"ply 104: h1(N): the game is already over", notation.ErrMove},
		{"moves that stop early", func(m map[string]any) { m["moves"] = m["moves"].([]any)[:10] },
			"the moves stop after ply 20 with the game not over", notation.ErrResult},
		{"resign against the results", func(m map[string]any) {
			m["moves"] = append(m["moves"].([]any)[:10], []any{map[string]any{"move": "resign", "result": []any{map[string]any{"type": "resigned", "player": 1}}}})
		}, "seat 1 resigned, yet header.players' results say it won", notation.ErrResult},
		{"no header", func(m map[string]any) { delete(m, "header") }, "the record has no header", notation.ErrTag},
		{"moves not an array", func(m map[string]any) { m["moves"] = "h1(N)" }, "moves must be an array, not a string", notation.ErrTag},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := edit(t, c.change)
			rec, err := Parse("bad.json", b, 1, 1)
			if err == nil {
				t.Fatalf("accepted:\n%s", rec)
			}
			var e *notation.Error
			if !errors.As(err, &e) || e.Pos.Line < 1 || !strings.HasPrefix(err.Error(), "bad.json:") {
				t.Errorf("%v: want a positioned error", err)
			}
			if !strings.Contains(err.Error(), c.want) || !errors.Is(err, c.kind) {
				t.Errorf("%v\nwant %q (%v)", err, c.want, c.kind)
			}
		})
	}
}

// A move's error is at the move's place in the file.
func TestErrorPosition(t *testing.T) {
	src := []byte("{\"header\": {\"game\": {\"name\": \"Pikemen\"}, \"site\": {\"name\": \"Abstract Play\"},\n" +
		" \"players\": [{\"name\": \"A\", \"result\": 1}, {\"name\": \"B\", \"result\": 0}]},\n" +
		" \"moves\": [[\"h1(NE)\", \"a8(NW)\"],\n   [\"h1(NE)\"]]}\n")
	_, err := Parse("p.json", src, 1, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "p.json:4:5: ply 3: h1(NE): the large on h1 already points NE") {
		t.Fatalf("%v", err)
	}
}

// The stream: one record, several one after another, an array of them;
// a record over the limit is named by its size and read past, however
// large (10 MB here), and the next is still read; JSON that breaks off
// is an error at its place.
func TestStream(t *testing.T) {
	one, err := os.ReadFile(siteRecords(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	end := bytes.Count(one, []byte("\n")) + 2 // the line after the first record, in an array
	huge := append([]byte(`{"header": {"game": {"name": "Pikemen"}}, "moves": [["`), bytes.Repeat([]byte("h"), 10<<20)...)
	huge = append(huge, `"]]}`...)
	for _, c := range []struct {
		name    string
		src     []byte
		records int
		errs    []string
	}{
		{"one", one, 1, nil},
		{"with a byte-order mark", append([]byte("\uFEFF\n"), one...), 1, nil},
		{"two in a row", append(append(append([]byte{}, one...), '\n'), one...), 2, nil},
		{"array", []byte("[" + string(one) + ",\n" + string(one) + "]\n"), 2, nil},
		{"empty array", []byte(" [ ] "), 0, nil},
		{"10 MB of JSON", []byte("[" + string(one) + ",\n" + string(huge) + ",\n" + string(one) + "]"), 2,
			[]string{fmt.Sprintf("x.json:%d:1: record 2 is %d bytes, over the limit of 1048576 bytes: not read", end, len(huge))}},
		{"broken off", []byte("[" + string(one) + ",\n" + string(one[:200])), 1, []string{fmt.Sprintf("JSON: the input ends inside record 2 (from line %d)", end)}},
		{"garbage after", []byte("[" + string(one) + "] x"), 1, []string{`JSON: 'x' after the array of records`}},
		{"not an object", []byte("[1, 2]"), 0, []string{"x.json:1:2: an APGameRecord is a JSON object", "x.json:1:5: an APGameRecord"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var records int
			var errs []string
			err := Stream(context.Background(), "x.json", bytes.NewReader(c.src), 1<<20,
				func(ch *notation.Chunk) int { return len(ch.Records) },
				func(ch *notation.Chunk, n int) error {
					records += n
					for _, e := range ch.Errs {
						errs = append(errs, e.Error())
					}
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if records != c.records || len(errs) != len(c.errs) {
				t.Fatalf("%d records, errors %q; want %d, %q", records, errs, c.records, c.errs)
			}
			for i := range errs {
				if !strings.Contains(errs[i], c.errs[i]) {
					t.Errorf("error %q, want %q", errs[i], c.errs[i])
				}
			}
		})
	}
}

func TestIsJSON(t *testing.T) {
	for src, want := range map[string]bool{
		`{"header"`: true, "\uFEFF \n[\n {": true, "[]": true, "[[": true,
		`[Game "Pikemen"]`: false, "[Event": false, "1. h1:NW": false, "": false, "% comment\n[Game": false, "[ ": false,
	} {
		if got := IsJSON([]byte(src)); got != want {
			t.Errorf("IsJSON(%q) = %v", src, got)
		}
	}
}

// Several records are an array, one is itself, none is [].
func TestWriter(t *testing.T) {
	for n, want := range map[int]string{0: "[]\n", 1: "{\"a\": 1}\n", 2: "[\n {\n  \"a\": 1\n },\n {\n  \"a\": 1\n }\n]\n"} {
		var b bytes.Buffer
		w := NewWriter(&b)
		for range n {
			if err := w.Write([]byte("{\"a\": 1}\n")); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil || b.String() != want {
			t.Errorf("%d records: %q, want %q (%v)", n, b.String(), want, err)
		}
	}
}

// A game from the site links back to its page there.
func TestPageURL(t *testing.T) {
	rec := &notation.Record{}
	rec.SetTag("Game", "Pikemen")
	rec.SetTag("Site", "Abstract Play")
	if _, ok := PageURL(rec); ok {
		t.Error("a link without a game id")
	}
	rec.SetTag(TagGameID, "ea92a01f-3000 x/y")
	if u, ok := PageURL(rec); !ok || u != "https://play.abstractplay.com/move/pikemen/0/ea92a01f-3000%20x%2Fy" {
		t.Errorf("%q %v", u, ok)
	}
	rec.SetTag("Site", "Oxford")
	if _, ok := PageURL(rec); ok {
		t.Error("a game of another site links to Abstract Play")
	}
}
