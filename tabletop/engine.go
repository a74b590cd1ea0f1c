package tabletop

// The engine at the table: hint (its suggestion and win estimate, in
// any session), and the seats it plays itself in a game against it
// (icepost play: Config.Computer).

import (
	"context"
	"fmt"
	"slices"

	"icepost/engine"
)

// HintLevel is the engine's level for hint when Config.Engine gives none.
const HintLevel = 3

// engineConfig is the engine's configuration for a seat (0: hint).
func (s *Session) engineConfig(seat int) engine.Config {
	c := s.cfg.Engine
	if c.Level == 0 {
		c.Level = HintLevel
	}
	c.Seed += uint64(seat)
	return c
}

func (s *Session) ctx() context.Context {
	if s.runCtx != nil {
		return s.runCtx
	}
	return context.Background()
}

// computer says the engine plays seat.
func (s *Session) computer(seat int) bool { return slices.Contains(s.cfg.Computer, seat) }

// hint shows the move the engine would play for the seat to move, with
// its estimate of that seat's chance to win after it.
func (s *Session) hint() {
	st := s.current()
	if s.game.Over() || st.Outcome().Over {
		s.printf("The game is over: there is nothing to suggest.\n")
		return
	}
	p, err := engine.New(s.engineConfig(0))
	if err != nil {
		s.printf("hint: %v\n", err)
		return
	}
	c, err := p.Move(s.ctx(), st)
	if err != nil {
		s.printf("hint: %v\n", err)
		return
	}
	s.printf("Hint for %s: %s (the engine gives it a %.0f%% chance to win after it, from %d playouts).\n",
		s.seatName(st.ToMove()), st.FormatMove(c.Move), 100*c.Win, c.Playouts)
}

// playComputer plays the engine's seats while one of them is to move: after
// every line, and when the game opens. Then, once a position, it says
// that the engine would take a draw where the position has come back
// engine.RepeatDraw times.
func (s *Session) playComputer() {
	for s.opened && !s.done && len(s.asks) == 0 && !s.game.Over() {
		st := s.current()
		seat := st.ToMove()
		if !s.computer(seat) || st.Outcome().Over {
			s.sayCircle()
			return
		}
		if s.bots == nil {
			s.bots = map[int]*engine.Player{}
		}
		p := s.bots[seat]
		if p == nil {
			var err error
			if p, err = engine.New(s.engineConfig(seat)); err != nil {
				s.printf("The engine cannot play: %v\n", err)
				return
			}
			s.bots[seat] = p
		}
		c, err := p.Move(s.ctx(), st)
		if err != nil {
			s.printf("The engine stopped: %v\n", err)
			return
		}
		s.move(st.FormatMove(c.Move))
	}
}

// sayCircle tells a person to move in a game against the engine, once a
// ply, that the position has come back often enough for the engine to
// take a draw.
func (s *Session) sayCircle() {
	ply := s.game.Ply()
	if len(s.cfg.Computer) == 0 || s.game.Over() || s.current().Outcome().Over || ply == s.circleSaid {
		return
	}
	if n := s.game.Repeats(); n >= engine.RepeatDraw {
		s.circleSaid = ply
		s.printf("This position has stood on the board %d times: type draw and the engine accepts.\n", n)
	}
}

// undoComputer, after an undo in a game against the engine, takes back
// the engine's moves before it too, so that a person is to move again.
func (s *Session) undoComputer() {
	for len(s.cfg.Computer) > 0 && s.game.Ply() > 0 && !s.game.Over() && s.computer(s.current().ToMove()) {
		s.undo()
	}
}

// offerDraw is draw in a game against the engine: the engine accepts only
// when it thinks it is losing or the position has come back
// engine.RepeatDraw times (engine.AcceptsDraw), each of its seats alike.
func (s *Session) offerDraw() {
	if s.game.Over() {
		s.printf("The game is over already (%s).\n", s.describeEnd())
		return
	}
	st := s.current()
	p, err := engine.New(s.engineConfig(0))
	if err != nil {
		s.printf("draw: %v\n", err)
		return
	}
	c, err := p.Move(s.ctx(), st)
	if err != nil {
		s.printf("draw: %v\n", err)
		return
	}
	for _, seat := range s.cfg.Computer {
		if !engine.AcceptsDraw(c.Values[seat-1], s.seats, s.game.Repeats()) {
			s.printf("%s declines the draw: it does not think it is losing (its estimate: %.0f%%). Play on. (It accepts one in a position that has come back %d times.)\n", s.seatName(seat), 100*c.Values[seat-1], engine.RepeatDraw)
			return
		}
	}
	s.end("agreement", 0, "")
}

// describeComputer is the line that says who the engine plays, for Begin.
func (s *Session) describeComputer() string {
	if len(s.cfg.Computer) == 0 {
		return ""
	}
	var names []string
	for _, k := range s.cfg.Computer {
		names = append(names, fmt.Sprintf("seat %d", k))
	}
	return fmt.Sprintf("The engine (level %d) plays %s.\n", s.engineConfig(0).Level, joinAnd(names))
}
