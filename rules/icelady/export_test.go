package icelady

import "icepost/rules"

// FastParse is ParseMove's fast path alone: the move when the token is a
// well-formed legal move it decodes, else ok false.
func FastParse(p Position, tok string) (m rules.Move, ok bool) {
	m, ok = readToken(tok)
	return m, ok && p.isLegal(m)
}
