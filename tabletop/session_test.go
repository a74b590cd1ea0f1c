package tabletop_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"icepost/internal/waitfor"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
	"icepost/rules/icesickle"
	"icepost/tabletop"
)

var today = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

// rig is a session under test with its output and its file.
type rig struct {
	t    *testing.T
	s    *tabletop.Session
	out  *bytes.Buffer
	path string
}

func newRig(t *testing.T, cfg tabletop.Config) *rig {
	t.Helper()
	if cfg.Path == "" && cfg.Dir == "" {
		cfg.Path = filepath.Join(t.TempDir(), "game.txt")
	}
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return today }
	}
	out := new(bytes.Buffer)
	s, err := tabletop.New(cfg, out)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	s.Begin()
	return &rig{t: t, s: s, out: out, path: cfg.Path}
}

// line types one line and returns what the session said.
func (r *rig) line(l string) string {
	r.t.Helper()
	r.out.Reset()
	r.s.Line(l)
	return r.out.String()
}

// file reads the session's file back and replays it: it must be exactly
// one valid record.
func (r *rig) file() *notation.Game {
	r.t.Helper()
	return readRecord(r.t, r.s.Path())
}

func readRecord(t *testing.T, path string) *notation.Game {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the record: %v", err)
	}
	gs, errs := notation.Check(path, src)
	if err := errs.Err(); err != nil {
		t.Fatalf("the record written does not validate: %v\n%s", err, src)
	}
	if len(gs) != 1 {
		t.Fatalf("the file holds %d records, want 1:\n%s", len(gs), src)
	}
	// The file is in canonical form: formatting it again changes nothing.
	gs[0].Canonicalize()
	if again := notation.AppendFormat(nil, gs[0].Record); !bytes.Equal(again, src) {
		t.Fatalf("the record is not in canonical form:\n%s\nformatted:\n%s", src, again)
	}
	return gs[0]
}

func tokens(g *notation.Game) []string { return g.Record.MainTokens() }

func tag(t *testing.T, g *notation.Game, name string) string {
	t.Helper()
	v, ok := g.Record.Tag(name)
	if !ok {
		t.Fatalf("tag %s missing", name)
	}
	return v
}

func mustContain(t *testing.T, what, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%s: %q missing from:\n%s", what, w, got)
		}
	}
}

