-- Records may now be stored in format 2 (record.go): the tags and the
-- main line's move numbers in move_tokens, instead of DEFLATE of the
-- text. An older icepost could not read them, so the schema version moves
-- on and such an icepost refuses the file; nothing is rewritten (stored
-- records keep their format).
CREATE TABLE IF NOT EXISTS archive_state (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
) WITHOUT ROWID;
