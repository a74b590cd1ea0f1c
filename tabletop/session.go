// Package tabletop keeps the record of a game played at a table: the people
// playing type each move as it is made, and a Session checks it against the
// rules, shows the board, and writes the record after every move so that
// nothing typed is lost (docs/record.md describes it for users).
//
// A Session reads lines and writes text; it knows nothing of terminals. It
// can be driven one line at a time (Begin, then Line until Done, then
// Finish), which is what the tests do, or by Run with a LineReader. The
// game itself, its record and positions kept in step, is a notation.Game,
// the same model the mail daemon plays its games on.
//
// session.go holds the session and its questions, commands.go what each
// typed command does, save.go the file, files.go names, dates and the line
// reader, moves.go the list of legal moves, engine.go the engine's seats
// (icepost play) and hint.
package tabletop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"icepost/atomicfile"
	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
)

// DefaultEvent is the Event tag when none is given.
const DefaultEvent = "Casual game"

// Config is what a Session is started with.
type Config struct {
	Game    rules.Game
	Options rules.Options
	// Tags already known (Event, Site, Date, Round, Player1..N), usually
	// from flags. Game, Result, Score, Termination, Board and Target are
	// the session's own and are ignored here.
	Tags []notation.Tag
	// Ask says a person is at a terminal: ask for the tags not given, show
	// prompts, and ask before overwriting a file. Without it the session
	// asks nothing and fills defaults (for pipes and scripts).
	Ask bool
	// Path is the file to write. "" means a name made by DefaultName, in
	// Dir ("" for the working folder). An existing file is never replaced
	// without asking: the session writes to the first free name with -1,
	// -2, ... added instead.
	Path string
	Dir  string
	// Save writes data (the record in canonical form) to path, replacing
	// it. nil means atomicfile.Write.
	Save func(path string, data []byte) error
	// Now gives today's date for the Date tag; nil means time.Now.
	Now func() time.Time
	// Resume, when set, is an unfinished game read back from its record
	// (notation.Check): the session goes on with it instead of starting
	// one, and Game and Options come from it. Tags still replace the
	// record's own. The record is written to Path, which need not be free:
	// it is usually the file the game was read from.
	Resume *notation.Game
	// Engine is the computer opponent's configuration, for hint and for
	// the seats in Computer; its zero Level means HintLevel.
	Engine engine.Config
	// Computer lists the seats the engine plays (icepost play): whenever
	// one of them is to move, the session plays its move.
	Computer []int
}

// Session is one game being recorded.
type Session struct {
	cfg   Config
	out   io.Writer
	game  *notation.Game // the record and its positions, kept in step
	seats int

	asks    []question      // questions waiting for an answer, first first
	then    func()          // what to do when the questions are answered
	path    string          // the file written, once chosen
	opened  bool            // tags known and file chosen: moves may be typed
	done    bool            // the session is over
	saved   error           // the last save's error
	refused int             // moves the rules refused
	buf     [256]rules.Move // scratch for move generation

	runCtx     context.Context        // Run's, for the engine's searches
	bots       map[int]*engine.Player // the engine's players, by seat
	circleSaid int                    // the ply at which sayCircle last spoke (0: none yet)
}

type question struct {
	prompt string
	answer func(string) bool // false: ask again
}

