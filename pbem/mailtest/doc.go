// Package mailtest holds mail servers for tests, each on loopback for one
// test: a throwaway Dovecot IMAP server (StartDovecot), so that
// integration tests check the IMAP reader against a real, widely deployed
// server and can deliver into it through the embedded SMTP server of
// package localmail (Config.Deliver); a submission server that takes
// logins, OAuth2 tokens and refusals as a test sets them (StartSMTP);
// and a private certificate authority no system trusts (NewCA).
//
// It imports package testing: only tests may import it. The mail system
// that `icepost serve` and `icepost demo` run is package localmail.
package mailtest