// seatOptions lists the seat counts each game accepts, from 2 to 4.
func seatOptions(g rules.Game) []int {
	var out []int
	for n := 2; n <= 4; n++ {
		if _, err := g.Start(rules.Options{Seats: n}); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// TestEveryGame plays a scripted session of every registered game and
// seat count: random legal moves typed one a line, an illegal move, undo,
// show, moves and a comment, checking the file after every line.
func TestEveryGame(t *testing.T) {
	for _, g := range games.All() {
		for _, seats := range seatOptions(g) {
			t.Run(fmt.Sprintf("%s/%d", g.Name(), seats), func(t *testing.T) {
				tags := []notation.Tag{{Name: "Event", Value: "Test night"}}
				for k := 1; k <= seats; k++ {
					tags = append(tags, notation.Tag{Name: fmt.Sprintf("Player%d", k), Value: fmt.Sprintf("P%d", k)})
				}
				r := newRig(t, tabletop.Config{Game: g, Options: rules.Options{Seats: seats}, Tags: tags})
				if got := tokens(r.file()); len(got) != 0 {
					t.Fatalf("before any move the file has moves %v", got)
				}
				st, err := g.Start(rules.Options{Seats: seats})
				if err != nil {
					t.Fatal(err)
				}
				rng := rand.New(rand.NewPCG(uint64(seats), 7))
				var played []string
				for i := 0; i < 30; i++ {
					ms := st.Moves(nil)
					if len(ms) == 0 {
						break
					}
					switch i {
					case 3:
						// Something that is no move at all.
						said := r.line("zz99zz")
						mustContain(t, "illegal move", said, "Not recorded", "zz99zz")
						if got := tokens(r.file()); !slices.Equal(got, played) {
							t.Fatalf("after an illegal move the file has %v, want %v", got, played)
						}
					case 5:
						said := r.line("moves")
						mustContain(t, "moves", said, "legal moves", st.FormatMove(ms[0]))
					}
					m := ms[rng.IntN(len(ms))]
					tok := st.FormatMove(m)
					said := r.line(tok)
					mustContain(t, "after "+tok, said, "played "+tok)
					next, err := st.Play(m)
					if err != nil {
						t.Fatal(err)
					}
					if i == 6 && !next.Outcome().Over {
						// Take it back and type it again.
						said := r.line("undo")
						mustContain(t, "undo", said, "Taken back", tok)
						if got := tokens(r.file()); !slices.Equal(got, played) {
							t.Fatalf("after undo the file has %v, want %v", got, played)
						}
						r.line(tok)
					}
					played = append(played, tok)
					st = next
					rec := r.file()
					if got := tokens(rec); !slices.Equal(got, played) {
						t.Fatalf("after move %d the file has %v, want %v", i+1, got, played)
					}
					if !st.Outcome().Over && rec.Record.Result != "*" {
						t.Fatalf("unfinished game with result %q", rec.Record.Result)
					}
					if st.Outcome().Over {
						break
					}
				}
				if len(played) > 1 {
					said := r.line("show 1")
					mustContain(t, "show 1", said, "After move 1, "+played[0])
				}
				r.line("comment a fine move")
				r.line("quit")
				if !r.s.Done() {
					t.Fatal("not done after quit")
				}
				rec := r.file()
				if got := tokens(rec); !slices.Equal(got, played) {
					t.Fatalf("at the end the file has %v, want %v", got, played)
				}
				last := rec.Record.Main.Moves[len(played)-1]
				if !slices.Contains(last.After, "a fine move") {
					t.Errorf("comment missing: After = %q", last.After)
				}
				if got := tag(t, rec, "Event"); got != "Test night" {
					t.Errorf("Event %q", got)
				}
				if got := tag(t, rec, "Date"); got != "2026.11.22" {
					t.Errorf("Date %q", got)
				}
				if got := rec.Record.Players(); len(got) != seats || got[seats-1] != fmt.Sprintf("P%d", seats) {
					t.Errorf("players %q", got)
				}
			})
		}
	}
}

// TestEveryGameEnds types whole random games and checks the result the
// rules give is written, with Termination normal.
func TestEveryGameEnds(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			start, err := g.Start(rules.Options{})
			if err != nil {
				t.Fatal(err)
			}
			moves := notation.RandomGame(start, rand.New(rand.NewPCG(1, 2)), 400)
			r := newRig(t, tabletop.Config{Game: g})
			st := start
			for _, m := range moves {
				r.line(st.FormatMove(m))
				st, _ = st.Play(m)
			}
			if !st.Outcome().Over {
				t.Skipf("no end within %d plies", len(moves))
			}
			mustContain(t, "end", r.out.String(), "Game over")
			if r.s.Done() {
				t.Fatal("done at the end of the game: comment and undo should still be open")
			}
			said := r.line("L@a1")
			mustContain(t, "move after the end", said, "over")
			r.line("comment gg")
			r.line("") // an empty line finishes a finished game
			if !r.s.Done() {
				t.Fatal("not done after an empty line at the end")
			}
			rec := r.file()
			if want := notation.ResultString(st.Outcome(), 2); rec.Record.Result != want {
				t.Errorf("result %s, want %s", rec.Record.Result, want)
			}
			if got := tag(t, rec, "Termination"); got != "normal" {
				t.Errorf("Termination %q", got)
			}
			if n := len(rec.Record.Main.Moves); n != len(moves) || !slices.Contains(rec.Record.Main.Moves[n-1].After, "gg") {
				t.Errorf("%d moves, last comments %q", n, rec.Record.Main.Moves[n-1].After)
			}
		})
	}
}

