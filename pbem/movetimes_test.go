package pbem_test

import (
	"testing"
	"time"

	"icepost/pbem/mailgames"
)

// TestMoveTimes: each move's time is kept with the game (the feeds give
// it), an undo takes the undone moves' times away, and the move made
// again has its own.
func TestMoveTimes(t *testing.T) {
	w := newWorld(t)
	quickBots(w)
	w.send("ada", "challenge icesickle bot level=1")
	times := func() []time.Time {
		t.Helper()
		g, err := (&mailgames.Reader{DB: w.srv.DB}).Game(w.ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		return g.Moved
	}
	w.clock.Advance(10 * time.Minute)
	adaMoved := w.clock.Now()
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 0)))
	w.step()
	w.clock.Advance(3 * time.Minute)
	botMoved := w.clock.Now()
	w.runBots()
	if got := times(); len(got) != 2 || !got[0].Equal(adaMoved) || !got[1].Equal(botMoved) {
		t.Fatalf("the times of ada's move and the bot's: %v, want %v and %v", got, adaMoved, botMoved)
	}
	w.clock.Advance(time.Hour)
	w.deliver(w.reply("ada", w.last("ada"), "undo"))
	w.step()
	if got := times(); len(got) != 0 || countRows(t, w, `SELECT count(*) FROM pbem_move_times`) != 0 {
		t.Fatalf("after the undo of both moves: %v, %d rows", got, countRows(t, w, `SELECT count(*) FROM pbem_move_times`))
	}
	w.clock.Advance(time.Minute)
	again := w.clock.Now()
	w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, 1, 1)))
	w.step()
	if got := times(); len(got) != 1 || !got[0].Equal(again) {
		t.Errorf("the move made again: %v, want %v", got, again)
	}
}
