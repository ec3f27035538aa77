// Package demotest sets up the built-in demo phone for tests: the
// simulated phone and a knowledge store in the test's temporary directory,
// optionally with the demo app's explored UI graph imported.
package demotest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// New returns the demo phone on its start screen and a fresh store, closed
// when the test ends; withGraph imports the demo app's exploration graph.
func New(t testing.TB, withGraph bool) (*sim.Phone, *knowledge.Store) {
	t.Helper()
	ctx := context.Background()
	data, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(data, demo.App)
	if err != nil {
		t.Fatal(err)
	}
	st, err := knowledge.Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if withGraph {
		g, _, err := data.ExplorationGraph(demo.App)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.ImportGraph(ctx, *g); err != nil {
			t.Fatal(err)
		}
	}
	return phone, st
}
