package bert

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkEmbedCommand: one short command, embedded alone (the per-command
// cost of flow matching; the goal is 30 ms on a phone-class arm64
// core). One sub-benchmark per precision.
func BenchmarkEmbedCommand(b *testing.B) {
	for _, p := range []Precision{FP32, Int8} {
		b.Run(string(p), func(b *testing.B) {
			m := testModel(b, p)
			ctx := context.Background()
			texts := []string{"could you turn on dark mode in the settings please"}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := m.Embed(ctx, texts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEmbedLabels: a screen's worth of element labels in one batch;
// reports labels per second.
func BenchmarkEmbedLabels(b *testing.B) {
	for _, p := range []Precision{FP32, Int8} {
		b.Run(string(p), func(b *testing.B) {
			m := testModel(b, p)
			ctx := context.Background()
			labels := make([]string, 64)
			for i := range labels {
				labels[i] = fmt.Sprintf("Settings item %d: show notifications", i)
			}
			b.ResetTimer()
			start := time.Now()
			for i := 0; i < b.N; i++ {
				if _, err := m.Embed(ctx, labels); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(labels))/time.Since(start).Seconds(), "labels/s")
		})
	}
}

// BenchmarkLoad: reading the model files (config, vocabulary, weights).
func BenchmarkLoad(b *testing.B) {
	for _, p := range []Precision{FP32, Int8} {
		b.Run(string(p), func(b *testing.B) {
			testModel(b, p) // skips when absent
			dir, _ := FindDir()
			for i := 0; i < b.N; i++ {
				if _, err := Load(dir, p, p.CacheKey()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
