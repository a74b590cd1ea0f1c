package pbem_test

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"icepost/pbem"

	"icepost/pbem/outbox"
	"icepost/pbem/replytoken"
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

// BenchmarkMail measures how many move mails the daemon answers a second
// when mail waits for it: the daemon runs (Daemon.Run: the inbox loop, the
// outbox loop), and the harness delivers b.N move mails of several games
// into the server's INBOX over IMAP, each game's moves in order and as
// soon as it likes (it knows the secret, so it needs no reply to write the
// next move). The daemon fetches them, plays each move, files the mails
// away and sends two board mails a move over SMTP, which the test's SMTP
// server delivers into the players' INBOXes on the same Dovecot. The
// clock runs from the first delivery to the last reply sent; the games
// are started before it.
//
//	go test -run XXX -bench 'Mail$' -benchtime 200x ./pbem/
func BenchmarkMail(b *testing.B) {
	w := benchWorld(b)
	w.srv.Now = nil // real time, as in production
	var games []*benchGames
	for planned := 0; planned < b.N; {
		g := &benchGames{w: w}
		g.newGame(b)
		planned += g.length(b)
		games = append(games, g)
	}
	sent := &countingSender{Mailer: w.d.Sender}
	w.d.Sender = sent
	ctx, cancel := context.WithCancel(w.ctx)
	defer cancel()
	w.d.Poll = time.Minute // the harness keeps the inbox full; IDLE wakes it otherwise
	// Each game gets its share of the b.N moves, taken in turns.
	share := make([]int, len(games))
	left := make([]int, len(games))
	for i, g := range games {
		left[i] = g.length(b)
	}
	for planned := 0; planned < b.N; {
		for i := range games {
			if planned < b.N && left[i] > 0 {
				share[i]++
				left[i]--
				planned++
			}
		}
	}
	cpu := startCPU(w)
	b.ResetTimer()
	// The first move of every game is in the INBOX before the daemon
	// starts, so that it does not begin with Dovecot's IDLE notification
	// delay. The rest come from benchDeliverers goroutines at once, each
	// delivering its games' moves in turns (a game's moves in order):
	// one after another, the harness's appends were slower than the
	// daemon.
	for i, g := range games {
		if share[i] > 0 {
			g.move(b)
			share[i]--
		}
	}
	done := make(chan struct{})
	go func() { defer close(done); w.d.Run(ctx) }()
	errs := make(chan error, benchDeliverers)
	for k := range benchDeliverers {
		go func() {
			var err error
			for more := true; more && err == nil; {
				more = false
				for i := k; i < len(games) && err == nil; i += benchDeliverers {
					if share[i] > 0 {
						err = games[i].tryMove()
						share[i]--
						more = true
					}
				}
			}
			errs <- err
		}()
	}
	for range benchDeliverers {
		if err := <-errs; err != nil {
			b.Fatal(err)
		}
	}
	deadline := time.Now().Add(time.Duration(b.N) * time.Second)
	for sent.n.Load() < int64(2*b.N) {
		if time.Now().After(deadline) {
			b.Fatalf("%d of %d replies sent", sent.n.Load(), 2*b.N)
		}
		time.Sleep(time.Millisecond)
	}
	b.StopTimer()
	cpu.report(b)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "mails/s")
	cancel()
	<-done
}

// benchDeliverers is how many connections BenchmarkMail delivers on.
const benchDeliverers = 4

