//go:build !race

package icesickle_test

const raceEnabled = false
