//go:build cgo

package bert

/*
#cgo CFLAGS: -O3
#include "linear.h"
*/
import "C"

import "unsafe"

// apply computes y = x·W + b for n rows of x (l.in floats each) into y
// (l.out floats each), in C.
func (l *linear) apply(x []float32, n int, y []float32) {
	if n == 0 {
		return
	}
	_ = x[n*l.in-1]
	_ = y[n*l.out-1]
	C.wf_linear((*C.float)(unsafe.Pointer(&x[0])), C.int(n), C.int(l.in),
		(*C.float)(unsafe.Pointer(&l.wt[0])), (*C.float)(unsafe.Pointer(&l.b[0])), C.int(l.out),
		(*C.float)(unsafe.Pointer(&y[0])))
}
