// Package pbem is play by email: it reads commands out of incoming mail,
// runs the game lifecycle (challenge, accept, move, resign, draw), writes
// the board mails, and keeps everything in SQLite so that a club can run it
// for years without losing a move.
//
// One way for data to flow: the Daemon fetches raw mail from a Mailbox and
// hands each to Server.Handle, which in ONE transaction checks that the
// mail is new (its Message-ID is recorded in pbem_processed), changes the
// game, archives a finished game, and queues every reply in pbem_outbox.
// Only after the commit is the mail filed away; the Daemon's sender works
// the outbox with retries. A mail delivered twice, or seen again after a
// crash at any point, changes nothing and sends nothing twice.
//
// Who may act: a reply token sent to the From's address or a verified
// sender, never the From line alone, decided once in proof.go from the
// table of mail commands (docs/mail.md, "Who may act").
//
// Mail transport lives in pbem/mailbox, reading mail in pbem/mailread;
// this package holds no network code.
package pbem
