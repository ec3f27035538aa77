package knowledge

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newStore opens a fresh store in t.TempDir and closes it at cleanup.
func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// isKind checks err against a typed error (nil kind: err must be nil).
func isKind(t *testing.T, err, kind error) {
	t.Helper()
	if kind == nil {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want kind %v", err, kind)
	}
	var ke *Error
	if !errors.As(err, &ke) {
		t.Fatalf("error %T is not *Error", err)
	}
}

func TestOpenMigrates(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sub dir?#%", "k.db")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		t.Fatalf("migrations: %v, %d", err, len(ms))
	}
	if SchemaVersion() != ms[len(ms)-1].version {
		t.Fatalf("SchemaVersion %d", SchemaVersion())
	}
	for round := 0; round < 3; round++ { // re-opening is idempotent
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		v, err := s.AppliedVersion(ctx)
		if err != nil || v != SchemaVersion() {
			t.Fatalf("round %d: applied version %d, %v; want %d", round, v, err, SchemaVersion())
		}
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(ms) {
			t.Fatalf("round %d: %d migration rows (%v), want %d", round, n, err, len(ms))
		}
		var mode string
		if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Fatalf("journal_mode %q, %v", mode, err)
		}
		for _, q := range []struct{ pragma, want string }{{"foreign_keys", "1"}, {"synchronous", "1"}, {"busy_timeout", "5000"}} {
			var got string
			if err := s.db.QueryRow(`PRAGMA ` + q.pragma).Scan(&got); err != nil || got != q.want {
				t.Fatalf("writer %s = %q (%v), want %s", q.pragma, got, err, q.want)
			}
			if err := s.rdb.QueryRow(`PRAGMA ` + q.pragma).Scan(&got); err != nil || (q.pragma != "synchronous" && got != q.want) {
				t.Fatalf("reader %s = %q (%v), want %s", q.pragma, got, err, q.want)
			}
		}
		// readers cannot write
		if _, err := s.rdb.Exec(`INSERT INTO settings (key, value) VALUES ('a', 'b')`); err == nil {
			t.Fatal("reader connection wrote")
		}
		if _, err := s.UpsertApp(ctx, "com.example.round", ""); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	apps, err := s.Apps(ctx)
	if err != nil || len(apps) != 1 {
		t.Fatalf("apps %v, %v: data lost across re-open", apps, err)
	}
	// A schema newer than the build is refused, not clobbered.
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name, applied) VALUES (9999, 'future', 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := Open(ctx, path); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("open of a newer schema: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	notDB := filepath.Join(dir, "not.db")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("this is not a database file ", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		kind error
	}{
		{"empty path", "", ErrInvalid},
		{"missing directory", filepath.Join(dir, "nope", "k.db"), nil},
		{"not a database", notDB, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Open(ctx, tt.path)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Fatalf("error %v, want %v", err, tt.kind)
			}
		})
	}
	// the bad file is left as it was
	b, _ := os.ReadFile(notDB)
	if !strings.HasPrefix(string(b), "this is not") {
		t.Fatal("Open changed a file that is not a database")
	}
}

func TestStatsAndSize(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"apps", "screens", "elements", "transitions", "flows", "flow_steps", "flow_slots",
		"flow_commands", "lessons", "runs", "embeddings", "settings"} {
		if n, ok := st[table]; !ok || n != 0 {
			t.Fatalf("Stats[%s] = %d, %v on an empty store", table, n, ok)
		}
	}
	f := sampleFlow("com.example.app", "f", 3, 2)
	if err := s.SaveFlow(ctx, &f); err != nil {
		t.Fatal(err)
	}
	st, err = s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"apps": 1, "flows": 1, "flow_steps": 3, "flow_slots": 2, "flow_commands": 1}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("Stats[%s] = %d, want %d", k, st[k], v)
		}
	}
	size, err := s.Size()
	if err != nil || size <= 0 {
		t.Fatalf("Size %d, %v", size, err)
	}
	if s.Path() == "" || !strings.HasSuffix(s.Path(), "k.db") {
		t.Fatalf("Path %q", s.Path())
	}
}

func TestSettings(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	_, err := s.Setting(ctx, "model")
	isKind(t, err, ErrNotFound)
	isKind(t, s.SetSetting(ctx, "", "x"), ErrInvalid)
	steps := []struct{ key, value string }{{"model", "a"}, {"model", "b"}, {"lang", "de"}, {"empty", ""}}
	for _, st := range steps {
		isKind(t, s.SetSetting(ctx, st.key, st.value), nil)
	}
	want := map[string]string{"model": "b", "lang": "de", "empty": ""}
	got, err := s.Settings(ctx)
	isKind(t, err, nil)
	if len(got) != len(want) {
		t.Fatalf("Settings %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("Settings[%s] = %q, want %q", k, got[k], v)
		}
		one, err := s.Setting(ctx, k)
		if err != nil || one != v {
			t.Fatalf("Setting(%s) = %q, %v", k, one, err)
		}
	}
	isKind(t, s.DeleteSetting(ctx, "lang"), nil)
	isKind(t, s.DeleteSetting(ctx, "lang"), ErrNotFound)
	_, err = s.Setting(ctx, "lang")
	isKind(t, err, ErrNotFound)
}

func TestContextCancelled(t *testing.T) {
	s := newStore(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.UpsertApp(ctx, "com.example.app", ""); err == nil {
		t.Fatal("write with a cancelled context succeeded")
	}
	if _, err := s.Apps(ctx); err == nil {
		t.Fatal("read with a cancelled context succeeded")
	}
	// the store still works
	if _, err := s.UpsertApp(context.Background(), "com.example.app", ""); err != nil {
		t.Fatal(err)
	}
}
