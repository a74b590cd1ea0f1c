-- The kinds of game stored (game and options, usual start or not), which
-- a search by opening moves lists first: a small covering index instead
-- of a scan of every game.
CREATE INDEX games_kind ON games(game, seats, board, target, setup);
