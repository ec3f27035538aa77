-- Safety of saved flows (issue: safe by default).
--  * token: an unguessable handle (128 random bits, hex) for replays started
--    from outside the app's own UI, e.g. a pinned shortcut; never reused.
--  * sensitive: the flow has a step that deletes, sends, pays, calls or
--    changes an account (daemon/safety); such steps are confirmed by the
--    owner at replay unless allow_sensitive ("don't ask again").
--  * flow ids are never reused: SQLite's INTEGER PRIMARY KEY hands out
--    max(id)+1, so deleting the newest flow would give its id (and a stale
--    shortcut) to the next, unrelated flow. flow_id_hwm keeps the highest id
--    ever given and new flows take the next one.
ALTER TABLE flows ADD COLUMN token TEXT NOT NULL DEFAULT '';
ALTER TABLE flows ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0 CHECK (sensitive IN (0, 1));
ALTER TABLE flows ADD COLUMN allow_sensitive INTEGER NOT NULL DEFAULT 0 CHECK (allow_sensitive IN (0, 1));
ALTER TABLE flow_steps ADD COLUMN sensitive INTEGER NOT NULL DEFAULT 0 CHECK (sensitive IN (0, 1));
UPDATE flows SET token = lower(hex(randomblob(16))) WHERE token = '';
CREATE UNIQUE INDEX flows_token ON flows (token) WHERE token <> '';

CREATE TABLE flow_id_hwm (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    hi  INTEGER NOT NULL CHECK (hi >= 0)
);
INSERT INTO flow_id_hwm (one, hi) VALUES (1, coalesce((SELECT max(id) FROM flows), 0));
CREATE TRIGGER flows_id_hwm AFTER INSERT ON flows
BEGIN
    UPDATE flow_id_hwm SET hi = max(hi, NEW.id) WHERE one = 1;
END;
