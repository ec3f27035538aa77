// qlinear.c - y = (xq·Wqᵀ)·xs·ws + b for n rows: int16 activations (one
// scale per row, xs; quantizeActs keeps |xq|·127·in below 2^31) times int8
// weights stored [out][in] (one scale per output row, ws), summed exactly
// in int32, then rescaled to float.
//
// Both operands run along `in`, so each output is a dot product of two
// contiguous rows. A block of 4 rows of x by C rows of W keeps 4·C int32x4
// accumulators in registers while it runs over `in`; the int8 weights are
// sign-extended to int16 once per step and used for the 4 rows:
//   arm64 NEON (C = 4; 32 vector registers; 8 inputs a step): vmovl_s8
//     widens W, vmlal_s16 / vmlal_high_s16 multiply 4 int16 pairs each and
//     add them into int32 lanes (2 instructions per 8 multiply-adds); on
//     Linux and Android, when the CPU has the dot-product extension, SDOT
//     instead (qlinear_dot, below);
//   amd64 SSE2 (C = 2; 16 vector registers; 16 inputs a step): punpck +
//     psraw widen W, _mm_madd_epi16 (pmaddwd) multiplies 8 int16 pairs and
//     adds adjacent products into 4 int32 lanes (2 pmaddwd + 2 paddd per 16);
//   other targets: plain C.
// The integer sums are exact, so every path (and linearQGo in Go) gives the
// same sums; only the final float rescale may round differently (FMA).
// Rows and columns left over go through 1-row and 1-column blocks.
#include <stdint.h>
#include "qlinear.h"

#if defined(__aarch64__)
#include <arm_neon.h>
#define QCOLS 4

// blk computes the int32 dot products of rows t..t+R-1 of x with rows
// o..o+C-1 of w over the first len of their in columns into acc[r][c]
// (R <= 4, C <= QCOLS, len % 16 == 0). Eight inputs a step keep the 16
// accumulators, 4 widened weight vectors and 4 of x in registers.
static inline __attribute__((always_inline)) void blk(const int16_t *x, const int8_t *w, int in, int len, int t,
                                                        int o, int R, int C, int32_t acc[4][QCOLS]) {
	int32x4_t a[4][QCOLS];
#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			a[r][c] = vdupq_n_s32(0);
	for (int i = 0; i < len; i += 8) {
		int16x8_t wv[QCOLS];
#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			wv[c] = vmovl_s8(vld1_s8(w + (long)(o + c) * in + i));
#pragma GCC unroll 4
		for (int r = 0; r < R; r++) {
			int16x8_t xv = vld1q_s16(x + (long)(t + r) * in + i);
#pragma GCC unroll 4
			for (int c = 0; c < C; c++)
				a[r][c] = vmlal_high_s16(vmlal_s16(a[r][c], vget_low_s16(xv), vget_low_s16(wv[c])), xv, wv[c]);
		}
	}
#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			acc[r][c] = vaddvq_s32(a[r][c]);
}
#define QVEC 16

#if defined(__linux__)
#define QDOT 1
// The dot-product extension (Armv8.2 FEAT_DotProd: Cortex-A55, A75 and
// later): SDOT multiplies 16 int8 pairs and adds them by fours into 4
// int32 lanes; Arm's Cortex-A720 optimization guide (109720, §3) gives it a
// throughput of 2 per cycle, and the int16 multiply-accumulates of blk 1
// (pipe V0 only). Each activation x (|x| <=
// 127·128, actLevels) is split into x = 128·hi + lo with hi = x >> 7 in
// [-127, 127] and lo = x & 127, so Σ x·w = 128·Σ hi·w + Σ lo·w: two SDOT
// per 16 products, still exact. Chosen at run time from the kernel's
// HWCAP_ASIMDDP bit.
#include <stdlib.h>
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#define DCOLS 2

static int has_dot(void) {
	static int known = -1; // -1 unknown, else the answer
	int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
	if (v < 0) {
		v = (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
		__atomic_store_n(&known, v, __ATOMIC_RELAXED);
	}
	return v;
}

// dblk and qlinear_dot are compiled for the extension; they run only
// when has_dot.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("dotprod"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("arch=armv8.2-a+dotprod")
#endif

// dtail adds to s[r][c] the products of row r of x (hi and lo parts, rows
// in apart) with row c of w over columns [len16, in) (the part past the
// last full 16).
static void dtail(const int8_t *xh, const int8_t *xl, const int8_t *w, int in, int len16, int R, int C,
                  int64_t s[4][DCOLS]) {
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++)
			for (int k = len16; k < in; k++)
				s[r][c] += ((int32_t)xh[(long)r * in + k] * 128 + xl[(long)r * in + k]) * (int32_t)w[(long)c * in + k];
}

