package bert

import (
	"context"
	"fmt"
	"math/rand/v2"
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

// BenchmarkDense: one dense layer of MiniLM's shapes on the 10 tokens of a
// typical command, float32 (linear.c) against int8 weights (quantizing
// the activations included; qlinear.c). Reports multiply-adds per second.
func BenchmarkDense(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, sz := range []struct{ n, in, out int }{{10, 384, 1152}, {10, 384, 1536}, {10, 1536, 384}, {64, 384, 1536}} {
		x := randVec(r, sz.n*sz.in)
		w := randVec(r, sz.out*sz.in)
		bias := randVec(r, sz.out)
		q, ws := quantizeRows(w, sz.out, sz.in)
		layers := []struct {
			name string
			d    dense
		}{
			{"fp32", &linear{in: sz.in, out: sz.out, wt: transpose(w, sz.out, sz.in), b: bias}},
			{"int8", &qlinear{in: sz.in, out: sz.out, w: q, ws: ws, b: bias}},
		}
		for _, l := range layers {
			b.Run(fmt.Sprintf("%dx%dx%d/%s", sz.n, sz.in, sz.out, l.name), func(b *testing.B) {
				y := make([]float32, sz.n*sz.out)
				for i := 0; i < b.N; i++ {
					l.d.apply(x, sz.n, y)
				}
				b.ReportMetric(float64(b.N)*float64(sz.n*sz.in*sz.out)/b.Elapsed().Seconds()/1e9, "GMAC/s")
			})
		}
	}
}
