// Package mailtest is the Dovecot harness for tests: it starts a
// throwaway Dovecot IMAP server on loopback for one test, so that
// integration tests check the IMAP reader against a real, widely deployed
// server, and can deliver into it through the embedded SMTP server of
// package localmail (Config.Deliver).
//
// It imports package testing: only tests may import it. The mail system
// that `icepost serve` and `icepost demo` run is package localmail.
package mailtest
