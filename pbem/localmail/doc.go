// Package localmail is the mail system `icepost serve` runs when it has no
// configuration: an in-memory IMAP server (go-imap's imapmemserver) and an
// SMTP server (go-smtp) that delivers into it, both on loopback. It exists
// so that a newcomer can play by mail at once, with any mail client and no
// mail server of their own; so that `icepost demo` has somewhere to play;
// and so that tests run the daemon's real IMAP and SMTP client code
// against real servers rather than against fakes.
//
// The SMTP server is a submission server for the local accounts only: it
// takes mail from a logged-in account, with that account's own address as
// the envelope sender and as the message's one From (and Sender, if any),
// with no display name that reads as another address, for local
// addresses; it relays nothing (sender.go).
//
// Nothing here is for production mail: everything listens on 127.0.0.1,
// passwords travel in clear text over loopback, and the mailboxes live in
// memory and are gone when the process ends. It imports no test code, so
// that the shipped binary links none.
package localmail
