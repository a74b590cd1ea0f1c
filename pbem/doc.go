// Package pbem is play by email: it reads commands out of incoming mail,
// runs the game lifecycle (challenge, accept, move, resign, draw), writes
// the board mails, and keeps everything in SQLite so that a club can run it
// for years without losing a move.
//
// It is the game service, and only that: the Handler. One way for data to
// flow: the mail server (package daemon) fetches raw mail from a Mailbox
// and hands each to Handler.Handle, which in ONE transaction checks that
// the mail is new (its Message-ID is recorded in pbem_processed), changes
// the game, archives a finished game, and queues every reply in the
// outbox (outbox.Queue). Only after the commit is the mail filed away;
// the daemon's sender (package outbox) works the outbox with retries. A
// mail delivered twice, or seen again after a crash at any point, changes
// nothing and sends nothing twice. Around it, in packages of their own:
// the mails' layout (outmail), the reply tokens (replytoken), the tables
// (store), the queued jobs (jobqueue), a player's data for the operator
// (players).
//
// Who may act: a reply token sent to the From's address or a verified
// sender, never the From line alone, decided once in proof.go from the
// table of mail commands (docs/mail.md, "Who may act").
//
// Mail transport lives in pbem/mailbox, reading mail in pbem/mailread;
// this package holds no network code.
package pbem
