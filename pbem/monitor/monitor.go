// Package monitor serves what an operator's monitoring asks of a running
// icepost serve: /metrics in Prometheus's text format and /healthz.
//
// Most figures are read from the daemon's database at each scrape (mails
// handled by outcome, the outbox, the bots' queue, the loop's
// heartbeat), so they count what the database says happened, across
// restarts, and the daemon needs no bookkeeping of its own for them. What
// only the running process knows (whether its IMAP connection works) it
// tells through the small Daemon interface.
package monitor

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Daemon is what the monitor asks of the running daemon.
type Daemon interface {
	// InboxState says whether the inbox loop's last look at the mailbox
	// worked, and the error when it did not.
	InboxState() (ok bool, err error)
	// BotSearches is how many searches the bots made since the process
	// started, and their time in all.
	BotSearches() (n uint64, total time.Duration)
}

// Monitor serves /metrics and /healthz for one daemon and its database.
type Monitor struct {
	db     *sql.DB
	daemon Daemon
	// Stale is how old the loop's heartbeat may be for /healthz to say
	// ok (default 5 minutes: the loop beats at least once a minute).
	Stale time.Duration
	now   func() time.Time
	reg   *prometheus.Registry
}

// New makes a monitor of the daemon's database db; daemon may be nil
// (then IMAP is not asked about).
func New(db *sql.DB, daemon Daemon) *Monitor {
	m := &Monitor{db: db, daemon: daemon, Stale: 5 * time.Minute, now: time.Now, reg: prometheus.NewRegistry()}
	m.reg.MustRegister(collector{m}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves /metrics and /healthz.
func (m *Monitor) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	mux.HandleFunc("GET /healthz", m.healthz)
	return mux
}

// healthz is 200 "ok" when the inbox loop's last look worked and its
// heartbeat is fresh; 503 with the reason otherwise.
func (m *Monitor) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if reason := m.unhealthy(r.Context()); reason != "" {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, reason)
		return
	}
	fmt.Fprintln(w, "ok")
}

// unhealthy is why the daemon is not healthy, "" when it is.
func (m *Monitor) unhealthy(ctx context.Context) string {
	if m.daemon != nil {
		if ok, err := m.daemon.InboxState(); !ok {
			return fmt.Sprintf("IMAP: %v", err)
		}
	}
	beat, err := m.heartbeat(ctx)
	switch {
	case err != nil:
		return fmt.Sprintf("database: %v", err)
	case beat.IsZero():
		return "no heartbeat yet"
	case m.now().Sub(beat) > m.Stale:
		return fmt.Sprintf("the daemon's loop last beat %s ago", m.now().Sub(beat).Round(time.Second))
	}
	return ""
}

// heartbeat is the loop's last heartbeat as the database keeps it.
func (m *Monitor) heartbeat(ctx context.Context) (time.Time, error) {
	var v string
	err := m.db.QueryRowContext(ctx, `SELECT value FROM pbem_state WHERE key = 'heartbeat'`).Scan(&v)
	if err == sql.ErrNoRows {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("heartbeat %q: %w", v, err)
	}
	return time.Unix(n, 0), nil
}

var (
	descMails = prometheus.NewDesc("icepost_mails_handled_total",
		"Mails the daemon handled, by outcome: handled (its commands ran, or were answered), refused (a command refused, or the sender blocked), rejected (set aside), automatic (never answered), no_command.",
		[]string{"outcome"}, nil)
	descOutbox = prometheus.NewDesc("icepost_outbox_mails",
		"Mails in the outbox, by state: unsent (queued), sent, failed (given up).",
		[]string{"state"}, nil)
	descOldest = prometheus.NewDesc("icepost_outbox_oldest_unsent_age_seconds",
		"How long the oldest unsent mail has waited; 0 when none waits.", nil, nil)
	descBots = prometheus.NewDesc("icepost_bot_jobs_queued",
		"Bot moves waiting to be searched.", nil, nil)
	descAnalyses = prometheus.NewDesc("icepost_analysis_jobs_queued",
		"Analyses players asked for by mail (analyze) waiting to be made.", nil, nil)
	descBeat = prometheus.NewDesc("icepost_heartbeat_timestamp_seconds",
		"When the daemon's loop last beat (Unix time); 0 before the first beat.", nil, nil)
	descIMAP = prometheus.NewDesc("icepost_imap_connected",
		"1 when the inbox loop's last look at the mailbox worked, else 0.", nil, nil)
	descSearch = prometheus.NewDesc("icepost_bot_search_seconds",
		"The bots' searches since the process started: how many (_count) and their time in all (_sum).", nil, nil)
	descUp = prometheus.NewDesc("icepost_database_up",
		"1 when the figures above could be read from the database, else 0.", nil, nil)
)

