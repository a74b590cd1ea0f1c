//go:build race

package icesickle_test

// The race detector slows the reference's brute force about tenfold; it
// checks no concurrency, so the race run compares fewer games and
// confirms fewer puzzles.
const raceEnabled = true
