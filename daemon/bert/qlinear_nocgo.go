//go:build !cgo

package bert

// linearQ is the int8 kernel of CGO_ENABLED=0 builds: linearQGo.
func linearQ(xq []int16, xs []float32, n, in int, w []int8, ws, b []float32, out int, y []float32) {
	linearQGo(xq, xs, n, in, w, ws, b, out, y)
}

// linearQImpl is linearQ: there is one implementation without cgo.
func linearQImpl(_ int, xq []int16, xs []float32, n, in int, w []int8, ws, b []float32, out int, y []float32) {
	linearQGo(xq, xs, n, in, w, ws, b, out, y)
}

func linearQDot() bool { return false }

// quantizeActs is the activation quantizer of CGO_ENABLED=0 builds:
// quantizeActsGo.
func quantizeActs(x []float32, n, in int, lvl int32, xq []int16, xs []float32) {
	quantizeActsGo(x, n, in, lvl, xq, xs)
}
