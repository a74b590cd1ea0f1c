// Package waitfor is how icepost's tests wait for something that happens
// elsewhere (in another goroutine, a child process, a mail server, a
// browser): they ask for the condition again and again until it holds or
// a deadline passes, and then fail saying what they waited for.
//
// It exists so that no test sleeps a fixed time and hopes that what it
// waits for is ready by then: such a sleep is too short on a loaded
// machine (the test fails by chance, as under -race in CI), too long
// everywhere else (the suite is slow), and when it is too short the
// failure names the wrong thing. A wait for a condition returns as soon
// as the condition holds and fails only after a deadline far beyond
// what the wait should take.
//
// It imports package testing, so only tests may import it: the shipped
// binary links no test code (cmd/icepost's TestBinaryLinksNoTestCode).
package waitfor

import (
	"testing"
	"time"
)

// Step is how long Until and Within sleep between two looks at the
// condition.
const Step = 10 * time.Millisecond

// Until asks cond every Step until it returns true. When timeout passes
// first, it fails the test with t.Fatalf, naming what it waited for
// ("the daemon to handle 3 mails"). Like t.Fatalf, it must be called
// from the goroutine that runs the test.
func Until(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	start := time.Now()
	if !Within(timeout, cond) {
		t.Fatalf("waited %v for %s: it did not happen", time.Since(start).Round(time.Millisecond), what)
	}
}

// Within asks cond every Step until it returns true, and reports whether
// it did before timeout passed; cond is asked at least once, and once
// more after the deadline. It is Until for a test that says more than
// Until can when the wait fails (the output so far, the state it saw).
func Within(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(Step)
	}
}
