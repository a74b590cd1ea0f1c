//go:build !race

package icefrogs_test

const raceEnabled = false
