package mailread

import (
	"slices"
	"strconv"
	"strings"
)

// The command grammar is the caller's: pbem's table of mail commands says
// each verb's words and what follows them (a Syntax), and this file reads
// a line against that list, by hand (no regular expressions); words are
// case-insensitive. The shapes of what may follow a verb:
//
//	NoArgs        board, resign, conditions clear, ...
//	OneMove       move TOKEN; with Bare, the TOKEN alone on its line too
//	Moves         preview TOKEN...
//	GameNumber    observe 12 (or #12)
//	DaysOrOff     vacation 7 | vacation off
//	OnOff         digest on | digest off
//	Conditions    if TOKEN then TOKEN [if TOKEN then TOKEN]...
//	Challenge     challenge GAME [name=value ...] SEAT ...  (a SEAT an address or the word bot)
//	Seek          seek GAME [name=value ...]
//	TwoNumbers    climb 3 2 (or #3 2)
//	OptionalCell  moves | moves e1
//	OptionalGame  analyze | analyze 12 (or #12)
//
// A move token is whatever the Grammar says is a move of some game, in
// its canonical spelling: square letters in lower case, sizes,
// orientations and "=K" in upper case.

// Grammar tells the reader the words of the games: which words name a
// game and which tokens are moves. The caller gives it (pbem takes it from
// the list of games, rules/games), so that this package knows no game and
// a new game is understood in mail as soon as it is registered.
type Grammar interface {
	// Game returns the canonical name of the game a word names.
	Game(word string) (name string, ok bool)
	// Move returns the canonical spelling of a move token, ok false when
	// the text is not a move of any game (prose).
	Move(tok string) (canonical string, ok bool)
}

// Language is all the reader knows of what players write: the games'
// words and the commands.
type Language struct {
	Games Grammar
	Verbs []Syntax
}

// Arg is the shape of what follows a command's words.
type Arg int

const (
	NoArgs       Arg = iota // nothing
	OneMove                 // one move token
	Moves                   // 1 to MaxChain move tokens
	GameNumber              // a game's number, "12" or "#12"
	DaysOrOff               // a number of days (1 to 3 digits), or "off"
	OnOff                   // "on" or "off"
	Conditions              // "THEIRS then MINE [if THEIRS then MINE]..." after the verb "if"
	Challenge               // GAME [name=value ...] SEAT ...
	OptionalCell            // nothing, or a cell's name: e1, c10
	OptionalGame            // nothing, or a game's number as GameNumber reads it
	Seek                    // GAME [name=value ...]
	TwoNumbers              // two numbers: a game's or a tournament's as GameNumber reads it, then a small one
	Organize                // GAME FORMAT [name=value ...] NAME: a tournament (Format, Name)
)

// Syntax is one command as the reader knows it.
type Syntax struct {
	// Verb is the command's words, lower case, separated by one space:
	// "resign", "conditions clear". A line is that command when it starts
	// with these words (in any case) and what follows has the shape Arg.
	Verb string
	Arg  Arg
	// Bare: a line that is only the argument is this command too (a move
	// token alone is a move).
	Bare bool
}

// Command is one command line, read: its verb (a Syntax's) and its
// arguments in canonical form; only the fields of its Arg are set.
type Command struct {
	Verb string
	Arg  Arg
	// Moves: the move (OneMove), the moves (Moves), or the conditions'
	// tokens in pairs, THEIRS then MINE (Conditions).
	Moves []string
	// Number: the game (GameNumber, OptionalGame: 0 for none) or the
	// days (DaysOrOff, when not Off).
	Number int64
	// Number2: the second number (TwoNumbers).
	Number2 int64
	// Off: "off" was given (DaysOrOff, OnOff).
	Off bool
	// Game, Options and Seats: a challenge's or a seek's game (its
	// canonical name in lower case), its name=value options (names in
	// lower case) and a challenge's seats in order, each an address or
	// "bot".
	Game    string
	Options []Option
	Seats   []string
	// Cell: the cell named (OptionalCell), lower case; "" for none.
	Cell string
	// Format and Name: a tournament's (Organize): its format, lower
	// case, and its name, its words joined by one space.
	Format, Name string
}

