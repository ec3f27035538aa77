// Package knowledgetest opens knowledge stores for tests: a fresh SQLite
// file (all migrations applied) in the test's temporary directory, closed
// when the test ends. It owns no schema or data of its own and is
// imported by tests only, never by the product.
package knowledgetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Open opens a new store in tb.TempDir() and closes it at tb's cleanup,
// failing tb when either fails.
func Open(tb testing.TB) *knowledge.Store {
	tb.Helper()
	st, err := knowledge.Open(context.Background(), filepath.Join(tb.TempDir(), "k.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := st.Close(); err != nil {
			tb.Error(err)
		}
	})
	return st
}
