-- Creates by request id: a client that sends the same create again (its answer was lost with
-- the connection) is given the game it made, never a second one. A cancelled request keeps an
-- empty code, so that a copy of it still on its way makes nothing.
CREATE TABLE creates (
    token_hash TEXT NOT NULL,
    request    TEXT NOT NULL,
    code       TEXT NOT NULL,
    PRIMARY KEY (token_hash, request)
);
