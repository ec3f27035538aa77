package bert

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLinearQ checks the build's int8 kernel (C with cgo: NEON, with and
// without the dot-product extension, or SSE2) and the Go kernel against a
// plain float64 reference, at sizes around the block shapes (4 rows; 2 or
// 4 columns; 8 or 16 inputs a step) and with the extreme values the int32
// sums must hold (|w| = 127, |x| = ±actLevels(in)).
func TestLinearQ(t *testing.T) {
	t.Logf("arm64 dot-product kernel in use: %v", linearQDot())
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name       string
		n, in, out int
		extreme    bool
	}{
		{"one", 1, 1, 1, false},
		{"tails everywhere", 7, 37, 13, false},
		{"blocks exactly", 8, 32, 8, false},
		{"MiniLM attention", 10, 384, 384 * 3, false},
		{"MiniLM output", 5, 1536, 384, false},
		{"extremes", 6, 1536, 5, true},
		{"extremes, short rows", 5, 384, 3, true},
		{"no rows", 0, 16, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lvl := actLevels(tc.in)
			xq := make([]int16, tc.n*tc.in)
			w := make([]int8, tc.out*tc.in)
			for i := range xq {
				xq[i] = int16(r.IntN(int(2*lvl+1)) - int(lvl))
				if tc.extreme {
					xq[i] = int16(lvl) * int16(1-2*(i%2))
				}
			}
			for i := range w {
				w[i] = int8(r.IntN(255) - 127)
				if tc.extreme {
					w[i] = int8(127 * (1 - 2*(i%2)))
				}
			}
			xs, ws, b := randScales(r, tc.n), randScales(r, tc.out), randVec(r, tc.out)
			want := make([]float64, tc.n*tc.out)
			for i := 0; i < tc.n; i++ {
				for o := 0; o < tc.out; o++ {
					var s float64
					for k := 0; k < tc.in; k++ {
						s += float64(xq[i*tc.in+k]) * float64(w[o*tc.in+k])
					}
					want[i*tc.out+o] = s*float64(xs[i])*float64(ws[o]) + float64(b[o])
				}
			}
			kernels := map[string]func([]float32){
				"linearQ":   func(y []float32) { linearQ(xq, xs, tc.n, tc.in, w, ws, b, tc.out, y) },
				"baseline":  func(y []float32) { linearQImpl(1, xq, xs, tc.n, tc.in, w, ws, b, tc.out, y) },
				"linearQGo": func(y []float32) { linearQGo(xq, xs, tc.n, tc.in, w, ws, b, tc.out, y) },
			}
			for name, k := range kernels {
				got := make([]float32, len(want))
				k(got)
				for i := range want {
					// float32 rounding of the sum, the scales and the bias
					tol := 1e-5 * math.Max(1, math.Abs(want[i]))
					if d := math.Abs(float64(got[i]) - want[i]); d > tol {
						t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
					}
				}
			}
		})
	}
}

// TestQlinearApply: a quantized layer against the float32 layer it was
// quantized from. The error of each output is bounded by the rounding of
// the weights (|Δw| <= ws/2) and of the activations (|Δx| <= xs/2):
// Σ_i |x_i|·ws/2 + |w_i|·xs/2 + ws·xs/4.
func TestQlinearApply(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sz := range []struct{ n, in, out int }{{1, 384, 384}, {9, 1536, 384}, {4, 5, 3}} {
		x := randVec(r, sz.n*sz.in)
		w := randVec(r, sz.out*sz.in) // [out][in]
		b := randVec(r, sz.out)
		q, ws := quantizeRows(w, sz.out, sz.in)
		ql := qlinear{in: sz.in, out: sz.out, w: q, ws: ws, b: b}
		got := make([]float32, sz.n*sz.out)
		ql.apply(x, sz.n, got)
		lvl := float64(actLevels(sz.in))
		for i := 0; i < sz.n; i++ {
			var mx float64
			for k := 0; k < sz.in; k++ {
				mx = math.Max(mx, math.Abs(float64(x[i*sz.in+k])))
			}
			xs := mx / lvl
			for o := 0; o < sz.out; o++ {
				want, bound := float64(b[o]), 1e-4
				for k := 0; k < sz.in; k++ {
					xv, wv := float64(x[i*sz.in+k]), float64(w[o*sz.in+k])
					want += xv * wv
					bound += math.Abs(xv)*float64(ws[o])/2 + math.Abs(wv)*xs/2 + float64(ws[o])*xs/4
				}
				if d := math.Abs(float64(got[i*sz.out+o]) - want); d > bound {
					t.Fatalf("%v: y[%d][%d] = %v, want %v ± %.3g", sz, i, o, got[i*sz.out+o], want, bound)
				}
			}
		}
	}
}

