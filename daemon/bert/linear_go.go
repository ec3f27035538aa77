package bert

// linearGo is y = x·W + b with W transposed ([in][out]), for n rows: the
// same blocking as linear.c. It is the CGO_ENABLED=0 kernel and the
// reference the C kernel is tested against.
func linearGo(x []float32, n, in int, wt, b []float32, out int, y []float32) {
	for t := 0; t < n; t++ {
		copy(y[t*out:(t+1)*out], b)
	}
	for o0 := 0; o0 < out; o0 += linearBlock {
		o1 := min(o0+linearBlock, out)
		for i := 0; i < in; i++ {
			w := wt[i*out+o0 : i*out+o1]
			for t := 0; t < n; t++ {
				xv := x[t*in+i]
				yr := y[t*out+o0 : t*out+o1]
				for o := range yr {
					yr[o] += xv * w[o]
				}
			}
		}
	}
}

// linearBlock is the width of the output columns computed together, so the
// block of outputs stays in the L1 cache (linear.c's WF_BLOCK).
const linearBlock = 256
