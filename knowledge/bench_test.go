package knowledge

import (
	"context"
	"fmt"
	"testing"
)

// seedFlows saves n synthetic flows (5 steps, 2 slots, 2 commands each)
// across 20 apps.
func seedFlows(b *testing.B, s *Store, n int) {
	ctx := context.Background()
	for i := 0; i < n; i++ {
		f := sampleFlow(fmt.Sprintf("com.example.app%02d", i%20), fmt.Sprintf("flow %d", i), 5, 2)
		f.Commands = []string{fmt.Sprintf("command %d", i), fmt.Sprintf("other wording %d", i)}
		if err := s.SaveFlow(ctx, &f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlows10k loads all of 10,000 flows (50,000 steps) with Flows,
// as matching a command against every saved flow does.
func BenchmarkFlows10k(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	seedFlows(b, s, 10000)
	b.ReportAllocs()
	for b.Loop() {
		fs, err := s.Flows(ctx, FlowFilter{})
		if err != nil || len(fs) != 10000 || len(fs[9999].Steps) != 5 {
			b.Fatalf("%d flows, %v", len(fs), err)
		}
	}
}

// BenchmarkFlowsOneApp loads the 500 flows of one app out of 10,000.
func BenchmarkFlowsOneApp(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	seedFlows(b, s, 10000)
	b.ReportAllocs()
	for b.Loop() {
		fs, err := s.Flows(ctx, FlowFilter{Package: "com.example.app07"})
		if err != nil || len(fs) != 500 {
			b.Fatalf("%d flows, %v", len(fs), err)
		}
	}
}

// BenchmarkSaveFlow saves one 5-step flow per iteration (one transaction).
func BenchmarkSaveFlow(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f := sampleFlow("com.example.app", fmt.Sprintf("flow %d", i), 5, 2)
		if err := s.SaveFlow(ctx, &f); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkImportGraph imports a new app's graph of 1,000 screens, 20,000
// elements and 2,000 transitions per iteration.
func BenchmarkImportGraph(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		b.StopTimer()
		g := localGraph(fmt.Sprintf("com.example.app%d", i), 1000, 20)
		b.StartTimer()
		st, err := s.ImportGraph(ctx, g)
		if err != nil || st.Screens != 1000 {
			b.Fatal(st, err)
		}
		i++
	}
}

// BenchmarkGraph loads a graph of 1,000 screens, 20,000 elements and 2,000
// transitions.
func BenchmarkGraph(b *testing.B) {
	ctx := context.Background()
	s := newStore(b)
	if _, err := s.ImportGraph(ctx, localGraph("com.example.app", 1000, 20)); err != nil {
		b.Fatal(err)
	}
	app, _ := s.AppByPackage(ctx, "com.example.app")
	b.ReportAllocs()
	for b.Loop() {
		g, err := s.Graph(ctx, app.ID)
		if err != nil || len(g.Elements) != 20000 {
			b.Fatal(err)
		}
	}
}
