package analysis

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
)

const club = `[Game "IceSickle"]
[Player1 "Ada"]
[Player2 "Bob"]

1. L@c3 !! {a bold start} M@b2 ? (M@b1 {the book move}) 2. S@a1 *
`

func parseOne(t *testing.T, src string) *notation.Record {
	t.Helper()
	recs, errs := notation.Parse("t.txt", []byte(src))
	if len(errs) > 0 || len(recs) != 1 {
		t.Fatalf("parse: %v", errs)
	}
	return recs[0]
}

// TestAnnotateReadStrip writes a report into a record with comments,
// NAGs and a variation of its own, reads it back through the format,
// and takes it out again: the record's own annotations survive each
// step, and writing the same report twice writes the same text.
func TestAnnotateReadStrip(t *testing.T) {
	rec := parseOne(t, club)
	plain := rec.String()
	// The engine's line after move 2: M@b1, then two legal moves.
	g, err := notation.Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	line := []string{"M@b1"}
	s, _, err := rules.Play(g.States[1], "M@b1")
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		m := s.Moves(nil)[0]
		line = append(line, s.FormatMove(m))
		s, _ = s.Play(m)
	}
	rep := &Report{Level: 3, Seats: 2, Moves: []Move{
		{Ply: 1, Seat: 1, Token: "L@c3", Before: 0.5, After: 0.52},
		{Ply: 2, Seat: 2, Token: "M@b2", Before: 0.48, After: 0.2, Mark: Mistake, Better: "M@b1", BetterEval: 0.47, Line: line},
		{Ply: 3, Seat: 1, Token: "S@a1", Before: 1, After: 0.3, Mark: Blunder, Better: "S@b1", BetterEval: 1, Line: []string{"S@b1"}, WinIn: 2},
	}}
	if err := Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	once := rec.String()
	again := parseOne(t, once)
	if err := Annotate(again, rep); err != nil {
		t.Fatal(err)
	}
	if twice := again.String(); twice != once {
		t.Errorf("annotating twice changed the record:\n%s\nthen\n%s", once, twice)
	}
	if err := notation.Validate(again); err != nil {
		t.Errorf("the annotated record does not validate: %v\n%s", err, once)
	}
	got, ok, err := Read(again)
	if err != nil || !ok {
		t.Fatalf("Read: %v %v\n%s", ok, err, once)
	}
	if got.Level != 3 || got.Seats != 2 || len(got.Moves) != 3 {
		t.Fatalf("Read = %+v", got)
	}
	for i, m := range got.Moves {
		if !reflect.DeepEqual(m, rep.Moves[i]) {
			t.Errorf("move %d read back as %+v, written %+v", i+1, m, rep.Moves[i])
		}
	}
	if m := got.Marked(); len(m) != 2 || m[0].Ply != 3 || m[1].Ply != 2 {
		t.Errorf("Marked = %+v, want the blunder then the mistake", m)
	}
	if l, n := got.MeanLoss(1); n != 2 || l != 0.35 {
		t.Errorf("MeanLoss(1) = %v, %d; want 0.35, 2", l, n)
	}
	if o := oneLine(once); !strings.Contains(o, "[%wins 2] [%engine]") || !strings.Contains(o, "M@b1 {[%eval 0.47] [%engine]} 2. "+line[1]+" "+line[2]+")") {
		t.Errorf("the forced win or the line is not in the record:\n%s", once)
	}
	// A record of before lines: the engine's variation one move.
	old := parseOne(t, once)
	for _, v := range old.Main.Moves[1].Variations {
		if isEngineLine(v) {
			v.Moves = v.Moves[:1]
		}
	}
	if r, ok, err := Read(old); err != nil || !ok || !reflect.DeepEqual(r.Moves[1].Line, []string{"M@b1"}) || r.Moves[1].Better != "M@b1" {
		t.Errorf("a one-move engine variation read back as %+v (%v, %v)", r, ok, err)
	}
	Strip(again)
	if s := again.String(); s != plain {
		t.Errorf("Strip left\n%s\nwant\n%s", s, plain)
	}
	if _, ok, _ := Read(again); ok {
		t.Error("Read found an analysis in a stripped record")
	}
}

// TestReadRefusesHalfAnalysis: a record whose Annotator tag is icepost's
// but whose moves lack their comments (edited by hand) has no analysis.
func TestReadRefusesHalfAnalysis(t *testing.T) {
	rec := parseOne(t, club)
	rec.SetTag(AnnotatorTag, "icepost level 2")
	if _, ok, err := Read(rec); ok || err != nil {
		t.Errorf("Read = %v, %v; want no analysis, no error", ok, err)
	}
	rec.SetTag(AnnotatorTag, "Ada")
	if Level(rec) != 0 {
		t.Error("Level read another annotator's tag as icepost's")
	}
}

// TestAnnotatorKept: a record that names its own annotator keeps it; the
// analysis is added after it, and Strip gives it back.
func TestAnnotatorKept(t *testing.T) {
	rec := parseOne(t, club)
	rec.SetTag(AnnotatorTag, "Ada; her notes")
	rep := &Report{Level: 2, Seats: 2, Moves: []Move{
		{Ply: 1, Seat: 1, Token: "L@c3", Before: 0.5, After: 0.5},
		{Ply: 2, Seat: 2, Token: "M@b2", Before: 0.5, After: 0.5},
		{Ply: 3, Seat: 1, Token: "S@a1", Before: 0.5, After: 0.5},
	}}
	for _, level := range []int{2, 3} {
		rep.Level = level
		if err := Annotate(rec, rep); err != nil {
			t.Fatal(err)
		}
		if v, _ := rec.Tag(AnnotatorTag); v != "Ada; her notes; icepost level "+strconv.Itoa(level) || Level(rec) != level {
			t.Errorf("Annotator %q, Level %d", v, Level(rec))
		}
	}
	Strip(rec)
	if v, _ := rec.Tag(AnnotatorTag); v != "Ada; her notes" || Level(rec) != 0 {
		t.Errorf("after Strip: Annotator %q, Level %d", v, Level(rec))
	}
	for _, v := range []string{"icepost level 03", "icepost level x", "icepost level 0", "Ada; icepost level"} {
		rec.SetTag(AnnotatorTag, v)
		if Level(rec) != 0 {
			t.Errorf("Level read %q as %d", v, Level(rec))
		}
	}
}
