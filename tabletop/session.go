// Package tabletop keeps the record of a game played at a table: the people
// playing type each move as it is made, and a Session checks it against the
// rules, shows the board, and writes the record after every move so that
// nothing typed is lost (docs/record.md describes it for users).
//
// A Session reads lines and writes text; it knows nothing of terminals. It
// can be driven one line at a time (Begin, then Line until Done, then
// Finish), which is what the tests do, or by Run with a LineReader.
package tabletop

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

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
	// it. nil means WriteFileAtomic.
	Save func(path string, data []byte) error
	// Now gives today's date for the Date tag; nil means time.Now.
	Now func() time.Time
}

// Session is one game being recorded.
type Session struct {
	cfg   Config
	out   io.Writer
	start rules.State
	seats int

	tags   []notation.Tag  // Event, Site, Date, Round, Player1..N, options
	states []rules.State   // states[i] is the position after i moves
	moves  []rules.Move    // the moves played
	notes  [][]string      // notes[i]: comments after move i+1
	before []string        // comments typed before the first move
	end    *ending         // how the game ended other than by the rules
	asks   []question      // questions waiting for an answer, first first
	then   func()          // what to do when the questions are answered
	path   string          // the file written, once chosen
	opened bool            // tags known and file chosen: moves may be typed
	done   bool            // the session is over
	saved  error           // the last save's error
	buf    [256]rules.Move // scratch for move generation
}

// ending is a game ended by resignation or agreement.
type ending struct {
	termination string // "resignation" or "agreement"
	winner      int    // the winning seat, 0 for a draw
	note        string // a comment after the last move, "" for none
}

type question struct {
	prompt string
	answer func(string) bool // false: ask again
}

// New makes a session for cfg that writes what it says to out. It fails
// when the game refuses the options or a tag given is not usable.
func New(cfg Config, out io.Writer) (*Session, error) {
	if cfg.Game == nil {
		return nil, errors.New("tabletop: no game")
	}
	start, err := cfg.Game.Start(cfg.Options)
	if err != nil {
		return nil, err
	}
	if cfg.Save == nil {
		cfg.Save = WriteFileAtomic
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Session{cfg: cfg, out: out, start: start, seats: start.Options().Seats, states: []rules.State{start}}
	for _, t := range cfg.Tags {
		switch t.Name {
		case "Game", "Result", "Score", "Termination", "Board", "Target", "Setup":
			continue
		case "Date":
			d, ok := NormalizeDate(t.Value)
			if !ok {
				return nil, fmt.Errorf("date %q: write it as YYYY.MM.DD", t.Value)
			}
			t.Value = d
		}
		if k, ok := playerSeat(t.Name); ok && k > s.seats {
			return nil, fmt.Errorf("%d players named but %s is played here by %d", k, cfg.Game.Name(), s.seats)
		}
		s.setTag(t.Name, t.Value)
	}
	o := start.Options()
	if o.Board != "" {
		s.setTag("Board", o.Board)
	}
	if o.Target != 0 {
		s.setTag("Target", strconv.Itoa(o.Target))
	}
	return s, nil
}

func playerSeat(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "Player")
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(rest)
	return k, err == nil && k >= 1
}

