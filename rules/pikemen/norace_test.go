//go:build !race

package pikemen_test

const raceEnabled = false
