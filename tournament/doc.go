// Package tournament is the logic of events: round robins (in seeded
// sections, with a final of the section winners), Swiss, knockout and a
// ladder, for any two-seat game, and round robins at tables of three or
// four. It decides who plays whom, in which seat and when, and who
// stands where with which tie-breaks; it exists apart so that this logic
// is pure and tested on its own, as Lichess keeps its Swiss pairing away
// from storage and play.
//
// It knows no mail, SQL, web or clock. A Tournament is one plain value
// that marshals to JSON: the game service keeps it in a table, calls
// Pair to learn which games to start, starts them, and calls Record as
// each ends; Standings, Bracket and the games give the web a crosstable,
// the pairings by round, a bracket or a list. Players are opaque strings
// (an address, or "bot:3"); times come in as arguments. The rules chosen
// (the weight of a Swiss pairing, the seats at tables of three or four,
// the tie-breaks, withdrawals) are in docs/tournaments.md.
package tournament
