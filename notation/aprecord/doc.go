// Package aprecord reads and writes APGameRecord, the JSON that Abstract
// Play (play.abstractplay.com) keeps its finished games in (the schema
// gamerecord.json of its recranks, which its rating tools read; its
// gameslib's genRecord writes them): a header (the game and its variants,
// the site and the game's id there, dates, the players with their results
// and scores, event and round) and the moves, in rounds of one move a
// seat, in the site's own notation of each game.
//
// It exists so that a game played there can come into icepost (the
// archive, validate, fmt, analyze and the web site take the format as
// they take icepost's records) and a game played with icepost can go to
// the tools that read the site's records, without icepost's own record
// format learning a second syntax. Parse turns one record into icepost's
// record, replaying the site's moves against icepost's rules; Marshal
// writes icepost's record as one; Splitter and Stream read a file of them
// a record at a time; PageURL links a game back to its page on the site.
//
// The package knows no game: a game that the site plays too says so in
// its own folder (rules.AbstractPlay: its name there, its seat counts and
// variants, and how its moves are written), and the others are refused
// by name. docs/notation.md, "Abstract Play's records", has the mapping
// and its limits.
package aprecord
