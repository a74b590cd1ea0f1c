-- One mail a turn (docs/mail.md, "How many mails"). A mover's
-- confirmation that the bot's answer may replace is queued a few seconds
-- ahead with a key; the transaction that plays the bot's move deletes it
-- while it is unsent, and that board names both moves.
ALTER TABLE pbem_outbox ADD COLUMN supersede TEXT;
CREATE INDEX pbem_outbox_supersede ON pbem_outbox(supersede) WHERE supersede IS NOT NULL AND sent_at IS NULL;

-- A player may turn off the confirmation of their own moves (confirm off).
ALTER TABLE pbem_players ADD COLUMN confirm INTEGER NOT NULL DEFAULT 1;
