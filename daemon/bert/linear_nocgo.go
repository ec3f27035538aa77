//go:build !cgo

package bert

// apply computes y = x·W + b for n rows of x (l.in floats each) into y
// (l.out floats each): the Go version of linear.c, for CGO_ENABLED=0.
func (l *linear) apply(x []float32, n int, y []float32) {
	linearGo(x, n, l.in, l.wt, l.b, l.out, y)
}