func iceSickle(t *testing.T, extra ...notation.Tag) *rig {
	tags := append([]notation.Tag{{Name: "Player1", Value: "Ada Lovelace"}, {Name: "Player2", Value: "Bob"}}, extra...)
	return newRig(t, tabletop.Config{Game: icesickle.Game, Tags: tags})
}

func TestIceSickleScript(t *testing.T) {
	r := iceSickle(t)
	said := r.line("l@C3") // lenient spelling, canonical record
	mustContain(t, "move 1", said, "Move 1: Ada Lovelace (seat 1) played L@c3", "Bob (seat 2) to move", "Score: Ada Lovelace (seat 1) 0, Bob (seat 2) 0")
	said = r.line("M@c3")
	mustContain(t, "occupied", said, "Not recorded: M@c3", "Bob (seat 2) is still to move")
	said = r.line("L@c3 M@d4")
	mustContain(t, "two words", said, "one move a line")
	r.line("M@d4")
	r.line("comment Bob thinks long")
	r.line("comment and smiles")
	said = r.line("show 0")
	mustContain(t, "show 0", said, "The start")
	if strings.Contains(said, "| L |") {
		t.Errorf("show 0 shows a piece:\n%s", said)
	}
	said = r.line("show 1")
	mustContain(t, "show 1", said, "After move 1, L@c3 by Ada Lovelace (seat 1)", "| L |", "This is move 1 of 2")
	said = r.line("show 9")
	mustContain(t, "show 9", said, "from 0 (the start) to 2")
	said = r.line("moves")
	mustContain(t, "moves", said, "69 legal moves for Ada Lovelace (seat 1)", "place L:", "L@a1", "place S:", "S@e5")
	if strings.Contains(said, "L@c3") || strings.Contains(said, "M@d4 ") {
		t.Errorf("moves lists occupied squares:\n%s", said)
	}
	said = r.line("help")
	mustContain(t, "help", said, "undo", "resign", "comment TEXT")
	rec := r.file()
	if got := rec.Record.Main.Moves[1].After; !slices.Equal(got, []string{"Bob thinks long", "and smiles"}) {
		t.Errorf("comments %q", got)
	}
	src, _ := os.ReadFile(r.s.Path())
	mustContain(t, "file", string(src), "1. L@c3 M@d4 {Bob thinks long} {and smiles} *")

	r.line("undo")
	if got := tokens(r.file()); !slices.Equal(got, []string{"L@c3"}) {
		t.Fatalf("after undo: %v", got)
	}
	r.line("undo")
	said = r.line("undo")
	mustContain(t, "undo at start", said, "Nothing to undo")
	r.line("quit")
	if got := tokens(r.file()); len(got) != 0 {
		t.Fatalf("after undoing all: %v", got)
	}
}

func TestCommentBeforeFirstMove(t *testing.T) {
	r := iceSickle(t)
	r.line("comment Ada's birthday game")
	if got := r.file().Record.Main.Comments; !slices.Equal(got, []string{"Ada's birthday game"}) {
		t.Fatalf("comments %q", got)
	}
	r.line("S@a1")
	if got := r.file().Record.Main.Moves[0].Before; !slices.Equal(got, []string{"Ada's birthday game"}) {
		t.Fatalf("Before %q", got)
	}
}

