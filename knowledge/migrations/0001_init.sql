-- 0001_init: the knowledge graph (apps, screens, elements, transitions),
-- flows with their steps, slots and commands, lessons, the run log, the
-- embedding cache and settings.
--
-- Conventions: times are INTEGER unix milliseconds (UTC); JSON columns hold
-- screen.Descriptor values; empty text is '' (never NULL) so that UNIQUE
-- constraints compare it.

CREATE TABLE apps (
    id      INTEGER PRIMARY KEY,
    package TEXT    NOT NULL UNIQUE CHECK (package <> ''),
    label   TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE screens (
    id          INTEGER PRIMARY KEY,
    app_id      INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    fingerprint TEXT    NOT NULL CHECK (fingerprint <> ''),
    activity    TEXT    NOT NULL DEFAULT '',
    description TEXT    NOT NULL DEFAULT '',
    snapshot    BLOB,
    visits      INTEGER NOT NULL DEFAULT 0 CHECK (visits >= 0),
    UNIQUE (app_id, fingerprint)
);

CREATE TABLE elements (
    id         INTEGER PRIMARY KEY,
    screen_id  INTEGER NOT NULL REFERENCES screens (id) ON DELETE CASCADE,
    key        TEXT    NOT NULL CHECK (key <> ''),
    descriptor TEXT    NOT NULL DEFAULT '{}', -- screen.Descriptor JSON
    label      TEXT    NOT NULL DEFAULT '',
    doc        TEXT    NOT NULL DEFAULT '',
    UNIQUE (screen_id, key)
);

CREATE TABLE transitions (
    id          INTEGER PRIMARY KEY,
    app_id      INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    from_screen INTEGER NOT NULL REFERENCES screens (id) ON DELETE CASCADE,
    to_screen   INTEGER NOT NULL REFERENCES screens (id) ON DELETE CASCADE,
    action      TEXT    NOT NULL CHECK (action <> ''),
    element_id  INTEGER REFERENCES elements (id) ON DELETE CASCADE, -- NULL: global action
    text        TEXT    NOT NULL DEFAULT '',
    count       INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
    failures    INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
    source      TEXT    NOT NULL CHECK (source IN ('exploration', 'learned', 'demonstration'))
);
-- UNIQUE(from, action, element, text, to, source); a NULL element_id
-- (global action) must compare equal to itself, hence the expression.
CREATE UNIQUE INDEX transitions_edge
    ON transitions (from_screen, action, ifnull(element_id, 0), text, to_screen, source);
CREATE INDEX transitions_app ON transitions (app_id);
CREATE INDEX transitions_to ON transitions (to_screen);
CREATE INDEX transitions_element ON transitions (element_id) WHERE element_id IS NOT NULL;

CREATE TABLE flows (
    id        INTEGER PRIMARY KEY,
    app_id    INTEGER NOT NULL REFERENCES apps (id) ON DELETE CASCADE,
    package   TEXT    NOT NULL CHECK (package <> ''),
    name      TEXT    NOT NULL DEFAULT '',
    intent    TEXT    NOT NULL CHECK (intent <> ''),
    source    TEXT    NOT NULL CHECK (source IN ('exploration', 'learned', 'demonstration')),
    uses      INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
    successes INTEGER NOT NULL DEFAULT 0 CHECK (successes >= 0),
    failures  INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
    pinned    INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    created   INTEGER NOT NULL, -- unix ms
    updated   INTEGER NOT NULL  -- unix ms
);
-- A name is unique within an app; unnamed flows are allowed.
CREATE UNIQUE INDEX flows_app_name ON flows (app_id, name) WHERE name <> '';
CREATE INDEX flows_app ON flows (app_id);
CREATE INDEX flows_package ON flows (package);

CREATE TABLE flow_steps (
    flow_id INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL CHECK (idx >= 0),
    screen  TEXT    NOT NULL DEFAULT '',
    action  TEXT    NOT NULL CHECK (action <> ''),
    target  TEXT    NOT NULL DEFAULT '{}', -- screen.Descriptor JSON
    text    TEXT    NOT NULL DEFAULT '',
    expect  TEXT    NOT NULL DEFAULT '',
    comment TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (flow_id, idx)
) WITHOUT ROWID;

CREATE TABLE flow_slots (
    flow_id INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL CHECK (idx >= 0),
    name    TEXT    NOT NULL CHECK (name <> ''),
    example TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (flow_id, idx),
    UNIQUE (flow_id, name)
) WITHOUT ROWID;

CREATE TABLE flow_commands (
    id      INTEGER PRIMARY KEY,
    flow_id INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    command TEXT    NOT NULL CHECK (command <> ''),
    UNIQUE (flow_id, command)
);

CREATE TABLE lessons (
    id      INTEGER PRIMARY KEY,
    app_id  INTEGER REFERENCES apps (id) ON DELETE CASCADE, -- NULL: any app
    screen  TEXT    NOT NULL DEFAULT '',
    command TEXT    NOT NULL DEFAULT '',
    text    TEXT    NOT NULL CHECK (text <> ''),
    created INTEGER NOT NULL -- unix ms
);
CREATE INDEX lessons_app ON lessons (app_id, created);

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    command     TEXT    NOT NULL,
    package     TEXT    NOT NULL DEFAULT '',
    mode        TEXT    NOT NULL DEFAULT '',
    outcome     TEXT    NOT NULL CHECK (outcome IN ('success', 'failure', 'error', 'cancelled')),
    error       TEXT    NOT NULL DEFAULT '',
    flow_id     INTEGER REFERENCES flows (id) ON DELETE SET NULL,
    steps       INTEGER NOT NULL DEFAULT 0,
    llm_calls   INTEGER NOT NULL DEFAULT 0,
    tokens      INTEGER NOT NULL DEFAULT 0,
    duration_ms INTEGER NOT NULL DEFAULT 0,
    started     INTEGER NOT NULL -- unix ms
);
CREATE INDEX runs_started ON runs (started);
CREATE INDEX runs_flow ON runs (flow_id) WHERE flow_id IS NOT NULL;

CREATE TABLE embeddings (
    id        INTEGER PRIMARY KEY,
    model     TEXT    NOT NULL CHECK (model <> ''),
    text_hash TEXT    NOT NULL, -- hex SHA-256 of text
    text      TEXT    NOT NULL,
    dim       INTEGER NOT NULL CHECK (dim > 0),
    vector    BLOB    NOT NULL, -- dim float32, little-endian
    created   INTEGER NOT NULL, -- unix ms
    UNIQUE (model, text_hash)
);

CREATE TABLE settings (
    key   TEXT PRIMARY KEY CHECK (key <> ''),
    value TEXT NOT NULL
) WITHOUT ROWID;
