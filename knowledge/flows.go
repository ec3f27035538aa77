package knowledge

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// FlowFilter selects flows: by app id and/or package name; the zero value
// selects all flows.
type FlowFilter struct {
	AppID   int64
	Package string
}

func (f FlowFilter) where() (string, []any) {
	var conds []string
	var args []any
	if f.AppID != 0 {
		conds = append(conds, "app_id = ?")
		args = append(args, f.AppID)
	}
	if f.Package != "" {
		conds = append(conds, "package = ?")
		args = append(args, f.Package)
	}
	if len(conds) == 0 {
		return "1", nil
	}
	return strings.Join(conds, " AND "), args
}

// resolveFlowApp sets f.AppID from f.Package (creating the app when new)
// or fills/checks f.Package against app f.AppID.
func resolveFlowApp(ctx context.Context, tx *sql.Tx, op string, f *Flow) error {
	if f.AppID == 0 {
		if f.Package == "" {
			return errf(op, ErrInvalid, "package: empty")
		}
		a, err := upsertApp(ctx, tx, f.Package, "")
		if err != nil {
			return err
		}
		f.AppID = a.ID
		return nil
	}
	var pkg string
	err := tx.QueryRowContext(ctx, `SELECT package FROM apps WHERE id = ?`, f.AppID).Scan(&pkg)
	if errors.Is(err, sql.ErrNoRows) {
		return errf(op, ErrNotFound, "app %d", f.AppID)
	} else if err != nil {
		return err
	}
	if f.Package == "" {
		f.Package = pkg
	} else if f.Package != pkg {
		return errf(op, ErrInvalid, "package: %q is not the package %q of app %d", f.Package, pkg, f.AppID)
	}
	return nil
}

