-- The answers that no command asked for are limited per address and
-- hour by kind (docs/mail.md, "Mail hygiene"): refusals and apologies
-- ("error"), the boards and confirmations the documented flows send
-- ("flow", a looser limit), and the one notice that the limit is reached
-- ("notice"). Rows before this migration were all refusals.
ALTER TABLE pbem_error_replies ADD COLUMN kind TEXT NOT NULL DEFAULT 'error';
