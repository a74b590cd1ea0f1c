//go:build !race

package icelady_test

const raceEnabled = false
