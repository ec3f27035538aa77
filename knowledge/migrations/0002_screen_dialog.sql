-- A screen drawn as a dialog (its root window smaller than the display)
-- rather than a full screen: planners treat the two differently (a dialog
-- is not "further down" a list).
ALTER TABLE screens ADD COLUMN dialog INTEGER NOT NULL DEFAULT 0 CHECK (dialog IN (0, 1));
