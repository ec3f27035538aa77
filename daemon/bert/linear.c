// linear.c - y = x·W + b for n rows, W stored transposed ([in][out]).
// Tiled: WF_COLS output columns by WF_ROWS rows at a time, so the tile of
// y (WF_ROWS·WF_COLS floats, 32 KB) stays in the L1 cache while the
// column block of W (in·WF_COLS floats) streams from L2 once per row
// tile; the inner loop is an axpy the compiler vectorises (SSE2 on
// amd64, NEON on arm64).
#include <string.h>
#include "linear.h"

#define WF_COLS 256
#define WF_ROWS 32

void wf_linear(const float *restrict x, int n, int in, const float *restrict wt,
               const float *restrict b, int out, float *restrict y) {
	for (int t = 0; t < n; t++)
		memcpy(y + (long)t * out, b, sizeof(float) * out);
	for (int o0 = 0; o0 < out; o0 += WF_COLS) {
		int w = o0 + WF_COLS < out ? WF_COLS : out - o0;
		for (int t0 = 0; t0 < n; t0 += WF_ROWS) {
			int t1 = t0 + WF_ROWS < n ? t0 + WF_ROWS : n;
			for (int i = 0; i < in; i++) {
				const float *restrict wr = wt + (long)i * out + o0;
				for (int t = t0; t < t1; t++) {
					float xv = x[(long)t * in + i];
					float *restrict yr = y + (long)t * out + o0;
					for (int o = 0; o < w; o++)
						yr[o] += xv * wr[o];
				}
			}
		}
	}
}