// Option is a challenge's name=value.
type Option struct{ Name, Value string }

// String is the command's canonical line: reading it again gives the same
// Command.
func (c Command) String() string {
	out := []string{c.Verb}
	switch c.Arg {
	case OneMove, Moves:
		out = append(out, c.Moves...)
	case GameNumber:
		out = append(out, strconv.FormatInt(c.Number, 10))
	case TwoNumbers:
		out = append(out, strconv.FormatInt(c.Number, 10), strconv.FormatInt(c.Number2, 10))
	case OptionalGame:
		if c.Number > 0 {
			out = append(out, strconv.FormatInt(c.Number, 10))
		}
	case DaysOrOff:
		if c.Off {
			out = append(out, "off")
		} else {
			out = append(out, strconv.FormatInt(c.Number, 10))
		}
	case OnOff:
		out = append(out, onOff(c.Off))
	case Conditions:
		for i := 0; i+1 < len(c.Moves); i += 2 {
			if i > 0 {
				out = append(out, "if")
			}
			out = append(out, c.Moves[i], "then", c.Moves[i+1])
		}
	case OptionalCell:
		if c.Cell != "" {
			out = append(out, c.Cell)
		}
	case Challenge, Seek:
		out = append(out, c.Game)
		for _, o := range c.Options {
			out = append(out, o.Name+"="+o.Value)
		}
		out = append(out, c.Seats...)
	case Organize:
		out = append(out, c.Game, c.Format)
		for _, o := range c.Options {
			out = append(out, o.Name+"="+o.Value)
		}
		out = append(out, c.Name)
	}
	return strings.Join(out, " ")
}

func onOff(off bool) string {
	if off {
		return "off"
	}
	return "on"
}

const (
	maxCommandLine = 1000 // longer lines are prose
	maxChallengees = 16
	maxOptions     = 16
)

// ParseCommand reads one line as a command of lang. ok is false when the
// line is not a command (prose, a greeting, an unknown word).
func ParseCommand(line string, lang Language) (cmd Command, ok bool) {
	line = strings.TrimSpace(line)
	if len(line) > maxCommandLine {
		return Command{}, false
	}
	// One full stop at the end is forgiven ("resign.", "c3xe5.").
	line = strings.TrimSuffix(line, ".")
	f := strings.Fields(line)
	if len(f) == 0 {
		return Command{}, false
	}
	for _, s := range lang.Verbs {
		words := strings.Fields(s.Verb)
		if len(f) < len(words) || !equalWords(f[:len(words)], words) {
			continue
		}
		if c, ok := parseArgs(s, f[len(words):], lang.Games); ok {
			return c, true
		}
	}
	for _, s := range lang.Verbs {
		if s.Bare {
			if c, ok := parseArgs(s, f, lang.Games); ok {
				return c, true
			}
		}
	}
	return Command{}, false
}

func equalWords(f, words []string) bool {
	for i, w := range words {
		if !strings.EqualFold(f[i], w) {
			return false
		}
	}
	return true
}

