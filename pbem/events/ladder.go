package events

import (
	"errors"
	"fmt"
	"strconv"

	"icepost/pbem"
	"icepost/tournament"
)

// A ladder by mail: climb N PLACE challenges the player at PLACE, defend
// N answers; a bot defends at once; a challenge not answered in the
// ladder's days is lost by the defender, on the tick.

// ladder loads a running ladder for a command.
func (s *Service) ladder(tx *pbem.Tx, id int64) (*Event, error) {
	ev, err := load(tx.Context(), tx.SQL(), id)
	if errors.Is(err, ErrNoEvent) {
		return nil, pbem.UserError("there is no tournament %d: send \"tournaments\" to see them.", id)
	}
	if err != nil {
		return nil, err
	}
	if ev.T.Format != tournament.Ladder {
		return nil, pbem.UserError("%s (tournament %d) is no ladder: its games are paired for you.", ev.Name, id)
	}
	if ev.Status != Running {
		return nil, pbem.UserError("the ladder %s (tournament %d) is %s.", ev.Name, id, ev.Status)
	}
	return ev, nil
}

// Climb challenges the player at place on ladder id for addr.
func (s *Service) Climb(tx *pbem.Tx, id int64, place int, addr string) (string, error) {
	ev, err := s.ladder(tx, id)
	if err != nil {
		return "", err
	}
	if place < 1 || place > len(ev.T.Ladder) {
		return "", pbem.UserError("the ladder %s has places 1 to %d.", ev.Name, len(ev.T.Ladder))
	}
	defender := ev.T.Ladder[place-1]
	c, err := ev.T.Challenge(addr, defender, tx.Now())
	if err != nil {
		return "", pbem.UserError("%v (send \"standings %d\" for the list).", err, id)
	}
	days := ev.T.Options.Days
	if days == 0 {
		days = tournament.DefaultDays
	}
	text := fmt.Sprintf("You challenged %s (place %d) on the ladder %s: challenge %d.", playerName(defender), place, ev.Name, c.Number)
	if !human(defender) {
		// The server's bot takes every challenge at once.
		if err := s.accept(tx, ev, c.Number); err != nil {
			return "", err
		}
		return text + " The bot takes it: your board comes in a mail of its own.\n", save(tx, ev)
	}
	tx.Mail(defender, "icepost: "+ev.Name+": a challenge", fmt.Sprintf(
		"%s challenges you on the ladder %s (tournament %d): you are at place %d.\n\nTo play, reply with:\n\n    defend %d\n\nWithout an answer within %d days you lose the challenge, and %s takes your place.\n",
		playerName(addr), ev.Name, id, place, id, days, playerName(addr)))
	return text + fmt.Sprintf(" %s has %d days to answer; the game starts when they do.\n", playerName(defender), days), save(tx, ev)
}

// Defend answers the open challenge against addr on ladder id.
func (s *Service) Defend(tx *pbem.Tx, id int64, addr string) (string, error) {
	ev, err := s.ladder(tx, id)
	if err != nil {
		return "", err
	}
	n := 0
	for _, c := range ev.T.Challenges {
		if c.Defender == addr && c.State == tournament.ChallengeOpen {
			n = c.Number
		}
	}
	if n == 0 {
		return "", pbem.UserError("nobody challenges you on the ladder %s now.", ev.Name)
	}
	if err := s.accept(tx, ev, n); err != nil {
		return "", err
	}
	return fmt.Sprintf("You took challenge %d on the ladder %s: your board comes in a mail of its own.\n", n, ev.Name), save(tx, ev)
}

// accept starts challenge n's game.
func (s *Service) accept(tx *pbem.Tx, ev *Event, n int) error {
	g, err := ev.T.Accept(n, tx.Now())
	if err != nil {
		return pbem.UserError("%v", err)
	}
	_, err = s.begin(tx, ev, g, "Challenge "+strconv.Itoa(n)+" on the ladder "+ev.Name+": your game begins.", false)
	return err
}

// expire settles the ladder's challenges whose time to answer ran out,
// and tells both players.
func (s *Service) expire(tx *pbem.Tx, ev *Event) {
	for _, c := range ev.T.Expire(tx.Now()) {
		text := fmt.Sprintf("Challenge %d on the ladder %s was not answered in time: %s takes %s's place.\n",
			c.Number, ev.Name, playerName(c.Challenger), playerName(c.Defender))
		for _, p := range []string{c.Challenger, c.Defender} {
			if human(p) {
				tx.Mail(p, "icepost: "+ev.Name+": challenge "+strconv.Itoa(c.Number), text)
			}
		}
	}
}
