package semantic_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// hashed is an embedder giving each text a fixed 384-dimension vector
// derived from its hash: no model, the cost of everything around it.
func hashed() semantic.Func {
	return semantic.Func{Model: "hashed", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, t := range texts {
			h := fnv.New64a()
			h.Write([]byte(t))
			x := h.Sum64()
			v := make([]float32, 384)
			for k := range v {
				x = x*6364136223846793005 + 1442695040888963407
				v[k] = float32(int32(x>>33)) / (1 << 31)
			}
			out[i] = v
		}
		return out, nil
	}}
}

// BenchmarkRetrieve is one command the lexical matcher missed, against an
// app of 200 flows with 5 texts each (1,000 vectors compared), the
// vectors cached in a store on disk: "store" with a new Rescorer per
// command (every vector read from SQLite), "memory" with one Rescorer
// (Rescorer's in-memory vectors).
func BenchmarkRetrieve(b *testing.B) {
	ctx := context.Background()
	st := knowledgetest.Open(b)
	flows := map[int64]*knowledge.Flow{}
	var pool []int64
	for i := int64(1); i <= 200; i++ {
		f := &knowledge.Flow{ID: i, Intent: fmt.Sprintf("do task number %d", i)}
		for k := range 4 {
			f.Commands = append(f.Commands, fmt.Sprintf("please do task %d the way %d", i, k))
		}
		flows[i] = f
		pool = append(pool, i)
	}
	all := make([]knowledge.Flow, 0, len(flows))
	for _, id := range pool {
		f := *flows[id]
		f.Package = "p"
		all = append(all, f)
	}
	in := semantic.Input{Flows: flows, Pool: pool, Threshold: intent.DefaultThreshold, Scorer: intent.NewMatcher(all)}
	cfg := semantic.MiniLM
	warm := semantic.New(hashed(), st, cfg)
	warm.DecideIn(ctx, "something else entirely", in) // every flow text into the store
	b.Run("store", func(b *testing.B) {
		for b.Loop() {
			semantic.New(hashed(), st, cfg).DecideIn(ctx, "something else entirely", in)
		}
	})
	b.Run("memory", func(b *testing.B) {
		for b.Loop() {
			warm.DecideIn(ctx, "something else entirely", in)
		}
	})
}

// BenchmarkGroundSubstitution is one command whose candidate replaced an
// object word, decided against an app of 200 flows of 5 steps over 40
// screens of 30 labels of 3 words each (the contrast set of screenWords:
// 1,000 screens' labels read, 1,200 distinct), embedder aside.
func BenchmarkGroundSubstitution(b *testing.B) {
	screens := make([]*knowledge.Goal, 40)
	for k := range screens {
		screens[k] = &knowledge.Goal{}
		for l := range 30 {
			screens[k].Labels = append(screens[k].Labels, fmt.Sprintf("setting%d entry%d value%d", k, l, (k+l)%53))
		}
	}
	flows := map[int64]*knowledge.Flow{}
	for i := range 200 {
		f := &knowledge.Flow{ID: int64(i + 1), Package: "org.sample.app", Intent: fmt.Sprintf("same set option %d of page %d", i, i%7)}
		for s := range 5 {
			f.Steps = append(f.Steps, knowledge.Step{Action: "tap", Where: screens[(i+s*7)%len(screens)]})
		}
		flows[f.ID] = f
	}
	cands := []intent.Candidate{{FlowID: 1, Score: intent.DefaultThreshold - 0.05, Substituted: true, Unmatched: []string{"brightness"}, FlowUnmatched: []string{"option"}}}
	r := semantic.New(hashed(), nil, semantic.MiniLM)
	b.ReportAllocs()
	for b.Loop() {
		r.Decide(context.Background(), "same set brightness of page 0", cands, flows, intent.DefaultThreshold)
	}
}

// BenchmarkPickChoice is one choice step a command names by meaning:
// a 10-word command against 12 option labels with the on-device model
// (daemon/bert; skipped when its files are absent). "cold": a new
// Rescorer per pick, so the command's phrases and the labels are embedded
// each time (a command's first choice step); "warm": one Rescorer (the
// same command at a second step, or a replay's second ask).
func BenchmarkPickChoice(b *testing.B) {
	m, err := bert.LoadDefault()
	if err != nil {
		b.Skip("on-device model absent (scripts/fetch-model.sh):", err)
	}
	cfg := semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08}
	command := "could you please switch the map over to the aerial view"
	labels := []string{"Default", "Satellite", "Terrain", "Transit", "Traffic", "Bicycling", "Street view",
		"Wildfires", "Air quality", "3D", "Hybrid", "None"}
	ctx := context.Background()
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			if _, err := semantic.New(m, nil, cfg).PickChoice(ctx, command, labels); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		r := semantic.New(m, nil, cfg)
		for b.Loop() {
			if _, err := r.PickChoice(ctx, command, labels); err != nil {
				b.Fatal(err)
			}
		}
	})
}
