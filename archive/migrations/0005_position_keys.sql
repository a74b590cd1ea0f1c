-- The position index is keyed by a hash of each position's key
-- (rules.AppendKey: the fields its code is written from, as bytes)
-- instead of a hash of its code: the same positions match, and an import
-- writes keys in a fraction of the time it wrote codes. The hashes stored
-- so far are of codes, so the index is emptied and every game is indexed
-- again from its record by Migrate (reindex), in stages it commits.
DELETE FROM pos_blocks;
DELETE FROM pos_runs;
INSERT OR REPLACE INTO archive_state(key, value) SELECT 'reindex_after', 0 WHERE EXISTS (SELECT 1 FROM games);
INSERT OR REPLACE INTO archive_state(key, value) SELECT 'reindex_upto', (SELECT max(id) FROM games) WHERE EXISTS (SELECT 1 FROM games);