// SaveFlow inserts flow f (its ID is ignored) with its steps, slots and
// commands in one transaction, and on success sets f.ID, f.AppID,
// f.Package, the step indexes (0, 1, ...), a zero Created/Updated to now
// and an empty Source to SourceLearned. The app is f.AppID when set (its
// package must equal f.Package when both are set), else the app of
// f.Package, created when new. Counters (Uses, Successes, Failures) and
// Pinned are stored as given, so imported flows keep their history;
// repeated commands are stored once. ErrInvalid: the flow fails
// validation (Flow.Validate plus ValidateFlow's checks); ErrConflict:
// another flow of the app has the same non-empty name; ErrNotFound: no app
// f.AppID.
func (s *Store) SaveFlow(ctx context.Context, f *Flow) error {
	const op = "SaveFlow"
	g := cloneFlow(f)
	if g.Source == "" {
		g.Source = SourceLearned
	}
	t := now()
	if g.Created.IsZero() {
		g.Created = t
	}
	if g.Updated.IsZero() {
		g.Updated = t
	}
	g.Created, g.Updated = g.Created.UTC().Truncate(time.Millisecond), g.Updated.UTC().Truncate(time.Millisecond)
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := resolveFlowApp(ctx, tx, op, g); err != nil {
			return err
		}
		if err := checkFlow(op, g); err != nil {
			return err
		}
		tok, err := newToken()
		if err != nil {
			return err
		}
		g.Token = tok
		g.Sensitive = g.Sensitive || stepsSensitive(g.Steps)
		goal, err := marshalGoal(g.Goal)
		if err != nil {
			return err
		}
		g.Version = 1
		// the id is the highest ever given plus one (0003_flow_safety.sql)
		err = tx.QueryRowContext(ctx, `INSERT INTO flows (id, app_id, package, name, intent, source, uses, successes, failures, pinned,
			token, sensitive, allow_sensitive, created, updated, goal, version, fail_streak)
			VALUES ((SELECT hi + 1 FROM flow_id_hwm WHERE one = 1), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			g.AppID, g.Package, g.Name, g.Intent, g.Source, g.Uses, g.Successes, g.Failures, g.Pinned,
			g.Token, g.Sensitive, g.AllowSensitive, toMS(g.Created), toMS(g.Updated), goal, g.Version, max(g.FailStreak, 0)).Scan(&g.ID)
		if err != nil {
			return nameConflict(op, g, err)
		}
		if err := insertFlowParts(ctx, tx, g); err != nil {
			return err
		}
		if err := insertAnswers(ctx, tx, g); err != nil {
			return err
		}
		reason := ReasonLearned
		if g.Source != SourceLearned {
			reason = "saved (" + g.Source + ")"
		}
		return insertVersion(ctx, tx, g, reason)
	})
	if err != nil {
		return wrap(op, err)
	}
	*f = *g
	return nil
}

// checkFlow validates f for saving: Flow.Validate, then ValidateFlow for
// the field-level checks.
func checkFlow(op string, f *Flow) error {
	if err := f.Validate(); err != nil {
		return &Error{Op: op, Kind: ErrInvalid, Err: err}
	}
	if err := ValidateFlow(f); err != nil {
		return &Error{Op: op, Kind: ErrInvalid, Err: err}
	}
	return nil
}

// nameConflict makes a clear ErrConflict of a unique violation on the
// flow's name.
func nameConflict(op string, f *Flow, err error) error {
	if e, ok := wrap(op, err).(*Error); ok && e.Kind == ErrConflict {
		return errf(op, ErrConflict, "app %d already has a flow named %q", f.AppID, f.Name)
	}
	return err
}

// insertFlowParts writes f's steps, slots and commands (f.ID set), setting
// the step indexes.
func insertFlowParts(ctx context.Context, tx *sql.Tx, f *Flow) error {
	if len(f.Steps) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO flow_steps (flow_id, idx, screen, action, target, text, expect, comment, sensitive, context, choices, options)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i := range f.Steps {
			step := &f.Steps[i]
			step.Index = i
			target, err := json.Marshal(step.Target)
			if err != nil {
				return fmt.Errorf("steps[%d].target: %w", i, err)
			}
			where, err := marshalGoal(step.Where)
			if err != nil {
				return fmt.Errorf("steps[%d].where: %w", i, err)
			}
			choices, err := marshalLabels(step.Choices)
			if err != nil {
				return fmt.Errorf("steps[%d].choices: %w", i, err)
			}
			options, err := marshalLabels(step.Options)
			if err != nil {
				return fmt.Errorf("steps[%d].options: %w", i, err)
			}
			if _, err := st.ExecContext(ctx, f.ID, i, step.Screen, step.Action, target, step.Text, step.Expect, step.Comment, step.Sensitive, where, choices, options); err != nil {
				return fmt.Errorf("steps[%d]: %w", i, err)
			}
		}
	}
	if len(f.Slots) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO flow_slots (flow_id, idx, name, example) VALUES (?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer st.Close()
		for i, sl := range f.Slots {
			if _, err := st.ExecContext(ctx, f.ID, i, sl.Name, sl.Example); err != nil {
				return fmt.Errorf("slots[%d]: %w", i, err)
			}
		}
	}
	if len(f.Commands) > 0 {
		st, err := tx.PrepareContext(ctx, `INSERT INTO flow_commands (flow_id, command) VALUES (?, ?) ON CONFLICT DO NOTHING`)
		if err != nil {
			return err
		}
		defer st.Close()
		var cmds []string
		seen := map[string]bool{}
		for _, c := range f.Commands {
			if seen[c] {
				continue
			}
			seen[c] = true
			cmds = append(cmds, c)
			if _, err := st.ExecContext(ctx, f.ID, c); err != nil {
				return fmt.Errorf("command %q: %w", c, err)
			}
		}
		f.Commands = cmds
	}
	return nil
}

// UpdateFlow rewrites flow f.ID in one transaction: app/package, Name,
// Intent, Source, Pinned, Goal, and all steps, slots and commands
// (replaced). Created is kept and Updated set to now. When the steps or
// the goal differ from the current version, the old version is kept and
// a new one (reason ReasonEdited) becomes current; use ReviseFlow to give
// the reason. The counters are not written (RecordFlowUse owns them); f's
// counters, version and Created are refreshed from the database on
// success. ErrNotFound: no flow f.ID or no app f.AppID; ErrInvalid and
// ErrConflict as for SaveFlow.
func (s *Store) UpdateFlow(ctx context.Context, f *Flow) error {
	return s.updateFlow(ctx, "UpdateFlow", f, ReasonEdited, false)
}

// ReviseFlow is UpdateFlow for a new route: it always writes a new
// version with reason (say what and why: "repaired: steps 2-3 replaced"),
// keeps every older version (FlowHistory) and resets the failure streak.
// ErrInvalid: empty reason; otherwise as UpdateFlow.
func (s *Store) ReviseFlow(ctx context.Context, f *Flow, reason string) error {
	if strings.TrimSpace(reason) == "" {
		return errf("ReviseFlow", ErrInvalid, "reason: empty")
	}
	return s.updateFlow(ctx, "ReviseFlow", f, reason, true)
}

func (s *Store) updateFlow(ctx context.Context, op string, f *Flow, reason string, always bool) error {
	g := cloneFlow(f)
	if g.Source == "" {
		g.Source = SourceLearned
	}
	g.Updated = now()
	err := s.write(ctx, func(tx *sql.Tx) error {
		var created int64
		err := tx.QueryRowContext(ctx, `SELECT created, uses, successes, failures, token, version, fail_streak FROM flows WHERE id = ?`, g.ID).
			Scan(&created, &g.Uses, &g.Successes, &g.Failures, &g.Token, &g.Version, &g.FailStreak)
		if errors.Is(err, sql.ErrNoRows) {
			return errf(op, ErrNotFound, "flow %d", g.ID)
		} else if err != nil {
			return err
		}
		g.Created = fromMS(created)
		if err := resolveFlowApp(ctx, tx, op, g); err != nil {
			return err
		}
		if err := checkFlow(op, g); err != nil {
			return err
		}
		g.Sensitive = stepsSensitive(g.Steps)
		changed, err := routeChanged(ctx, tx, g)
		if err != nil {
			return err
		}
		newVersion := always || changed
		if newVersion {
			if err := tx.QueryRowContext(ctx, `SELECT ifnull(max(version), 0) + 1 FROM flow_versions WHERE flow_id = ?`, g.ID).Scan(&g.Version); err != nil {
				return err
			}
			g.FailStreak = 0
		}
		goal, err := marshalGoal(g.Goal)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE flows SET app_id = ?, package = ?, name = ?, intent = ?, source = ?, pinned = ?,
			sensitive = ?, allow_sensitive = ?, updated = ?, goal = ?, version = ?, fail_streak = ? WHERE id = ?`,
			g.AppID, g.Package, g.Name, g.Intent, g.Source, g.Pinned, g.Sensitive, g.AllowSensitive, toMS(g.Updated),
			goal, g.Version, g.FailStreak, g.ID)
		if err != nil {
			return nameConflict(op, g, err)
		}
		for _, t := range []string{"flow_steps", "flow_slots", "flow_commands"} {
			if _, err := tx.ExecContext(ctx, `DELETE FROM `+t+` WHERE flow_id = ?`, g.ID); err != nil {
				return err
			}
		}
		if err := insertFlowParts(ctx, tx, g); err != nil {
			return err
		}
		if !newVersion {
			return nil
		}
		return insertVersion(ctx, tx, g, reason)
	})
	if err != nil {
		return wrap(op, err)
	}
	*f = *g
	return nil
}

