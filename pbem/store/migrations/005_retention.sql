-- Retention (docs/mail.md, "Retention and a player's data"): the body of
-- a mail sent longer ago than keep_sent is emptied, and its row (to whom,
-- when) stays. This index holds the sent mails whose body is still kept,
-- so that the daemon's periodic pruning finds them without reading every
-- body (the message column comes before the others in each row).
CREATE INDEX pbem_outbox_kept ON pbem_outbox(sent_at) WHERE sent_at IS NOT NULL AND length(message) > 0;
