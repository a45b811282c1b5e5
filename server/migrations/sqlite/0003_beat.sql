-- The servers' heartbeat: the last time a server on this database was known to run. A server
-- that starts (or wakes from a pause) long after it credits the time nobody served to the
-- clocks that were running: time the server was not running is nobody's thinking time.
CREATE TABLE beat (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    ms  INTEGER NOT NULL
);
