package graphplan_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// planStates imports every recorded app into a fresh store and returns
// the plan state of every task's start screen.
func planStates(b *testing.B) (*knowledge.Store, []benchState) {
	ctx := context.Background()
	d, err := droidtask.Load(shared.Path(b, "droidtask"))
	if err != nil {
		b.Fatal(err)
	}
	st := knowledgetest.Open(b)
	var states []benchState
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
			states = append(states, benchState{task: t.ID, ps: daemon.PlanState{Command: t.Instruction, Package: a.Package,
				AppID: a.ID, Screen: s, Elements: screen.Elements(s), Print: screen.Fingerprint(s), StepLimit: 20}})
		}
	}
	return st, states
}

type benchState struct {
	ps   daemon.PlanState
	task string
}

// BenchmarkPlanStep times one graph-planner decision on the start screen
// of every recorded task (all apps imported), as the engine asks for it:
// with words only, and with the on-device model (daemon/bert) once every
// element text of the apps is embedded (the per-step cost after an app's
// first step; skipped without the model files).
func BenchmarkPlanStep(b *testing.B) {
	ctx := context.Background()
	for _, withModel := range []bool{false, true} {
		name := "words"
		if withModel {
			name = "model"
		}
		b.Run(name, func(b *testing.B) {
			st, states := planStates(b)
			p := graphplan.New(st)
			if withModel {
				m, err := bert.LoadDefault()
				if err != nil {
					b.Skipf("model files absent (scripts/fetch-model.sh): %v", err)
				}
				p.UseEmbedder(m)
				for _, s := range states { // warm: every app's texts embedded
					ps := s.ps
					if _, err := p.Next(ctx, &ps); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := states[i%len(states)]
				ps := s.ps
				if _, err := p.Next(ctx, &ps); err != nil {
					b.Fatalf("%s: %v", s.task, err)
				}
			}
		})
	}
}

// BenchmarkFirstStepModel times an app's first graph-planner decision with
// the on-device model and nothing cached: every element text of the app's
// graph and screen is embedded in batches and written to the store.
// Reports element texts per second (skipped without the model files).
func BenchmarkFirstStepModel(b *testing.B) {
	ctx := context.Background()
	m, err := bert.LoadDefault()
	if err != nil {
		b.Skipf("model files absent (scripts/fetch-model.sh): %v", err)
	}
	st, states := planStates(b)
	texts := 0
	var dur time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := states[i%len(states)]
		var n atomic.Int64
		p := graphplan.New(st)
		p.UseEmbedder(semantic.Func{Model: fmt.Sprintf("%s#%d", m.EmbedModel(), i), // a fresh cache key: nothing cached
			Fn: func(ctx context.Context, ts []string) ([][]float32, error) {
				n.Add(int64(len(ts)))
				return m.Embed(ctx, ts)
			}})
		ps := s.ps
		b.StartTimer()
		t0 := time.Now()
		if _, err := p.Next(ctx, &ps); err != nil {
			b.Fatalf("%s: %v", s.task, err)
		}
		dur += time.Since(t0)
		texts += int(n.Load())
	}
	b.ReportMetric(float64(texts)/dur.Seconds(), "texts/s")
	b.ReportMetric(float64(texts)/float64(b.N), "texts/op")
}
