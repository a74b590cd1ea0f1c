package pbem_test

import (
	"errors"
	"strings"
	"testing"

	"icepost/pbem"
)

// TestServiceStartsGames: a service beside the game service starts games
// in one transaction with its own writes: every seat accepted, the
// record tagged with the event and round, the first boards sent, a bot's
// seat played by the bot; a failure rolls all of it back.
func TestServiceStartsGames(t *testing.T) {
	w := newWorld(t)
	ctx := w.ctx
	if _, err := w.srv.DB.Exec(`CREATE TABLE test_service (n INTEGER)`); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := w.srv.Transact(ctx, func(tx *pbem.Tx) error {
		if _, err := tx.SQL().ExecContext(tx.Context(), `INSERT INTO test_service VALUES (1)`); err != nil {
			return err
		}
		if _, err := tx.Start(pbem.GameSpec{Game: "icesickle", Seats: []string{w.sys.Address("ada"), w.sys.Address("bob")}}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Transact = %v, want the function's error", err)
	}
	if n := countRows(t, w, `SELECT count(*) FROM test_service`) + countRows(t, w, `SELECT count(*) FROM pbem_games`) + w.outboxCount(); n != 0 {
		t.Fatalf("a failed transaction left %d rows", n)
	}

	var ids []int64
	err = w.srv.Transact(ctx, func(tx *pbem.Tx) error {
		for _, spec := range []pbem.GameSpec{
			{Game: "Pikemen", Options: map[string]string{"target": "9"}, Seats: []string{w.sys.Address("ada"), w.sys.Address("bob")},
				Days: 3, Event: "Club Swiss", Round: "1.1", News: "Round 1 of Club Swiss begins."},
			{Game: "icesickle", Seats: []string{"bot:1", w.sys.Address("cy")}, Event: "Club Swiss", Round: "1.2"},
		} {
			id, err := tx.Start(spec)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.d.SendOutbox(ctx); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_seats WHERE accepted = 0`); n != 0 {
		t.Errorf("%d seats not accepted", n)
	}
	for _, p := range []string{"ada", "bob"} {
		w.wantLast(p, "Round 1 of Club Swiss begins.")
	}
	rec := ""
	if err := w.srv.DB.QueryRow(`SELECT record FROM pbem_games WHERE id = ?`, ids[0]).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	for _, tag := range []string{`[Event "Club Swiss"]`, `[Round "1.1"]`, `[Target "9"]`, `[TimeControl "3d/move"]`} {
		if !strings.Contains(rec, tag) {
			t.Errorf("the record lacks %s:\n%s", tag, rec)
		}
	}
	// The bot has seat 1 of the second game: its move is a job, and cy
	// gets the board after it.
	if n, err := w.srv.RunBots(ctx, nil); err != nil || n != 1 {
		t.Fatalf("RunBots = %d, %v; want the bot's first move", n, err)
	}
	if _, err := w.d.SendOutbox(ctx); err != nil {
		t.Fatal(err)
	}
	w.wantLast("cy", "icepost bot level 1 played")

	// Without a tournaments service, its commands say so.
	w.send("dee", "join 1")
	w.wantLast("dee", "this server runs no tournaments")
}
