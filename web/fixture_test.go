package web

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/events"
	"icepost/pbem/mailgames"
	"icepost/pbem/store"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/tournament"
)

// The archive and the mail daemon's games that the tests look at.

var clubPlayers = []string{"Ada Lovelace", "Bob Barker", "Cy Young", "Dee Dee", "Eva García", "Fay Wray", "Gus Grissom", "Hal Hartley"}

// clubRecords writes n games of every game in turn between the club's
// players, with dates, events, rounds, and in some games comments,
// annotations and a variation. Game 1 (an IceSickle game between Ada and
// Bob, "the famous one") is the one the tests look for.
func clubRecords(t testing.TB, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(17, 4))
	var b strings.Builder
	all := games.All()
	for i := range n {
		g := all[i%len(all)]
		start, err := g.Start(rules.Options{})
		if err != nil {
			t.Fatal(err)
		}
		seats := start.Options().Seats
		perm := rng.Perm(len(clubPlayers))
		tags := []notation.Tag{
			{Name: "Event", Value: []string{"Spring Open", "Club night", "Autumn League"}[i%3]},
			{Name: "Site", Value: "Oxford"},
			{Name: "Date", Value: fmt.Sprintf("%04d.%02d.%02d", 2022+i%3, 1+i%12, 1+i%28)},
			{Name: "Round", Value: strconv.Itoa(1 + i%7)},
		}
		for k := range seats {
			name := clubPlayers[perm[k]]
			if i == 0 {
				name = []string{"Ada Lovelace", "Bob Barker"}[k]
			}
			if k == 1 && i%5 == 1 {
				name += " <" + strings.ToLower(strings.Fields(name)[0]) + "@club.test>"
			}
			tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k+1), Value: name})
		}
		moves := notation.RandomGame(start, rng, 120)
		rec, err := notation.FromMoves(tags, start, moves)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			rec.Main.Moves[0].After = []string{"the famous one"}
		}
		if i%4 == 0 && len(rec.Main.Moves) > 4 {
			rec.Main.Moves[2].NAGs = []int{1}
			rec.Main.Moves[3].After = []string{"a bold reply"}
			// A variation: another move from the position before move 4.
			g, err := notation.Replay(rec)
			if err != nil {
				t.Fatal(err)
			}
			before := g.States[3]
			for _, m := range before.Moves(nil) {
				if tok := before.FormatMove(m); tok != rec.Main.Moves[3].Token {
					rec.Main.Moves[3].Variations = []*notation.Line{{Moves: []*notation.Move{{Token: tok, After: []string{"also good"}}}}}
					break
				}
			}
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(rec.String())
	}
	return b.String()
}

// clubArchive imports clubRecords(n) into a new archive.
func clubArchive(t testing.TB, n int) (*archive.Archive, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "club.db")
	a, err := archive.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	res, err := a.Import(context.Background(), strings.NewReader(clubRecords(t, n)), "club.rec", archive.ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Quarantined > 0 || res.Imported != n {
		t.Fatalf("import: %+v", res)
	}
	return a, path
}

// mailGames is a mail daemon's database with games in progress, and the
// server that plays in it (the tests make moves land while a page
// watches).
type mailGames struct {
	db   *sql.DB
	srv  *pbem.Handler
	read *mailgames.Reader
	path string
	n    int
	// events and tourneys: withTournaments's.
	events   *events.Service
	tourneys tournamentIDs
}

// newMailGames makes game 1 (IceSickle, ada against bob, 3 days a move)
// and game 2 (Pikemen, cy against ada), a few moves into each, and two
// open seeks: dee's for Pikemen (target 9, 5 days a move, opponents
// rated 1200 to 1800) and eva's for IceFrogs (three players, the hex
// board, no time limit).
func newMailGames(t testing.TB) *mailGames {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "daemon.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := archive.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	srv := &pbem.Handler{DB: db, Address: "games@club.test", Secret: []byte("0123456789abcdef-web-test"), AuthServID: "mx.club.test"}
	m := &mailGames{db: db, srv: srv, read: &mailgames.Reader{DB: db}, path: path}
	m.mail(t, "ada", "challenge icesickle days=3 bob@club.test")
	m.mail(t, "bob", "accept")
	m.mail(t, "cy", "challenge pikemen ada@club.test")
	m.mail(t, "ada", "accept")
	for range 3 {
		m.move(t, 1)
	}
	m.move(t, 2)
	m.mail(t, "dee", "seek pikemen target=9 days=5 rating=1200-1800")
	m.mail(t, "eva", "seek icefrogs seats=3 board=hex days=none")
	return m
}

