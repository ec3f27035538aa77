package knowledge

// Reading flows: one flow, the flows of an app, a flow by its token —
// each with its steps, slots, commands and answers, read in bulk in one
// snapshot (loadFlows). Writing them is flows.go.

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// Flow returns flow id with its steps, slots and commands. ErrNotFound: no
// such flow.
func (s *Store) Flow(ctx context.Context, id int64) (*Flow, error) {
	var fs []Flow
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		fs, err = loadFlows(ctx, tx, "id = ?", []any{id})
		return err
	})
	if err != nil {
		return nil, wrap("Flow", err)
	}
	if len(fs) == 0 {
		return nil, errf("Flow", ErrNotFound, "flow %d", id)
	}
	return &fs[0], nil
}

// Flows lists the flows that filter selects, by id, each with its steps,
// slots and commands, read in one snapshot with four queries whatever the
// number of flows.
func (s *Store) Flows(ctx context.Context, filter FlowFilter) ([]Flow, error) {
	where, args := filter.where()
	var fs []Flow
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		fs, err = loadFlows(ctx, tx, where, args)
		return err
	})
	if err != nil {
		return nil, wrap("Flows", err)
	}
	return fs, nil
}

// loadFlows loads the flows matching where (a condition on flows' columns)
// and their parts, in bulk.
func loadFlows(ctx context.Context, tx *sql.Tx, where string, args []any) ([]Flow, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, app_id, package, name, intent, source, uses, successes, failures, pinned,
		token, sensitive, allow_sensitive, created, updated, goal, version, fail_streak
		FROM flows WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, err
	}
	var fs []Flow
	for rows.Next() {
		var f Flow
		var created, updated int64
		var goal string
		if err := rows.Scan(&f.ID, &f.AppID, &f.Package, &f.Name, &f.Intent, &f.Source, &f.Uses, &f.Successes,
			&f.Failures, &f.Pinned, &f.Token, &f.Sensitive, &f.AllowSensitive, &created, &updated, &goal, &f.Version, &f.FailStreak); err != nil {
			rows.Close()
			return nil, err
		}
		f.Created, f.Updated = fromMS(created), fromMS(updated)
		if f.Goal, err = unmarshalGoal(goal); err != nil {
			rows.Close()
			return nil, fmt.Errorf("flow %d goal: %w", f.ID, err)
		}
		fs = append(fs, f)
	}
	if err := closeRows(rows); err != nil || len(fs) == 0 {
		return nil, err
	}
	byID := make(map[int64]int, len(fs))
	for i := range fs {
		byID[fs[i].ID] = i
	}
	sub := `SELECT id FROM flows WHERE ` + where
	// Parts arrive ordered by flow_id like fs, so a cursor finds each
	// flow without a map lookup in the common case.
	cur := 0
	find := func(id int64) *Flow {
		if cur < len(fs) && fs[cur].ID == id {
			return &fs[cur]
		}
		if i, ok := byID[id]; ok {
			cur = i
			return &fs[i]
		}
		return nil
	}
	// parts runs query (flow_id its first column, rows ordered by it)
	// and gives each row to scan, which adds it to its flow (find; nil:
	// no flow loaded has that id, and the row is skipped).
	parts := func(query string, scan func(rows *sql.Rows) error) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		cur = 0
		for rows.Next() {
			if err := scan(rows); err != nil {
				rows.Close()
				return err
			}
		}
		return closeRows(rows)
	}

	var target sql.RawBytes // decoded before the next row
	err = parts(`SELECT flow_id, idx, screen, action, target, text, expect, comment, sensitive, context, choices, options
		FROM flow_steps WHERE flow_id IN (`+sub+`) ORDER BY flow_id, idx`, func(rows *sql.Rows) error {
		var fid int64
		var st Step
		var where, choices, options string
		if err := rows.Scan(&fid, &st.Index, &st.Screen, &st.Action, &target, &st.Text, &st.Expect, &st.Comment, &st.Sensitive, &where, &choices, &options); err != nil {
			return err
		}
		var err error
		if st.Where, err = unmarshalGoal(where); err != nil {
			return fmt.Errorf("flow %d step %d where: %w", fid, st.Index, err)
		}
		if err := unmarshalDescriptor(target, &st.Target); err != nil {
			return fmt.Errorf("flow %d step %d target: %w", fid, st.Index, err)
		}
		if choices != "" {
			if err := json.Unmarshal([]byte(choices), &st.Choices); err != nil {
				return fmt.Errorf("flow %d step %d choices: %w", fid, st.Index, err)
			}
		}
		if options != "" {
			if err := json.Unmarshal([]byte(options), &st.Options); err != nil {
				return fmt.Errorf("flow %d step %d options: %w", fid, st.Index, err)
			}
		}
		if f := find(fid); f != nil {
			f.Steps = append(f.Steps, st)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = parts(`SELECT flow_id, name, example FROM flow_slots
		WHERE flow_id IN (`+sub+`) ORDER BY flow_id, idx`, func(rows *sql.Rows) error {
		var fid int64
		var sl Slot
		if err := rows.Scan(&fid, &sl.Name, &sl.Example); err != nil {
			return err
		}
		if f := find(fid); f != nil {
			f.Slots = append(f.Slots, sl)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = parts(`SELECT flow_id, command FROM flow_commands
		WHERE flow_id IN (`+sub+`) ORDER BY flow_id, id`, func(rows *sql.Rows) error {
		var fid int64
		var c string
		if err := rows.Scan(&fid, &c); err != nil {
			return err
		}
		if f := find(fid); f != nil {
			f.Commands = append(f.Commands, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = parts(`SELECT flow_id, command, slots FROM flow_answers
		WHERE flow_id IN (`+sub+`) ORDER BY flow_id, command`, func(rows *sql.Rows) error {
		var fid int64
		var a Answer
		var slots string
		if err := rows.Scan(&fid, &a.Command, &slots); err != nil {
			return err
		}
		if err := json.Unmarshal([]byte(slots), &a.Slots); err != nil {
			return fmt.Errorf("flow %d answer %q slots: %w", fid, a.Command, err)
		}
		if len(a.Slots) == 0 {
			a.Slots = nil
		}
		if f := find(fid); f != nil {
			f.Answers = append(f.Answers, a)
		}
		return nil
	})
	if err != nil && strings.Contains(err.Error(), "no such table") {
		return fs, nil // a store from before answers were kept (store recover reads those)
	}
	if err != nil {
		return nil, err
	}
	return fs, nil
}

// FlowByToken returns the flow whose token is tok. ErrNotFound: no flow
// has it (a deleted flow's token is never given again).
func (s *Store) FlowByToken(ctx context.Context, tok string) (*Flow, error) {
	const op = "FlowByToken"
	if len(tok) != 32 {
		return nil, errf(op, ErrNotFound, "no flow has this token")
	}
	var fs []Flow
	err := s.read(ctx, func(tx *sql.Tx) error {
		var err error
		fs, err = loadFlows(ctx, tx, "token = ?", []any{tok})
		return err
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	if len(fs) == 0 {
		return nil, errf(op, ErrNotFound, "no flow has this token")
	}
	return &fs[0], nil
}