// ROW accumulates one row r of x against the two weight rows w0v, w1v.
#define ROW(r)                                                                                                   \
	do {                                                                                                     \
		int8x16_t hv = vld1q_s8(xh + (long)(r) * in + i), lv = vld1q_s8(xl + (long)(r) * in + i);        \
		h##r##0 = vdotq_s32(h##r##0, hv, w0v), h##r##1 = vdotq_s32(h##r##1, hv, w1v);                   \
		l##r##0 = vdotq_s32(l##r##0, lv, w0v), l##r##1 = vdotq_s32(l##r##1, lv, w1v);                   \
	} while (0)
#define SUM(r, c) s[r][c] = (int64_t)vaddvq_s32(h##r##c) * 128 + vaddvq_s32(l##r##c)

// d4x2 sets s[r][c] to the dot products of 4 rows of x (xh, xl at the
// first) with 2 rows of w (w at the first): 16 accumulators, 2 weight and
// 2 activation vectors in registers.
static void d4x2(const int8_t *xh, const int8_t *xl, const int8_t *w, int in, int64_t s[4][DCOLS]) {
	int32x4_t z = vdupq_n_s32(0);
	int32x4_t h00 = z, h01 = z, h10 = z, h11 = z, h20 = z, h21 = z, h30 = z, h31 = z;
	int32x4_t l00 = z, l01 = z, l10 = z, l11 = z, l20 = z, l21 = z, l30 = z, l31 = z;
	int len16 = in & ~15;
	for (int i = 0; i < len16; i += 16) {
		int8x16_t w0v = vld1q_s8(w + i), w1v = vld1q_s8(w + in + i);
		ROW(0);
		ROW(1);
		ROW(2);
		ROW(3);
	}
	SUM(0, 0), SUM(0, 1), SUM(1, 0), SUM(1, 1), SUM(2, 0), SUM(2, 1), SUM(3, 0), SUM(3, 1);
	dtail(xh, xl, w, in, len16, 4, 2, s);
}

// d1x1 sets s[0][0] to the dot product of one row of x with one of w.
static void d1x1(const int8_t *xh, const int8_t *xl, const int8_t *w, int in, int64_t s[4][DCOLS]) {
	int32x4_t h = vdupq_n_s32(0), l = h;
	int len16 = in & ~15;
	for (int i = 0; i < len16; i += 16) {
		int8x16_t wv = vld1q_s8(w + i);
		h = vdotq_s32(h, vld1q_s8(xh + i), wv), l = vdotq_s32(l, vld1q_s8(xl + i), wv);
	}
	s[0][0] = (int64_t)vaddvq_s32(h) * 128 + vaddvq_s32(l);
	dtail(xh, xl, w, in, len16, 1, 1, s);
}
#undef ROW
#undef SUM

// dput writes y[t+r][o+c] from the exact sums s (R rows, C columns).
static void dput(int64_t s[4][DCOLS], const float *xs, const float *ws, const float *b, int out, float *y, int t,
                 int o, int R, int C) {
	for (int r = 0; r < R; r++)
		for (int c = 0; c < C; c++)
			y[(long)(t + r) * out + o + c] = (float)(int32_t)s[r][c] * (xs[t + r] * ws[o + c]) + b[o + c];
}

// qlinear_dot is wf_qlinear with SDOT; it returns 0 when it cannot
// allocate the split activations (wf_qlinear then runs blk).
static int qlinear_dot(const int16_t *x, const float *xs, int n, int in, const int8_t *w, const float *ws,
                               const float *b, int out, float *y) {
	int8_t *xh = malloc(2 * (size_t)n * in);
	if (!xh)
		return 0;
	int8_t *xl = xh + (size_t)n * in;
	for (size_t i = 0; i < (size_t)n * in; i++)
		xh[i] = (int8_t)(x[i] >> 7), xl[i] = (int8_t)(x[i] & 127);
	int n4 = n & ~3, oc = out - out % DCOLS;
	int64_t s[4][DCOLS];
	for (int o = 0; o < oc; o += DCOLS)
		for (int t = 0; t < n4; t += 4) {
			d4x2(xh + (long)t * in, xl + (long)t * in, w + (long)o * in, in, s);
			dput(s, xs, ws, b, out, y, t, o, 4, DCOLS);
		}
	for (int o = 0; o < out; o++)
		for (int t = o < oc ? n4 : 0; t < n; t++) {
			d1x1(xh + (long)t * in, xl + (long)t * in, w + (long)o * in, in, s);
			dput(s, xs, ws, b, out, y, t, o, 1, 1);
		}
	free(xh);
	return 1;
}
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif // __linux__

