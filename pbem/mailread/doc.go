// Package mailread reads what the play-by-email daemon needs out of one
// incoming mail: who sent it and to which address, the ids and subject that
// carry the game's reply token, whether it is automatic mail that must never
// be answered (auto-replies, bounces, mailing lists, icepost's own mails),
// and the commands the player typed with the comment after them.
//
// The body is taken from the text/plain part, or made from the HTML part
// when there is none; transfer encodings, charsets and format=flowed are
// decoded, and quoted text, attribution lines and signatures are cut away so
// that the player's own text remains, whether written above the quote or
// below it. The commands are the lines at the top of that text that match
// the command grammar (see ParseCommand); if there are none, the subject is
// tried.
//
// The package is pure: no network, no database, no globals that change. It
// bounds what it reads and never panics on hostile input.
package mailread