func (s *Session) tag(name string) (string, bool) {
	for _, t := range s.tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

func (s *Session) setTag(name, value string) {
	for i := range s.tags {
		if s.tags[i].Name == name {
			s.tags[i].Value = value
			return
		}
	}
	s.tags = append(s.tags, notation.Tag{Name: name, Value: value})
}

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// Begin starts the session: it asks for the tags that are missing (when
// Config.Ask) or fills their defaults, chooses the file, writes the empty
// record and shows the board.
func (s *Session) Begin() {
	s.printf("Recording %s for %d players. Type each move as it is played; type help for the commands.\n", s.cfg.Game.Name(), s.seats)
	today := s.cfg.Now().Format("2006.01.02")
	defaults := []struct{ name, prompt, def string }{{"Event", "Event", DefaultEvent}, {"Date", "Date", today}}
	for k := 1; k <= s.seats; k++ {
		defaults = append(defaults, struct{ name, prompt, def string }{"Player" + strconv.Itoa(k), fmt.Sprintf("Player %d (seat %d)", k, k), "?"})
	}
	for _, d := range defaults {
		if _, ok := s.tag(d.name); ok {
			continue
		}
		if !s.cfg.Ask {
			s.setTag(d.name, d.def)
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
					v, ok := NormalizeDate(a)
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

// choosePath picks the file to write, asking before replacing one.
func (s *Session) choosePath() {
	path := s.cfg.Path
	if path == "" {
		path = filepath.Join(s.cfg.Dir, DefaultName(s.cfg.Game.Name(), s.tagOr("Date", ""), s.players()))
	}
	if !exists(path) {
		s.path = path
		s.then = s.open
		return
	}
	free := FreeName(path)
	if !s.cfg.Ask {
		s.printf("%s exists already: writing to %s instead.\n", path, free)
		s.path = free
		s.then = s.open
		return
	}
	s.asks = append(s.asks, question{
		prompt: fmt.Sprintf("%s exists already. Replace it? [y/N]: ", path),
		answer: func(a string) bool {
			if yes(a) {
				s.path = path
			} else {
				s.path = free
			}
			return true
		},
	})
	s.then = s.open
}

func yes(a string) bool {
	a = strings.ToLower(strings.TrimSpace(a))
	return a == "y" || a == "yes"
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
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

// open starts taking moves.
func (s *Session) open() {
	s.opened = true
	s.printf("The record is written to %s after every move.\n\n", s.path)
	s.save()
	s.showCurrent()
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
	if s.over() {
		return "game over (comment, undo or quit)> "
	}
	st := s.current()
	return fmt.Sprintf("move %d, %s> ", len(s.moves)+1, s.seatName(st.ToMove()))
}

// Done reports whether the session has ended (quit, or the record was
// finished).
func (s *Session) Done() bool { return s.done }

// Path returns the file the record is written to, "" until it is chosen.
func (s *Session) Path() string { return s.path }

// Err returns the error of the last attempt to write the record, nil when
// it was written.
func (s *Session) Err() error { return s.saved }

// Moves returns the moves played so far as canonical tokens.
func (s *Session) Moves() []string {
	toks := make([]string, len(s.moves))
	for i, m := range s.moves {
		toks[i] = s.states[i].FormatMove(m)
	}
	return toks
}

func (s *Session) current() rules.State { return s.states[len(s.states)-1] }

// over reports whether the game has ended, by the rules or otherwise.
func (s *Session) over() bool { return s.end != nil || s.current().Outcome().Over }

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
	line = strings.TrimSpace(line)
	if line == "" {
		if s.over() {
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
	case "moves":
		s.listMoves()
	case "show", "board":
		s.show(rest)
	case "comment":
		s.comment(rest)
	case "resign":
		s.resign(rest)
	case "draw":
		s.draw()
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

func (s *Session) help() {
	s.printf(`Type a move as the record writes it (%s), or one of:
  moves          list the legal moves
  show [N]       the board after move N (0: the start; no N: now)
  undo           take back the last move (or the resignation or draw)
  comment TEXT   attach a comment to the last move
  resign [SEAT]  a seat resigns (by number or name)
  draw           the players agree a draw
  save           write the record now (it is written after every move anyway)
  quit           write the record and stop; an unfinished game is kept with result *
  help           this text
`, s.example())
}

// example returns a legal move token of the current position, or a
// description when there is none.
func (s *Session) example() string {
	ms := s.current().Moves(s.buf[:0])
	if len(ms) == 0 {
		return "no move is legal now"
	}
	return "like " + s.current().FormatMove(ms[len(ms)/2])
}

func (s *Session) move(tok string) {
	if s.end != nil {
		s.printf("The game is over (%s): nothing recorded. Type undo to take that back.\n", s.end.termination)
		return
	}
	st := s.current()
	if o := st.Outcome(); o.Over {
		s.printf("The game is over (%s): %s was not recorded.\n", o, tok)
		return
	}
	next, m, err := rules.Play(st, tok)
	if err != nil {
		s.printf("\nNot recorded: %s\n", reason(err))
		s.printf("%s to move.\n\n", s.seatName(st.ToMove()))
		s.board(st)
		s.printf("Type moves to list the legal moves.\n")
		return
	}
	s.moves = append(s.moves, m)
	s.states = append(s.states, next)
	s.notes = append(s.notes, nil)
	s.save()
	s.printf("\nMove %d: %s played %s.\n\n", len(s.moves), s.seatName(st.ToMove()), st.FormatMove(m))
	s.showCurrent()
	if next.Outcome().Over {
		s.gameOver()
	}
}

func reason(err error) string {
	var me *rules.MoveError
	if errors.As(err, &me) {
		return me.Error()
	}
	return err.Error()
}

// showCurrent shows the board now, whose turn it is and the scores.
func (s *Session) showCurrent() {
	st := s.current()
	s.board(st)
	s.status(st)
}

func (s *Session) board(st rules.State) {
	s.printf("%s\n", strings.TrimRight(st.Board(0), "\n"))
}

func (s *Session) status(st rules.State) {
	if sc := st.Scores(); sc != nil {
		parts := make([]string, len(sc))
		for i, v := range sc {
			parts[i] = fmt.Sprintf("%s %d", s.seatName(i+1), v)
		}
		s.printf("Scores: %s.\n", strings.Join(parts, ", "))
	}
	if o := st.Outcome(); o.Over {
		return
	}
	s.printf("%s to move.\n", s.seatName(st.ToMove()))
}

// gameOver reports the end of the game and writes the record; the session
// stays open for comment and undo until quit or an empty line.
func (s *Session) gameOver() {
	s.printf("\nGame over: %s. Result %s.\n", s.describeEnd(), s.Record().Result)
	if s.save() == nil {
		s.printf("The record is written to %s.\n", s.path)
	}
	if s.cfg.Ask {
		s.printf("Type comment TEXT to add a last comment, undo to take the end back, or quit (or Enter) to finish.\n")
	}
}

func (s *Session) describeEnd() string {
	if s.end != nil {
		if s.end.winner == 0 {
			return "drawn by agreement"
		}
		return s.seatName(s.end.winner) + " wins by resignation"
	}
	o := s.current().Outcome()
	if o.Winner == 0 {
		return "a draw"
	}
	return s.seatName(o.Winner) + " wins"
}

func (s *Session) undo() {
	if s.end != nil {
		s.printf("Taken back: the %s. The game goes on.\n\n", map[string]string{"resignation": "resignation", "agreement": "draw"}[s.end.termination])
		s.end = nil
		s.save()
		s.showCurrent()
		return
	}
	if len(s.moves) == 0 {
		s.printf("Nothing to undo: no move has been played.\n")
		return
	}
	n := len(s.moves)
	prev := s.states[n-1]
	tok := prev.FormatMove(s.moves[n-1])
	if len(s.notes[n-1]) > 0 {
		s.printf("Taken back with its comments: ")
	} else {
		s.printf("Taken back: ")
	}
	s.printf("move %d, %s by %s.\n\n", n, tok, s.seatName(prev.ToMove()))
	s.moves = s.moves[:n-1]
	s.states = s.states[:n]
	s.notes = s.notes[:n-1]
	s.save()
	s.showCurrent()
}

func (s *Session) show(arg string) {
	if arg == "" {
		s.showCurrent()
		return
	}
	n, err := strconv.Atoi(arg)
	if err != nil || n < 0 || n > len(s.moves) {
		s.printf("show N: N is a move number from 0 (the start) to %d (now).\n", len(s.moves))
		return
	}
	st := s.states[n]
	if n == 0 {
		s.printf("The start:\n\n")
	} else {
		prev := s.states[n-1]
		s.printf("After move %d, %s by %s:\n\n", n, prev.FormatMove(s.moves[n-1]), s.seatName(prev.ToMove()))
	}
	s.board(st)
	s.status(st)
	if n < len(s.moves) {
		s.printf("(This is move %d of %d; moves typed now still go after move %d.)\n", n, len(s.moves), len(s.moves))
	}
}

func (s *Session) comment(text string) {
	if text == "" {
		s.printf("comment TEXT: type the comment after the word comment.\n")
		return
	}
	if len(s.moves) == 0 {
		s.before = append(s.before, text)
		s.printf("Comment kept before the first move.\n")
	} else {
		n := len(s.moves)
		s.notes[n-1] = append(s.notes[n-1], text)
		s.printf("Comment attached to move %d, %s.\n", n, s.states[n-1].FormatMove(s.moves[n-1]))
	}
	s.save()
}

func (s *Session) draw() {
	if s.over() {
		s.printf("The game is over already (%s).\n", s.describeEnd())
		return
	}
	s.end = &ending{termination: "agreement"}
	s.gameOver()
}

// resign handles "resign [SEAT...]". With two seats one seat resigns and
// the other wins. With three or four, a resignation ends the game only when
// every seat but one resigns together: the seat left wins. One player alone
// cannot leave a game the rules go on playing with them.
func (s *Session) resign(arg string) {
	if s.over() {
		s.printf("The game is over already (%s).\n", s.describeEnd())
		return
	}
	if arg == "" {
		if s.seats == 2 {
			s.asks = append(s.asks, question{
				prompt: fmt.Sprintf("Which seat resigns? 1 = %s, 2 = %s (Enter: none): ", s.seatName(1), s.seatName(2)),
				answer: func(a string) bool {
					if strings.TrimSpace(a) == "" {
						s.printf("Nobody resigns.\n")
						return true
					}
					s.resign(a)
					return true
				},
			})
		} else {
			s.asks = append(s.asks, question{
				prompt: fmt.Sprintf("Which %d seats resign together (the one left wins)? Give numbers or names (Enter: none): ", s.seats-1),
				answer: func(a string) bool {
					if strings.TrimSpace(a) == "" {
						s.printf("Nobody resigns.\n")
						return true
					}
					s.resign(a)
					return true
				},
			})
		}
		if !s.cfg.Ask {
			s.printf("Which seat resigns? Type its number or name on the next line (an empty line: nobody).\n")
		}
		return
	}
	var out []int
	for _, w := range strings.FieldsFunc(arg, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, ok := s.findSeat(w)
		if !ok {
			s.printf("resign: %q is neither a seat (1 to %d) nor a player's name.\n", w, s.seats)
			return
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) != s.seats-1 {
		if s.seats == 2 {
			s.printf("resign: name the one seat that resigns.\n")
		} else {
			example := make([]string, s.seats-1)
			for i := range example {
				example[i] = strconv.Itoa(i + 2)
			}
			s.printf("In a %d-player game a resignation ends the game only when %d seats resign together and the one left wins (like resign %s).\n"+
				"A player who leaves alone: play on for them, agree a draw (draw), or quit to keep the game unfinished (result *).\n",
				s.seats, s.seats-1, strings.Join(example, " "))
		}
		return
	}
	winner := 0
	for k := 1; k <= s.seats; k++ {
		if !slices.Contains(out, k) {
			winner = k
		}
	}
	slices.Sort(out)
	names := make([]string, len(out))
	for i, k := range out {
		names[i] = s.seatName(k)
	}
	verb := "resigns"
	if len(out) > 1 {
		verb = "resign"
	}
	s.end = &ending{termination: "resignation", winner: winner, note: joinAnd(names) + " " + verb}
	s.gameOver()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// findSeat reads a seat number or a player's name (any case).
func (s *Session) findSeat(w string) (int, bool) {
	if k, err := strconv.Atoi(w); err == nil {
		return k, k >= 1 && k <= s.seats
	}
	found := 0
	for k := 1; k <= s.seats; k++ {
		name := s.tagOr("Player"+strconv.Itoa(k), "")
		if name != "?" && name != "" && (strings.EqualFold(name, w) || strings.EqualFold(firstWord(name), w)) {
			if found != 0 {
				return 0, false // two players answer to it
			}
			found = k
		}
	}
	return found, found != 0
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// Finish writes the record and ends the session, saying where the record
// is. It does nothing when the session has ended already, and writes no
// file when the session was stopped before its file was chosen.
func (s *Session) Finish() {
	if s.done {
		return
	}
	s.done = true
	if !s.opened {
		s.printf("\nStopped before the first move: nothing written.\n")
		return
	}
	if err := s.save(); err != nil {
		return
	}
	rec := s.Record()
	state := "finished"
	if rec.Result == "*" {
		state = "unfinished (result *)"
	}
	s.printf("\nRecord of %s, %s, written to %s\n", plural(len(s.moves), "move"), state, s.path)
}

// Record returns the record so far: the tags, the moves with their
// comments, and the result (* while the game goes on).
func (s *Session) Record() *notation.Record {
	rec, err := notation.FromMoves(s.tags, s.start, s.moves)
	if err != nil {
		// Every move was played from the same start before: this cannot
		// happen.
		panic("tabletop: replaying the session's own moves: " + err.Error())
	}
	for i, m := range rec.Main.Moves {
		m.After = slices.Clone(s.notes[i])
	}
	if len(rec.Main.Moves) > 0 {
		rec.Main.Moves[0].Before = slices.Clone(s.before)
	} else {
		rec.Main.Comments = slices.Clone(s.before)
	}
	switch {
	case s.end != nil:
		rec.Result = notation.ResultString(rules.Outcome{Over: true, Winner: s.end.winner}, s.seats)
		rec.SetTag("Result", rec.Result)
		rec.SetTag("Termination", s.end.termination)
		if s.end.note != "" {
			if n := len(rec.Main.Moves); n > 0 {
				last := rec.Main.Moves[n-1]
				last.After = append(last.After, s.end.note)
			} else {
				rec.Main.Comments = append(rec.Main.Comments, s.end.note)
			}
		}
	case s.current().Outcome().Over:
		rec.SetTag("Termination", "normal")
	}
	return rec
}

// save writes the record so far to the session's file.
func (s *Session) save() error {
	if s.path == "" {
		return nil
	}
	err := s.cfg.Save(s.path, notation.AppendFormat(nil, s.Record()))
	if err != nil {
		s.printf("Could not write %s: %v\nThe game is kept here: type save to try again, or quit to stop.\n", s.path, err)
	}
	s.saved = err
	return err
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
