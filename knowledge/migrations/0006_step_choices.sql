-- Choice slots: a step that taps one option of a group of mutually
-- exclusive values ("3 columns" of "1 column" … "20 columns") keeps the
-- group's labels as learned, a JSON array ('' when the step is no choice),
-- so a command naming no known option is not replayed.
ALTER TABLE flow_steps ADD COLUMN choices TEXT NOT NULL DEFAULT '';
