package mailgames_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/mailgames"
	"icepost/pbem/store"
)

// club is a daemon's database with games played by real mails, and a
// reader of it; both see the same clock.
type club struct {
	db   *sql.DB
	srv  *pbem.Handler
	read *mailgames.Reader
	now  time.Time
	n    int
}

var start = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func newClub(t *testing.T) *club {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "daemon.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	c := &club{db: db, now: start}
	now := func() time.Time { return c.now }
	c.srv = &pbem.Handler{DB: db, Address: "games@club.test", Secret: []byte("0123456789abcdef-mailgames"), AuthServID: "mx.club.test", Now: now}
	c.read = &mailgames.Reader{DB: db, Now: now}
	return c
}

// mail hands the daemon a mail from who@club.test that its mail server
// vouches for.
func (c *club) mail(t *testing.T, who, body string) {
	t.Helper()
	c.n++
	raw := fmt.Sprintf("From: %s@club.test\r\nTo: games@club.test\r\nSubject: x\r\nMessage-ID: <m%d@club.test>\r\n"+
		"Authentication-Results: mx.club.test; dmarc=pass header.from=club.test\r\nDate: %s\r\nContent-Type: text/plain\r\n\r\n%s\r\n",
		who, c.n, c.now.Format(time.RFC1123Z), body)
	if _, err := c.srv.Handle(context.Background(), []byte(raw)); err != nil {
		t.Fatal(err)
	}
}

// move plays the first legal move of game id, by the player to move.
func (c *club) move(t *testing.T, id int64) {
	t.Helper()
	g, err := c.read.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	games, errs := notation.Check("game", []byte(g.Record))
	if errs.Err() != nil {
		t.Fatal(errs.Err())
	}
	s := games[0].Final()
	who, _, _ := strings.Cut(g.ToMove, "@")
	c.mail(t, who, s.FormatMove(s.Moves(nil)[0]))
	if after, err := c.read.Game(context.Background(), id); err != nil || after.Ply != g.Ply+1 {
		t.Fatalf("game %d: the move by %s was not played (%v)", id, who, err)
	}
}

func TestGames(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	c.mail(t, "ada", "challenge icesickle days=3 bob@club.test")
	c.mail(t, "bob", "accept")
	c.mail(t, "cy", "challenge pikemen ada@club.test")
	c.move(t, 1)

	all, err := c.read.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].ID != 2 || all[1].ID != 1 {
		t.Fatalf("All: %+v, want games 2 and 1, newest first", all)
	}
	if g := all[0]; g.Status != mailgames.Invited || g.Game != "Pikemen" || g.ToMove != "" || g.Days != 0 ||
		strings.Join(g.Players, " ") != "cy@club.test ada@club.test" {
		t.Errorf("the invitation: %+v", g)
	}
	active, err := c.read.Active(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(active) != 1 || active[0].ID != 1 {
		t.Fatalf("Active: %+v, want game 1 only", active)
	}
	g := active[0]
	if g.Game != "IceSickle" || g.Status != mailgames.Active || g.Ply != 1 || g.Days != 3 ||
		!strings.Contains(g.Record, "[Game \"IceSickle\"]") || g.Position == "" {
		t.Errorf("game 1: %+v", g)
	}
	if !slices.Contains(g.Players, g.ToMove) {
		t.Errorf("game 1: %s to move of %v", g.ToMove, g.Players)
	}
	if g.Left != 72*time.Hour || g.Paused {
		t.Errorf("game 1 at once: %v left, paused %v; want 72h, not paused", g.Left, g.Paused)
	}

	if _, err := c.read.Game(ctx, 99); !errors.Is(err, mailgames.ErrNoGame) {
		t.Errorf("Game(99): %v, want ErrNoGame", err)
	}
}

