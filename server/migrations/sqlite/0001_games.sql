-- One row per game: the record (JSON) is the truth; the other columns index it.
CREATE TABLE games (
    code        TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    stage       TEXT NOT NULL,            -- waiting | playing | ended
    public      INTEGER NOT NULL,
    white_hash  TEXT,
    black_hash  TEXT,
    created_ms  INTEGER NOT NULL,
    updated_ms  INTEGER NOT NULL,
    seq         INTEGER NOT NULL,         -- the number of the game's last event
    record      TEXT NOT NULL
);
CREATE INDEX games_white ON games (white_hash) WHERE stage <> 'ended';
CREATE INDEX games_black ON games (black_hash) WHERE stage <> 'ended';
CREATE INDEX games_stage ON games (stage, public);
