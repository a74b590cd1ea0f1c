// Package mailtest runs mail servers for the play-by-email daemon when no
// real ones are configured: an embedded mail system on loopback (an
// in-memory IMAP server and an SMTP server that delivers into it), used by
// `icepost serve` with no configuration, by `icepost demo` and by tests;
// and a Dovecot harness that integration tests use to check the IMAP
// reader against a real, widely deployed server.
//
// Nothing here is for production mail: everything listens on 127.0.0.1,
// passwords travel in clear text over loopback, and the embedded mailboxes
// live in memory and are gone when the process ends.
package mailtest
