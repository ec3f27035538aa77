-- Answers the owner gave to "did you mean": a command (secrets redacted,
-- lower case, spaces collapsed) for which the owner chose a flow, with
-- the slot values of that replay (a JSON object). The same command
-- replays that flow again without asking; it is no lexical evidence for
-- other commands, as a past command (flow_commands) is (daemon's offer).
CREATE TABLE flow_answers (
    package TEXT    NOT NULL,
    command TEXT    NOT NULL CHECK (command <> ''),
    flow_id INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    slots   TEXT    NOT NULL DEFAULT '{}',
    created INTEGER NOT NULL,
    PRIMARY KEY (package, command)
) WITHOUT ROWID;
