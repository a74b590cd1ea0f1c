package notation

import "strings"

// SplitPlayer splits a Player tag's value, "Name <address>", into the
// name and the address; a value that does not end in an address in angle
// brackets is all name. The address is found from the end, outside
// quotes, so that a quoted local part holding '<' or '>'
// ("\"<b>\"@club.test") stays whole and none of it is taken for the name.
func SplitPlayer(v string) (name, addr string) {
	v = strings.TrimSpace(v)
	if !strings.HasSuffix(v, ">") {
		return v, ""
	}
	inQuote := false
	for i := len(v) - 2; i >= 0; i-- {
		switch c := v[i]; {
		case c == '"' && (i == 0 || v[i-1] != '\\'):
			inQuote = !inQuote
		case c == '<' && !inQuote:
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1 : len(v)-1])
		}
	}
	return v, ""
}
