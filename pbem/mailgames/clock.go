package mailgames

import (
	"context"
	"slices"
	"strings"
	"time"
)

// Clock is the clock of the player to move in an active game.
type Clock struct {
	Limit  time.Duration // 0: no time control
	Used   time.Duration
	Paused bool // the mover is on vacation now
}

// Left is the time the mover has left, never below zero.
func (c Clock) Left() time.Duration { return max(c.Limit-c.Used, 0) }

// ClockAt reads the clock of mover, whose turn began at start, in a game
// of days per move (0: no time control, the zero Clock), as it stands at
// now.
//
// The clock rule: the mover has used the time since their turn began,
// less every pause that overlaps it — the daemon's outages and the
// mover's own vacations (overlapping pauses count once). Nothing is
// counted down in place, so restarts and late ticks change nothing.
func ClockAt(ctx context.Context, q Querier, mover string, days int, start, now time.Time) (Clock, error) {
	if days <= 0 {
		return Clock{}, nil
	}
	c := Clock{Limit: time.Duration(days) * 24 * time.Hour}
	from, to := start.Unix(), now.Unix()
	pauses, err := pausesFor(ctx, q, mover, from, to)
	if err != nil {
		return Clock{}, err
	}
	for _, p := range pauses {
		if p[0] <= to && to < p[1] && p[2] == 1 {
			c.Paused = true
		}
	}
	c.Used = max(time.Duration(to-from-merged(pauses, from, to))*time.Second, 0)
	return c, nil
}

// pausesFor lists the pauses of address's clock that overlap [from, to):
// outages and their vacations, as {start, end, isVacation}.
func pausesFor(ctx context.Context, q Querier, address string, from, to int64) ([][3]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT starts_at, ends_at, 0 FROM pbem_outages WHERE ends_at > ? AND starts_at < ?
		UNION ALL SELECT starts_at, ends_at, 1 FROM pbem_vacations WHERE address = ? AND ends_at > ? AND starts_at < ?`,
		from, to, strings.ToLower(address), from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][3]int64
	for rows.Next() {
		var p [3]int64
		if err := rows.Scan(&p[0], &p[1], &p[2]); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// merged is how many seconds of [from, to) the intervals cover.
func merged(ivs [][3]int64, from, to int64) int64 {
	var clipped [][2]int64
	for _, iv := range ivs {
		a, b := max(iv[0], from), min(iv[1], to)
		if a < b {
			clipped = append(clipped, [2]int64{a, b})
		}
	}
	slices.SortFunc(clipped, func(x, y [2]int64) int { return int(x[0] - y[0]) })
	var total, end int64
	end = from
	for _, iv := range clipped {
		a := max(iv[0], end)
		if iv[1] > a {
			total += iv[1] - a
			end = iv[1]
		}
	}
	return total
}
