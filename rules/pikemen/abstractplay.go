package pikemen

import (
	"strings"

	"icepost/rules"
)

// AbstractPlay tells the APGameRecord format (package notation/aprecord)
// how Abstract Play plays Pikemen: two seats only, to 12 points or, in
// its variant "Longer Game: 15 points" (15pts), to 15, from the same
// start as icepost's two-seat game, its moves written h1(NW), g4-e6,
// g4-e6(U), h3xc8(S) (its gameslib's pikemen.ts, moves() and move()).
func (Rules) AbstractPlay() rules.APGame { return apGame }

var apGame = rules.APGame{
	Name:  "Pikemen",
	UID:   "pikemen",
	Seats: []int{2},
	Variants: []rules.APVariant{
		// "#eog" is how the site names the default of its variant group
		// "eog" (end of game); its records write the name.
		{UID: "#eog", Name: "Default end condition", Options: rules.Options{Target: DefaultTarget}, Default: true},
		{UID: "15pts", Name: "Longer Game: 15 points", Options: rules.Options{Target: 15}},
	},
	ParseMove:  parseAPMove,
	FormatMove: formatAPMove,
}

// parseAPMove reads Abstract Play's notation, in any case as its engine
// does: a square and an orientation in parentheses (h1(NW)) for a turn;
// two squares joined by "-" or "x" for a charge or a capture, with the
// orientation after it in parentheses when it changes (g4-e6(U)). A
// charge's suffix may repeat the piece's orientation, which the site's
// engine takes too. icepost's own spelling (h1:NW) is not the site's, and
// is refused here.
func parseAPMove(s rules.State, tok string) (rules.Move, error) {
	if !apShape(tok) {
		return rules.Move{}, rules.Syntax(tok, "not Abstract Play's notation of a Pikemen move: h1(NW) turns a piece, g4-e6 or g4-e6(U) charges, h3xc8 or h3xc8(S) captures")
	}
	return s.ParseMove(tok)
}

// apShape reports whether tok has the shape of one of the site's moves:
// a square, then "-" or "x" and a square, then "(" an orientation ")";
// the first part is needed, and at least one of the others.
func apShape(tok string) bool {
	if _, ok := parseSquare(tok); !ok {
		return false
	}
	rest, charge := tok[2:], false
	if len(rest) >= 3 && (rest[0] == '-' || rest[0]|0x20 == 'x') {
		if _, ok := parseSquare(rest[1:]); !ok {
			return false
		}
		rest, charge = rest[3:], true
	}
	if rest == "" {
		return charge
	}
	if len(rest) < 3 || rest[0] != '(' || rest[len(rest)-1] != ')' {
		return false
	}
	_, ok := orientationOf(rest[1 : len(rest)-1])
	return ok
}

// formatAPMove writes m as the site's engine lists it: h1(NW), g4-e6
// (the orientation kept), g4-e6(U), h3xc8, h3xc8(S). It is icepost's
// canonical token with the orientation in parentheses instead of after
// a colon: both leave out a charge's orientation when it is kept.
func formatAPMove(s rules.State, m rules.Move) string {
	tok := s.FormatMove(m)
	if head, o, ok := strings.Cut(tok, ":"); ok {
		return head + "(" + o + ")"
	}
	return tok
}
