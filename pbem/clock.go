package pbem

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/pbem/mailgames"
)

// Deadlines are the operator's settings for time controls, vacations and
// digests: the [deadlines] table of the configuration file. The zero value
// is a server without time controls by default, reminders at 2/3 of the
// time, a last warning at 90%, 30 vacation days a year and digests at
// midnight UTC.
type Deadlines struct {
	// DaysPerMove is the time control of challenges that do not choose
	// one with days=N; 0 means none.
	DaysPerMove int `toml:"days_per_move"`
	// RemindAt and WarnAt are the parts of a move's time used when the
	// reminder and the last warning go out (defaults 0.667 and 0.9).
	RemindAt float64 `toml:"remind_at"`
	WarnAt   float64 `toml:"warn_at"`
	// VacationDays is each player's allowance per calendar year (UTC);
	// 0 means the default of 30, a negative number no vacations at all.
	VacationDays int `toml:"vacation_days"`
	// DigestHour is the hour of the day (UTC, 0-23) daily digests go out.
	DigestHour int `toml:"digest_hour"`
}

// maxDaysPerMove bounds days=N in a challenge.
const maxDaysPerMove = 60

func (d Deadlines) remindAt() float64 {
	if d.RemindAt <= 0 || d.RemindAt >= 1 {
		return 0.667
	}
	return d.RemindAt
}

func (d Deadlines) warnAt() float64 {
	if d.WarnAt <= 0 || d.WarnAt >= 1 {
		return 0.9
	}
	return max(d.WarnAt, d.remindAt())
}

func (d Deadlines) vacationDays() int {
	if d.VacationDays == 0 {
		return 30
	}
	return max(d.VacationDays, 0)
}

// Check reports settings that cannot work.
func (d Deadlines) Check() error {
	switch {
	case d.DaysPerMove < 0 || d.DaysPerMove > maxDaysPerMove:
		return fmt.Errorf("deadlines: days_per_move must be from 0 (none) to %d", maxDaysPerMove)
	case d.RemindAt < 0 || d.RemindAt >= 1 || d.WarnAt < 0 || d.WarnAt >= 1:
		return fmt.Errorf("deadlines: remind_at and warn_at are parts of the time, between 0 and 1, like 0.667")
	case d.WarnAt != 0 && d.WarnAt < d.remindAt():
		return fmt.Errorf("deadlines: warn_at (%g) comes before remind_at (%g)", d.WarnAt, d.remindAt())
	case d.DigestHour < 0 || d.DigestHour > 23:
		return fmt.Errorf("deadlines: digest_hour is an hour of the day, 0 to 23 (UTC)")
	}
	return nil
}

// clock is the clock of a game's player to move (mailgames.Clock, where
// the clock rule is) with the notices the daemon has sent this turn.
type clock struct {
	mailgames.Clock
	notice int // 1: reminder sent, 2: last warning sent (this turn)
}

// clockOf reads the clock of an active game for its player to move.
func (h *handling) clockOf(g *game) (clock, error) {
	var c clock
	var days int
	var start int64
	if err := h.tx.QueryRowContext(h.ctx, `SELECT days_per_move, turn_started_at, clock_notice FROM pbem_games WHERE id = ?`, g.id).
		Scan(&days, &start, &c.notice); err != nil {
		return c, err
	}
	if days <= 0 || g.status != statusActive {
		return clock{}, nil
	}
	mover := g.seats[g.state().ToMove()-1].address
	var err error
	c.Clock, err = mailgames.ClockAt(h.ctx, h.tx, mover, days, time.Unix(start, 0), h.now)
	return c, err
}

// turnChanged starts the clock of the player to move when the game has
// changed hands (a move, an undo, the start) and cancels what a move
// cancels: notices of the old turn and an undo request. saveGame calls it
// before it writes the game.
func (h *handling) turnChanged(g *game) error {
	_, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_games SET turn_started_at = ?, clock_notice = 0, undo_requests = 0
		WHERE id = ? AND (ply != ? OR status != ?)`, h.now.Unix(), g.id, g.ply(), g.status)
	return err
}

// setTimeControl stores a new game's days per move (0: none).
func (h *handling) setTimeControl(id int64, days int) error {
	_, err := h.tx.ExecContext(h.ctx, `UPDATE pbem_games SET days_per_move = ? WHERE id = ?`, max(days, 0), id)
	return err
}

// parseDays reads the challenge option days=N|none.
func parseDays(value string) (int, error) {
	if strings.EqualFold(value, "none") || strings.EqualFold(value, "off") {
		return 0, nil
	}
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 || n > maxDaysPerMove {
		return 0, userErrorf(nil, "days=%s: the days each player has for a move, a whole number from 1 to %d (or days=none for no time control).", value, maxDaysPerMove)
	}
	return n, nil
}

// timeControlTag is the TimeControl tag of a record: "3d/move".
func timeControlTag(days int) string { return fmt.Sprintf("%dd/move", days) }

// clockLine is the line a board mail carries about the clock; "" without
// a time control.
func (h *handling) clockLine(g *game, seatNo int) string {
	if g.status != statusActive {
		return ""
	}
	c, err := h.clockOf(g)
	if err != nil || c.Limit == 0 {
		return ""
	}
	who := "the player to move has"
	if seatNo > 0 && g.state().ToMove() == seatNo {
		who = "you have"
	}
	s := fmt.Sprintf("Time control: %s per move; %s %s left.", span(c.Limit), who, span(c.Left()))
	if c.Paused {
		s += " (The clock is paused: the player to move is on vacation.)"
	}
	return s + "\n"
}

// timeLeft is ", 2 days 3 hours left" for a game with a time control, ""
// without one.
func (h *handling) timeLeft(g *game) string {
	c, err := h.clockOf(g)
	if err != nil || c.Limit == 0 {
		return ""
	}
	return ", " + span(c.Left()) + " left"
}

// span writes a duration for people: "2 days 3 hours", "5 hours", "40 minutes".
func span(d time.Duration) string {
	d = d.Round(time.Minute)
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case days > 0 && hours > 0:
		return plural(days, "day") + " " + plural(hours, "hour")
	case days > 0:
		return plural(days, "day")
	case hours > 0:
		return plural(hours, "hour")
	}
	return plural(mins, "minute")
}

// when writes a moment for mails: "Tue 24 Nov 2026 18:00 UTC".
func when(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC") }
