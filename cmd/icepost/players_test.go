package main

import (
	"encoding/json"
	"strings"
	"testing"
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