func TestResignTwoSeats(t *testing.T) {
	for _, c := range []struct {
		name   string
		lines  []string
		result string
	}{
		{"number", []string{"resign 1"}, "0-1"},
		{"name", []string{"resign bob"}, "1-0"},
		{"first name", []string{"resign ada"}, "0-1"},
		{"asked", []string{"resign", "2"}, "1-0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := iceSickle(t)
			r.line("L@c3")
			for _, l := range c.lines {
				r.line(l)
			}
			mustContain(t, "resign", r.out.String(), "wins by resignation")
			rec := r.file()
			if rec.Record.Result != c.result {
				t.Errorf("result %s, want %s", rec.Record.Result, c.result)
			}
			if got := tag(t, rec, "Termination"); got != "resignation" {
				t.Errorf("Termination %q", got)
			}
			said := r.line("M@d4")
			mustContain(t, "move after resign", said, "over", "nothing recorded")
			// Undo takes back the resignation, not the move.
			r.line("undo")
			rec = r.file()
			if rec.Record.Result != "*" || !slices.Equal(tokens(rec), []string{"L@c3"}) {
				t.Errorf("after undo: result %s moves %v", rec.Record.Result, tokens(rec))
			}
			if _, ok := rec.Record.Tag("Termination"); ok {
				t.Error("Termination left after undo")
			}
		})
	}
	t.Run("bad", func(t *testing.T) {
		r := iceSickle(t)
		said := r.line("resign carol")
		mustContain(t, "unknown seat", said, `"carol" is neither a seat`)
		said = r.line("resign 1 2")
		mustContain(t, "two seats", said, "name the one seat")
		r.line("resign")
		said = r.line("")
		mustContain(t, "nobody", said, "Nobody resigns")
		if r.file().Record.Result != "*" {
			t.Error("a refused resignation ended the game")
		}
	})
}

func TestDraw(t *testing.T) {
	r := iceSickle(t)
	r.line("L@c3")
	said := r.line("draw")
	mustContain(t, "draw", said, "drawn by agreement", "Result 1/2-1/2")
	r.line("comment peace")
	r.line("quit")
	rec := r.file()
	if rec.Record.Result != "1/2-1/2" || tag(t, rec, "Termination") != "agreement" {
		t.Errorf("result %s termination %s", rec.Record.Result, tag(t, rec, "Termination"))
	}
	if got := rec.Record.Main.Moves[0].After; !slices.Equal(got, []string{"peace"}) {
		t.Errorf("comments %q", got)
	}
}

// TestResignManySeats runs the multi-seat rule on every registered game
// with more than two seats, and on a small counting game made here so the
// rule is tested whatever is registered.
func TestResignManySeats(t *testing.T) {
	gs := []rules.Game{counting.Game}
	for _, g := range games.All() {
		if slices.ContainsFunc(seatOptions(g), func(n int) bool { return n > 2 }) {
			gs = append(gs, g)
		}
	}
	for _, g := range gs {
		seats := slices.Max(seatOptions(g))
		t.Run(fmt.Sprintf("%s/%d", g.Name(), seats), func(t *testing.T) {
			tags := []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}, {Name: "Player3", Value: "Cy"}}
			r := newRig(t, tabletop.Config{Game: g, Options: rules.Options{Seats: seats}, Tags: tags})
			st, _ := g.Start(rules.Options{Seats: seats})
			tok := st.FormatMove(st.Moves(nil)[0])
			r.line(tok)
			said := r.line("resign 2")
			mustContain(t, "one seat", said, "only when", "resign 2 3")
			if r.s.Record().Result != "*" {
				t.Fatal("one resignation ended a multi-seat game")
			}
			all := []string{"bob"}
			for k := 3; k <= seats; k++ {
				all = append(all, fmt.Sprint(k))
			}
			said = r.line("resign " + strings.Join(all, ","))
			mustContain(t, "all but one", said, "Ada (seat 1) wins by resignation")
			rec := r.s.Record()
			want := "1" + strings.Repeat("-0", seats-1)
			if rec.Result != want {
				t.Errorf("result %s, want %s", rec.Result, want)
			}
			if after := rec.Main.Moves[0].After; len(after) != 1 || !strings.Contains(after[0], "Bob (seat 2)") || !strings.HasSuffix(after[0], " resign") {
				t.Errorf("note %q", after)
			}
			if _, ok := games.Lookup(g.Name()); ok {
				r.file()
			}
		})
	}
}