// parseArgs reads what follows a verb's words as the shape s.Arg.
func parseArgs(s Syntax, args []string, g Grammar) (Command, bool) {
	c := Command{Verb: s.Verb, Arg: s.Arg}
	switch s.Arg {
	case NoArgs:
		return c, len(args) == 0
	case OneMove:
		if len(args) != 1 {
			return c, false
		}
		m, ok := g.Move(args[0])
		c.Moves = []string{m}
		return c, ok
	case Moves:
		if len(args) == 0 || len(args) > MaxChain {
			return c, false
		}
		for _, a := range args {
			m, ok := g.Move(a)
			if !ok {
				return c, false
			}
			c.Moves = append(c.Moves, m)
		}
		return c, true
	case GameNumber:
		if len(args) != 1 {
			return c, false
		}
		c.Number = gameNumber(args[0])
		return c, c.Number > 0
	case TwoNumbers:
		if len(args) != 2 || len(args[1]) > 3 || !allDigits(args[1]) {
			return c, false
		}
		c.Number = gameNumber(args[0])
		c.Number2, _ = strconv.ParseInt(args[1], 10, 64)
		return c, c.Number > 0 && c.Number2 > 0
	case OptionalGame:
		if len(args) == 0 {
			return c, true
		}
		c.Number = gameNumber(args[0])
		return c, len(args) == 1 && c.Number > 0
	case DaysOrOff:
		if len(args) != 1 {
			return c, false
		}
		a := strings.ToLower(args[0])
		if a == "off" {
			c.Off = true
			return c, true
		}
		if len(a) > 3 || !allDigits(a) {
			return c, false
		}
		c.Number, _ = strconv.ParseInt(a, 10, 64)
		return c, true
	case OnOff:
		if len(args) != 1 {
			return c, false
		}
		a := strings.ToLower(args[0])
		c.Off = a == "off"
		return c, a == "on" || a == "off"
	case Conditions:
		moves, ok := parseConditional(args, g)
		c.Moves = moves
		return c, ok
	case Challenge:
		return parseChallenge(c, args, g)
	case Seek:
		return parseSeek(c, args, g)
	case Organize:
		return parseOrganize(c, args, g)
	case OptionalCell:
		if len(args) == 0 {
			return c, true
		}
		c.Cell = strings.ToLower(args[0])
		return c, len(args) == 1 && isCell(c.Cell)
	}
	return c, false
}

// gameNumber reads a game's number, "12" or "#12"; 0 when a is none.
func gameNumber(a string) int64 {
	a = strings.TrimPrefix(a, "#")
	if len(a) > 15 || !allDigits(a) {
		return 0
	}
	n, _ := strconv.ParseInt(a, 10, 64)
	return n
}

// MaxChain bounds the moves of one conditional line or preview.
const MaxChain = 20

// parseConditional reads "A then B [if C then D]...", the words after
// the first "if", each A, B, ... a move token.
func parseConditional(args []string, g Grammar) ([]string, bool) {
	f := append([]string{"if"}, args...)
	if len(f)%4 != 0 || len(f)/2 > MaxChain {
		return nil, false
	}
	out := make([]string, 0, len(f)/2)
	for i := 0; i < len(f); i += 4 {
		if !strings.EqualFold(f[i], "if") || !strings.EqualFold(f[i+2], "then") {
			return nil, false
		}
		a, ok1 := g.Move(f[i+1])
		b, ok2 := g.Move(f[i+3])
		if !ok1 || !ok2 {
			return nil, false
		}
		out = append(out, a, b)
	}
	return out, true
}

func parseChallenge(c Command, args []string, g Grammar) (Command, bool) {
	if len(args) < 2 {
		return c, false
	}
	name, known := g.Game(args[0])
	if !known {
		return c, false
	}
	c.Game = strings.ToLower(name)
	for _, a := range args[1:] {
		if strings.EqualFold(a, "bot") {
			// A seat the server plays (its level is the option level=N).
			if len(c.Seats) == maxChallengees {
				return c, false
			}
			c.Seats = append(c.Seats, "bot")
			continue
		}
		if eq := strings.IndexByte(a, '='); eq > 0 && !strings.Contains(a, "@") {
			name, val := strings.ToLower(a[:eq]), a[eq+1:]
			if !isWord(name) || !isWord(val) || len(c.Options) == maxOptions {
				return c, false
			}
			c.Options = append(c.Options, Option{name, val})
			continue
		}
		for _, p := range strings.Split(a, ",") {
			p = strings.Trim(p, "<>;")
			if p == "" {
				continue
			}
			if !isAddress(p) || len(c.Seats) == maxChallengees {
				return c, false
			}
			c.Seats = append(c.Seats, p)
		}
	}
	return c, len(c.Seats) > 0
}

