-- The screens a flow's steps acted on, and its end screen, as the run
-- that learned or last replayed it saw them (gzipped snapshot JSON, with
-- the text that run typed and its secrets taken out): the route check
-- plans a command again over them (daemon/routecheck.go). idx is the
-- step's index; the end screen's is the number of steps. They go with
-- the flow.
CREATE TABLE flow_screens (
    flow_id     INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    fingerprint TEXT    NOT NULL,
    snapshot    BLOB    NOT NULL,
    PRIMARY KEY (flow_id, idx)
) WITHOUT ROWID;
