package mailbox

// LogIdling is the Debug line an Inbox logs when the server has taken an
// IDLE: the tests wait for it before they deliver a mail that should
// wake a Wait, or stop the server under one.
const LogIdling = logIdling
