-- Players (their public id and last name, how often they left rated games), their standing in
-- each game kind (Glicko-2 rating, deviation, volatility; games played and won, drawn, lost;
-- colours had), rated games between two players by day (a few a day count), and the quick
-- pairing pools (a player waits in one; a pairing notes the game made).
CREATE TABLE players (
    token_hash      TEXT PRIMARY KEY,
    id              TEXT NOT NULL UNIQUE,
    name            TEXT NOT NULL,
    abandons        INTEGER NOT NULL DEFAULT 0,
    last_abandon_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE standings (
    token_hash  TEXT NOT NULL,
    kind        TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    rated_games INTEGER NOT NULL DEFAULT 0,
    played      INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    whites      INTEGER NOT NULL DEFAULT 0,
    blacks      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (token_hash, kind)
);
CREATE INDEX standings_board ON standings (kind, rating);
CREATE TABLE rated_pairs (
    a     TEXT NOT NULL,
    b     TEXT NOT NULL,
    day   INTEGER NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (a, b, day)
);
CREATE TABLE seeks (
    token_hash    TEXT PRIMARY KEY,
    pool          TEXT NOT NULL,
    name          TEXT NOT NULL,
    rating        REAL NOT NULL,
    since_ms      INTEGER NOT NULL,
    alive_ms      INTEGER NOT NULL,
    not_before_ms INTEGER NOT NULL,
    paired_code   TEXT,
    paired_ms     INTEGER
);
CREATE INDEX seeks_open ON seeks (pool, paired_code);
