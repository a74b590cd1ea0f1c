//go:build !race

package rulestest

const raceEnabled = false
