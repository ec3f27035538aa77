// linear.c - y = x·W + b for n rows, W stored transposed ([in][out]).
//
// Register-blocked: a micro-kernel keeps a 4-row by 8-column block of y
// in eight 4-float vector registers while it runs over all `in` inputs,
// so each step loads two vectors of W and four scalars of x for eight
// vector multiply-adds (GCC/Clang vector extensions: SSE2 on amd64, NEON
// on arm64, whose 32 registers hold it easily). The 8-column strip of W
// (in·8 floats: 12 KB at in = 384) stays in the L1 cache across the row
// blocks. Rows and columns left over go through the plain axpy loop.
#include <string.h>
#include "linear.h"

typedef float v4 __attribute__((vector_size(16)));
// an unaligned view of 4 floats (rows of x, W and y are only 4-byte aligned)
typedef float v4u __attribute__((vector_size(16), aligned(4), may_alias));

static inline v4 load4(const float *p) { return *(const v4u *)p; }

static inline void store4(float *p, v4 v) { *(v4u *)p = v; }

// block computes y[t..t+3][o..o+7] = b + x[t..t+3]·W[:, o..o+7].
static void block(const float *restrict x, int in, const float *restrict wt, const float *restrict b, int out,
                  float *restrict y, int t, int o) {
	v4 b0 = load4(b + o), b1 = load4(b + o + 4);
	v4 a00 = b0, a01 = b1, a10 = b0, a11 = b1, a20 = b0, a21 = b1, a30 = b0, a31 = b1;
	const float *x0 = x + (long)t * in, *x1 = x0 + in, *x2 = x1 + in, *x3 = x2 + in;
	for (int i = 0; i < in; i++) {
		const float *wr = wt + (long)i * out + o;
		v4 w0 = load4(wr), w1 = load4(wr + 4);
		v4 s0 = {x0[i], x0[i], x0[i], x0[i]};
		v4 s1 = {x1[i], x1[i], x1[i], x1[i]};
		v4 s2 = {x2[i], x2[i], x2[i], x2[i]};
		v4 s3 = {x3[i], x3[i], x3[i], x3[i]};
		a00 += s0 * w0, a01 += s0 * w1;
		a10 += s1 * w0, a11 += s1 * w1;
		a20 += s2 * w0, a21 += s2 * w1;
		a30 += s3 * w0, a31 += s3 * w1;
	}
	float *y0 = y + (long)t * out + o, *y1 = y0 + out, *y2 = y1 + out, *y3 = y2 + out;
	store4(y0, a00), store4(y0 + 4, a01);
	store4(y1, a10), store4(y1 + 4, a11);
	store4(y2, a20), store4(y2 + 4, a21);
	store4(y3, a30), store4(y3 + 4, a31);
}

// axpy computes y[t][o0..o1) = b + x[t]·W[:, o0..o1) for rows t0..t1.
static void axpy(const float *restrict x, int in, const float *restrict wt, const float *restrict b, int out,
                 float *restrict y, int t0, int t1, int o0, int o1) {
	for (int t = t0; t < t1; t++) {
		float *restrict yr = y + (long)t * out;
		memcpy(yr + o0, b + o0, sizeof(float) * (o1 - o0));
		for (int i = 0; i < in; i++) {
			float xv = x[(long)t * in + i];
			const float *restrict wr = wt + (long)i * out;
			for (int o = o0; o < o1; o++)
				yr[o] += xv * wr[o];
		}
	}
}

void wf_linear(const float *restrict x, int n, int in, const float *restrict wt,
               const float *restrict b, int out, float *restrict y) {
	int n4 = n & ~3, out8 = out & ~7;
	for (int o = 0; o < out8; o += 8)
		for (int t = 0; t < n4; t += 4)
			block(x, in, wt, b, out, y, t, o);
	if (n4 < n)
		axpy(x, in, wt, b, out, y, n4, n, 0, out);
	if (out8 < out)
		axpy(x, in, wt, b, out, y, 0, n4, out8, out);
}