// tournamentIDs are the tournaments withTournaments makes.
type tournamentIDs struct {
	roundRobin, swiss, knockout, ladder, open int64
}

// withTournaments adds the daemon's tournaments (pbem/events, through
// the game service; its games ended by the operator's adjudication, by
// mail and by the bots), all of IceSickle:
//
//   - "Winter Round Robin" (gus, hal, ivy, bot:1; all at once, 3 days a
//     move): gus beat hal and drew ivy, hal beat ivy, ivy beat the bot,
//     the bot beat hal; gus against the bot is under way;
//   - "Autumn Swiss" (kim, lou, bot:1 twice; 2 rounds): kim and lou won
//     their first games, the bots' game of round 2 played to its end by
//     the bots, lou beat kim: finished;
//   - "Spring Knockout" (mia, ned, bot:1 twice): mia drew her match
//     with the second bot 1–1 and its decider, and goes through as the
//     higher seed; the first bot beat ned twice; the final under way;
//   - "Club Ladder" (oli, bot:1, pam, quin; rex joins by mail before the
//     start): rex challenged the bot (it took it at once: under way),
//     quin challenged oli, who defended and lost (quin took place 1),
//     pam challenged quin, who has not answered;
//   - "Summer Pikemen" (a Swiss of 3 rounds, target 9, starting when 8
//     have joined): sam and bot:2 so far, open.
func (m *mailGames) withTournaments(t testing.TB) *mailGames {
	t.Helper()
	ctx := context.Background()
	svc := &events.Service{Handler: m.srv}
	m.srv.Events = svc
	m.events = svc
	create := func(spec events.Spec) int64 {
		t.Helper()
		if spec.Game == "" {
			spec.Game = "icesickle"
		}
		id, err := svc.Create(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	start := func(id int64) {
		t.Helper()
		if err := svc.Start(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	tick := func() {
		t.Helper()
		if err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var ids tournamentIDs
	ids.roundRobin = create(events.Spec{Name: "Winter Round Robin", Format: tournament.RoundRobin, Days: 3,
		Players: []string{"gus@club.test", "hal@club.test", "ivy@club.test", "bot:1"}})
	start(ids.roundRobin)
	m.decide(t, ids.roundRobin, "gus", "hal", "gus")
	m.decide(t, ids.roundRobin, "gus", "ivy", "")
	m.decide(t, ids.roundRobin, "hal", "ivy", "hal")
	m.decide(t, ids.roundRobin, "ivy", "bot:1", "ivy")
	m.decide(t, ids.roundRobin, "hal", "bot:1", "bot:1")

	ids.swiss = create(events.Spec{Name: "Autumn Swiss", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 2},
		Players: []string{"kim@club.test", "lou@club.test", "bot:1", "bot:1"}})
	start(ids.swiss)
	m.decide(t, ids.swiss, "kim", "bot:1", "kim")
	m.decide(t, ids.swiss, "lou", "bot:1:2", "lou")
	tick() // round 2: kim against lou, and the bots against each other
	bots := m.tournamentGame(t, ids.swiss, "bot:1", "bot:1:2")
	for i := 0; ; i++ {
		if gi, err := m.read.Game(ctx, bots); err != nil || gi.Status == mailgames.Finished {
			break
		}
		if i == 1000 {
			t.Fatal("the bots' game of the Swiss did not end in 1000 moves")
		}
		if _, err := m.srv.RunBots(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	m.decide(t, ids.swiss, "kim", "lou", "lou")

	ids.knockout = create(events.Spec{Name: "Spring Knockout", Format: tournament.Knockout,
		Players: []string{"mia@club.test", "ned@club.test", "bot:1", "bot:1"}})
	start(ids.knockout)
	// Seeds by joining order (no one is rated): mia 1 against the
	// second bot, seed 4; ned 2 against the first bot, seed 3.
	m.decideGame(t, ids.knockout, "1.1", "1-0")
	m.decideGame(t, ids.knockout, "1.2", "1-0")
	m.decideGame(t, ids.knockout, "1.4", "0-1")
	m.decideGame(t, ids.knockout, "1.5", "1-0")
	tick() // the decider of match 1
	m.decideGame(t, ids.knockout, "1.3", "1/2-1/2")
	tick() // the final: mia against the first bot

	ids.ladder = create(events.Spec{Name: "Club Ladder", Format: tournament.Ladder,
		Players: []string{"oli@club.test", "bot:1", "pam@club.test", "quin@club.test"}})
	m.mail(t, "rex", fmt.Sprintf("join %d", ids.ladder))
	start(ids.ladder)
	m.mail(t, "rex", fmt.Sprintf("climb %d 2", ids.ladder))
	m.mail(t, "quin", fmt.Sprintf("climb %d 1", ids.ladder))
	m.mail(t, "oli", fmt.Sprintf("defend %d", ids.ladder))
	m.decide(t, ids.ladder, "quin", "oli", "quin")
	tick()
	m.mail(t, "pam", fmt.Sprintf("climb %d 1", ids.ladder))

	ids.open = create(events.Spec{Name: "Summer Pikemen", Game: "pikemen", Options: map[string]string{"target": "9"},
		Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3, MaxPlayers: 8}, WhenFull: true, Days: 5,
		Players: []string{"sam@club.test", "bot:2"}})

	tick()
	// The bots answer the moves made so far (a bot to move waits for
	// RunBots, as for the daemon's bot loop).
	if _, err := m.srv.RunBots(ctx, nil); err != nil {
		t.Fatal(err)
	}
	m.tourneys = ids
	return m
}

// tournamentGame is the game by mail of tournament id between the
// players a and b (local parts, or bot:LEVEL[:N]).
func (m *mailGames) tournamentGame(t testing.TB, id int64, a, b string) int64 {
	t.Helper()
	ev, err := m.events.Show(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	full := func(p string) string {
		if strings.HasPrefix(p, "bot:") {
			return p
		}
		return p + "@club.test"
	}
	for _, g := range ev.T.Games {
		if len(g.Players) == 2 && (g.Players[0] == full(a) && g.Players[1] == full(b) || g.Players[0] == full(b) && g.Players[1] == full(a)) {
			if gid, ok := ev.GameIDs[g.Tag()]; ok {
				return gid
			}
		}
	}
	t.Fatalf("tournament %d has no game by mail of %s against %s", id, a, b)
	return 0
}

// decide ends the game of tournament id between a and b: winner wins
// it, or it is drawn when winner is "" (the operator's adjudication).
func (m *mailGames) decide(t testing.TB, id int64, a, b, winner string) {
	t.Helper()
	gid := m.tournamentGame(t, id, a, b)
	result := "1/2-1/2"
	if winner != "" {
		gi, err := m.read.Game(context.Background(), gid)
		if err != nil {
			t.Fatal(err)
		}
		if gi.Players[0] == gi.Players[1] {
			t.Fatalf("game %d: both seats are %s; decide it by seat (decideGame)", gid, gi.Players[0])
		}
		// A bot's seat has the server's address.
		addr := winner + "@club.test"
		if strings.HasPrefix(winner, "bot:") {
			addr = m.srv.Address
		}
		result = "0-1"
		if gi.Players[0] == addr {
			result = "1-0"
		}
	}
	m.adjudicate(t, gid, result)
}

// decideGame ends tournament id's game with this Round tag.
func (m *mailGames) decideGame(t testing.TB, id int64, tag, result string) {
	t.Helper()
	ev, err := m.events.Show(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	gid, ok := ev.GameIDs[tag]
	if !ok {
		t.Fatalf("tournament %d has no game %s", id, tag)
	}
	m.adjudicate(t, gid, result)
}

func (m *mailGames) adjudicate(t testing.TB, gid int64, result string) {
	t.Helper()
	if err := m.srv.Adjudicate(context.Background(), gid, result); err != nil {
		t.Fatalf("game %d adjudicated %s: %v", gid, result, err)
	}
}

// started does what the daemon does at its start (pbem.Server.Resume):
// among others, it notes the server's address, which the home page
// shows.
func (m *mailGames) started(t testing.TB) *mailGames {
	t.Helper()
	if err := m.srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

// mail hands the daemon a mail from who@club.test that its own mail
// server vouches for (so a move in a new mail is played at once).
func (m *mailGames) mail(t testing.TB, who, body string) {
	t.Helper()
	m.n++
	raw := fmt.Sprintf("From: %s@club.test\r\nTo: games@club.test\r\nSubject: x\r\nMessage-ID: <w%d@club.test>\r\n"+
		"Authentication-Results: mx.club.test; dmarc=pass header.from=club.test\r\nDate: %s\r\nContent-Type: text/plain\r\n\r\n%s\r\n",
		who, m.n, time.Now().Format(time.RFC1123Z), body)
	if _, err := m.srv.Handle(context.Background(), []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

// game reads game id as the site does, and its record replayed.
func (m *mailGames) game(t testing.TB, id int64) (mailgames.Game, *notation.Game) {
	t.Helper()
	gi, err := m.read.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	g, err := replay([]byte(gi.Record))
	if err != nil {
		t.Fatal(err)
	}
	return gi, g
}

// move plays the first legal move in game id, by mail from the player
// to move.
func (m *mailGames) move(t testing.TB, id int64) string {
	t.Helper()
	gi, g := m.game(t, id)
	s := g.Final()
	tok := s.FormatMove(s.Moves(nil)[0])
	who, _, _ := strings.Cut(gi.ToMove, "@")
	m.mail(t, who, tok)
	after, err := m.read.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Ply != gi.Ply+1 {
		t.Fatalf("the move %s by %s in game %d was not played (ply %d)", tok, who, id, after.Ply)
	}
	return tok
}

// newTestSite serves a club archive of n games and, with mail, the games
// by mail (read through a read-only connection, as icepost web does).
func newTestSite(t testing.TB, n int, mail *mailGames) (*httptest.Server, *Site, *archive.Archive) {
	t.Helper()
	a, _ := clubArchive(t, n)
	var ms MailGames
	if mail != nil {
		ro, err := sql.Open("sqlite3", "file:"+mail.path+"?mode=ro&_txlock=deferred&_busy_timeout=10000")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ro.Close() })
		ms = &mailgames.Reader{DB: ro}
	}
	site, err := New(a, ms, nil)
	if err != nil {
		t.Fatal(err)
	}
	site.LivePoll = 50 * time.Millisecond
	ts := httptest.NewServer(site.Handler())
	t.Cleanup(func() {
		site.live.stop()
		ts.Close()
	})
	return ts, site, a
}

// TestWriteDemo writes a demo archive (club.db, 400 games) and a mail
// daemon's database (daemon.db) into the folder ICEPOST_WEB_DEMO names,
// to look at with icepost web -db club.db -mail-db daemon.db.
func TestWriteDemo(t *testing.T) {
	dir := os.Getenv("ICEPOST_WEB_DEMO")
	if dir == "" {
		t.Skip("set ICEPOST_WEB_DEMO=DIR to write a demo archive there")
	}
	a, path := clubArchive(t, 400)
	a.Close()
	m := newMailGames(t)
	m.db.Close()
	for _, f := range [][2]string{{path, "club.db"}, {m.path, "daemon.db"}} {
		b, err := os.ReadFile(f[0])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f[1]), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func archiveOptions() rules.Options { return rules.Options{} }

// regulars imports n decided games of IceSickle between Ada Lovelace and
// Bob Barker, a few a month over 2023, so that the two have established
// ratings (a deviation under establishedRD) where the club's other
// players stay provisional.
func regulars(t testing.TB, a *archive.Archive, n int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(31, 7))
	g, _ := games.Lookup("IceSickle")
	start, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := 0; b.Len() == 0 || i < n; i++ {
		p := []string{"Ada Lovelace", "Bob Barker"}
		if i%2 == 1 {
			p[0], p[1] = p[1], p[0]
		}
		tags := []notation.Tag{{Name: "Event", Value: "Club ladder"}, {Name: "Date", Value: fmt.Sprintf("2023.%02d.%02d", 1+i%12, 1+i%28)},
			{Name: "Player1", Value: p[0]}, {Name: "Player2", Value: p[1]}}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 1000))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(rec.String())
	}
	if _, err := a.Import(context.Background(), strings.NewReader(b.String()), "ladder.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
}
