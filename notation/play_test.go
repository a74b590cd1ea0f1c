package notation_test

import (
	"errors"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/counting"
	"icepost/rules/games"
	"icepost/rules/icefrogs"
	"icepost/rules/icelady"
	"icepost/rules/icesickle"
	"icepost/rules/pikemen"
)

// replayed formats g's record, parses and replays it: what a game being
// played writes must be a valid record.
func replayed(t *testing.T, g *notation.Game) *notation.Game {
	t.Helper()
	text := g.Record.String()
	gs, errs := notation.Check("play", []byte(text))
	if err := errs.Err(); err != nil || len(gs) != 1 {
		t.Fatalf("the record does not replay: %v\n%s", err, text)
	}
	return gs[0]
}

func tag(g *notation.Game, name string) string {
	v, _ := g.Record.Tag(name)
	return v
}

func TestNewGameTags(t *testing.T) {
	for _, tt := range []struct {
		game rules.Game
		o    rules.Options
		want map[string]string // "" means absent
	}{
		{icesickle.Game, rules.Options{}, map[string]string{"Game": "IceSickle", "Score": "0:0", "Target": "", "Board": ""}},
		{pikemen.Game, rules.Options{Seats: 3}, map[string]string{"Game": "Pikemen", "Target": "12", "Score": "0:0:0"}},
		{pikemen.Game, rules.Options{Target: 20}, map[string]string{"Target": "20"}},
		{icefrogs.Game, rules.Options{Board: "hex"}, map[string]string{"Game": "IceFrogs", "Board": "hex", "Score": ""}},
		{icefrogs.Game, rules.Options{}, map[string]string{"Board": "star"}},
	} {
		start, err := tt.game.Start(tt.o)
		if err != nil {
			t.Fatal(err)
		}
		given := []notation.Tag{{Name: "Event", Value: "E"}, {Name: "Game", Value: "Wrong"}, {Name: "Target", Value: "99"}, {Name: "Result", Value: "1-0"}}
		g := notation.NewGame(start, given)
		for name, want := range tt.want {
			if got := tag(g, name); got != want {
				t.Errorf("%s %+v: tag %s = %q, want %q", tt.game.Name(), tt.o, name, got, want)
			}
		}
		if tag(g, "Event") != "E" || g.Record.Result != "*" || tag(g, "Result") != "*" {
			t.Errorf("%s: tags %v, result %s", tt.game.Name(), g.Record.Tags, g.Record.Result)
		}
		replayed(t, g)
	}
}

func TestPlayUndo(t *testing.T) {
	start, _ := icesickle.Game.Start(rules.Options{})
	g := notation.NewGame(start, nil)
	g.Comment("before it all")
	if _, err := g.PlayToken("l@C3", "a strong start"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.PlayToken("L@c3", ""); !errors.Is(err, rules.ErrIllegal) {
		t.Errorf("a move to a taken square: %v, want ErrIllegal", err)
	}
	m := g.Final().Moves(nil)[0]
	if err := g.Play(m, ""); err != nil {
		t.Fatal(err)
	}
	g.Comment("late note")
	if got := g.Record.MainTokens(); len(got) != 2 || got[0] != "L@c3" {
		t.Fatalf("tokens %v", got)
	}
	text := g.Record.String()
	for _, want := range []string{"{before it all}", "L@c3 {a strong start}", "{late note}"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q missing from\n%s", want, text)
		}
	}
	again := replayed(t, g)
	if again.Final().Code() != g.Final().Code() {
		t.Errorf("replayed to %s, played to %s", again.Final().Code(), g.Final().Code())
	}
	for range 2 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Undo(); err == nil {
		t.Error("undo with no move played succeeded")
	}
	if g.Ply() != 0 || len(g.States) != 1 || len(g.Record.Main.Comments) != 1 {
		t.Errorf("after undoing all: ply %d, %d states, comments %q", g.Ply(), len(g.States), g.Record.Main.Comments)
	}
	replayed(t, g)
}

