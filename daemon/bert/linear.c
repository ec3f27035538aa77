// linear.c - y = x·W + b for n rows, W stored transposed ([in][out]).
// Output columns are taken WF_BLOCK at a time so that block of every row
// stays in the L1 cache while each weight row streams by once; the inner
// loop is an axpy the compiler vectorises (SSE2 on amd64, NEON on arm64).
#include <string.h>
#include "linear.h"

#define WF_BLOCK 256

void wf_linear(const float *restrict x, int n, int in, const float *restrict wt,
               const float *restrict b, int out, float *restrict y) {
	for (int t = 0; t < n; t++)
		memcpy(y + (long)t * out, b, sizeof(float) * out);
	for (int o0 = 0; o0 < out; o0 += WF_BLOCK) {
		int o1 = o0 + WF_BLOCK < out ? o0 + WF_BLOCK : out;
		int w = o1 - o0;
		for (int i = 0; i < in; i++) {
			const float *restrict wr = wt + (long)i * out + o0;
			for (int t = 0; t < n; t++) {
				float xv = x[(long)t * in + i];
				float *restrict yr = y + (long)t * out + o0;
				for (int o = 0; o < w; o++)
					yr[o] += xv * wr[o];
			}
		}
	}
}
