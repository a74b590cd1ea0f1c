//go:build race

package pikemen_test

// The race detector slows the reference's brute force about tenfold; it
// checks no concurrency, so the race run confirms fewer puzzles.
const raceEnabled = true
