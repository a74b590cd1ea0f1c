//go:build race

package rulestest

// raceEnabled: the race detector slows the playouts about tenfold, so the
// suite plays fewer of them (the properties are the same).
const raceEnabled = true
