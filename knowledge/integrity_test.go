package knowledge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestSecurityDamagedStore (issue 10, item 7): a store damaged inside its
// pages, or a file that is not a database, is reported when it opens
// (ErrDamaged) instead of being used; Recover moves it aside and a fresh
// store opens.
func TestSecurityDamagedStore(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name    string
		corrupt func(t *testing.T, path string)
	}{
		{"garbage inside the pages", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			st, _ := f.Stat()
			junk := make([]byte, 4096)
			for i := range junk {
				junk[i] = byte(i*7 + 3)
			}
			// every page after the first two: the b-trees of the tables
			for off := int64(2 * 4096); off+4096 <= st.Size(); off += 3 * 4096 {
				if _, err := f.WriteAt(junk, off); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"not a database", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte("this is not an SQLite file, it is plain text written over it......."), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.db")
			s, err := Open(ctx, path)
			isKind(t, err, nil)
			for i := 0; i < 200; i++ {
				f := sampleFlow("com.example.a", fmt.Sprintf("flow %d", i), 5, 1)
				isKind(t, s.SaveFlow(ctx, &f), nil)
			}
			isKind(t, s.Close(), nil)
			tt.corrupt(t, path)

			_, err = Open(ctx, path)
			if !errors.Is(err, ErrDamaged) {
				t.Fatalf("Open of a damaged store: err %v, want ErrDamaged", err)
			}
			rec, err := Recover(ctx, path)
			isKind(t, err, nil)
			if _, err := os.Stat(rec.MovedTo); err != nil {
				t.Fatalf("the damaged file was not kept at %q: %v", rec.MovedTo, err)
			}
			fresh, err := Open(ctx, path)
			isKind(t, err, nil)
			defer fresh.Close()
			if fs, _ := fresh.Flows(ctx, FlowFilter{}); len(fs) != 0 {
				t.Fatalf("the fresh store has %d flows", len(fs))
			}
			if rec.FlowsExport != "" {
				b, err := os.ReadFile(rec.FlowsExport)
				isKind(t, err, nil)
				flows, err := ParseFlows(b)
				isKind(t, err, nil)
				if len(flows) != rec.Flows {
					t.Fatalf("export holds %d flows, Recover said %d", len(flows), rec.Flows)
				}
			}
			t.Logf("recovered: %+v", rec)
		})
	}
}

// BenchmarkOpenQuickCheck is the cost of opening a store of 10,000 flows,
// PRAGMA quick_check included (the figure reported for issue 10).
func BenchmarkOpenQuickCheck(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "k.db")
	s, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	seedFlows(b, s, 10000)
	s.Close()
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/(1<<20), "MB-file")
	b.Run("open", func(b *testing.B) {
		for b.Loop() {
			s, err := Open(ctx, path)
			if err != nil {
				b.Fatal(err)
			}
			s.Close()
		}
	})
	b.Run("quick_check", func(b *testing.B) {
		s, err := Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		for b.Loop() {
			if err := s.check(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
