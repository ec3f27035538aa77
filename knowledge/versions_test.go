package knowledge

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"
)

// TestFlowVersions: every change of route is a version; the old ones are
// kept; a rollback is itself a new version; a rename is not a version.
func TestFlowVersions(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.mail", "send", 3, 1)
	f.Goal = &Goal{Screen: "fp-3", Activity: "Main", Labels: []string{"inbox"}}
	isKind(t, s.SaveFlow(ctx, &f), nil)
	v1 := append([]Step(nil), f.Steps...)
	if f.Version != 1 {
		t.Fatalf("new flow version %d", f.Version)
	}

	tests := []struct {
		name     string
		change   func(f *Flow) error
		versions int
		reason   string
	}{
		{"same route: no version", func(f *Flow) error { return s.UpdateFlow(ctx, f) }, 1, ReasonLearned},
		{"rename: no version", func(f *Flow) error { return s.RenameFlow(ctx, f.ID, "mail it") }, 1, ReasonLearned},
		{"edited steps", func(f *Flow) error { f.Steps = f.Steps[:2]; return s.UpdateFlow(ctx, f) }, 2, ReasonEdited},
		{"repair", func(f *Flow) error {
			f.Steps = append(f.Steps, Step{Action: "back"})
			return s.ReviseFlow(ctx, f, "repaired: step 3 replaced")
		}, 3, "repaired: step 3 replaced"},
		{"goal only", func(f *Flow) error { f.Goal = &Goal{Screen: "other"}; return s.UpdateFlow(ctx, f) }, 4, ReasonEdited},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cur, err := s.Flow(ctx, f.ID)
			isKind(t, err, nil)
			isKind(t, tc.change(cur), nil)
			h, err := s.FlowHistory(ctx, f.ID)
			isKind(t, err, nil)
			if len(h) != tc.versions || h[len(h)-1].Reason != tc.reason || !h[len(h)-1].Current {
				t.Fatalf("history %+v, want %d versions, last %q and current", h, tc.versions, tc.reason)
			}
			got, _ := s.Flow(ctx, f.ID)
			if got.Version != tc.versions {
				t.Fatalf("flow version %d, want %d", got.Version, tc.versions)
			}
		})
	}
	isKind(t, s.ReviseFlow(ctx, &f, " "), ErrInvalid)

	// a failing streak makes the flow unhealthy; a rollback restores v1
	for i := 0; i < UnhealthyAfter; i++ {
		isKind(t, s.RecordFlowUse(ctx, f.ID, false), nil)
	}
	bad, _ := s.Flow(ctx, f.ID)
	if bad.Healthy() || bad.FailStreak != UnhealthyAfter {
		t.Fatalf("after %d failures: streak %d healthy %v", UnhealthyAfter, bad.FailStreak, bad.Healthy())
	}
	back, err := s.RollbackFlow(ctx, f.ID, 1)
	isKind(t, err, nil)
	got, _ := s.Flow(ctx, f.ID)
	if !reflect.DeepEqual(got.Steps, v1) || got.Goal == nil || got.Goal.Screen != "fp-3" || got.Version != 5 || !got.Healthy() || back.Version != 5 {
		t.Fatalf("rollback: %+v", got)
	}
	h, _ := s.FlowHistory(ctx, f.ID)
	if len(h) != 5 || !strings.HasPrefix(h[4].Reason, ReasonRollback) || h[3].Goal.Screen != "other" {
		t.Fatalf("history after rollback %+v", h)
	}
	_, err = s.RollbackFlow(ctx, f.ID, 9)
	isKind(t, err, ErrNotFound)
	_, err = s.FlowHistory(ctx, 12345)
	isKind(t, err, ErrNotFound)

	// a success ends the streak
	for i := 0; i < UnhealthyAfter; i++ {
		isKind(t, s.RecordFlowUse(ctx, f.ID, false), nil)
	}
	isKind(t, s.RecordFlowUse(ctx, f.ID, true), nil)
	if got, _ := s.Flow(ctx, f.ID); !got.Healthy() {
		t.Fatal("a success did not restore health")
	}
}

// TestMigrationKeepsOldFlowsAsVersionOne: flows saved under schema 0002
// become version 1 of their history, steps intact.
func TestMigrationKeepsOldFlowsAsVersionOne(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.version >= 4 {
			break
		}
		if _, err := db.Exec(m.sql); err != nil {
			t.Fatal(m.name, err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (?, ?, 0)`, m.version, m.name); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO apps (id, package) VALUES (1, 'com.example')`,
		`INSERT INTO flows (id, app_id, package, name, intent, source, created, updated) VALUES (7, 1, 'com.example', 'n', 'do it', 'learned', 1, 2)`,
		`INSERT INTO flow_steps (flow_id, idx, screen, action, target, text, expect, comment) VALUES (7, 0, 'a', 'tap', '{"rid":"x:id/go","class":"Button","text":"Go"}', '', 'b', 'tap Go')`,
		`INSERT INTO flow_steps (flow_id, idx, screen, action, target, text, expect, comment) VALUES (7, 1, 'b', 'back', '{}', '', 'a', '')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	f, err := s.Flow(ctx, 7)
	isKind(t, err, nil)
	h, err := s.FlowHistory(ctx, 7)
	isKind(t, err, nil)
	if len(h) != 1 || h[0].Version != 1 || !h[0].Current || !reflect.DeepEqual(h[0].Steps, f.Steps) || f.Version != 1 {
		t.Fatalf("history %+v\nflow steps %+v", h, f.Steps)
	}
	// an update with the same steps is not a new version
	isKind(t, s.UpdateFlow(ctx, f), nil)
	if h, _ := s.FlowHistory(ctx, 7); len(h) != 1 {
		t.Fatalf("same steps made a version: %+v", h)
	}
}
