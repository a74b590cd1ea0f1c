package pbem

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// benchWorld is a Dovecot world, or the embedded one with
// ICEPOST_BENCH_IMAP=memory.
func benchWorld(b *testing.B) *world {
	if os.Getenv("ICEPOST_BENCH_IMAP") == "memory" {
		return newWorld(b)
	}
	return newDovecotWorld(b)
}

// BenchmarkMail measures move mails handled end to end: each iteration
// delivers one move mail to the server's INBOX over IMAP, and the daemon
// fetches it, plays the move, files the mail away and sends the replies
// over SMTP (delivered into the same IMAP server). It reports move mails
// per second.
//
//	go test -run XXX -bench 'Mail$' -benchtime 200x ./pbem/
func BenchmarkMail(b *testing.B) {
	w := benchWorld(b)
	g := &benchGames{w: w}
	g.newGame(b)
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if g.s.Outcome().Over {
			g.newGame(b)
		}
		b.StartTimer()
		g.move(b)
		if _, err := w.d.ProcessInbox(w.ctx); err != nil {
			b.Fatal(err)
		}
		if _, err := w.d.SendOutbox(w.ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkMailLatency measures, with the daemon running and waiting in
// IDLE, the time from a move mail's delivery to its replies being sent.
//
//	go test -run XXX -bench MailLatency -benchtime 50x ./pbem/
func BenchmarkMailLatency(b *testing.B) {
	w := benchWorld(b)
	w.srv.Now = nil // real time, so that the daemon's timers run
	g := &benchGames{w: w}
	g.newGame(b)
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	w.d.Poll = time.Minute // a reply sooner than this comes from IDLE
	done := make(chan struct{})
	go func() { defer close(done); w.d.Run(ctx) }()
	var total time.Duration
	for b.Loop() {
		b.StopTimer()
		if g.s.Outcome().Over {
			cancel()
			<-done
			ctx, cancel = context.WithCancel(w.ctx)
			g.newGame(b)
			done = make(chan struct{})
			go func() { defer close(done); w.d.Run(ctx) }()
		}
		before := sentCount(b, w)
		b.StartTimer()
		t0 := time.Now()
		g.move(b)
		for sentCount(b, w) < before+2 {
			if time.Since(t0) > 30*time.Second {
				b.Fatal("no reply within 30 s")
			}
			time.Sleep(200 * time.Microsecond)
		}
		total += time.Since(t0)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/reply")
	cancel()
	<-done
}

func sentCount(b *testing.B, w *world) int {
	var n int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE sent_at IS NOT NULL`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// benchGames plays IceSickle games between ada and bob by writing the
// move mails the players would write, with the token their board mail
// carried (the benchmark knows the secret, so it reads no inbox).
type benchGames struct {
	w    *world
	id   int64
	s    rules.State
	ply  int
	seed int
}

func (g *benchGames) move(b *testing.B) {
	w := g.w
	moves := g.s.Moves(nil)
	g.seed++
	m := moves[(g.seed*7)%len(moves)]
	seat := g.s.ToMove()
	tok := replyToken{kind: 'm', game: g.id, seat: seat, ply: g.ply}.sign(w.srv.Secret)
	from := []string{"", "ada", "bob"}[seat]
	w.deliver(w.write(from, w.srv.plusAddress(tok), "Re: game", "", g.s.FormatMove(m)))
	next, err := g.s.Play(m)
	if err != nil {
		b.Fatal(err)
	}
	g.s = next
	g.ply++
}

// newGame starts a game through the daemon (challenge and accept).
func (g *benchGames) newGame(b *testing.B) {
	w := g.w
	w.deliver(w.write("ada", w.srv.Address, "new game", "", "challenge icesickle "+w.sys.Address("bob")))
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	if err := w.srv.DB.QueryRow(`SELECT max(id) FROM pbem_games`).Scan(&g.id); err != nil {
		b.Fatal(err)
	}
	tok := replyToken{kind: 'i', game: g.id, seat: 2}.sign(w.srv.Secret)
	w.deliver(w.write("bob", w.srv.plusAddress(tok), "Re: invitation", "", "accept"))
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	var status string
	w.srv.DB.QueryRow(`SELECT status FROM pbem_games WHERE id = ?`, g.id).Scan(&status)
	if status != statusActive {
		b.Fatalf("game %d is %s after accept", g.id, status)
	}
	g.s, g.ply = icesickle.Start(), 0
}

// BenchmarkMailMemory measures the daemon's memory with many games in
// progress (10,000 by default; ICEPOST_BENCH_MAIL_GAMES sets it): it starts
// them through Server.Handle (challenge and accept mails), then handles a
// move in every hundredth game through the daemon, and reports the Go heap
// in use after a collection. Games live in SQLite, loaded per mail, so the
// heap should not grow with their number.
//
//	go test -run XXX -bench MailMemory -benchtime 1x ./pbem/
func BenchmarkMailMemory(b *testing.B) {
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("ICEPOST_BENCH_MAIL_GAMES")); err == nil && v > 0 {
		n = v
	}
	w := newWorld(b)
	handle := func(raw string) {
		if _, err := w.srv.Handle(w.ctx, []byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
			b.Fatal(err)
		}
	}
	for i := 1; i <= n; i++ {
		handle(w.write("ada", w.srv.Address, "new game", "", "challenge icesickle "+w.sys.Address("bob")))
		tok := replyToken{kind: 'i', game: int64(i), seat: 2}.sign(w.srv.Secret)
		handle(w.write("bob", w.srv.plusAddress(tok), "Re: invitation", "", "accept"))
	}
	// The outbox would be sent by the daemon; here it is cleared so that
	// the measurement is of games, not of unsent mail.
	if _, err := w.srv.DB.Exec(`UPDATE pbem_outbox SET sent_at = 0`); err != nil {
		b.Fatal(err)
	}
	var heap uint64
	for b.Loop() {
		for id := int64(1); id <= int64(n); id += 100 {
			tok := replyToken{kind: 'm', game: id, seat: 1, ply: 0}.sign(w.srv.Secret)
			w.deliver(w.write("ada", w.srv.plusAddress(tok), "Re: game", "", "L@c3"))
		}
		if _, err := w.d.ProcessInbox(w.ctx); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		heap = ms.HeapInuse
	}
	var active int
	w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_games WHERE status = 'active'`).Scan(&active)
	if active != n {
		b.Fatalf("%d active games, want %d", active, n)
	}
	b.ReportMetric(float64(heap)/(1<<20), "MB-heap")
	b.ReportMetric(float64(n), "games")
}
