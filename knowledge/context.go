package knowledge

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"time"
)

// Context entry kinds (PromptRPA §4.2.2: the owner's own parameters).
const (
	KindPerson     = "person"
	KindPlace      = "place"
	KindAccount    = "account"
	KindPreference = "preference"
)

// ContextKinds lists the entry kinds.
var ContextKinds = []string{KindPerson, KindPlace, KindAccount, KindPreference}

// ContextValue is one typed field of an entry: "phone", "email",
// "address", "username", "value", ... Private values are redacted from
// logs and events; a private value reaches a model prompt only when
// AllowInPrompt is set.
type ContextValue struct {
	Field         string `json:"field"`
	Value         string `json:"value"`
	Private       bool   `json:"private,omitempty"`
	AllowInPrompt bool   `json:"allow_in_prompt,omitempty"`
}

// ContextEntry is a person, place, account or preference of the owner,
// with the words the owner uses for it (Aliases, lower case) and its
// values sorted by field.
type ContextEntry struct {
	ID      int64          `json:"id,omitempty"`
	Kind    string         `json:"kind"`
	Name    string         `json:"name"`
	Aliases []string       `json:"aliases,omitempty"`
	Values  []ContextValue `json:"values,omitempty"`
	Updated time.Time      `json:"updated,omitzero"`
}

// Value returns the entry's value of field.
func (e ContextEntry) Value(field string) (ContextValue, bool) {
	for _, v := range e.Values {
		if strings.EqualFold(v.Field, field) {
			return v, true
		}
	}
	return ContextValue{}, false
}

// normalise checks and cleans an entry before it is written.
func (e *ContextEntry) normalise(op string) error {
	e.Kind = strings.ToLower(strings.TrimSpace(e.Kind))
	e.Name = strings.TrimSpace(e.Name)
	if !slices.Contains(ContextKinds, e.Kind) {
		return errf(op, ErrInvalid, "kind %q: want one of %s", e.Kind, strings.Join(ContextKinds, ", "))
	}
	if e.Name == "" {
		return errf(op, ErrInvalid, "name: empty")
	}
	var aliases []string
	for _, a := range e.Aliases {
		a = strings.ToLower(strings.Join(strings.Fields(a), " "))
		if a != "" && !slices.Contains(aliases, a) {
			aliases = append(aliases, a)
		}
	}
	slices.Sort(aliases)
	e.Aliases = aliases
	seen := map[string]bool{}
	for i := range e.Values {
		v := &e.Values[i]
		v.Field = strings.ToLower(strings.TrimSpace(v.Field))
		if v.Field == "" {
			return errf(op, ErrInvalid, "value %d: empty field", i)
		}
		if seen[v.Field] {
			return errf(op, ErrInvalid, "field %q given twice", v.Field)
		}
		seen[v.Field] = true
	}
	slices.SortFunc(e.Values, func(a, b ContextValue) int { return strings.Compare(a.Field, b.Field) })
	return nil
}

// PutContext writes e in one transaction: a new entry when e.ID is 0,
// else it replaces the entry's name, aliases and values. It fails with
// ErrInvalid for an unknown kind, an empty name or a duplicate field, and
// ErrNotFound for an unknown ID.
func (s *Store) PutContext(ctx context.Context, e ContextEntry) (ContextEntry, error) {
	const op = "PutContext"
	if err := e.normalise(op); err != nil {
		return ContextEntry{}, err
	}
	e.Updated = now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		if e.ID == 0 {
			if err := tx.QueryRowContext(ctx, `INSERT INTO context_entries (kind, name, created, updated) VALUES (?, ?, ?, ?) RETURNING id`,
				e.Kind, e.Name, toMS(e.Updated), toMS(e.Updated)).Scan(&e.ID); err != nil {
				return err
			}
		} else {
			res, err := tx.ExecContext(ctx, `UPDATE context_entries SET kind = ?, name = ?, updated = ? WHERE id = ?`, e.Kind, e.Name, toMS(e.Updated), e.ID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return errf(op, ErrNotFound, "context entry %d", e.ID)
			}
			for _, q := range []string{`DELETE FROM context_values WHERE entry_id = ?`, `DELETE FROM context_aliases WHERE entry_id = ?`} {
				if _, err := tx.ExecContext(ctx, q, e.ID); err != nil {
					return err
				}
			}
		}
		for _, a := range e.Aliases {
			if _, err := tx.ExecContext(ctx, `INSERT INTO context_aliases (entry_id, alias) VALUES (?, ?)`, e.ID, a); err != nil {
				return err
			}
		}
		for _, v := range e.Values {
			if _, err := tx.ExecContext(ctx, `INSERT INTO context_values (entry_id, field, value, private, allow_in_prompt) VALUES (?, ?, ?, ?, ?)`,
				e.ID, v.Field, v.Value, v.Private, v.AllowInPrompt); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return ContextEntry{}, wrap(op, err)
	}
	return e, nil
}

