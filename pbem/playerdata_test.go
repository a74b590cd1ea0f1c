package pbem_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"icepost/pbem"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/mailgames"
	"icepost/pbem/players"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
)

func (testArchive) AddressGames(ctx context.Context, tx *sql.Tx, address string) ([]players.ArchivedGame, error) {
	gs, err := archive.AddressGames(ctx, tx, address)
	var out []players.ArchivedGame
	for _, g := range gs {
		out = append(out, players.ArchivedGame{ID: g.ID, MailGame: g.MailGame, Record: string(g.Record)})
	}
	return out, err
}

func (testArchive) RewriteAddressGames(ctx context.Context, tx *sql.Tx, address string, edit func(*notation.Record) error) (int, error) {
	return archive.RewriteAddressGames(ctx, tx, address, edit)
}

// playerWorld has ada play bob (she moves, then resigns with a comment:
// the game is archived) and cy (in progress), follow a game, take a
// vacation and ask for digests; dee's challenge names her.
func playerWorld(t *testing.T) (*world, []int64) {
	w := newWorld(t)
	ids := tokenGames(t, w, "bob", "cy")
	firstMoves(t, w, ids[:1])
	tok := replytoken.Token{Kind: 'm', Game: ids[0], Seat: 1, Ply: 1}.Sign(w.srv.Secret)
	w.deliver(w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", "resign\nwell played, bob"))
	w.step()
	if st, _ := gameStatus(t, w); st != pbem.StatusFinished {
		t.Fatalf("game 1 is %s after ada resigned", st)
	}
	// ada asks for its analysis, which holds her name and address too.
	quickAnalyses(w)
	thread := replytoken.Token{Kind: 'g', Game: ids[0], Seat: 1}.Sign(w.srv.Secret)
	w.deliver(w.write("ada", w.srv.PlusAddress(thread), "Re: game", "", "analyze"))
	w.step()
	if n := w.runAnalyses(); n != 1 || countRows(t, w, `SELECT count(*) FROM pbem_analyses WHERE record LIKE '%ada@club.test%'`) != 1 {
		t.Fatalf("%d analyses made; want game 1's, naming ada", n)
	}
	w.send("ada", "digest on")
	w.send("ada", "vacation 3")
	w.send("dee", "challenge icesickle "+w.sys.Address("eve"))
	w.deliver(w.reply("eve", w.last("eve"), "accept"))
	w.step()
	w.send("ada", "observe 3")
	w.send("dee", "challenge icesickle "+strings.ToUpper(w.sys.Address("ada")))
	return w, ids
}

// TestExportPlayer: everything kept about ada, as JSON.
func TestExportPlayer(t *testing.T) {
	w, ids := playerWorld(t)
	p, err := players.Export(w.ctx, w.srv.DB, testArchive{}, " ADA@club.test ")
	if err != nil {
		t.Fatal(err)
	}
	if p.Address != "ada@club.test" || p.Settings == nil || !p.Settings.Digest || len(p.Vacations) != 1 ||
		len(p.Observing) != 1 || p.Observing[0] != 3 {
		t.Errorf("settings, vacations, observing: %+v %v %v", p.Settings, p.Vacations, p.Observing)
	}
	var seats []int64
	for _, g := range p.Games {
		seats = append(seats, g.ID)
		if !strings.Contains(g.Record, "ada <ada@club.test>") {
			t.Errorf("game %d's record:\n%s", g.ID, g.Record)
		}
	}
	if len(p.Games[0].Moved) == 0 || p.Games[0].Moved[0].Ply != 1 || p.Games[0].Moved[0].At.IsZero() {
		t.Errorf("the times of game %d's moves: %+v", p.Games[0].ID, p.Games[0].Moved)
	}
	if len(seats) != 3 || seats[0] != ids[0] || seats[1] != ids[1] {
		t.Errorf("ada's games: %v, want %v and dee's challenge", seats, ids)
	}
	if len(p.Archived) != 1 || !strings.Contains(p.Archived[0].Record, `[Termination "resignation"]`) || p.Archived[0].MailGame == "" {
		t.Errorf("archived: %+v", p.Archived)
	}
	if len(p.Analyses) != 1 || p.Analyses[0].Game != ids[0] || !strings.Contains(p.Analyses[0].Record, "ada <ada@club.test>") ||
		!strings.Contains(p.Analyses[0].Record, "[%eval ") {
		t.Errorf("analyses: %+v", p.Analyses)
	}
	observed := slices.ContainsFunc(p.MailsFrom, func(m players.MailFrom) bool { return m.Outcome == "observe 3" })
	if len(p.MailsFrom) < 6 || !observed {
		t.Errorf("mails from ada: %+v", p.MailsFrom)
	}
	if len(p.MailsTo) == 0 || p.MailsTo[0].Sent == nil || !strings.Contains(p.MailsTo[0].Message, "To: ada@club.test") {
		t.Errorf("mails to ada: %d, the first %+v", len(p.MailsTo), p.MailsTo)
	}
	b, err := json.Marshal(p)
	if err != nil || !strings.Contains(string(b), `"mails_to":[{"id":`) {
		t.Errorf("JSON: %v\n%.300s", err, b)
	}
	if _, err := players.Export(w.ctx, w.srv.DB, testArchive{}, "nobody@club.test"); !errors.Is(err, mailgames.ErrRefused) {
		t.Errorf("an unknown address: %v", err)
	}
}

// TestForgetPlayer: ada, with a game in progress, is refused; once it is
// cancelled, her address and name are nowhere in the daemon's tables nor
// the archive, but under a pseudonym, and the games still load.
func TestForgetPlayer(t *testing.T) {
	w, ids := playerWorld(t)
	if _, err := players.Forget(w.ctx, w.srv.DB, testArchive{}, "ada@club.test", w.clock.Now()); !errors.Is(err, mailgames.ErrRefused) || !strings.Contains(err.Error(), "(2, 4)") {
		t.Fatalf("forgetting a player with games open: %v", err)
	}
	for _, id := range []int64{ids[1], 4} {
		if err := w.srv.CancelGame(w.ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	w.step()
	// ada's seek, her daily puzzle, and two tournaments that name her:
	// while one is open she is not forgotten.
	w.send("ada", "seek pikemen")
	for _, q := range []string{
		`INSERT INTO pbem_puzzle_players (address, active, last_puzzle, sent_at) VALUES ('ada@club.test', 1, 3, 0)`,
		`INSERT INTO pbem_puzzle_tries (address, puzzle_id, moves, status, updated_at) VALUES ('ada@club.test', 3, 'c3', 'open', 0)`,
		`INSERT INTO pbem_events (name, game, options, days, status, when_full, state, created_at, updated_at)
			VALUES ('Old Cup', 'IceSickle', '{}', 0, 'finished', 0, '{"players":[{"id":"ada@club.test"},{"id":"bob@club.test"}]}', 0, 0)`,
		`INSERT INTO pbem_events (name, game, options, days, status, when_full, state, created_at, updated_at)
			VALUES ('New Cup', 'IceSickle', '{}', 0, 'open', 0, '{"players":[{"id":"ada@club.test"}]}', 0, 0)`,
	} {
		if _, err := w.srv.DB.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if p, err := players.Export(w.ctx, w.srv.DB, testArchive{}, "ada@club.test"); err != nil || len(p.Seeks) != 1 || len(p.Tournaments) != 2 || p.Puzzles == nil || len(p.Puzzles.Tries) != 1 {
		t.Fatalf("ada's export of seeks, tournaments, puzzles: %v", err)
	}
	if _, err := players.Forget(w.ctx, w.srv.DB, testArchive{}, "ada@club.test", w.clock.Now()); !errors.Is(err, mailgames.ErrRefused) || !strings.Contains(err.Error(), "tournaments still open or running (2)") {
		t.Fatalf("forgetting a player in an open tournament: %v", err)
	}
	if _, err := w.srv.DB.Exec(`UPDATE pbem_events SET status = 'cancelled' WHERE name = 'New Cup'`); err != nil {
		t.Fatal(err)
	}
	queued := w.outboxCount()
	// One more mail to ada waits: it is given up, never sent.
	if _, err := w.srv.DB.Exec(`INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at) VALUES ('ada@club.test', 'To: ada@club.test', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	f, err := players.Forget(w.ctx, w.srv.DB, testArchive{}, "Ada@Club.test", w.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^player-[0-9a-f]{12}@forgotten\.invalid$`).MatchString(f.Pseudonym) || f.Games != 3 || f.Archived != 1 || f.Mails == 0 || f.WasBlocked {
		t.Errorf("forgotten: %+v", f)
	}
	if n := w.outboxCount(); n != queued+1 {
		t.Errorf("%d outbox rows, want %d: none is deleted", n, queued+1)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE recipient = ? AND failed_at IS NOT NULL AND sent_at IS NULL`, f.Pseudonym); n != 1 {
		t.Errorf("%d mails to the pseudonym given up, want the one waiting", n)
	}

	// Nothing names her: every column of every table, but the keys of
	// the mails handled (their Message-IDs), and the archive's records.
	tables, err := store.Column[string](w.ctx, w.srv.DB, `SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		cols, err := store.Column[string](w.ctx, w.srv.DB, `SELECT name FROM pragma_table_info(?)`, tb)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			if tb == "pbem_processed" && c == "mail_key" {
				continue
			}
			q := `SELECT count(*) FROM "` + tb + `" WHERE instr(lower(CAST("` + c + `" AS TEXT)), 'ada@club.test') > 0`
			if n := countRows(t, w, q); n > 0 {
				t.Errorf("%s.%s: %d rows still name ada@club.test", tb, c, n)
			}
		}
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_seats WHERE name = 'ada'`) + countRows(t, w, `SELECT count(*) FROM seats WHERE name = 'ada'`) +
		countRows(t, w, `SELECT count(*) FROM players WHERE key = 'ada'`); n > 0 {
		t.Errorf("%d seats or players still named ada", n)
	}
	name, _, _ := strings.Cut(f.Pseudonym, "@")
	a := archive.Wrap(w.srv.DB)
	st, err := a.Get(w.ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	// (The pseudonym's random hex digits may spell "ada" themselves.)
	if strings.Contains(strings.ReplaceAll(string(st.Record), name, ""), "ada") || !strings.Contains(string(st.Record), "{"+name+" resigns: well played, bob}") ||
		!strings.Contains(string(st.Record), `[Player1 "`+name+` <`+f.Pseudonym+`>"]`) {
		t.Errorf("the archived record:\n%s", st.Record)
	}
	if n, _ := a.Count(w.ctx, archive.Query{Text: "ada"}); n != 0 {
		t.Errorf("the archive's full text finds ada in %d games", n)
	}
	// The games load, for the daemon and the read model.
	for _, id := range ids {
		if g := replay(t, w, id); !strings.Contains(g.Record.String(), f.Pseudonym) {
			t.Errorf("game %d:\n%s", id, g.Record.String())
		}
	}
	if _, err := (&mailgames.Reader{DB: w.srv.DB}).All(w.ctx); err != nil {
		t.Error(err)
	}
	if p, err := players.Export(w.ctx, w.srv.DB, testArchive{}, f.Pseudonym); err != nil || len(p.Games) != 3 || len(p.Archived) != 1 {
		t.Errorf("the pseudonym's export: %v", err)
	}
	if _, err := players.Export(w.ctx, w.srv.DB, testArchive{}, "ada@club.test"); !errors.Is(err, mailgames.ErrRefused) {
		t.Errorf("ada's export after forgetting: %v", err)
	}
	if _, err := players.Forget(w.ctx, w.srv.DB, testArchive{}, "ada@club.test", w.clock.Now()); !errors.Is(err, mailgames.ErrRefused) {
		t.Errorf("forgetting ada twice: %v", err)
	}
}
