// qlinear.h - the int8 dense-layer kernel of package bert.
#ifndef WF_QLINEAR_H
#define WF_QLINEAR_H
#include <stdint.h>
// impl: 0 the fastest the CPU allows, 1 the baseline (no dot-product
// extension on arm64).
void wf_qlinear(const int16_t *x, const float *xs, int n, int in, const int8_t *w, const float *ws, const float *b,
                int out, float *y, int impl);
// wf_qlinear_has_dot tells whether impl 0 uses the dot-product extension.
int wf_qlinear_has_dot(void);
void wf_quantize(const float *x, int n, int in, int lvl, int16_t *xq, float *xs);
#endif