func TestAskTags(t *testing.T) {
	dir := t.TempDir()
	r := newRig(t, tabletop.Config{Game: icesickle.Game, Ask: true, Dir: dir, Tags: []notation.Tag{{Name: "Player2", Value: "Bob"}}})
	if p := r.s.Prompt(); p != "Event [Casual game]: " {
		t.Fatalf("first prompt %q", p)
	}
	r.line("Club night")
	if p := r.s.Prompt(); p != "Date [2026.11.22]: " {
		t.Fatalf("date prompt %q", p)
	}
	said := r.line("22 Nov")
	mustContain(t, "bad date", said, "YYYY.MM.DD")
	r.line("2026-11-21")
	if p := r.s.Prompt(); !strings.HasPrefix(p, "Player 1 (seat 1) [?]") {
		t.Fatalf("player prompt %q", p)
	}
	if r.s.Path() != "" {
		t.Fatal("file chosen before the tags are known")
	}
	said = r.line("Ada <ada@example.org>")
	mustContain(t, "open", said, "icesickle-2026.11.21-ada-bob.txt", "Ada <ada@example.org> (seat 1) to move")
	if p := r.s.Prompt(); p != "move 1, Ada <ada@example.org> (seat 1)> " {
		t.Fatalf("move prompt %q", p)
	}
	r.line("L@a1")
	r.line("quit")
	rec := r.file()
	if got := tag(t, rec, "Event"); got != "Club night" {
		t.Errorf("Event %q", got)
	}
	if got := tag(t, rec, "Date"); got != "2026.11.21" {
		t.Errorf("Date %q", got)
	}
	if got := rec.Record.Players(); !slices.Equal(got, []string{"Ada <ada@example.org>", "Bob"}) {
		t.Errorf("players %q", got)
	}
}

func TestNeverOverwrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "icesickle-2026.11.22-ada-bob.txt")
	os.WriteFile(name, []byte("precious"), 0o644)
	os.WriteFile(filepath.Join(dir, "icesickle-2026.11.22-ada-bob-1.txt"), []byte("precious too"), 0o644)
	tags := []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}

	r := newRig(t, tabletop.Config{Game: icesickle.Game, Dir: dir, Tags: tags})
	if want := filepath.Join(dir, "icesickle-2026.11.22-ada-bob-2.txt"); r.s.Path() != want {
		t.Fatalf("path %s, want %s", r.s.Path(), want)
	}
	r.line("quit")
	if b, _ := os.ReadFile(name); string(b) != "precious" {
		t.Fatalf("overwritten: %q", b)
	}

	// Asked: no keeps the file, yes replaces it.
	for _, answer := range []string{"n", "y"} {
		r := newRig(t, tabletop.Config{Game: icesickle.Game, Path: name, Ask: true, Tags: append(tags, notation.Tag{Name: "Event", Value: "E"}, notation.Tag{Name: "Date", Value: "2026.11.22"})})
		mustContain(t, "prompt", r.s.Prompt(), "exists already. Replace it?")
		r.line(answer)
		r.line("quit")
		b, _ := os.ReadFile(name)
		if (answer == "y") == (string(b) == "precious") {
			t.Errorf("answer %s: file holds %q; session wrote %s", answer, b, r.s.Path())
		}
	}
}

func TestSaveFails(t *testing.T) {
	fail := true
	var saved []byte
	cfg := tabletop.Config{Game: icesickle.Game, Save: func(path string, data []byte) error {
		if fail {
			return errors.New("disk full")
		}
		saved = data
		return nil
	}}
	r := newRig(t, cfg)
	said := r.line("L@a1")
	mustContain(t, "failed save", said, "Could not write", "disk full", "save to try again")
	if r.s.Err() == nil {
		t.Fatal("Err is nil after a failed save")
	}
	fail = false
	said = r.line("save")
	mustContain(t, "save", said, "Saved to")
	if r.s.Err() != nil || !bytes.Contains(saved, []byte("1. L@a1 *")) {
		t.Fatalf("after save: %v, %q", r.s.Err(), saved)
	}
}