// cloneFlow copies f deeply enough that changing the copy's slices leaves
// f alone (f changes only when the write succeeds).
func cloneFlow(f *Flow) *Flow {
	g := *f
	g.Steps = append([]Step(nil), f.Steps...)
	g.Slots = append([]Slot(nil), f.Slots...)
	g.Commands = append([]string(nil), f.Commands...)
	if f.Goal != nil {
		goal := cloneGoal(*f.Goal)
		g.Goal = &goal
	}
	return &g
}

// RenameFlow sets the name of flow id. ErrInvalid: empty name; ErrNotFound:
// no such flow; ErrConflict: another flow of the app has that name.
func (s *Store) RenameFlow(ctx context.Context, id int64, name string) error {
	const op = "RenameFlow"
	if name == "" {
		return errf(op, ErrInvalid, "name: empty")
	}
	err := s.updateOne(ctx, op, fmt.Sprintf("flow %d", id), `UPDATE flows SET name = ?, updated = ? WHERE id = ?`, name, toMS(now()), id)
	if e, ok := err.(*Error); ok && e.Kind == ErrConflict {
		return errf(op, ErrConflict, "another flow of the app of flow %d is named %q", id, name)
	}
	return err
}

// DeleteFlow deletes flow id with its steps, slots and commands; runs that
// used it keep their log entry (FlowID becomes 0). ErrNotFound: no such
// flow.
func (s *Store) DeleteFlow(ctx context.Context, id int64) error {
	return s.updateOne(ctx, "DeleteFlow", fmt.Sprintf("flow %d", id), `DELETE FROM flows WHERE id = ?`, id)
}

