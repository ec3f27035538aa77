package knowledge

import (
	"context"
	"database/sql"
)

// FlowScreen is a screen a flow's step acted on (Index: the step's), or
// its end screen (Index: the number of steps), as the run that learned or
// last replayed the flow saw it: Fingerprint and Snapshot, an opaque
// packed snapshot the engine wrote (daemon's route check).
type FlowScreen struct {
	Index       int    `json:"index"`
	Fingerprint string `json:"fingerprint"`
	Snapshot    []byte `json:"-"`
}

// SetFlowScreens replaces the screens kept for flow flowID with screens,
// in one transaction; none clears them. ErrNotFound: no flow flowID;
// ErrInvalid: a negative index, a repeated one, or an empty snapshot.
func (s *Store) SetFlowScreens(ctx context.Context, flowID int64, screens []FlowScreen) error {
	const op = "SetFlowScreens"
	seen := map[int]bool{}
	for _, sc := range screens {
		if sc.Index < 0 || seen[sc.Index] || len(sc.Snapshot) == 0 {
			return errf(op, ErrInvalid, "flow %d: screen %d: negative, repeated or empty", flowID, sc.Index)
		}
		seen[sc.Index] = true
	}
	return wrap(op, s.write(ctx, func(tx *sql.Tx) error {
		var one int
		if err := tx.QueryRowContext(ctx, `SELECT 1 FROM flows WHERE id = ?`, flowID).Scan(&one); err == sql.ErrNoRows {
			return errf(op, ErrNotFound, "flow %d", flowID)
		} else if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM flow_screens WHERE flow_id = ?`, flowID); err != nil {
			return err
		}
		for _, sc := range screens {
			if _, err := tx.ExecContext(ctx, `INSERT INTO flow_screens (flow_id, idx, fingerprint, snapshot) VALUES (?, ?, ?, ?)`,
				flowID, sc.Index, sc.Fingerprint, sc.Snapshot); err != nil {
				return err
			}
		}
		return nil
	}))
}

// FlowScreens returns the screens kept for flow flowID, by index; none
// when the flow has none (or does not exist).
func (s *Store) FlowScreens(ctx context.Context, flowID int64) ([]FlowScreen, error) {
	const op = "FlowScreens"
	var out []FlowScreen
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT idx, fingerprint, snapshot FROM flow_screens WHERE flow_id = ? ORDER BY idx`, flowID)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var sc FlowScreen
			if err := rows.Scan(&sc.Index, &sc.Fingerprint, &sc.Snapshot); err != nil {
				return err
			}
			out = append(out, sc)
		}
		return rows.Err()
	})
	return out, wrap(op, err)
}