#elif defined(__SSE2__)
#include <emmintrin.h>
#define QCOLS 2

static inline int32_t hsum(__m128i v) {
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
	v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
	return _mm_cvtsi128_si32(v);
}

static inline __attribute__((always_inline)) void blk(const int16_t *x, const int8_t *w, int in, int len, int t,
                                                        int o, int R, int C, int32_t acc[4][QCOLS]) {
	__m128i a[4][QCOLS];
	#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			a[r][c] = _mm_setzero_si128();
	for (int i = 0; i < len; i += 16) {
		__m128i wl[QCOLS], wh[QCOLS];
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(w + (long)(o + c) * in + i));
			// each byte twice in a 16-bit lane, shifted down: sign-extended
			wl[c] = _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
			wh[c] = _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8);
		}
		#pragma GCC unroll 4
		for (int r = 0; r < R; r++) {
			const int16_t *xr = x + (long)(t + r) * in + i;
			__m128i xl = _mm_loadu_si128((const __m128i *)xr), xh = _mm_loadu_si128((const __m128i *)(xr + 8));
			#pragma GCC unroll 4
			for (int c = 0; c < C; c++)
				a[r][c] = _mm_add_epi32(a[r][c], _mm_add_epi32(_mm_madd_epi16(xl, wl[c]), _mm_madd_epi16(xh, wh[c])));
		}
	}
	#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			acc[r][c] = hsum(a[r][c]);
}
#define QVEC 16

#else
#define QCOLS 1
#define QVEC 1

static inline void blk(const int16_t *x, const int8_t *w, int in, int len, int t, int o, int R, int C,
                       int32_t acc[4][QCOLS]) {
	#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++) {
			int32_t s = 0;
			for (int i = 0; i < len; i++)
				s += (int32_t)x[(long)(t + r) * in + i] * w[(long)(o + c) * in + i];
			acc[r][c] = s;
		}
}
#endif

// tail adds the products of columns [i0, in) to acc (the part of `in`
// that is not a multiple of the vector width).
static void tail(const int16_t *x, const int8_t *w, int in, int i0, int t, int o, int R, int C, int32_t acc[4][QCOLS]) {
	#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++) {
			int32_t s = 0;
			for (int i = i0; i < in; i++)
				s += (int32_t)x[(long)(t + r) * in + i] * w[(long)(o + c) * in + i];
			acc[r][c] += s;
		}
}

static inline __attribute__((always_inline)) void run(const int16_t *x, const float *xs, int in, const int8_t *w,
                                                        const float *ws, const float *b, int out, float *y, int t,
                                                        int o, int R, int C) {
	int32_t acc[4][QCOLS];
	int iv = in - in % QVEC;
	if (iv > 0)
		blk(x, w, in, iv, t, o, R, C, acc);
	else
		#pragma GCC unroll 4
		for (int r = 0; r < R; r++)
			#pragma GCC unroll 4
			for (int c = 0; c < C; c++)
				acc[r][c] = 0;
	if (iv < in)
		tail(x, w, in, iv, t, o, R, C, acc);
	#pragma GCC unroll 4
	for (int r = 0; r < R; r++)
		#pragma GCC unroll 4
		for (int c = 0; c < C; c++)
			y[(long)(t + r) * out + o + c] = (float)acc[r][c] * (xs[t + r] * ws[o + c]) + b[o + c];
}

int wf_qlinear_has_dot(void) {
#if defined(QDOT)
	return has_dot();
#else
	return 0;
#endif
}