// AddFlowCommand records that command ran flow id (task knowledge); a
// command already recorded is not repeated. ErrInvalid: empty command;
// ErrNotFound: no such flow.
func (s *Store) AddFlowCommand(ctx context.Context, id int64, command string) error {
	const op = "AddFlowCommand"
	if command == "" {
		return errf(op, ErrInvalid, "command: empty")
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM flows WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return errf(op, ErrNotFound, "flow %d", id)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO flow_commands (flow_id, command) VALUES (?, ?) ON CONFLICT DO NOTHING`, id, command)
		return err
	})
	return wrap(op, err)
}

// RecordFlowUse counts one use of flow id, successful or not: a success
// resets the failure streak, a failure lengthens it (Flow.Healthy).
// ErrNotFound: no such flow.
func (s *Store) RecordFlowUse(ctx context.Context, id int64, success bool) error {
	set := "failures = failures + 1, fail_streak = fail_streak + 1"
	if success {
		set = "successes = successes + 1, fail_streak = 0"
	}
	return s.updateOne(ctx, "RecordFlowUse", fmt.Sprintf("flow %d", id),
		`UPDATE flows SET uses = uses + 1, `+set+` WHERE id = ?`, id)
}

// UndoFlowFailure takes back one failure RecordFlowUse counted for flow
// id (its failure count and streak, not the use), for a failure that says
// nothing of the flow: the evaluation's simulated phone stops where its
// recording ends (a choice it never recorded), which a phone would not.
// ErrNotFound: no such flow.
func (s *Store) UndoFlowFailure(ctx context.Context, id int64) error {
	return s.updateOne(ctx, "UndoFlowFailure", fmt.Sprintf("flow %d", id),
		`UPDATE flows SET failures = max(failures - 1, 0), fail_streak = max(fail_streak - 1, 0) WHERE id = ?`, id)
}

// insertAnswers writes f's answers (f.ID set) for its package, replacing
// another flow's answer for the same command: the last one written is the
// owner's word.
func insertAnswers(ctx context.Context, tx *sql.Tx, f *Flow) error {
	if len(f.Answers) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO flow_answers (package, command, flow_id, slots, created) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (package, command) DO UPDATE SET flow_id = excluded.flow_id, slots = excluded.slots, created = excluded.created`)
	if err != nil {
		return err
	}
	defer st.Close()
	t := now().UnixMilli()
	for i, a := range f.Answers {
		slots := a.Slots
		if slots == nil {
			slots = map[string]string{}
		}
		js, err := json.Marshal(slots)
		if err != nil {
			return fmt.Errorf("answers[%d].slots: %w", i, err)
		}
		if _, err := st.ExecContext(ctx, f.Package, a.Command, f.ID, string(js), t); err != nil {
			return fmt.Errorf("answers[%d]: %w", i, err)
		}
	}
	return nil
}

// newToken returns 128 random bits as 32 hex digits.
func newToken() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("flow token: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// stepsSensitive reports whether any step is marked sensitive.
func stepsSensitive(steps []Step) bool {
	for _, s := range steps {
		if s.Sensitive {
			return true
		}
	}
	return false
}

// SetFlowAllowSensitive records the owner's standing answer for the
// sensitive steps of flow id: allow means "don't ask again". ErrNotFound:
// no such flow.
func (s *Store) SetFlowAllowSensitive(ctx context.Context, id int64, allow bool) error {
	return s.updateOne(ctx, "SetFlowAllowSensitive", fmt.Sprintf("flow %d", id),
		`UPDATE flows SET allow_sensitive = ?, updated = ? WHERE id = ?`, allow, toMS(now()), id)
}

// marshalLabels writes an option group as a JSON array, "" for none.
func marshalLabels(labels []string) (string, error) {
	if len(labels) == 0 {
		return "", nil
	}
	b, err := json.Marshal(labels)
	return string(b), err
}
