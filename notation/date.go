package notation

import (
	"strings"
	"time"
)

// The Date tag's format, in one place: YYYY.MM.DD, with '?' for a digit
// not known.

// DateLayout is the layout of the Date tag for time.Format.
const DateLayout = "2006.01.02"

// FormatDate writes t as a Date tag's value.
func FormatDate(t time.Time) string { return t.Format(DateLayout) }

// ParseDate reads a date as people type it, YYYY.MM.DD with '?' for
// unknown digits and '-' or '/' also taken between the parts, and returns
// it as the Date tag wants it, with dots.
func ParseDate(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if len(v) != 10 {
		return "", false
	}
	b := []byte(v)
	for i, c := range b {
		switch i {
		case 4, 7:
			if c != '.' && c != '-' && c != '/' {
				return "", false
			}
			b[i] = '.'
		default:
			if c != '?' && (c < '0' || c > '9') {
				return "", false
			}
		}
	}
	return string(b), true
}

// validDate checks a Date tag's value: YYYY.MM.DD, '?' allowed for any
// digit.
func validDate(v string) bool {
	d, ok := ParseDate(v)
	return ok && d == v
}
