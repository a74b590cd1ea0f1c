package mailread

import (
	"strconv"
	"strings"
)

// Command grammar, matched one line at a time by hand (no regular
// expressions); words are case-insensitive:
//
//	move TOKEN | TOKEN           a move, in the syntax of any game the Grammar knows
//	board | history | resign | draw | games | help | accept | decline | undo
//	observe GAMEID
//	challenge GAME [name=value ...] SEAT ...   each SEAT an address or the word bot
//	vacation DAYS | vacation off
//	digest on | digest off
//	if TOKEN then TOKEN [if TOKEN then TOKEN]...   conditional moves: if they play A, I play B
//	conditions clear
//	preview TOKEN...             the board after these moves, not played
//
// ParseCommand returns the canonical form: "move " plus the move token with
// square letters in lower case and sizes, orientations and "=K" in upper
// case; other commands as lower-case words followed by their arguments.

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

var simpleCommands = map[string]bool{
	"board": true, "history": true, "resign": true, "draw": true, "games": true,
	"help": true, "accept": true, "decline": true, "undo": true,
}

const (
	maxCommandLine = 1000 // longer lines are prose
	maxChallengees = 16
	maxOptions     = 16
)

// ParseCommand reads one line as a command, with g for the games' words.
// ok is false when the line is not a command (prose, a greeting, an
// unknown word).
func ParseCommand(line string, g Grammar) (cmd string, ok bool) {
	line = strings.TrimSpace(line)
	if len(line) > maxCommandLine {
		return "", false
	}
	// One full stop at the end is forgiven ("resign.", "c3xe5.").
	line = strings.TrimSuffix(line, ".")
	f := strings.Fields(line)
	if len(f) == 0 {
		return "", false
	}
	word := strings.ToLower(f[0])
	args := f[1:]
	switch {
	case len(args) == 0 && simpleCommands[word]:
		return word, true
	case len(args) == 0:
		if m, ok := g.Move(f[0]); ok {
			return "move " + m, true
		}
	case word == "move" && len(args) == 1:
		if m, ok := g.Move(args[0]); ok {
			return "move " + m, true
		}
	case word == "observe" && len(args) == 1:
		if isGameID(args[0]) {
			return "observe " + args[0], true
		}
	case word == "vacation" && len(args) == 1:
		a := strings.ToLower(args[0])
		if a == "off" {
			return "vacation off", true
		}
		if len(a) <= 3 && allDigits(a) {
			n, _ := strconv.Atoi(a)
			return "vacation " + strconv.Itoa(n), true
		}
	case word == "digest" && len(args) == 1:
		if a := strings.ToLower(args[0]); a == "on" || a == "off" {
			return "digest " + a, true
		}
	case word == "challenge" && len(args) >= 2:
		return parseChallenge(args, g)
	case word == "if":
		return parseConditional(f, g)
	case word == "conditions" && len(args) == 1 && strings.EqualFold(args[0], "clear"):
		return "conditions clear", true
	case word == "preview" && len(args) <= MaxChain:
		out := []string{"preview"}
		for _, a := range args {
			m, ok := g.Move(a)
			if !ok {
				return "", false
			}
			out = append(out, m)
		}
		return strings.Join(out, " "), true
	}
	return "", false
}

// MaxChain bounds the moves of one conditional line or preview.
const MaxChain = 20

// parseConditional reads "if A then B [if C then D]...": words f, each
// A, B, ... a move token.
func parseConditional(f []string, g Grammar) (string, bool) {
	if len(f)%4 != 0 || len(f)/2 > MaxChain {
		return "", false
	}
	out := make([]string, 0, len(f))
	for i := 0; i < len(f); i += 4 {
		if !strings.EqualFold(f[i], "if") || !strings.EqualFold(f[i+2], "then") {
			return "", false
		}
		a, ok1 := g.Move(f[i+1])
		b, ok2 := g.Move(f[i+3])
		if !ok1 || !ok2 {
			return "", false
		}
		out = append(out, "if", a, "then", b)
	}
	return strings.Join(out, " "), true
}

func parseChallenge(args []string, g Grammar) (string, bool) {
	name, known := g.Game(args[0])
	if !known {
		return "", false
	}
	game := strings.ToLower(name)
	var opts, addrs []string
	for _, a := range args[1:] {
		if strings.EqualFold(a, "bot") {
			// A seat the server plays (its level is the option level=N).
			if len(addrs) == maxChallengees {
				return "", false
			}
			addrs = append(addrs, "bot")
			continue
		}
		if eq := strings.IndexByte(a, '='); eq > 0 && !strings.Contains(a, "@") {
			name, val := strings.ToLower(a[:eq]), a[eq+1:]
			if !isWord(name) || !isWord(val) || len(opts) == maxOptions {
				return "", false
			}
			opts = append(opts, name+"="+val)
			continue
		}
		for _, p := range strings.Split(a, ",") {
			p = strings.Trim(p, "<>;")
			if p == "" {
				continue
			}
			if !isAddress(p) || len(addrs) == maxChallengees {
				return "", false
			}
			addrs = append(addrs, p)
		}
	}
	if len(addrs) == 0 {
		return "", false
	}
	return strings.Join(append(append([]string{"challenge", game}, opts...), addrs...), " "), true
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

func isGameID(s string) bool { return isWord(s) }

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
func commandsAndComment(lines []string, g Grammar) (cmds []string, comment string) {
	i := 0
	for ; i < len(lines) && len(cmds) < MaxCommands; i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		c, ok := ParseCommand(l, g)
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
