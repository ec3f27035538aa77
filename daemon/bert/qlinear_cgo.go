//go:build cgo

package bert

/*
#cgo CFLAGS: -O3
#include "qlinear.h"
*/
import "C"

import "unsafe"

// linearQ is linearQGo in C (qlinear.c: NEON on arm64, with the
// dot-product extension when the CPU has it; SSE2 on amd64).
func linearQ(xq []int16, xs []float32, n, in int, w []int8, ws, b []float32, out int, y []float32) {
	linearQImpl(0, xq, xs, n, in, w, ws, b, out, y)
}

// linearQImpl is linearQ with wf_qlinear's impl: 0 the fastest the CPU
// allows, 1 the baseline.
func linearQImpl(impl int, xq []int16, xs []float32, n, in int, w []int8, ws, b []float32, out int, y []float32) {
	if n == 0 || out == 0 || in == 0 {
		return
	}
	_ = xq[n*in-1]
	_ = w[out*in-1]
	_ = y[n*out-1]
	_, _, _ = xs[n-1], ws[out-1], b[out-1]
	C.wf_qlinear((*C.int16_t)(unsafe.Pointer(&xq[0])), (*C.float)(unsafe.Pointer(&xs[0])), C.int(n), C.int(in),
		(*C.int8_t)(unsafe.Pointer(&w[0])), (*C.float)(unsafe.Pointer(&ws[0])), (*C.float)(unsafe.Pointer(&b[0])),
		C.int(out), (*C.float)(unsafe.Pointer(&y[0])), C.int(impl))
}

// linearQDot tells whether linearQ uses the arm64 dot-product extension.
func linearQDot() bool { return C.wf_qlinear_has_dot() != 0 }

// quantizeActs is quantizeActsGo in C (wf_quantize: NEON on arm64, SSE2 on
// amd64), the same integers and scales.
func quantizeActs(x []float32, n, in int, lvl int32, xq []int16, xs []float32) {
	if n == 0 || in == 0 {
		return
	}
	_ = x[n*in-1]
	_ = xq[n*in-1]
	_ = xs[n-1]
	C.wf_quantize((*C.float)(unsafe.Pointer(&x[0])), C.int(n), C.int(in), C.int(lvl),
		(*C.int16_t)(unsafe.Pointer(&xq[0])), (*C.float)(unsafe.Pointer(&xs[0])))
}