// BenchmarkMailSerial is one move mail at a time, without the daemon's
// loops: deliver one mail, Daemon.ProcessInbox, Daemon.SendOutbox, and
// again. It is the cost of a mail that finds the daemon idle, without
// IDLE's notification delay (BenchmarkMailLatency has it).
//
//	go test -run XXX -bench 'MailSerial' -benchtime 200x ./pbem/
func BenchmarkMailSerial(b *testing.B) {
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
	sent := &countingSender{Mailer: w.d.Sender}
	w.d.Sender = sent
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
		before := sent.n.Load()
		b.StartTimer()
		t0 := time.Now()
		g.move(b)
		for sent.n.Load() < before+2 {
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

// cpuMeter measures the processor time a benchmark takes: this process's
// (the daemon, and the harness's deliveries and SMTP server) and
// Dovecot's. Under load from other processes, wall time grows and these
// stay put: they say what a quiet machine's cores could do.
type cpuMeter struct {
	w             *world
	self, dovecot time.Duration
}

func startCPU(w *world) *cpuMeter {
	m := &cpuMeter{w: w, self: selfCPU()}
	if w.dovecot != nil {
		m.dovecot = w.dovecot.CPUTime()
	}
	return m
}

// report gives the time per iteration, in ms.
func (m *cpuMeter) report(b *testing.B) {
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(per(selfCPU()-m.self), "icepost-cpu-ms/op")
	if m.w.dovecot != nil {
		b.ReportMetric(per(m.w.dovecot.CPUTime()-m.dovecot), "dovecot-cpu-ms/op")
	}
}

func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// countingSender counts the mails sent.
type countingSender struct {
	outbox.Mailer
	n atomic.Int64
}

func (s *countingSender) Send(ctx context.Context, from string, to []string, msg []byte) error {
	err := s.Mailer.Send(ctx, from, to, msg)
	if err == nil {
		s.n.Add(1)
	}
	return err
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

// next is the move the harness plays in s, its seed-th.
func next(s rules.State, seed int) rules.Move {
	moves := s.Moves(nil)
	return moves[(seed*7)%len(moves)]
}

// length is how many moves the game has left to play.
func (g *benchGames) length(b testing.TB) int {
	s, seed, n := g.s, g.seed, 0
	for !s.Outcome().Over {
		seed++
		var err error
		if s, err = s.Play(next(s, seed)); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

func (g *benchGames) move(b testing.TB) {
	if err := g.tryMove(); err != nil {
		b.Fatal(err)
	}
}

// tryMove is move for a goroutine other than the test's.
func (g *benchGames) tryMove() error {
	w := g.w
	g.seed++
	m := next(g.s, g.seed)
	seat := g.s.ToMove()
	tok := replytoken.Token{Kind: 'm', Game: g.id, Seat: seat, Ply: g.ply}.Sign(w.srv.Secret)
	from := []string{"", "ada", "bob"}[seat]
	raw := w.write(from, w.srv.PlusAddress(tok), "Re: game", "", g.s.FormatMove(m))
	if err := w.appendInbox(w.ctx, "games", []byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		return err
	}
	next, err := g.s.Play(m)
	if err != nil {
		return err
	}
	g.s = next
	g.ply++
	return nil
}

// newGame starts a game through the daemon (challenge and accept).
func (g *benchGames) newGame(b testing.TB) {
	w := g.w
	w.deliver(w.write("ada", adaConfirms(w), "new game", "", "challenge icesickle "+w.sys.Address("bob")))
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	if err := w.srv.DB.QueryRow(`SELECT max(id) FROM pbem_games`).Scan(&g.id); err != nil {
		b.Fatal(err)
	}
	tok := replytoken.Token{Kind: 'i', Game: g.id, Seat: 2}.Sign(w.srv.Secret)
	w.deliver(w.write("bob", w.srv.PlusAddress(tok), "Re: invitation", "", "accept"))
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		b.Fatal(err)
	}
	var status string
	w.srv.DB.QueryRow(`SELECT status FROM pbem_games WHERE id = ?`, g.id).Scan(&status)
	if status != pbem.StatusActive {
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
		handle(w.write("ada", adaConfirms(w), "new game", "", "challenge icesickle "+w.sys.Address("bob")))
		tok := replytoken.Token{Kind: 'i', Game: int64(i), Seat: 2}.Sign(w.srv.Secret)
		handle(w.write("bob", w.srv.PlusAddress(tok), "Re: invitation", "", "accept"))
	}
	// The outbox would be sent by the daemon; here it is cleared so that
	// the measurement is of games, not of unsent mail.
	if _, err := w.srv.DB.Exec(`UPDATE pbem_outbox SET sent_at = 0`); err != nil {
		b.Fatal(err)
	}
	var heap uint64
	for b.Loop() {
		for id := int64(1); id <= int64(n); id += 100 {
			tok := replytoken.Token{Kind: 'm', Game: id, Seat: 1, Ply: 0}.Sign(w.srv.Secret)
			w.deliver(w.write("ada", w.srv.PlusAddress(tok), "Re: game", "", "L@c3"))
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

// adaConfirms is the address of ada's reply to a mail of the server's
// that asked her to confirm a command: it carries her address token, the
// proof that a challenge needs.
func adaConfirms(w *world) string {
	return w.srv.PlusAddress(replytoken.ForAddress(w.srv.Secret, w.sys.Address("ada")))
}
