package bert

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLinear checks the build's kernel (C with cgo) against a naive
// y = x·W + b, and the Go kernel too, at sizes around the block width.
func TestLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sz := range []struct{ n, in, out int }{{1, 3, 5}, {7, 384, 384}, {linearRows + 5, 20, 30}, {3, 40, linearCols + 13}, {0, 4, 4}} {
		x := randVec(r, sz.n*sz.in)
		w := randVec(r, sz.out*sz.in) // [out][in], as stored in the checkpoint
		b := randVec(r, sz.out)
		want := make([]float32, sz.n*sz.out)
		for t := 0; t < sz.n; t++ {
			for o := 0; o < sz.out; o++ {
				s := float64(b[o])
				for i := 0; i < sz.in; i++ {
					s += float64(x[t*sz.in+i]) * float64(w[o*sz.in+i])
				}
				want[t*sz.out+o] = float32(s)
			}
		}
		l := linear{in: sz.in, out: sz.out, wt: transpose(w, sz.out, sz.in), b: b}
		got := make([]float32, len(want))
		l.apply(x, sz.n, got)
		goGot := make([]float32, len(want))
		linearGo(x, sz.n, sz.in, l.wt, b, sz.out, goGot)
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-4 {
				t.Fatalf("%v: apply[%d] = %v, want %v", sz, i, got[i], want[i])
			}
			if d := math.Abs(float64(goGot[i] - want[i])); d > 1e-4 {
				t.Fatalf("%v: linearGo[%d] = %v, want %v", sz, i, goGot[i], want[i])
			}
		}
	}
}

func TestFuse(t *testing.T) {
	a := linear{in: 2, out: 1, wt: []float32{1, 2}, b: []float32{10}}
	b := linear{in: 2, out: 2, wt: []float32{3, 4, 5, 6}, b: []float32{20, 30}}
	f := fuse(a, b)
	y := make([]float32, 3)
	f.apply([]float32{1, 1}, 1, y)
	if want := []float32{13, 28, 40}; y[0] != want[0] || y[1] != want[1] || y[2] != want[2] {
		t.Fatalf("fused = %v, want %v", y, want)
	}
}

func randVec(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}
