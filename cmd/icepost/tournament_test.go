package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// The operator's tournaments: create (bad settings refused with what to
// do), list, start (its first games queued for the players), show as
// text and JSON, pair, cancel.
func TestOperatorTournament(t *testing.T) {
	db, srv := operatorDB(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"create", "-game", "icesickle", "-format", "swiss", "Club"}, "rounds"},
		{[]string{"create", "-game", "chess", "-format", "swiss", "-rounds", "3", "Club"}, "no game"},
		{[]string{"create", "-game", "icesickle", "-format", "swiss", "-rounds", "3", "-start", "soon", "Club"}, "2026-12-24"},
		{[]string{"create", "-game", "icesickle", "-format", "swiss", "-rounds", "3"}, "one NAME"},
		{[]string{"create", "-game", "pikemen", "-format", "roundrobin", "-option", "target", "Club"}, "name=value"},
		{[]string{"create", "-game", "pikemen", "-format", "ladder", "-deadline", "5", "Club"}, "no deadline"},
		{[]string{"create", "-game", "pikemen", "-format", "swiss", "-rounds", "3", "-reach", "2", "Club"}, "for a ladder"},
	} {
		code, out, errs := runOp(t, append([]string{"tournament", "-db", db}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("tournament %v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errs, c.want)
		}
	}
	code, out, errs := runOp(t, "tournament", "-db", db, "create", "-game", "icesickle", "-format", "swiss", "-rounds", "2", "-days", "3",
		"-players", "ada@club.test,bob@club.test", "-players", "bot:1", "-players", "bot:2", "Club Swiss")
	if code != exitOK || !strings.Contains(out, "tournament 1 created: Club Swiss") {
		t.Fatalf("create: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runOp(t, "tournament", "-db", db, "list")
	if code != exitOK || !strings.Contains(out, "Club Swiss") || !strings.Contains(out, "open") {
		t.Fatalf("list: exit %d\n%s", code, out)
	}
	before := outboxTo(t, srv, "ada@club.test")
	code, out, errs = runOp(t, "tournament", "-db", db, "start", "1")
	if code != exitOK || !strings.Contains(out, "tournament 1 started") {
		t.Fatalf("start: exit %d\n%s%s", code, out, errs)
	}
	if outboxTo(t, srv, "ada@club.test") != before+1 {
		t.Error("ada's first board is not queued")
	}
	code, _, errs = runOp(t, "tournament", "-db", db, "start", "1")
	if code == exitOK || !strings.Contains(errs, "running") {
		t.Errorf("start twice: exit %d, %q", code, errs)
	}
	code, out, _ = runOp(t, "tournament", "-db", db, "show", "1")
	if code != exitOK || !strings.Contains(out, "Round 1") || !strings.Contains(out, "1.1") || !strings.Contains(out, "Buchholz") {
		t.Fatalf("show: exit %d\n%s", code, out)
	}
	code, out, _ = runOp(t, "tournament", "-db", db, "show", "-json", "1")
	var shown struct {
		Status    string           `json:"status"`
		MailGames map[string]int64 `json:"mailGames"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &shown) != nil || shown.Status != "running" || len(shown.MailGames) != 2 {
		t.Fatalf("show -json: exit %d, %+v\n%s", code, shown, out)
	}
	if code, _, errs := runOp(t, "tournament", "-db", db, "pair", "1"); code != exitOK {
		t.Fatalf("pair: exit %d, %s", code, errs)
	}
	if code, _, errs := runOp(t, "tournament", "-db", db, "show", "9"); code != exitInvalid || !strings.Contains(errs, "no tournament 9") {
		t.Errorf("show 9: exit %d, %q", code, errs)
	}
	code, out, errs = runOp(t, "tournament", "-db", db, "cancel", "1")
	if code != exitOK || !strings.Contains(out, "cancelled") {
		t.Fatalf("cancel: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runOp(t, "tournament", "-db", db, "cancel", "1"); code == exitOK || !strings.Contains(errs, "cancelled already") {
		t.Errorf("cancel twice: exit %d, %q", code, errs)
	}
	// The settings given are the tournament's.
	code, out, errs = runOp(t, "tournament", "-db", db, "create", "-game", "pikemen", "-format", "ladder", "-reach", "2", "-answer-days", "4", "Club Ladder")
	if code != exitOK {
		t.Fatalf("create a ladder: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = runOp(t, "tournament", "-db", db, "create", "-game", "pikemen", "-format", "swiss", "-rounds", "3", "-deadline", "30", "Club Slow")
	if code != exitOK {
		t.Fatalf("create with a deadline: exit %d\n%s%s", code, out, errs)
	}
	for id, wants := range map[string][]string{"2": {`"reach": 2`, `"days": 4`}, "3": {`"deadline": 30`}} {
		code, out, _ := runOp(t, "tournament", "-db", db, "show", "-json", id)
		for _, want := range wants {
			if code != exitOK || !strings.Contains(out, want) {
				t.Errorf("show -json %s lacks %s:\n%s", id, want, out)
			}
		}
	}
}
