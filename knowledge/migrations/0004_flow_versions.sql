-- 0004_flow_versions: a flow is the owner's data and is never lost to a
-- bad repair. Every learn, repair, relearn and rollback writes a version
-- (its steps, its goal, when and why); the current steps stay in
-- flow_steps. A flow also keeps its goal (the end screen it reached when
-- learned, knowledge.Goal JSON, '' unknown) and its failure streak, from
-- which its health follows (knowledge.UnhealthyAfter).
ALTER TABLE flows ADD COLUMN goal TEXT NOT NULL DEFAULT '';
ALTER TABLE flows ADD COLUMN version INTEGER NOT NULL DEFAULT 1 CHECK (version >= 1);
ALTER TABLE flows ADD COLUMN fail_streak INTEGER NOT NULL DEFAULT 0 CHECK (fail_streak >= 0);
-- what the screen a step acts on looked like when learned (knowledge.Goal
-- JSON, '' unknown): re-grounding after an app update checks it is the
-- same screen before trusting a looser element match
ALTER TABLE flow_steps ADD COLUMN context TEXT NOT NULL DEFAULT '';

CREATE TABLE flow_versions (
    flow_id INTEGER NOT NULL REFERENCES flows (id) ON DELETE CASCADE,
    version INTEGER NOT NULL CHECK (version >= 1),
    steps   TEXT    NOT NULL, -- JSON array of knowledge.Step
    goal    TEXT    NOT NULL DEFAULT '', -- knowledge.Goal JSON, '' unknown
    reason  TEXT    NOT NULL DEFAULT '',
    created INTEGER NOT NULL, -- unix ms
    PRIMARY KEY (flow_id, version)
) WITHOUT ROWID;

-- the flows saved before versions existed become their version 1
INSERT INTO flow_versions (flow_id, version, steps, goal, reason, created)
SELECT f.id, 1,
       (SELECT json_group_array(json_object('index', s.idx, 'screen', s.screen, 'action', s.action,
               'target', json(s.target), 'text', s.text, 'expect', s.expect, 'comment', s.comment,
               'sensitive', json(CASE WHEN s.sensitive THEN 'true' ELSE 'false' END)))
          FROM (SELECT * FROM flow_steps WHERE flow_id = f.id ORDER BY idx) AS s),
       '', 'saved before flow versions', f.updated
  FROM flows AS f;
