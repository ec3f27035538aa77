package graphplan_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// BenchmarkPlanStep times one graph-planner decision on the start screen
// of every recorded task (all apps imported), as the engine asks for it.
func BenchmarkPlanStep(b *testing.B) {
	ctx := context.Background()
	d, err := droidtask.Load(shared.Path(b, "droidtask"))
	if err != nil {
		b.Fatal(err)
	}
	st, err := knowledge.Open(ctx, filepath.Join(b.TempDir(), "k.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	type state struct {
		ps   daemon.PlanState
		task string
	}
	var states []state
	for _, app := range d.AppNames() {
		g, _, err := d.ExplorationGraph(app)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.ImportGraph(ctx, *g); err != nil {
			b.Fatal(err)
		}
		a, err := st.AppByPackage(ctx, d.Apps[app].MainPackage)
		if err != nil {
			b.Fatal(err)
		}
		for _, t := range d.AppTasks(app) {
			s, err := d.State(app, t.StartState)
			if err != nil {
				b.Fatal(err)
			}
			states = append(states, state{task: t.ID, ps: daemon.PlanState{Command: t.Instruction, Package: a.Package,
				AppID: a.ID, Screen: s, Elements: screen.Elements(s), Print: screen.Fingerprint(s), StepLimit: 20}})
		}
	}
	p := graphplan.New(st)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		ps := s.ps
		if _, err := p.Next(ctx, &ps); err != nil {
			b.Fatalf("%s: %v", s.task, err)
		}
	}
}