// parseSeek reads GAME [name=value ...]: a challenge without seats.
func parseSeek(c Command, args []string, g Grammar) (Command, bool) {
	if len(args) < 1 {
		return c, false
	}
	name, known := g.Game(args[0])
	if !known {
		return c, false
	}
	c.Game = strings.ToLower(name)
	for _, a := range args[1:] {
		eq := strings.IndexByte(a, '=')
		if eq <= 0 {
			return c, false
		}
		name, val := strings.ToLower(a[:eq]), a[eq+1:]
		if !isWord(name) || !isWord(val) || len(c.Options) == maxOptions {
			return c, false
		}
		c.Options = append(c.Options, Option{name, val})
	}
	return c, true
}

// The formats a tournament may have, as Organize reads them.
var formats = []string{"roundrobin", "swiss", "knockout", "ladder"}

// maxNameLen bounds a tournament's name: it goes into subjects and the
// records' Event tag.
const maxNameLen = 60

// parseOrganize reads "GAME FORMAT [name=value ...] NAME": the game as
// the grammar knows it, a format, settings and the game's options, then
// the tournament's name, words of letters, digits and ". _ - ' &".
func parseOrganize(c Command, args []string, g Grammar) (Command, bool) {
	if len(args) < 3 {
		return c, false
	}
	name, known := g.Game(args[0])
	if !known {
		return c, false
	}
	c.Game = strings.ToLower(name)
	c.Format = strings.ReplaceAll(strings.ToLower(args[1]), "-", "")
	if !slices.Contains(formats, c.Format) {
		return c, false
	}
	rest := args[2:]
	for len(rest) > 0 {
		eq := strings.IndexByte(rest[0], '=')
		if eq <= 0 {
			break
		}
		k, v := strings.ToLower(rest[0][:eq]), rest[0][eq+1:]
		if !isWord(k) || !isWord(v) || len(c.Options) == maxOptions {
			return c, false
		}
		c.Options = append(c.Options, Option{k, v})
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return c, false
	}
	for _, w := range rest {
		for i := 0; i < len(w); i++ {
			if ch := w[i]; !isAlnum(ch) && !strings.ContainsRune(".-_'&", rune(ch)) {
				return c, false
			}
		}
	}
	c.Name = strings.Join(rest, " ")
	return c, len(c.Name) <= maxNameLen
}

// isWord: an option name or value, or a game id: letters, digits, ". _ -".
func isWord(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// isAddress is a plausibility check, not RFC 5322: local@domain with no
// blanks, brackets or quotes, and a dot-free domain allowed (localhost).
func isAddress(s string) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 || len(s) > 254 || strings.Count(s, "@") != 1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7F || strings.IndexByte(`"(),:;<>[\]`, c) >= 0 {
			return false
		}
	}
	return true
}

// isCell: a cell's name, one or two letters and one or two digits
// (e1, c10).
func isCell(s string) bool {
	i := 0
	for i < len(s) && i < 2 && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	return i > 0 && len(s)-i >= 1 && len(s)-i <= 2 && allDigits(s[i:])
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

// commandsAndComment splits the author's own lines into the command lines
// at the top (blank lines between them allowed) and the comment after them.
func commandsAndComment(lines []string, lang Language) (cmds []Command, comment string) {
	i := 0
	for ; i < len(lines) && len(cmds) < MaxCommands; i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		c, ok := ParseCommand(l, lang)
		if !ok {
			break
		}
		cmds = append(cmds, c)
	}
	if len(cmds) == 0 {
		return nil, ""
	}
	return cmds, joinComment(lines[i:])
}

// joinComment joins lines into a comment: trimmed, with runs of blank lines
// made one, and bounded in size.
func joinComment(lines []string) string {
	var out []string
	blank := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	s := strings.Join(out, "\n")
	if len(s) > maxComment {
		s = strings.ToValidUTF8(s[:maxComment], "")
	}
	return s
}
