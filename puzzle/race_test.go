//go:build race

package puzzle

// The race detector slows the solver about tenfold; the puzzles it finds
// in random games check no concurrency, so the race run finds them in
// one game of each kind, as -short does, not three.
const raceEnabled = true