// collector reads the figures at each scrape.
type collector struct{ m *Monitor }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descMails, descOutbox, descOldest, descBots, descAnalyses, descBeat, descIMAP, descSearch, descUp} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	m := c.m
	if m.daemon != nil {
		ok, _ := m.daemon.InboxState()
		ch <- prometheus.MustNewConstMetric(descIMAP, prometheus.GaugeValue, b01(ok))
		n, total := m.daemon.BotSearches()
		ch <- prometheus.MustNewConstSummary(descSearch, n, total.Seconds(), nil)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := m.collectDB(ctx, ch)
	ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, b01(err == nil))
	if err != nil {
		ch <- prometheus.NewInvalidMetric(descUp, err)
	}
}

func (m *Monitor) collectDB(ctx context.Context, ch chan<- prometheus.Metric) error {
	rows, err := m.db.QueryContext(ctx, `SELECT CASE
			WHEN outcome LIKE 'rejected%' THEN 'rejected'
			WHEN outcome LIKE 'automatic%' THEN 'automatic'
			WHEN outcome LIKE 'refused%' OR outcome LIKE '%: refused:%' THEN 'refused'
			WHEN outcome = 'no command' THEN 'no_command'
			ELSE 'handled' END, count(*)
		FROM pbem_processed GROUP BY 1`)
	if err != nil {
		return err
	}
	counts := map[string]float64{"handled": 0, "refused": 0, "rejected": 0, "automatic": 0, "no_command": 0}
	for rows.Next() {
		var k string
		var n float64
		if err := rows.Scan(&k, &n); err != nil {
			rows.Close()
			return err
		}
		counts[k] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for k, n := range counts {
		ch <- prometheus.MustNewConstMetric(descMails, prometheus.CounterValue, n, k)
	}

	var unsent, sent, failed float64
	var oldest int64
	if err := m.db.QueryRowContext(ctx, `SELECT
			coalesce(sum(sent_at IS NULL AND failed_at IS NULL), 0),
			coalesce(sum(sent_at IS NOT NULL), 0),
			coalesce(sum(failed_at IS NOT NULL AND sent_at IS NULL), 0),
			coalesce(min(CASE WHEN sent_at IS NULL AND failed_at IS NULL THEN created_at END), 0)
		FROM pbem_outbox`).Scan(&unsent, &sent, &failed, &oldest); err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, unsent, "unsent")
	ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, sent, "sent")
	ch <- prometheus.MustNewConstMetric(descOutbox, prometheus.GaugeValue, failed, "failed")
	age := 0.0
	if oldest > 0 {
		age = max(m.now().Sub(time.Unix(oldest, 0)).Seconds(), 0)
	}
	ch <- prometheus.MustNewConstMetric(descOldest, prometheus.GaugeValue, age)

	var jobs float64
	if err := m.db.QueryRowContext(ctx, `SELECT count(*) FROM pbem_bot_jobs`).Scan(&jobs); err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(descBots, prometheus.GaugeValue, jobs)
	if err := m.db.QueryRowContext(ctx, `SELECT count(*) FROM pbem_analysis_jobs`).Scan(&jobs); err != nil {
		return err
	}
	ch <- prometheus.MustNewConstMetric(descAnalyses, prometheus.GaugeValue, jobs)

	beat, err := m.heartbeat(ctx)
	if err != nil {
		return err
	}
	ts := 0.0
	if !beat.IsZero() {
		ts = float64(beat.Unix())
	}
	ch <- prometheus.MustNewConstMetric(descBeat, prometheus.GaugeValue, ts)
	return nil
}

func b01(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