void wf_qlinear(const int16_t *x, const float *xs, int n, int in, const int8_t *w, const float *ws, const float *b,
                int out, float *y, int impl) {
#if defined(QDOT)
	if (impl != 1 && has_dot() && qlinear_dot(x, xs, n, in, w, ws, b, out, y))
		return;
#endif
	int n4 = n & ~3, oc = out - out % QCOLS;
	for (int o = 0; o < oc; o += QCOLS) {
		for (int t = 0; t < n4; t += 4)
			run(x, xs, in, w, ws, b, out, y, t, o, 4, QCOLS);
		for (int t = n4; t < n; t++)
			run(x, xs, in, w, ws, b, out, y, t, o, 1, QCOLS);
	}
	for (int o = oc; o < out; o++)
		for (int t = 0; t < n; t++)
			run(x, xs, in, w, ws, b, out, y, t, o, 1, 1);
}

// rne rounds |v| <= 2^22 to the nearest integer, ties to even, under the
// default rounding mode: adding 1.5·2^23 leaves no fraction bits (no libm).
static inline float rne(float v) {
	const float m = 12582912.0f;
	return (v + m) - m;
}

// wf_quantize quantizes each of the n rows of x (in floats) to integers in
// [-lvl, lvl] with its own scale: xs[t] = max|x[t]|/lvl, xq = x·(lvl/max)
// rounded to nearest, ties to even (cvtps2dq under the default MXCSR,
// vcvtnq_s32_f32, rne), as quantizeActsGo does. A row of zeros gets
// zeros and scale 0.
void wf_quantize(const float *x, int n, int in, int lvl, int16_t *xq, float *xs) {
	const float fl = (float)lvl;
	for (int t = 0; t < n; t++) {
		const float *row = x + (long)t * in;
		int16_t *dst = xq + (long)t * in;
		int i = 0;
		float mx = 0;
#if defined(__aarch64__)
		float32x4_t m4 = vdupq_n_f32(0);
		for (; i + 4 <= in; i += 4)
			m4 = vmaxq_f32(m4, vabsq_f32(vld1q_f32(row + i)));
		mx = vmaxvq_f32(m4);
#elif defined(__SSE2__)
		const __m128 abs = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
		__m128 m4 = _mm_setzero_ps();
		for (; i + 4 <= in; i += 4)
			m4 = _mm_max_ps(m4, _mm_and_ps(abs, _mm_loadu_ps(row + i)));
		float m[4];
		_mm_storeu_ps(m, m4);
		mx = m[0] > m[1] ? m[0] : m[1];
		mx = mx > m[2] ? mx : m[2];
		mx = mx > m[3] ? mx : m[3];
#endif
		for (; i < in; i++) {
			float a = row[i] < 0 ? -row[i] : row[i];
			mx = a > mx ? a : mx;
		}
		xs[t] = mx / fl;
		if (mx == 0) {
			for (i = 0; i < in; i++)
				dst[i] = 0;
			continue;
		}
		const float inv = fl / mx;
		i = 0;
#if defined(__aarch64__)
		float32x4_t hi = vdupq_n_f32(fl), lo = vdupq_n_f32(-fl), k = vdupq_n_f32(inv);
		for (; i + 8 <= in; i += 8) {
			int32x4_t a = vcvtnq_s32_f32(vminq_f32(hi, vmaxq_f32(lo, vmulq_f32(vld1q_f32(row + i), k))));
			int32x4_t b = vcvtnq_s32_f32(vminq_f32(hi, vmaxq_f32(lo, vmulq_f32(vld1q_f32(row + i + 4), k))));
			vst1q_s16(dst + i, vcombine_s16(vqmovn_s32(a), vqmovn_s32(b)));
		}
#elif defined(__SSE2__)
		__m128 hi = _mm_set1_ps(fl), lo = _mm_set1_ps(-fl), k = _mm_set1_ps(inv);
		for (; i + 8 <= in; i += 8) {
			__m128i a = _mm_cvtps_epi32(_mm_min_ps(hi, _mm_max_ps(lo, _mm_mul_ps(_mm_loadu_ps(row + i), k))));
			__m128i b = _mm_cvtps_epi32(_mm_min_ps(hi, _mm_max_ps(lo, _mm_mul_ps(_mm_loadu_ps(row + i + 4), k))));
			_mm_storeu_si128((__m128i *)(dst + i), _mm_packs_epi32(a, b));
		}
#endif
		for (; i < in; i++) {
			float v = row[i] * inv;
			v = v > fl ? fl : v < -fl ? -fl : v;
			dst[i] = (int16_t)rne(v);
		}
	}
}
