// Package mailbox connects the play-by-email daemon to real mail servers:
// an IMAP inbox reader (imapclient) that re-scans by UID, waits with IDLE or
// polling and files processed mail away, a wrapper that reconnects with
// backoff, and an SMTP sender (go-smtp) whose errors say whether a retry
// can help.
//
// It exists so that the daemon holds no network code: the daemon sees
// messages as UIDs and raw bytes, and decides everything about their
// content. Nothing here knows about games.
//
// The daemon should declare the small interfaces it needs (a mailbox with
// Fetch, Done, Reject and Wait; a sender with Send); *Reader, *Inbox and
// *Sender satisfy them.
package mailbox
