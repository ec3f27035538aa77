package knowledge

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// marshalGoal encodes a goal for the goal columns (” for none).
func marshalGoal(g *Goal) (string, error) {
	if g == nil {
		return "", nil
	}
	b, err := json.Marshal(g)
	if err != nil {
		return "", fmt.Errorf("goal: %w", err)
	}
	return string(b), nil
}

// unmarshalGoal decodes a goal column (” is nil).
func unmarshalGoal(s string) (*Goal, error) {
	if s == "" {
		return nil, nil
	}
	var g Goal
	if err := json.Unmarshal([]byte(s), &g); err != nil {
		return nil, err
	}
	return &g, nil
}

func cloneGoal(g Goal) Goal {
	g.Labels = slices.Clone(g.Labels)
	g.IDs = slices.Clone(g.IDs)
	return g
}

// insertVersion writes f's steps and goal as version f.Version of flow
// f.ID.
func insertVersion(ctx context.Context, tx *sql.Tx, f *Flow, reason string) error {
	steps, err := json.Marshal(f.Steps)
	if err != nil {
		return fmt.Errorf("version steps: %w", err)
	}
	goal, err := marshalGoal(f.Goal)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO flow_versions (flow_id, version, steps, goal, reason, created) VALUES (?, ?, ?, ?, ?, ?)`,
		f.ID, f.Version, string(steps), goal, reason, toMS(f.Updated))
	return err
}

// routeChanged reports whether f's steps or goal differ from the current
// version of flow f.ID (true when that version is missing).
func routeChanged(ctx context.Context, tx *sql.Tx, f *Flow) (bool, error) {
	var steps, goal string
	err := tx.QueryRowContext(ctx, `SELECT v.steps, v.goal FROM flow_versions v JOIN flows f ON f.id = v.flow_id AND f.version = v.version
		WHERE v.flow_id = ?`, f.ID).Scan(&steps, &goal)
	if errors.Is(err, sql.ErrNoRows) {
		return true, nil
	} else if err != nil {
		return false, err
	}
	var old []Step
	if err := json.Unmarshal([]byte(steps), &old); err != nil {
		return false, fmt.Errorf("flow %d current version: %w", f.ID, err)
	}
	// compare as stored: both through JSON, indexes by position
	b, err := json.Marshal(f.Steps)
	if err != nil {
		return false, err
	}
	var cur []Step
	if err := json.Unmarshal(b, &cur); err != nil {
		return false, err
	}
	for i := range cur {
		cur[i].Index = i
	}
	for i := range old {
		old[i].Index = i
	}
	g, err := marshalGoal(f.Goal)
	if err != nil {
		return false, err
	}
	return !reflect.DeepEqual(old, cur) || g != goal, nil
}

// FlowHistory returns every version of flow id, oldest first; the one in
// use has Current set. ErrNotFound: no such flow.
func (s *Store) FlowHistory(ctx context.Context, id int64) ([]FlowVersion, error) {
	const op = "FlowHistory"
	var out []FlowVersion
	err := s.read(ctx, func(tx *sql.Tx) error {
		var cur int
		err := tx.QueryRowContext(ctx, `SELECT version FROM flows WHERE id = ?`, id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return errf(op, ErrNotFound, "flow %d", id)
		} else if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT version, steps, goal, reason, created FROM flow_versions WHERE flow_id = ? ORDER BY version`, id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v := FlowVersion{FlowID: id}
			var steps, goal string
			var created int64
			if err := rows.Scan(&v.Version, &steps, &goal, &v.Reason, &created); err != nil {
				return err
			}
			if err := json.Unmarshal([]byte(steps), &v.Steps); err != nil {
				return fmt.Errorf("flow %d version %d steps: %w", id, v.Version, err)
			}
			if v.Goal, err = unmarshalGoal(goal); err != nil {
				return fmt.Errorf("flow %d version %d goal: %w", id, v.Version, err)
			}
			v.Created, v.Current = fromMS(created), v.Version == cur
			out = append(out, v)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return out, nil
}

// RollbackFlow makes an older version's steps and goal current again, as
// a new version (reason "rollback to version N"), so nothing is lost: the
// version rolled back from stays in the history. It resets the failure
// streak (the owner chose this route) and returns the flow as saved.
// ErrNotFound: no such flow or version.
func (s *Store) RollbackFlow(ctx context.Context, id int64, version int) (*Flow, error) {
	const op = "RollbackFlow"
	hist, err := s.FlowHistory(ctx, id)
	if err != nil {
		return nil, wrap(op, err)
	}
	var v *FlowVersion
	for i := range hist {
		if hist[i].Version == version {
			v = &hist[i]
		}
	}
	if v == nil {
		return nil, errf(op, ErrNotFound, "flow %d has no version %d (versions 1-%d)", id, version, len(hist))
	}
	f, err := s.Flow(ctx, id)
	if err != nil {
		return nil, wrap(op, err)
	}
	f.Steps, f.Goal = v.Steps, v.Goal
	if err := s.updateFlow(ctx, op, f, fmt.Sprintf("%s to version %d", ReasonRollback, version), true); err != nil {
		return nil, err
	}
	return f, nil
}
