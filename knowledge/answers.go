package knowledge

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Answers to "did you mean": the flow the owner chose for a command that
// matched none word for word, kept apart from the flow's past commands
// (Flow.Commands). A past command is lexical evidence for every later
// command; a chosen one is the owner's word for that command only.

// RememberAnswer records that the owner chose flow id, with slots, for
// command in package pkg, replacing an earlier answer for the same
// command. The caller normalises command (daemon: lower case, spaces
// collapsed, secrets redacted). ErrInvalid: empty command; ErrNotFound:
// no such flow.
func (s *Store) RememberAnswer(ctx context.Context, pkg, command string, id int64, slots map[string]string) error {
	const op = "RememberAnswer"
	if command == "" {
		return errf(op, ErrInvalid, "command: empty")
	}
	if slots == nil {
		slots = map[string]string{}
	}
	js, err := json.Marshal(slots)
	if err != nil {
		return errf(op, ErrInvalid, "slots: %v", err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM flows WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return errf(op, ErrNotFound, "flow %d", id)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO flow_answers (package, command, flow_id, slots, created) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (package, command) DO UPDATE SET flow_id = excluded.flow_id, slots = excluded.slots, created = excluded.created`,
			pkg, command, id, string(js), time.Now().UnixMilli())
		return err
	})
	return wrap(op, err)
}

// Answer returns the flow the owner chose for command in package pkg
// (RememberAnswer) and the slot values of that replay. ErrNotFound: no
// answer for it (or its flow was deleted).
func (s *Store) Answer(ctx context.Context, pkg, command string) (int64, map[string]string, error) {
	const op = "Answer"
	var id int64
	var js string
	err := s.read(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `SELECT flow_id, slots FROM flow_answers WHERE package = ? AND command = ?`, pkg, command).Scan(&id, &js)
	})
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil, errf(op, ErrNotFound, "answer for %q", command)
	}
	if err != nil {
		return 0, nil, wrap(op, err)
	}
	slots := map[string]string{}
	if err := json.Unmarshal([]byte(js), &slots); err != nil {
		return 0, nil, wrap(op, fmt.Errorf("slots of the answer for %q: %w", command, err))
	}
	return id, slots, nil
}
