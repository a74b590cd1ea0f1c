package mailread

import (
	"strconv"
	"strings"
)

// Command grammar, matched one line at a time by hand (no regular
// expressions); words are case-insensitive:
//
//	move TOKEN | TOKEN           a move in one of the four games' syntaxes
//	board | history | resign | draw | games | help | accept | decline | undo
//	observe GAMEID
//	challenge GAME [name=value ...] ADDRESS ...
//	vacation DAYS | vacation off
//	digest on | digest off
//
// ParseCommand returns the canonical form: "move " plus the move token with
// square letters in lower case and sizes, orientations and "=K" in upper
// case; other commands as lower-case words followed by their arguments.

// Games are the game names a challenge may name, in canonical form.
var Games = []string{"icesickle", "pikemen", "icelady", "icefrogs"}

var simpleCommands = map[string]bool{
	"board": true, "history": true, "resign": true, "draw": true, "games": true,
	"help": true, "accept": true, "decline": true, "undo": true,
}

const (
	maxCommandLine = 1000 // longer lines are prose
	maxChallengees = 16
	maxOptions     = 16
)

// ParseCommand reads one line as a command. ok is false when the line is
// not a command (prose, a greeting, an unknown word).
func ParseCommand(line string) (cmd string, ok bool) {
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
		if m, ok := ParseMove(f[0]); ok {
			return "move " + m, true
		}
	case word == "move" && len(args) == 1:
		if m, ok := ParseMove(args[0]); ok {
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
		return parseChallenge(args)
	}
	return "", false
}

func parseChallenge(args []string) (string, bool) {
	game := strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(args[0]))
	known := false
	for _, g := range Games {
		known = known || g == game
	}
	if !known {
		return "", false
	}
	var opts, addrs []string
	for _, a := range args[1:] {
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

const maxMoveSquares = 16

// ParseMove reads a move token in any of the four games' syntaxes
// (NOTATION.md section 4) and returns it in canonical form. It checks the
// shape only; whether the move is legal is for the game to say.
//
//	IceSickle  L@c3  a1xd4  a1-d4
//	Pikemen    h1:NW  c6:U  g4-e6  g4-e6:U  h3xc8:S  h1(NW) -> h1:NW
//	Ice Lady   c3-d4  c3xe5xc7  e7-f8=K
//	IceFrogs   d2-d3  c3-e3-e5  M@a1-b1  pass
func ParseMove(tok string) (string, bool) {
	if strings.EqualFold(tok, "pass") {
		return "pass", true
	}
	var b strings.Builder
	i := 0
	entering := false
	if len(tok) >= 2 && tok[1] == '@' {
		switch tok[0] {
		case 'S', 'M', 'L', 's', 'm', 'l':
		default:
			return "", false
		}
		b.WriteByte(upper(tok[0]))
		b.WriteByte('@')
		i, entering = 2, true
	}
	n := 0
	for {
		j, ok := square(tok, i)
		if !ok {
			return "", false
		}
		b.WriteString(strings.ToLower(tok[i:j]))
		i = j
		n++
		if n > maxMoveSquares {
			return "", false
		}
		if i+1 < len(tok) && (tok[i] == '-' || tok[i] == 'x' || tok[i] == 'X') && isAlpha(tok[i+1]) {
			if entering && tok[i] != '-' {
				return "", false
			}
			b.WriteByte(lower(tok[i]))
			i++
			continue
		}
		break
	}
	if i == len(tok) {
		// A single square is a move only when something is placed on it.
		return b.String(), n >= 2 || entering
	}
	if entering {
		return "", false
	}
	rest := tok[i:]
	switch {
	case rest == "=K" || rest == "=k":
		if n < 2 {
			return "", false
		}
		b.WriteString("=K")
	case rest[0] == ':' && n <= 2:
		o, ok := orientation(rest[1:])
		if !ok {
			return "", false
		}
		b.WriteString(":" + o)
	case rest[0] == '(' && rest[len(rest)-1] == ')' && n <= 2:
		o, ok := orientation(rest[1 : len(rest)-1])
		if !ok {
			return "", false
		}
		b.WriteString(":" + o)
	default:
		return "", false
	}
	return b.String(), true
}

// square reads a square (a letter and a number 1-99) at tok[i:].
func square(tok string, i int) (end int, ok bool) {
	if i >= len(tok) || !isAlpha(tok[i]) {
		return 0, false
	}
	j := i + 1
	for j < len(tok) && isDigit(tok[j]) && j-i <= 2 {
		j++
	}
	if j == i+1 || tok[i+1] == '0' {
		return 0, false
	}
	return j, true
}

func orientation(s string) (string, bool) {
	switch u := strings.ToUpper(s); u {
	case "N", "NE", "E", "SE", "S", "SW", "W", "NW", "U":
		return u, true
	}
	return "", false
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

// commandsAndComment splits the author's own lines into the command lines
// at the top (blank lines between them allowed) and the comment after them.
func commandsAndComment(lines []string) (cmds []string, comment string) {
	i := 0
	for ; i < len(lines) && len(cmds) < MaxCommands; i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" {
			continue
		}
		c, ok := ParseCommand(l)
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
