package pbem_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/mail"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/outbox"
	"icepost/pbem/replytoken"
	"icepost/rules"
)

// BenchmarkBotBoardLatency measures, with 12 games against the bot by
// mail and the daemon running, how long a bot's board waits between the
// commit of the bot's move and its sending: ada moves in every game at
// once (an iteration is one such round), the bot loop searches each game
// in turn, and each board should leave as soon as its move is committed,
// not when every other search is done. It reports the median and the
// longest wait from commit to send, and the median from ada's move mail
// to the bot's board. The bots play at the operator's default level (2;
// ICEPOST_BENCH_BOT_LEVEL sets another).
//
//	go test -run XXX -bench BotBoardLatency -benchtime 5x ./pbem/
func BenchmarkBotBoardLatency(b *testing.B) {
	const games = 12
	w := benchWorld(b)
	w.srv.Now = nil // real time, so that the daemon's timers run
	level, _ := strconv.Atoi(os.Getenv("ICEPOST_BENCH_BOT_LEVEL"))
	w.srv.Bots = pbem.Bots{Level: level}
	clock := &botClock{commits: map[[2]int64]time.Time{}, sends: map[[2]int64]time.Time{}}
	w.srv.Log = slog.New(clock)
	w.d.Sender = &timedSender{Mailer: w.d.Sender, clock: clock}
	w.d.Poll = time.Minute // IDLE wakes the daemon for each round
	var gs []*botGame
	for range games {
		gs = append(gs, newBotGame(b, w))
	}
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); w.d.Run(ctx) }()
	var waits, replies []time.Duration
	for b.Loop() {
		b.StopTimer()
		for i, g := range gs {
			if g.s.Outcome().Over {
				gs[i] = newBotGame(b, w)
			}
		}
		b.StartTimer()
		moved := time.Now()
		for _, g := range gs {
			g.move(b)
		}
		// Each bot's board: ada's seat's token names the ply after her
		// move and the bot's.
		deadline := time.Now().Add(time.Minute)
		for _, g := range gs {
			key := [2]int64{g.id, int64(g.ply + 2)}
			for {
				commit, sent, ok := clock.times(key)
				if ok {
					waits = append(waits, sent.Sub(commit))
					replies = append(replies, sent.Sub(moved))
					break
				}
				if time.Now().After(deadline) {
					b.Fatalf("game %d: no bot board after ply %d within a minute", g.id, g.ply)
				}
				time.Sleep(time.Millisecond)
			}
		}
		b.StopTimer()
		for _, g := range gs {
			g.sync(b)
		}
		b.StartTimer()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(waits)
	slices.Sort(replies)
	b.ReportMetric(ms(waits[len(waits)/2]), "ms-commit-to-send-median")
	b.ReportMetric(ms(waits[len(waits)-1]), "ms-commit-to-send-max")
	b.ReportMetric(ms(replies[len(replies)/2]), "ms-move-to-bot-board-median")
	b.ReportMetric(0, "ns/op")
	cancel()
	<-done
}

// botClock notes when each bot move is committed (the daemon logs "bot"
// after the commit) and when the board that follows it is sent, by game
// and the ply the board's token names.
type botClock struct {
	mu             sync.Mutex
	commits, sends map[[2]int64]time.Time
}

func (c *botClock) times(key [2]int64) (commit, sent time.Time, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	commit, ok1 := c.commits[key]
	sent, ok2 := c.sends[key]
	return commit, sent, ok1 && ok2
}

func (c *botClock) Enabled(context.Context, slog.Level) bool { return true }
func (c *botClock) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *botClock) WithGroup(string) slog.Handler            { return c }

func (c *botClock) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "bot" {
		return nil
	}
	now := time.Now()
	var game, ply int64
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "game":
			game = a.Value.Int64()
		case "ply":
			ply = a.Value.Int64()
		}
		return true
	})
	c.mu.Lock()
	c.commits[[2]int64{game, ply + 1}] = now
	c.mu.Unlock()
	return nil
}

// timedSender notes when each board to seat 1 is sent.
type timedSender struct {
	outbox.Mailer
	clock *botClock
}

func (s *timedSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	err := s.Mailer.Send(ctx, from, to, msg)
	if err != nil {
		return err
	}
	now := time.Now()
	m, err := mail.ReadMessage(bytes.NewReader(msg))
	if err != nil {
		return nil
	}
	var game, ply int64
	if _, err := fmt.Sscanf(m.Header.Get("Reply-To"), "games+m%d-1-%d-", &game, &ply); err == nil {
		s.clock.mu.Lock()
		if _, ok := s.clock.sends[[2]int64{game, ply}]; !ok {
			s.clock.sends[[2]int64{game, ply}] = now
		}
		s.clock.mu.Unlock()
	}
	return nil
}

// botGame is a game of IceSickle between ada (seat 1) and the bot, whose
// moves the harness writes with the tokens it makes itself.
type botGame struct {
	w   *world
	id  int64
	s   rules.State
	ply int
}

// newBotGame starts a game through the daemon's server: the game begins
// at once, with ada to move.
func newBotGame(b testing.TB, w *world) *botGame {
	raw := w.write("ada", adaConfirms(w), "new game", "", "challenge icesickle bot")
	if _, err := w.srv.Handle(w.ctx, []byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		b.Fatal(err)
	}
	g := &botGame{w: w}
	if err := w.srv.DB.QueryRow(`SELECT max(id) FROM pbem_games`).Scan(&g.id); err != nil {
		b.Fatal(err)
	}
	g.sync(b)
	return g
}

// sync reads the game's position as stored.
func (g *botGame) sync(b testing.TB) {
	var rec string
	if err := g.w.srv.DB.QueryRow(`SELECT record FROM pbem_games WHERE id = ?`, g.id).Scan(&rec); err != nil {
		b.Fatal(err)
	}
	ngs, errs := notation.Check("stored", []byte(rec))
	if len(errs) > 0 || len(ngs) != 1 {
		b.Fatalf("game %d does not replay: %v", g.id, errs.Err())
	}
	g.s, g.ply = ngs[0].Final(), ngs[0].Ply()
	if !g.s.Outcome().Over && g.s.ToMove() != 1 {
		b.Fatalf("game %d: seat %d to move, not ada", g.id, g.s.ToMove())
	}
}

// move delivers ada's move.
func (g *botGame) move(b testing.TB) {
	w := g.w
	tok := replytoken.Token{Kind: 'm', Game: g.id, Seat: 1, Ply: g.ply}.Sign(w.srv.Secret)
	raw := w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", g.s.FormatMove(next(g.s, g.ply)))
	if err := w.appendInbox(w.ctx, "games", []byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		b.Fatal(err)
	}
}
