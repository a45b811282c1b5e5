-- Several instances: every numbered event of a game is kept (an instance that missed one reads
-- it here), and the time a running clock's flag falls is a column, so that any instance can
-- find the games to end on time.
ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE TABLE events (
    code  TEXT NOT NULL,
    seq   INTEGER NOT NULL,
    body  TEXT NOT NULL,              -- the event message, as sent to clients
    PRIMARY KEY (code, seq)
);
