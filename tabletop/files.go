package tabletop

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// DefaultName is the file name a record gets when none is given: the game,
// the date and the players' names, lower case, joined by '-', like
// icesickle-2026.11.22-ada-bob.txt. Unknown players ("?") and unknown
// dates are left out; an address after a name is dropped.
func DefaultName(game, date string, players []string) string {
	parts := []string{slug(game)}
	if d := strings.Trim(date, "?."); d != "" && !strings.Contains(date, "?") {
		parts = append(parts, date)
	}
	for _, p := range players {
		if i := strings.IndexByte(p, '<'); i >= 0 {
			p = p[:i]
		}
		if s := slug(p); s != "" {
			if len(s) > 24 {
				s = strings.TrimRight(s[:24], "-")
			}
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "-") + ".txt"
}

// slug keeps letters and digits, lower case, and turns every other run of
// characters into one '-'.
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// FreeName returns the first of path-1, path-2, ... (the number before the
// extension) that names no file.
func FreeName(path string) string {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	for i := 1; ; i++ {
		p := base + "-" + strconv.Itoa(i) + ext
		if _, err := os.Lstat(p); err != nil {
			return p
		}
	}
}

// Lines reads lines from r for a session; it writes prompts to w when w
// is not nil. It is the reader for pipes and for terminals without line
// editing.
func Lines(r io.Reader, w io.Writer) LineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	return &lines{sc: sc, w: w}
}

type lines struct {
	sc *bufio.Scanner
	w  io.Writer
}

func (l *lines) ReadLine(prompt string) (string, error) {
	if l.w != nil && prompt != "" {
		io.WriteString(l.w, prompt)
	}
	if !l.sc.Scan() {
		if err := l.sc.Err(); err != nil {
			return "", err
		}
		return "", io.EOF
	}
	return strings.TrimSuffix(l.sc.Text(), "\r"), nil
}
