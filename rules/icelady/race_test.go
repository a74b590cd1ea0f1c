//go:build race

package icelady_test

// The race detector slows the reference comparisons tenfold; they check
// move generation, which has no concurrency, so they run smaller under it.
const raceEnabled = true