// TestTimeLeft: the time left is the clock rule's: time since the turn
// began, less the outages and the mover's vacations, counted once.
func TestTimeLeft(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	c.mail(t, "ada", "challenge icesickle days=3 bob@club.test")
	c.mail(t, "bob", "accept")
	c.move(t, 1) // the next turn begins at start
	g, err := c.read.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	mover := g.ToMove
	other := g.Players[0]
	if other == mover {
		other = g.Players[1]
	}
	at := func(d time.Duration) int64 { return start.Add(d).Unix() }
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO pbem_outages (starts_at, ends_at) VALUES (?, ?)`, []any{at(2 * time.Hour), at(4 * time.Hour)}},
		{`INSERT INTO pbem_vacations (address, starts_at, ends_at) VALUES (?, ?, ?)`, []any{mover, at(3 * time.Hour), at(5 * time.Hour)}},
		{`INSERT INTO pbem_vacations (address, starts_at, ends_at) VALUES (?, ?, ?)`, []any{other, at(6 * time.Hour), at(9 * time.Hour)}},
		{`INSERT INTO pbem_vacations (address, starts_at, ends_at) VALUES (?, ?, ?)`, []any{mover, at(9 * time.Hour), at(20 * time.Hour)}},
	} {
		if _, err := c.db.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		after  time.Duration
		left   time.Duration
		paused bool
	}{
		{time.Hour, 71 * time.Hour, false},
		{8 * time.Hour, 72*time.Hour - 5*time.Hour, false}, // 3 hours of pauses; the other's vacation does not count
		{10 * time.Hour, 72*time.Hour - 6*time.Hour, true},
		{30 * time.Hour, 72*time.Hour - 16*time.Hour, false},
		{100 * time.Hour, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.after.String(), func(t *testing.T) {
			c.read.Now = func() time.Time { return start.Add(tt.after) }
			g, err := c.read.Game(ctx, 1)
			if err != nil {
				t.Fatal(err)
			}
			if g.Left != tt.left || g.Paused != tt.paused {
				t.Errorf("%v after the turn began: %v left, paused %v; want %v, %v", tt.after, g.Left, g.Paused, tt.left, tt.paused)
			}
		})
	}
}

// TestRevision: the revision changes with a move, and only then.
func TestRevision(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	rev := func() string {
		t.Helper()
		r, err := c.read.Revision(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	empty := rev()
	c.mail(t, "ada", "challenge icesickle bob@club.test")
	invited := rev()
	c.mail(t, "bob", "accept")
	accepted := rev()
	if empty == invited || invited == accepted {
		t.Errorf("revisions %q, %q, %q: a new game and its start must change it", empty, invited, accepted)
	}
	if again := rev(); again != accepted {
		t.Errorf("the revision changed with nothing done: %q, then %q", accepted, again)
	}
	c.move(t, 1)
	if moved := rev(); moved == accepted {
		t.Errorf("a move left the revision at %q", moved)
	}
}

// TestChangedAndFinished: a game's Changed is the time of its last move
// while it runs and of its end once over; Finished lists the games ended
// since a time.
func TestChangedAndFinished(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	c.mail(t, "ada", "challenge icesickle bob@club.test")
	c.mail(t, "bob", "accept")
	c.now = start.Add(time.Hour)
	c.move(t, 1)
	g, err := c.read.Game(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Changed.Equal(start.Add(time.Hour)) {
		t.Errorf("after a move: Changed %v, want the move's time %v", g.Changed, start.Add(time.Hour))
	}
	c.now = start.Add(2 * time.Hour)
	c.mail(t, "ada", "resign")
	ended, err := c.read.Finished(ctx, start)
	if err != nil {
		t.Fatal(err)
	}
	if len(ended) != 1 || ended[0].ID != 1 || ended[0].Status != mailgames.Finished || !ended[0].Changed.Equal(c.now) {
		t.Fatalf("Finished(since the start): %+v, want game 1 ended at %v", ended, c.now)
	}
	if later, err := c.read.Finished(ctx, c.now.Add(time.Second)); err != nil || len(later) != 0 {
		t.Errorf("Finished(after its end): %v, %v; want none", later, err)
	}
}

// TestAddress: the server's address is what the daemon notes at its
// start; "" before.
func TestAddress(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	if a, err := c.read.Address(ctx); err != nil || a != "" {
		t.Errorf("before the daemon's start: %q, %v; want none", a, err)
	}
	if err := c.srv.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if a, err := c.read.Address(ctx); err != nil || a != "games@club.test" {
		t.Errorf("after: %q, %v; want games@club.test", a, err)
	}
}

// TestSeeks: the open seeks by game, oldest first, each with its terms
// read, the seeker's name and the line that meets it; a seek met, taken
// back or run out is not listed, and no address is in any.
func TestSeeks(t *testing.T) {
	ctx := context.Background()
	c := newClub(t)
	c.mail(t, "eva", "seek icelady") // runs out
	c.now = start.Add(6 * 24 * time.Hour)
	c.mail(t, "ada", "seek pikemen target=9 days=5 rating=1200-1800")
	c.mail(t, "bob", "seek icesickle days=3")
	c.mail(t, "cy", "seek icesickle days=3") // meets bob's: a game starts
	c.mail(t, "dee", "seek icefrogs seats=3 board=hex days=none rating=1400-2000")
	c.mail(t, "fay", "seek icefrogs")
	c.mail(t, "fay", "unseek")
	c.now = start.Add(7*24*time.Hour + time.Hour)

	seeks, err := c.read.Seeks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(seeks) != 2 {
		t.Fatalf("%d seeks, want ada's and dee's: %+v", len(seeks), seeks)
	}
	dee, ada := seeks[0], seeks[1] // by game: IceFrogs, then Pikemen
	posted := start.Add(6 * 24 * time.Hour)
	if ada.Game != "Pikemen" || ada.Name != "ada" || ada.Terms != "target=9 seats=2 days=5" || ada.Seats != 2 || ada.Days != 5 ||
		len(ada.Options) != 1 || ada.Options[0] != (mailgames.SeekOption{Name: "target", Value: "9"}) ||
		ada.Rating != 1500 || ada.RatingMin != 1200 || ada.RatingMax != 1800 ||
		!ada.Posted.Equal(posted) || !ada.Until.Equal(posted.AddDate(0, 0, 7)) ||
		ada.Line != "seek pikemen target=9 seats=2 days=5" {
		t.Errorf("ada's seek: %+v", ada)
	}
	if dee.Game != "IceFrogs" || dee.Name != "dee" || dee.Seats != 3 || dee.Days != 0 ||
		len(dee.Options) != 1 || dee.Options[0] != (mailgames.SeekOption{Name: "board", Value: "hex"}) ||
		dee.Line != "seek icefrogs board=hex seats=3 days=0" {
		t.Errorf("dee's seek: %+v", dee)
	}
	for _, s := range seeks {
		if text := fmt.Sprintf("%+v", s); strings.Contains(text, "@") {
			t.Errorf("a seek holds an address: %s", text)
		}
	}
	// bob's and cy's seeks met: their game is active, no longer a seek.
	if active, err := c.read.Active(ctx); err != nil || len(active) != 1 || active[0].Game != "IceSickle" {
		t.Errorf("the game of the seeks met: %+v, %v", active, err)
	}
}

// TestPlayerName: a player's name is the local part of the address,
// without what would need quoting.
func TestPlayerName(t *testing.T) {
	for addr, want := range map[string]string{
		"ada@club.test":          "ada",
		"Ada.Lovelace@club.test": "Ada.Lovelace",
		`"a<b>c"@club.test`:      "abc",
		`"@"@club.test`:          "player",
		"no-at-sign":             "player",
	} {
		if got := mailgames.PlayerName(addr); got != want {
			t.Errorf("PlayerName(%q) = %q, want %q", addr, got, want)
		}
	}
}
