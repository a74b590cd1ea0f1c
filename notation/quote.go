package notation

import (
	"strconv"
	"unicode/utf8"
)

// MaxQuote is the most characters of the input that an error message
// quotes: a token of ten megabytes is named by its first 80 characters
// and "…", so that an error line stays a line.
const MaxQuote = 80

// maxReason bounds a reason given by another package (a game's word on a
// move, a position or an option), which may quote the input itself.
const maxReason = 240

// Cut returns s cut to at most n characters, ending with "…" when it was
// longer. A byte that is not UTF-8 counts as one character.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s // n bytes are at most n characters
	}
	count := 0
	for i := 0; i < len(s); {
		if count == n {
			return s[:i] + "…"
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		count++
	}
	return s
}

// quote is %q of the input, cut to MaxQuote characters.
func quote(s string) string { return strconv.Quote(Cut(s, MaxQuote)) }

// cutToken is a token or a tag name shown as it is (not quoted), cut to
// MaxQuote characters.
func cutToken(s string) string { return Cut(s, MaxQuote) }

// cutReason is another package's message, cut to maxReason characters.
func cutReason(s string) string { return Cut(s, maxReason) }