func TestActLevels(t *testing.T) {
	for _, in := range []int{1, 384, 1536, 3072, 100000} {
		lvl := actLevels(in)
		if lvl < 1 || lvl > 127*128 || int64(lvl)*127*int64(in) > math.MaxInt32 {
			t.Errorf("actLevels(%d) = %d: sums may overflow int32, or x>>7 int8", in, lvl)
		}
	}
	if got := actLevels(1536); got != 11008 {
		t.Errorf("actLevels(1536) = %d, want 11008", got)
	}
}

// TestQuantizeActs: the build's quantizer (C with cgo) and the Go one give
// the expected integers (ties to even) and scales, and the same on random
// rows of every length around the vector widths.
func TestQuantizeActs(t *testing.T) {
	x := []float32{0, 0, 0, 0, 1, -2, 0.5, 0, 3, -3, 1.5, 0, 4, 0.02, 0.06, -0.1}
	want := []int16{0, 0, 0, 0, 50, -100, 25, 0, 100, -100, 50, 0, 100, 0, 2, -2}
	wantS := []float32{0, 0.02, 0.03, 0.04}
	for name, q := range map[string]func([]float32, int, int, int32, []int16, []float32){"build": quantizeActs, "go": quantizeActsGo} {
		xq := make([]int16, len(x))
		xs := make([]float32, 4)
		q(x, 4, 4, 100, xq, xs)
		if !slices.Equal(xq, want) || !slices.Equal(xs, wantS) {
			t.Errorf("%s: xq = %v, xs = %v; want %v, %v", name, xq, xs, want, wantS)
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	for in := 1; in <= 40; in++ {
		n := 3
		x := randVec(r, n*in)
		lvl := actLevels(in)
		a, b := make([]int16, n*in), make([]int16, n*in)
		as, bs := make([]float32, n), make([]float32, n)
		quantizeActs(x, n, in, lvl, a, as)
		quantizeActsGo(x, n, in, lvl, b, bs)
		if !slices.Equal(a, b) || !slices.Equal(as, bs) {
			t.Fatalf("in %d: build %v %v, go %v %v", in, a, as, b, bs)
		}
	}
}

func TestFuseQ(t *testing.T) {
	a := qlinear{in: 2, out: 1, w: []int8{1, 2}, ws: []float32{1}, b: []float32{10}}
	b := qlinear{in: 2, out: 2, w: []int8{3, 4, 5, 6}, ws: []float32{1, 2}, b: []float32{20, 30}}
	f := fuseQ(a, b)
	if f.out != 3 || len(f.w) != 6 || len(f.ws) != 3 || len(f.b) != 3 {
		t.Fatalf("fused = %+v", f)
	}
	y := make([]float32, 3)
	f.apply([]float32{1, 1}, 1, y)
	if want := []float32{13, 27, 52}; math.Abs(float64(y[0]-want[0])) > 1e-3 || math.Abs(float64(y[1]-want[1])) > 1e-3 || math.Abs(float64(y[2]-want[2])) > 1e-3 {
		t.Fatalf("fused = %v, want %v", y, want)
	}
	if g := fuseQ(a, qlinear{in: 2, out: 1}); g.w != nil {
		t.Fatalf("fusing a layer without weights = %+v, want the zero layer", g)
	}
}

func randScales(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.Float64()*1e-3 + 1e-5)
	}
	return v
}