func TestRun(t *testing.T) {
	t.Run("eof", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "g.txt")
		var out bytes.Buffer
		s, err := tabletop.New(tabletop.Config{Game: icesickle.Game, Path: path}, &out)
		if err != nil {
			t.Fatal(err)
		}
		in := "L@c3\r\n\nM@c3\nM@d4\n"
		if err := s.Run(context.Background(), tabletop.Lines(strings.NewReader(in), &out)); err != nil {
			t.Fatal(err)
		}
		mustContain(t, "output", out.String(), "unfinished (result *), written to "+path)
		if strings.Contains(out.String(), ">") {
			t.Errorf("prompts without Ask:\n%s", out.String())
		}
		if got := tokens(readRecord(t, path)); !slices.Equal(got, []string{"L@c3", "M@d4"}) {
			t.Errorf("moves %v", got)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "g.txt")
		pr, pw := io.Pipe()
		defer pw.Close()
		var out syncBuffer
		s, err := tabletop.New(tabletop.Config{Game: icesickle.Game, Path: path}, &out)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Run(ctx, tabletop.Lines(pr, nil)) }()
		// Written aside: a Run that ended without reading it leaves the
		// writer to the pipe's Close, not the test.
		go io.WriteString(pw, "S@b2\n")
		// The move is written before the next line is asked for.
		if !waitfor.Within(10*time.Second, func() bool { return strings.Contains(out.String(), "played S@b2") }) {
			t.Fatalf("the move was not played:\n%s", out.String())
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("Run did not return when its context ended")
		}
		mustContain(t, "output", out.String(), "Interrupted", "written to "+path)
		if got := tokens(readRecord(t, path)); !slices.Equal(got, []string{"S@b2"}) {
			t.Errorf("moves %v", got)
		}
	})
}

func TestDefaultName(t *testing.T) {
	for _, c := range []struct {
		date    string
		players []string
		want    string
	}{
		{"2026.11.22", []string{"Ada", "Bob"}, "icesickle-2026.11.22-ada-bob.txt"},
		{"2026.11.22", []string{"Ada Lovelace <ada@example.org>", "?"}, "icesickle-2026.11.22-ada-lovelace.txt"},
		{"2026.??.??", []string{"Zoë", "../../etc"}, "icesickle-zoë-etc.txt"},
	} {
		if got := tabletop.DefaultName("IceSickle", c.date, c.players); got != c.want {
			t.Errorf("DefaultName(%q, %q) = %q, want %q", c.date, c.players, got, c.want)
		}
	}
}

