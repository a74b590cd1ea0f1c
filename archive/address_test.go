package archive

import (
	"context"
	"strings"
	"testing"

	"icepost/notation"
)

// TestRewriteAddressGames: a player by mail's games are rewritten under
// a pseudonym: the records (plain ones, kept as move numbers, and one with
// comments, kept as text), seats, players and the full-text index; a game
// of someone else with the same name stays theirs, and every game still
// verifies with its moves.
func TestRewriteAddressGames(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	mailGames := []testGame{
		makeGame(t, 11, 0, []string{"ada <ada@club.test>", "bob <bob@club.test>"}, "icepost by mail", "2026.11.22", nil, ""),
		makeGame(t, 12, 12, []string{"cy <cy@club.test>", "ada <ADA@club.test>"}, "icepost by mail", "2026.11.22", nil, "ada offers a draw: well?"),
	}
	other := makeGame(t, 13, 0, []string{"Ada", "Dave"}, "Club night", "2026.01.01", nil, "")
	importGames(t, a, []testGame{other})
	tx, err := a.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range mailGames {
		rg, err := replayText("", []byte(g.text))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := AddGame(ctx, tx, rg, Provenance{MailGame: string(rune('1' + i))}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := AddressGames(ctx, tx, "Ada@Club.test")
	if err != nil || len(got) != 2 || !strings.Contains(string(got[0].Record), "ada <ada@club.test>") || got[0].MailGame != "1" {
		t.Fatalf("ada's games: %d, %v", len(got), err)
	}
	before := map[int64]string{}
	for _, g := range got {
		before[g.ID] = string(g.Record)
	}
	n, err := RewriteAddressGames(ctx, tx, "ada@club.test", func(rec *notation.Record) error {
		for i, tg := range rec.Tags {
			if _, addr := notation.SplitPlayer(tg.Value); strings.EqualFold(addr, "ada@club.test") {
				rec.Tags[i].Value = "player-1f2e <player-1f2e@forgotten.invalid>"
			}
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Fatalf("rewrite: %d games, %v", n, err)
	}
	if _, err := RewriteAddressGames(ctx, tx, "bob@club.test", func(rec *notation.Record) error {
		rec.Main.Moves = rec.Main.Moves[:1]
		return nil
	}); err == nil {
		t.Error("a rewrite that changes the moves was taken")
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}

	for id, old := range before {
		st, err := a.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.NewReplacer("ada <ada@club.test>", "player-1f2e <player-1f2e@forgotten.invalid>",
			"ada <ADA@club.test>", "player-1f2e <player-1f2e@forgotten.invalid>").Replace(old)
		if string(st.Record) != want {
			t.Errorf("game %d:\n%s\nwant\n%s", id, st.Record, want)
		}
	}
	if n, _ := a.Count(ctx, Query{Player: "player-1f2e"}); n != 2 {
		t.Errorf("%d games of the pseudonym, want 2", n)
	}
	if n, _ := a.Count(ctx, Query{Player: "ada"}); n != 1 {
		t.Errorf("%d games of ada, want the other Ada's 1", n)
	}
	if n, _ := a.Count(ctx, Query{Text: "player-1f2e"}); n != 2 {
		t.Errorf("full text: %d games of the pseudonym, want 2", n)
	}
	if n, _ := a.Count(ctx, Query{Text: "cy"}); n != 1 {
		t.Errorf("full text: %d games of cy, want 1", n)
	}
	again, err := a.DB().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if left, err := AddressGames(ctx, again, "ada@club.test"); err != nil || len(left) != 0 {
		t.Errorf("%d games still at ada's address (%v)", len(left), err)
	}
	again.Rollback()
	if checked, failed, err := a.verify(ctx, func(id int64, err error) { t.Errorf("game %d: %v", id, err) }); err != nil || failed != 0 || checked != 3 {
		t.Errorf("verify: %d checked, %d failed, %v", checked, failed, err)
	}

	// A player left with no seat is deleted.
	tx, _ = a.DB().BeginTx(ctx, nil)
	if _, err := RewriteAddressGames(ctx, tx, "cy@club.test", func(rec *notation.Record) error {
		rec.SetTag("Player1", "player-9 <player-9@forgotten.invalid>")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	tx.Commit()
	var cy int
	a.DB().QueryRow(`SELECT count(*) FROM players WHERE key = 'cy'`).Scan(&cy)
	if cy != 0 {
		t.Error("cy's player stays with no game")
	}
}
