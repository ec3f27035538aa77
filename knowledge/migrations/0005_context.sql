-- The context library (PromptRPA §4.2.2): the owner's own values, kept on
-- the phone. An entry is a person, a place, an account or a preference;
-- its values are typed fields (phone, email, address, username, value),
-- each marked private (redacted from logs and events) and allowed or not
-- in a model prompt; aliases are the words the owner uses for it ("mom",
-- "my boss", "home").
CREATE TABLE context_entries (
	id      INTEGER PRIMARY KEY,
	kind    TEXT NOT NULL CHECK (kind IN ('person', 'place', 'account', 'preference')),
	name    TEXT NOT NULL CHECK (name <> ''),
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL
);
CREATE INDEX context_entries_kind ON context_entries (kind, name);

CREATE TABLE context_values (
	entry_id        INTEGER NOT NULL REFERENCES context_entries (id) ON DELETE CASCADE,
	field           TEXT NOT NULL CHECK (field <> ''),
	value           TEXT NOT NULL,
	private         INTEGER NOT NULL DEFAULT 0 CHECK (private IN (0, 1)),
	allow_in_prompt INTEGER NOT NULL DEFAULT 0 CHECK (allow_in_prompt IN (0, 1)),
	PRIMARY KEY (entry_id, field)
);

CREATE TABLE context_aliases (
	entry_id INTEGER NOT NULL REFERENCES context_entries (id) ON DELETE CASCADE,
	alias    TEXT NOT NULL CHECK (alias <> ''),
	PRIMARY KEY (entry_id, alias)
);
CREATE INDEX context_aliases_alias ON context_aliases (alias);