func TestNewRefuses(t *testing.T) {
	for _, cfg := range []tabletop.Config{
		{Game: icesickle.Game, Options: rules.Options{Seats: 3}},
		{Game: icesickle.Game, Tags: []notation.Tag{{Name: "Date", Value: "yesterday"}}},
		{Game: icesickle.Game, Tags: []notation.Tag{{Name: "Player3", Value: "Cy"}}},
	} {
		if _, err := tabletop.New(cfg, io.Discard); err == nil {
			t.Errorf("New(%+v) accepted", cfg)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestNewGameAtTheTable records a game that no file outside its own folder
// knows (rules/counting), once it is registered: the record written
// validates, and the session needs nothing of the game but its package.
func TestNewGameAtTheTable(t *testing.T) {
	defer games.Register(counting.Game)()
	g, ok := games.Lookup("counting")
	if !ok {
		t.Fatal("Counting is not found after Register")
	}
	tags := []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}, {Name: "Player3", Value: "Cy"}}
	r := newRig(t, tabletop.Config{Game: g, Options: rules.Options{Seats: 3}, Tags: tags})
	mustContain(t, "help", r.line("help"), "like +")
	mustContain(t, "bad move", r.line("+3"), "Not recorded", "add +1 or +2")
	for range 4 {
		r.line("+2")
	}
	r.line("comment nearly there")
	said := r.line("+2")
	mustContain(t, "end", said, "Game over: Bob (seat 2) wins. Result 0-1-0.")
	rec := r.file()
	if got := tag(t, rec, "Termination"); got != "normal" {
		t.Errorf("Termination %q", got)
	}
	if got := strings.Join(tokens(rec), " "); got != "+2 +2 +2 +2 +2" {
		t.Errorf("moves %s", got)
	}
}

// On an 80x24 terminal the reason a move was refused must stay in view:
// it is the last thing said before the prompt, and the board is not shown
// again.
func TestRefusedMoveStaysAbovePrompt(t *testing.T) {
	r := iceSickle(t)
	r.line("L@c3")
	said := r.line("M@c3")
	if strings.Contains(said, "| L |") || strings.Contains(said, "+---+") {
		t.Errorf("the board is shown again for a refused move:\n%s", said)
	}
	lines := strings.Split(strings.TrimRight(said, "\n"), "\n")
	if len(lines) > 3 || !strings.HasPrefix(lines[0], "Not recorded: M@c3: c3 is occupied") {
		t.Errorf("a refused move says more than its reason, or not first:\n%s", said)
	}
	mustContain(t, "refused", said, "Bob (seat 2)")
	if r.s.Refused() != 1 {
		t.Errorf("Refused() = %d, want 1", r.s.Refused())
	}
}

// The status after a move is said once, with the players' names.
func TestStatusOnceWithNames(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			tags := []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}
			r := newRig(t, tabletop.Config{Game: g, Tags: tags})
			st, _ := g.Start(rules.Options{})
			said := r.line(st.FormatMove(st.Moves(nil)[0]))
			if n := strings.Count(strings.ToLower(said), "to move"); n != 1 {
				t.Errorf("whose turn is said %d times:\n%s", n, said)
			}
			if n := strings.Count(strings.ToLower(said), "score"); st.Scores() != nil && n != 1 {
				t.Errorf("the scores are said %d times:\n%s", n, said)
			}
			mustContain(t, "status", said, "Bob (seat 2) to move")
			if st.Scores() != nil {
				mustContain(t, "scores", said, "Ada (seat 1) 0", "Bob (seat 2) 0")
			}
		})
	}
}

// -resume: a session goes on with an unfinished record, and writes it
// back to the same file.
func TestResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	first := newRig(t, tabletop.Config{Game: icesickle.Game, Path: path,
		Tags: []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}, {Name: "Event", Value: "Club"}}})
	first.line("L@c3")
	first.line("M@d4")
	first.line("comment Bob thinks")
	// The terminal closes here: no quit.
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gs, errs := notation.Check(path, src)
	if errs.Err() != nil {
		t.Fatal(errs.Err())
	}
	out := new(bytes.Buffer)
	s, err := tabletop.New(tabletop.Config{Resume: gs[0], Path: path, Now: func() time.Time { return today }}, out)
	if err != nil {
		t.Fatal(err)
	}
	s.Begin()
	mustContain(t, "resumed", out.String(), "Going on with", "2 moves", "Ada (seat 1) to move", "| L |")
	if s.Prompt() != "" || !strings.HasPrefix(s.Path(), path) {
		t.Errorf("resume asks something, or writes elsewhere: %q %q", s.Prompt(), s.Path())
	}
	s.Line("S@a1")
	s.Finish()
	r := &rig{t: t, s: s, out: out, path: path}
	rec := r.file()
	if got := tokens(rec); !slices.Equal(got, []string{"L@c3", "M@d4", "S@a1"}) {
		t.Errorf("moves %v", got)
	}
	if got := tag(t, rec, "Event"); got != "Club" {
		t.Errorf("Event %q", got)
	}
	if got := rec.Record.Main.Moves[1].After; !slices.Equal(got, []string{"Bob thinks"}) {
		t.Errorf("comments %q", got)
	}
	if s.Path() != path {
		t.Errorf("written to %s, want %s", s.Path(), path)
	}

	// A finished record cannot be resumed.
	over, _ := notation.Check("over", []byte("[Game \"IceSickle\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\n1. L@c3 1-0\n"))
	if _, err := tabletop.New(tabletop.Config{Resume: over[0], Path: path}, out); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("resuming a finished game: %v", err)
	}
}
