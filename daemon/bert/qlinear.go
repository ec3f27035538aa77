package bert

import (
	"math"
	"sync"
)

// dense is a dense layer: y = x·W + b for n rows of x.
type dense interface {
	apply(x []float32, n int, y []float32)
}

// qlinear is a dense layer y = x·Wᵀ + b with W in int8, [out][in]
// row-major (the checkpoint's own layout: each output's weights are one
// contiguous row), one float32 scale per output row (Quantize).
type qlinear struct {
	in, out int
	w       []int8
	ws      []float32
	b       []float32
}

// apply computes y = x·Wᵀ + b for n rows of x (l.in floats each) into y
// (l.out floats each): each row of x is quantized to integers with its own
// scale (quantizeActs: C with cgo, Go without), the products with the int8 weights are summed
// exactly in int32 (linearQ: C with cgo, Go without), then rescaled by
// the row's and the output's scales.
func (l *qlinear) apply(x []float32, n int, y []float32) {
	if n == 0 {
		return
	}
	_ = x[n*l.in-1]
	_ = y[n*l.out-1]
	buf := actBufs.Get().(*actBuf)
	defer actBufs.Put(buf)
	if cap(buf.q) < n*l.in {
		buf.q = make([]int16, n*l.in)
	}
	if cap(buf.s) < n {
		buf.s = make([]float32, n)
	}
	xq, xs := buf.q[:n*l.in], buf.s[:n]
	quantizeActs(x, n, l.in, actLevels(l.in), xq, xs)
	linearQ(xq, xs, n, l.in, l.w, l.ws, l.b, l.out, y)
}

// actBuf holds the quantized activations of one apply, reused through
// actBufs (a batch of labels would otherwise allocate megabytes per layer).
type actBuf struct {
	q []int16
	s []float32
}

var actBufs = sync.Pool{New: func() any { return new(actBuf) }}

// actLevels is the largest |integer| an activation row of in values is
// quantized to: 127·128 = 16,256 (so x = 128·hi + lo with hi in
// [-127, 127] and lo in [0, 127], two int8 operands for the arm64
// dot-product kernel), but few enough that a sum of in products with int8
// weights (|w| <= 127) cannot leave int32 — min(16256, (2^31-1)/(127·in)),
// 11,008 for MiniLM's 1,536-wide layer. Activations are not quantized to
// int8 like the weights: per-token int8 activations cost MiniLM's vectors
// up to 1.6% of cosine (0.984 against float32 at the least over the golden
// sentences and the 127 DroidTask instructions; 0.99996 at 12 bits), since
// a few hidden dimensions carry values far larger than the rest.
func actLevels(in int) int32 {
	return int32(min(127*128, (1<<31-1)/(127*max(in, 1))))
}

// quantizeActsGo quantizes each of the n rows of x (in floats)
// symmetrically with its own scale, the dynamic per-token quantization of
// activations: xs[t] = max|x[t]|/lvl, xq = x·(lvl/max|x[t]|) rounded to
// nearest, ties to even, in [-lvl, lvl] (zeros and scale 0 for a row of
// zeros). It is the CGO_ENABLED=0 quantizer and the reference of the C
// one (wf_quantize), which gives the same integers and scales.
func quantizeActsGo(x []float32, n, in int, lvl int32, xq []int16, xs []float32) {
	fl := float32(lvl)
	for t := 0; t < n; t++ {
		row := x[t*in : (t+1)*in]
		dst := xq[t*in : (t+1)*in]
		var mx float32
		for _, v := range row {
			mx = max(mx, float32(math.Abs(float64(v))))
		}
		xs[t] = mx / fl
		if mx == 0 {
			clear(dst)
			continue
		}
		inv := fl / mx
		for i, v := range row {
			p := v * inv
			dst[i] = int16(math.RoundToEven(float64(max(-fl, min(fl, p)))))
		}
	}
}

// linearQGo is y[t][o] = float32(Σ_i xq[t][i]·w[o][i])·(xs[t]·ws[o]) + b[o]
// for n rows, w [out][in]: the CGO_ENABLED=0 kernel and the reference the
// C kernel (qlinear.c) is tested against. |w| <= 127 and
// |xq| <= actLevels(in), so the int32 sums are exact.
func linearQGo(xq []int16, xs []float32, n, in int, w []int8, ws, b []float32, out int, y []float32) {
	for t := 0; t < n; t++ {
		xr := xq[t*in : (t+1)*in]
		yr := y[t*out : (t+1)*out]
		for o := range yr {
			wr := w[o*in : (o+1)*in]
			wr = wr[:len(xr)]
			var acc int32
			for i, v := range xr {
				acc += int32(v) * int32(wr[i])
			}
			yr[o] = float32(acc)*(xs[t]*ws[o]) + b[o]
		}
	}
}

// fuseQ puts int8 dense layers with the same input side by side: their
// outputs are concatenated (rows of W one after the other).
func fuseQ(ls ...qlinear) qlinear {
	f := qlinear{in: ls[0].in}
	for _, l := range ls {
		if l.w == nil || l.ws == nil || l.b == nil {
			return qlinear{}
		}
		f.out += l.out
		f.w = append(f.w, l.w...)
		f.ws = append(f.ws, l.ws...)
		f.b = append(f.b, l.b...)
	}
	return f
}