func TestEnd(t *testing.T) {
	unregister := games.Register(counting.Game)
	defer unregister()
	for _, tt := range []struct {
		term   string
		winner int
		result string
	}{
		{"resignation", 2, "0-1-0"},
		{"agreement", 0, "1/2-1/2-1/2"},
		{"time forfeit", 1, "1-0-0"},
		{"abandoned", 3, "0-0-1"},
	} {
		start, _ := counting.Game.Start(rules.Options{Seats: 3})
		g := notation.NewGame(start, nil)
		g.PlayToken("+2", "")
		if err := g.End(tt.term, tt.winner, "the end"); err != nil {
			t.Fatal(err)
		}
		if g.Record.Result != tt.result || tag(g, "Result") != tt.result || tag(g, "Termination") != tt.term || !g.Over() || g.Winner() != tt.winner {
			t.Errorf("%s: result %s/%s termination %s", tt.term, g.Record.Result, tag(g, "Result"), tag(g, "Termination"))
		}
		replayed(t, g)
		if _, err := g.PlayToken("+1", ""); !errors.Is(err, notation.ErrOver) {
			t.Errorf("%s: a move after the end: %v", tt.term, err)
		}
		if err := g.Undo(); err == nil {
			t.Errorf("%s: undo before reopen succeeded", tt.term)
		}
		g.Reopen()
		if g.Over() || tag(g, "Termination") != "" || g.Record.Result != "*" || len(g.Record.Main.Moves[0].After) != 0 {
			t.Errorf("%s: after Reopen: %s %v after %q", tt.term, g.Record.Result, g.Record.Tags, g.Record.Main.Moves[0].After)
		}
	}
	start, _ := counting.Game.Start(rules.Options{})
	g := notation.NewGame(start, nil)
	if err := g.End("agreement", 1, ""); err == nil {
		t.Error("an agreement with a winner was taken")
	}
	if err := g.End("normal", 1, ""); err == nil {
		t.Error("End(normal) was taken")
	}
}

// TestRulesEnd: a game the rules end gets its result, Termination normal,
// and the score, whoever plays it; undo takes all of it back.
func TestRulesEnd(t *testing.T) {
	unregister := games.Register(counting.Game)
	defer unregister()
	start, _ := counting.Game.Start(rules.Options{})
	g := notation.NewGame(start, nil)
	for !g.Over() {
		if _, err := g.PlayToken("+2", ""); err != nil {
			t.Fatal(err)
		}
	}
	if g.Record.Result != "1-0" || tag(g, "Termination") != "normal" {
		t.Errorf("result %s termination %q", g.Record.Result, tag(g, "Termination"))
	}
	if err := g.End("resignation", 2, ""); !errors.Is(err, notation.ErrOver) {
		t.Errorf("End after the rules ended the game: %v", err)
	}
	replayed(t, g)
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Record.Result != "*" || tag(g, "Termination") != "" || tag(g, "Result") != "*" {
		t.Errorf("after undo: result %s termination %q", g.Record.Result, tag(g, "Termination"))
	}
}

// TestRepeats: two mediums of Ice Lady go sideways and back; the start
// position comes back after four plies and again after eight.
func TestRepeats(t *testing.T) {
	start, _ := icelady.Game.Start(rules.Options{})
	g := notation.NewGame(start, nil)
	want := []int{1, 1, 1, 1, 2, 2, 2, 2, 3}
	if got := g.Repeats(); got != want[0] {
		t.Fatalf("at the start: %d repeats, want 1", got)
	}
	for i, tok := range strings.Fields("c2-a2 f7-h7 a2-c2 h7-f7 c2-a2 f7-h7 a2-c2 h7-f7") {
		if _, err := g.PlayToken(tok, ""); err != nil {
			t.Fatal(err)
		}
		if got := g.Repeats(); got != want[i+1] {
			t.Errorf("after ply %d (%s): %d repeats, want %d", i+1, tok, got, want[i+1])
		}
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := g.Repeats(); got != 2 {
		t.Errorf("after an undo: %d repeats, want 2", got)
	}
}
