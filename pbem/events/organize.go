package events

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/pbem"
	"icepost/pbem/mailread"
	"icepost/tournament"
)

// Organize creates a tournament by mail, for one of the server's
// starters (the game service checks that before it calls): "organize
// GAME FORMAT [setting=value ...] NAME". The settings are the operator's
// flags by other names; any other name=value is the game's option. By
// mail nobody starts a tournament by hand, so it needs start=full (with
// max=N) or start=DATE. The organizer is not entered: they join as
// anyone does.
func (s *Service) Organize(tx *pbem.Tx, c mailread.Command, addr string) (string, error) {
	spec := Spec{Name: c.Name, Game: c.Game, Format: tournament.Format(c.Format)}
	var start string
	for _, o := range c.Options {
		num := func() (int, error) {
			v, err := strconv.Atoi(o.Value)
			if err != nil || v < 0 || v > 999 {
				return 0, pbem.UserError("%s=%s: give a number from 0 to 999.", o.Name, o.Value)
			}
			return v, nil
		}
		yes := func() (bool, error) {
			switch strings.ToLower(o.Value) {
			case "yes", "true", "1", "on":
				return true, nil
			case "no", "false", "0", "off":
				return false, nil
			}
			return false, pbem.UserError("%s=%s: write %s=yes or %s=no.", o.Name, o.Value, o.Name, o.Name)
		}
		var err error
		switch o.Name {
		case "rounds":
			spec.Settings.Rounds, err = num()
		case "sections":
			spec.Settings.Sections, err = num()
		case "max":
			spec.Settings.MaxPlayers, err = num()
		case "seats":
			spec.Seats, err = num()
		case "days":
			spec.Days, err = num()
		case "deadline":
			spec.Settings.Deadline, err = num()
		case "reach":
			spec.Settings.Reach, err = num()
		case "answer":
			spec.Settings.Days, err = num()
		case "double":
			spec.Settings.Double, err = yes()
		case "final":
			spec.Settings.Final, err = yes()
		case "byrounds", "by-rounds":
			spec.Settings.ByRounds, err = yes()
		case "start":
			start = strings.ToLower(o.Value)
		default:
			if spec.Options == nil {
				spec.Options = map[string]string{}
			}
			spec.Options[o.Name] = o.Value
		}
		if err != nil {
			return "", err
		}
	}
	switch start {
	case "full":
		spec.WhenFull = true
	case "":
		return "", pbem.UserError("say when %s starts: start=full (with max=N players) or start=YYYY-MM-DD (at midnight UTC; or YYYY-MM-DDTHH:MM); by mail nobody starts it by hand.", c.Name)
	default:
		at, err := time.Parse("2006-01-02T15:04", start)
		if err != nil {
			at, err = time.Parse("2006-01-02", start)
		}
		if err != nil {
			return "", pbem.UserError("start=%s: write start=full, or a date as start=2027-01-15 (or 2027-01-15T18:00, UTC).", start)
		}
		if !at.After(tx.Now()) {
			return "", pbem.UserError("start=%s is not in the future.", start)
		}
		spec.StartsAt = at
	}
	pr, err := prepare(spec)
	if err != nil {
		return "", pbem.UserError("%v.", err)
	}
	id, err := s.insert(tx, pr)
	if err != nil {
		if strings.Contains(err.Error(), "choose another name") {
			return "", pbem.UserError("%v.", err)
		}
		return "", err
	}
	ev, err := load(tx.Context(), tx.SQL(), id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("You organized %s: tournament %d.\n%s.\n\nPlayers enter with the line\n\n    join %d\n\nsent to this address (you too, if you play); \"tournaments\" lists it, and \"standings %d\" shows its table once it runs. Only the server's operator can cancel it.\n",
		ev.Name, id, describe(ev), id, id), nil
}