// SetContextValue sets one value of an entry (inserting or replacing the
// field), leaving the others alone.
func (s *Store) SetContextValue(ctx context.Context, id int64, v ContextValue) error {
	const op = "SetContextValue"
	v.Field = strings.ToLower(strings.TrimSpace(v.Field))
	if v.Field == "" {
		return errf(op, ErrInvalid, "field: empty")
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE context_entries SET updated = ? WHERE id = ?`, toMS(now()), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errf(op, ErrNotFound, "context entry %d", id)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO context_values (entry_id, field, value, private, allow_in_prompt) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (entry_id, field) DO UPDATE SET value = excluded.value, private = excluded.private, allow_in_prompt = excluded.allow_in_prompt`,
			id, v.Field, v.Value, v.Private, v.AllowInPrompt)
		return err
	})
	if err != nil {
		return wrap(op, err)
	}
	return nil
}

// DeleteContext removes an entry with its values and aliases; ErrNotFound
// when there is none.
func (s *Store) DeleteContext(ctx context.Context, id int64) error {
	const op = "DeleteContext"
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM context_entries WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return errf(op, ErrNotFound, "context entry %d", id)
		}
		return nil
	})
	if err != nil {
		return wrap(op, err)
	}
	return nil
}

// ContextEntries lists the entries of kind ("" for all), by kind then
// name then id, with their aliases and values.
func (s *Store) ContextEntries(ctx context.Context, kind string) ([]ContextEntry, error) {
	const op = "ContextEntries"
	var out []ContextEntry
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, kind, name, updated FROM context_entries WHERE ? = '' OR kind = ? ORDER BY kind, name COLLATE NOCASE, id`, kind, kind)
		if err != nil {
			return err
		}
		idx := map[int64]int{}
		for rows.Next() {
			var e ContextEntry
			var up int64
			if err := rows.Scan(&e.ID, &e.Kind, &e.Name, &up); err != nil {
				rows.Close()
				return err
			}
			e.Updated = fromMS(up)
			idx[e.ID] = len(out)
			out = append(out, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		arows, err := tx.QueryContext(ctx, `SELECT entry_id, alias FROM context_aliases ORDER BY alias`)
		if err != nil {
			return err
		}
		for arows.Next() {
			var id int64
			var a string
			if err := arows.Scan(&id, &a); err != nil {
				arows.Close()
				return err
			}
			if i, ok := idx[id]; ok {
				out[i].Aliases = append(out[i].Aliases, a)
			}
		}
		arows.Close()
		if err := arows.Err(); err != nil {
			return err
		}
		vrows, err := tx.QueryContext(ctx, `SELECT entry_id, field, value, private, allow_in_prompt FROM context_values ORDER BY field`)
		if err != nil {
			return err
		}
		defer vrows.Close()
		for vrows.Next() {
			var id int64
			var v ContextValue
			if err := vrows.Scan(&id, &v.Field, &v.Value, &v.Private, &v.AllowInPrompt); err != nil {
				return err
			}
			if i, ok := idx[id]; ok {
				out[i].Values = append(out[i].Values, v)
			}
		}
		return vrows.Err()
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return out, nil
}

// ContextEntry returns one entry; ErrNotFound when there is none.
func (s *Store) ContextEntry(ctx context.Context, id int64) (ContextEntry, error) {
	all, err := s.ContextEntries(ctx, "")
	if err != nil {
		return ContextEntry{}, err
	}
	for _, e := range all {
		if e.ID == id {
			return e, nil
		}
	}
	return ContextEntry{}, errf("ContextEntry", ErrNotFound, "context entry %d", id)
}
