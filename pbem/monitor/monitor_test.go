package monitor_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"icepost/pbem"
	"icepost/pbem/monitor"
	"icepost/pbem/store"
)

type inbox struct {
	ok  bool
	err error
}

func (i *inbox) InboxState() (bool, error) { return i.ok, i.err }

func (i *inbox) BotSearches() (uint64, time.Duration) { return 3, 1500 * time.Millisecond }

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// The figures come from what the daemon wrote: mails handled through
// Server.Handle, their replies in the outbox, the loop's heartbeat.
func TestMetricsAndHealth(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(t.TempDir() + "/icepost.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	s := &pbem.Handler{DB: db, Address: "games@club.test", Secret: []byte("0123456789abcdef-monitor")}
	for i, body := range []string{"help", "hello there", "board"} {
		raw := fmt.Sprintf("From: ada@club.test\r\nTo: games@club.test\r\nSubject: x\r\nMessage-ID: <m%d@club.test>\r\n\r\n%s\r\n", i, body)
		if _, err := s.Handle(ctx, []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	ib := &inbox{ok: true}
	m := monitor.New(db, ib)
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()

	if code, body := get(t, srv, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "no heartbeat") {
		t.Errorf("/healthz before the first beat: %d %q", code, body)
	}
	if err := s.Resume(ctx); err != nil { // the loop's first beat
		t.Fatal(err)
	}
	if code, body := get(t, srv, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz: %d %q", code, body)
	}
	code, body := get(t, srv, "/metrics")
	if code != http.StatusOK {
		t.Fatalf("/metrics: %d\n%s", code, body)
	}
	for _, want := range []string{
		`icepost_mails_handled_total{outcome="handled"} 1`,    // help
		`icepost_mails_handled_total{outcome="no_command"} 1`, // hello there
		`icepost_mails_handled_total{outcome="refused"} 1`,    // board, of no game
		`icepost_outbox_mails{state="unsent"} 3`,
		`icepost_bot_jobs_queued 0`,
		`icepost_analysis_jobs_queued 0`,
		`icepost_imap_connected 1`,
		`icepost_bot_search_seconds_sum 1.5`,
		`icepost_bot_search_seconds_count 3`,
		`icepost_database_up 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, grepLines(body, "icepost_"))
		}
	}
	if !strings.Contains(body, "icepost_heartbeat_timestamp_seconds 1.") && !strings.Contains(body, "icepost_heartbeat_timestamp_seconds 1e") {
		t.Errorf("no heartbeat in /metrics:\n%s", body)
	}

	ib.ok, ib.err = false, errors.New("LOGIN refused")
	if code, body := get(t, srv, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "LOGIN refused") {
		t.Errorf("/healthz with IMAP down: %d %q", code, body)
	}
	ib.ok = true

	// A beat older than Stale says the loop stopped. The beat is written
	// where the loop writes it, at a time that is stale or not by a wide
	// margin, rather than waited for to grow old.
	m.Stale = 30 * time.Minute
	beatAgo := func(d time.Duration) {
		t.Helper()
		when := time.Now().Add(-d).Unix()
		if _, err := db.ExecContext(ctx, `UPDATE pbem_state SET value = ? WHERE key = 'heartbeat'`, strconv.FormatInt(when, 10)); err != nil {
			t.Fatal(err)
		}
	}
	beatAgo(10 * time.Minute)
	if code, body := get(t, srv, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz with a beat 10 minutes old, Stale 30 minutes: %d %q", code, body)
	}
	beatAgo(time.Hour)
	if code, body := get(t, srv, "/healthz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "last beat 1h0m") {
		t.Errorf("/healthz with a beat an hour old, Stale 30 minutes: %d %q", code, body)
	}
}

// grepLines is the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
