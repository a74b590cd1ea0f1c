-- What each play link sent, refused or not, for its limit of commands an
-- hour (docs/web.md, "Play from a board mail's link"): one row a command,
-- by the game and seat the link names (a link has one spelling, so one
-- seat is one link). Rows older than an hour are deleted as new ones come.
CREATE TABLE pbem_web_commands (
	game_id INTEGER NOT NULL,
	seat    INTEGER NOT NULL,
	at      INTEGER NOT NULL -- Unix seconds
);
CREATE INDEX pbem_web_commands_by_seat ON pbem_web_commands (game_id, seat, at);
CREATE INDEX pbem_web_commands_by_time ON pbem_web_commands (at);