// New makes a session for cfg that writes what it says to out. It fails
// when the game refuses the options or a tag given is not usable.
func New(cfg Config, out io.Writer) (*Session, error) {
	if r := cfg.Resume; r != nil {
		if r.Over() {
			return nil, fmt.Errorf("the game in the record is over (result %s): there is nothing to go on with", r.Record.Result)
		}
		cfg.Game, cfg.Options = r.Rules, r.Options
	}
	if cfg.Game == nil {
		return nil, errors.New("tabletop: no game")
	}
	start, err := cfg.Game.Start(cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Save == nil {
		cfg.Save = atomicfile.Write
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	seats := start.Options().Seats
	var tags []notation.Tag
	for _, t := range cfg.Tags {
		if t.Name == "Date" {
			d, ok := notation.ParseDate(t.Value)
			if !ok {
				return nil, fmt.Errorf("date %q: write it as YYYY.MM.DD", t.Value)
			}
			t.Value = d
		}
		if k, ok := playerSeat(t.Name); ok && k > seats {
			return nil, fmt.Errorf("%d players named but %s is played here by %d", k, cfg.Game.Name(), seats)
		}
		tags = append(tags, t)
	}
	for _, k := range cfg.Computer {
		if k < 1 || k > seats {
			return nil, fmt.Errorf("seat %d: %s is played here by %d, seats 1 to %d", k, cfg.Game.Name(), seats, seats)
		}
	}
	if cfg.Engine.Level != 0 {
		if _, err := engine.New(cfg.Engine); err != nil {
			return nil, err
		}
	}
	if r := cfg.Resume; r != nil {
		for _, t := range tags {
			r.Record.SetTag(t.Name, t.Value)
		}
		return &Session{cfg: cfg, out: out, game: r, seats: seats}, nil
	}
	return &Session{cfg: cfg, out: out, game: notation.NewGame(start, tags), seats: seats}, nil
}

func playerSeat(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "Player")
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil && k >= 1
}

func (s *Session) tag(name string) (string, bool) { return s.game.Record.Tag(name) }

func (s *Session) setTag(name, value string) { s.game.Record.SetTag(name, value) }

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// Begin starts the session: it asks for the tags that are missing (when
// Config.Ask) or fills their defaults, chooses the file, writes the empty
// record and shows the board.
func (s *Session) Begin() {
	if s.cfg.Resume != nil {
		s.printf("Going on with %s for %d players: %s played. Type each move as it is played; type help for the commands.\n",
			s.cfg.Game.Name(), s.seats, plural(s.game.Ply(), "move"))
	} else if len(s.cfg.Computer) > 0 {
		s.printf("Playing %s against the computer, %d players. Type your moves; type help for the commands.\n", s.cfg.Game.Name(), s.seats)
	} else {
		s.printf("Recording %s for %d players. Type each move as it is played; type help for the commands.\n", s.cfg.Game.Name(), s.seats)
	}
	s.printf("%s", s.describeComputer())
	today := notation.FormatDate(s.cfg.Now())
	defaults := []struct{ name, prompt, def string }{{"Event", "Event", DefaultEvent}, {"Date", "Date", today}}
	for k := 1; k <= s.seats; k++ {
		defaults = append(defaults, struct{ name, prompt, def string }{"Player" + strconv.Itoa(k), fmt.Sprintf("Player %d (seat %d)", k, k), "?"})
	}
	for _, d := range defaults {
		// The game names every seat "?" until told: ask for those too.
		if v, ok := s.tag(d.name); ok && (v != "?" || !strings.HasPrefix(d.name, "Player")) {
			continue
		}
		if !s.cfg.Ask || s.cfg.Resume != nil {
			// A resumed record was asked for its tags when it began.
			if _, ok := s.tag(d.name); !ok {
				s.setTag(d.name, d.def)
			}
			continue
		}
		s.setTag(d.name, d.def) // keeps the tag order; the answer replaces it
		s.asks = append(s.asks, question{
			prompt: fmt.Sprintf("%s [%s]: ", d.prompt, d.def),
			answer: func(a string) bool {
				a = strings.TrimSpace(a)
				if a == "" {
					a = d.def
				}
				if d.name == "Date" {
					v, ok := notation.ParseDate(a)
					if !ok {
						s.printf("Write the date as YYYY.MM.DD (? for an unknown digit), or press Enter for %s.\n", d.def)
						return false
					}
					a = v
				}
				s.setTag(d.name, a)
				return true
			},
		})
	}
	s.then = s.choosePath
	s.next()
}

// next runs the continuation once no question is waiting.
func (s *Session) next() {
	for len(s.asks) == 0 && s.then != nil {
		f := s.then
		s.then = nil
		f()
	}
}

func (s *Session) tagOr(name, def string) string {
	if v, ok := s.tag(name); ok {
		return v
	}
	return def
}

func (s *Session) players() []string {
	p := make([]string, s.seats)
	for k := range p {
		p[k] = s.tagOr("Player"+strconv.Itoa(k+1), "?")
	}
	return p
}

// Prompt returns what to show before reading the next line: a question, or
// whose turn it is. It is "" when Config.Ask is off.
func (s *Session) Prompt() string {
	if !s.cfg.Ask {
		return ""
	}
	if len(s.asks) > 0 {
		return s.asks[0].prompt
	}
	if s.game.Over() {
		return "game over (comment, undo or quit)> "
	}
	return fmt.Sprintf("move %d, %s> ", s.game.Ply()+1, s.seatName(s.current().ToMove()))
}

// Done reports whether the session has ended (quit, or the record was
// finished).
func (s *Session) Done() bool { return s.done }

// Path returns the file the record is written to, "" until it is chosen.
func (s *Session) Path() string { return s.path }

// Refused returns how many moves the rules refused in this session, so
// that a script feeding moves can tell that some were not recorded.
func (s *Session) Refused() int { return s.refused }

// Err returns the error of the last attempt to write the record, nil when
// it was written.
func (s *Session) Err() error { return s.saved }

// played returns the moves played so far as canonical tokens.
func (s *Session) played() []string {
	toks := make([]string, s.game.Ply())
	for i := range toks {
		toks[i] = s.game.Token(i + 1)
	}
	return toks
}

func (s *Session) current() rules.State { return s.game.Final() }

func (s *Session) seatName(seat int) string {
	if seat < 1 || seat > s.seats {
		return "nobody"
	}
	name := s.tagOr("Player"+strconv.Itoa(seat), "?")
	if name == "?" || name == "" {
		return fmt.Sprintf("seat %d", seat)
	}
	return fmt.Sprintf("%s (seat %d)", name, seat)
}

// Line handles one line typed: an answer to a question, a command or a
// move. It reports nothing back; what it has to say goes to the output.
func (s *Session) Line(line string) {
	if s.done {
		return
	}
	if len(s.asks) > 0 {
		q := s.asks[0]
		if q.answer(line) {
			s.asks = s.asks[1:]
		}
		s.next()
		return
	}
	if !s.opened {
		return
	}
	defer s.playComputer() // the engine's seats answer
	line = strings.TrimSpace(line)
	if line == "" {
		if s.game.Over() {
			s.Finish()
		}
		return
	}
	word, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch strings.ToLower(word) {
	case "help", "?":
		s.help()
	case "undo":
		s.undo()
		s.undoComputer()
	case "hint":
		s.hint()
	case "review":
		s.review(rest)
	case "moves":
		s.listMoves()
	case "show", "board":
		s.show(rest)
	case "comment":
		s.comment(rest)
	case "resign":
		s.resign(rest)
	case "draw":
		if len(s.cfg.Computer) > 0 {
			s.offerDraw()
		} else {
			s.draw()
		}
	case "save":
		if s.save() == nil {
			s.printf("Saved to %s.\n", s.path)
		}
	case "quit", "exit":
		s.Finish()
	default:
		if rest != "" {
			s.printf("Type one move a line (%q is more than one word); type help for the commands.\n", line)
			return
		}
		s.move(word)
	}
}

// LineReader gives the session its lines.
type LineReader interface {
	// ReadLine shows prompt (when it is not "") and returns the next line
	// without its line ending; io.EOF when there are no more.
	ReadLine(prompt string) (string, error)
}

// Run drives the session from lr until it is done, the input ends, or ctx
// is cancelled; in every case the record so far is written and its path
// told. It returns the error of the last write of the record, if that
// failed.
func (s *Session) Run(ctx context.Context, lr LineReader) error {
	s.runCtx = ctx
	s.Begin()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	for !s.done {
		prompt := s.Prompt()
		go func() {
			l, err := lr.ReadLine(prompt)
			ch <- result{l, err}
		}()
		select {
		case <-ctx.Done():
			s.printf("\nInterrupted.\n")
			s.Finish()
			return s.saved
		case r := <-ch:
			if r.err != nil {
				if !errors.Is(r.err, io.EOF) {
					s.printf("\nReading: %v\n", r.err)
				}
				s.Finish()
				return s.saved
			}
			s.Line(r.line)
		}
	}
	return s.saved
}
