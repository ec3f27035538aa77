package bert

// linearGo is y = x·W + b with W transposed ([in][out]), for n rows, with
// the tiling of linear.c. It is the CGO_ENABLED=0 kernel and the
// reference the C kernel is tested against.
func linearGo(x []float32, n, in int, wt, b []float32, out int, y []float32) {
	for t := 0; t < n; t++ {
		copy(y[t*out:(t+1)*out], b)
	}
	for o0 := 0; o0 < out; o0 += linearCols {
		o1 := min(o0+linearCols, out)
		for t0 := 0; t0 < n; t0 += linearRows {
			t1 := min(t0+linearRows, n)
			for i := 0; i < in; i++ {
				w := wt[i*out+o0 : i*out+o1]
				for t := t0; t < t1; t++ {
					xv := x[t*in+i]
					yr := y[t*out+o0 : t*out+o1]
					for o := range yr {
						yr[o] += xv * w[o]
					}
				}
			}
		}
	}
}

// The tile of outputs computed together (linear.c's WF_COLS, WF_ROWS):
// 32 rows by 256 columns, 32 KB, stays in the L1 cache.
const (
	linearCols = 256
	linearRows = 32
)
