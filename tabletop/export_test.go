package tabletop

// WorstMove is worstMove, for the tests of package tabletop_test.
var WorstMove = worstMove

// Moves returns the moves played so far as canonical tokens.
func (s *Session) Moves() []string { return s.played() }
