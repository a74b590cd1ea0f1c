//go:build race

package solve

// The race detector slows the brute force about tenfold; the comparisons
// check no concurrency, so the race run compares as many positions as
// -short does.
const raceEnabled = true
