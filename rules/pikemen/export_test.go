package pikemen

// The reference implementation (ref_test.go) for the package's external
// tests (puzzle_ref_test.go), which import package puzzle and so cannot
// live inside the package: the reference itself stays unexported. Its
// methods here are puzzletest.Position's.

// RefPosition is the reference's position.
type RefPosition = refPos

// RefFrom is refFrom: the reference's position read from p.
func RefFrom(p Position) *RefPosition { return refFrom(p) }

// Moves returns the reference's legal moves as sorted tokens.
func (rp *refPos) Moves() []string { return rp.moves() }

// After returns the position after the move tok, one of Moves.
func (rp *refPos) After(tok string) *RefPosition { return rp.play(tok) }

// ToMove is the seat to move, 0 once the game is over.
func (rp *refPos) ToMove() int { return rp.toMove }

// Winner is the winner of a game over, 0 for a draw.
func (rp *refPos) Winner() int { return rp.winner() }
