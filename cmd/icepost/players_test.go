package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/analysis"
	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

func TestOperatorPlayersExportForget(t *testing.T) {
	db, _ := operatorDB(t)
	code, out, errs := runOp(t, "players", "-db", db, "export", "CY@club.test")
	if code != exitOK {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	var p struct {
		Address  string `json:"address"`
		Settings struct {
			Digest bool `json:"digest"`
		} `json:"settings"`
		Games []struct {
			ID     int64  `json:"id"`
			Status string `json:"status"`
			Record string `json:"record"`
		} `json:"games"`
		MailsTo []struct {
			Message string `json:"message"`
		} `json:"mails_to"`
	}
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("export is not JSON: %v\n%s", err, out)
	}
	if p.Address != "cy@club.test" || !p.Settings.Digest || len(p.Games) != 1 || p.Games[0].ID != 2 ||
		!strings.Contains(p.Games[0].Record, "cy <cy@club.test>") || len(p.MailsTo) == 0 {
		t.Errorf("cy's export:\n%s", out)
	}
	if code, _, errs := runOp(t, "players", "-db", db, "export", "nobody@club.test"); code != exitInvalid || !strings.Contains(errs, "nothing is kept about nobody@club.test") {
		t.Errorf("export nobody: exit %d %s", code, errs)
	}
	if code, _, _ := runOp(t, "players", "-db", db, "export"); code != exitUsage {
		t.Errorf("export without an address: exit %d", code)
	}

	if code, _, errs := runOp(t, "players", "-db", db, "forget", "cy@club.test"); code != exitInvalid || !strings.Contains(errs, "games invited or in progress (2)") {
		t.Fatalf("forget with a game open: exit %d %s", code, errs)
	}
	if code, _, errs := runOp(t, "games", "-db", db, "cancel", "2"); code != exitOK {
		t.Fatalf("cancel: %s", errs)
	}
	code, out, errs = runOp(t, "players", "-db", db, "forget", "cy@club.test")
	if code != exitOK || !strings.HasPrefix(out, "cy@club.test is now player-") || !strings.Contains(out, "@forgotten.invalid: 1 games by mail, 0 archived games") {
		t.Fatalf("forget: exit %d %s%s", code, out, errs)
	}
	if code, _, _ := runOp(t, "players", "-db", db, "export", "cy@club.test"); code != exitInvalid {
		t.Errorf("export after forget: exit %d", code)
	}
	if _, out, _ := runOp(t, "players", "-db", db, "list"); strings.Contains(out, "cy@club.test") || !strings.Contains(out, "@forgotten.invalid") {
		t.Errorf("players list after forget:\n%s", out)
	}
}

// TestPlayersListAnalysis: players list gives each address's average
// loss a move once the daemon's archive holds an analysed game.
func TestPlayersListAnalysis(t *testing.T) {
	db, srv := operatorDB(t)
	ctx := context.Background()
	g, _ := games.Lookup("IceSickle")
	start, _ := g.Start(rules.Options{})
	moves := notation.RandomGame(start, rand.New(rand.NewPCG(4, 4)), 4)
	rec, err := notation.FromMoves([]notation.Tag{{Name: "Player1", Value: "Ada <ada@club.test>"}, {Name: "Player2", Value: "Bob <bob@club.test>"}}, start, moves)
	if err != nil {
		t.Fatal(err)
	}
	rep := &analysis.Report{Level: 2, Seats: 2}
	for i, tok := range rec.MainTokens() {
		m := analysis.Move{Ply: i + 1, Seat: i%2 + 1, Token: tok, Before: 0.5, After: 0.5}
		if i == 2 {
			m.After, m.Mark = 0.25, analysis.Blunder
		}
		rep.Moves = append(rep.Moves, m)
	}
	if err := analysis.Annotate(rec, rep); err != nil {
		t.Fatal(err)
	}
	if _, out, _ := runOp(t, "players", "-db", db, "list"); !strings.Contains(strings.SplitN(out, "\n", 2)[0], "AVG LOSS") || strings.Contains(out, "moves)") {
		t.Errorf("players list before an analysis is stored:\n%s", out)
	}
	// The analysed record imported: its rows come with it.
	a := archive.Wrap(srv.DB)
	if _, err := a.Import(ctx, strings.NewReader(rec.String()), "analysed.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runOp(t, "players", "-db", db, "list")
	if !strings.Contains(out, "0.125 (2 moves)") {
		t.Errorf("players list lacks Ada's average loss:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "ada@club.test") && !strings.Contains(line, "0.125 (2 moves)"),
			strings.HasPrefix(line, "bob@club.test") && !strings.Contains(line, "0.000 (2 moves)"),
			strings.HasPrefix(line, "cy@club.test") && strings.Contains(line, "moves)"):
			t.Errorf("players list: %q", line)
		}
	}
}
