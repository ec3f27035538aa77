-- Option groups of option taps: a step that taps one option of a group
-- (a radio button, a checked row of a dialog) that the learning command
-- did not name as a value keeps the group's labels as learned, a JSON
-- array ('' otherwise), so that a command naming another option of the
-- group can pick it (daemon's option anchors). Versions carry it in their
-- steps JSON.
ALTER TABLE flow_steps ADD COLUMN options TEXT NOT NULL DEFAULT '';
