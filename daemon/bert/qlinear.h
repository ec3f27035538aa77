// qlinear.h - the int8 dense-layer kernel of package bert.
#ifndef WF_QLINEAR_H
#define WF_QLINEAR_H
#include <stdint.h>
void wf_qlinear(const int16_t *x, const float *xs, int n, int in, const int8_t *w, const float *ws, const float *b,
                int out, float *y);
void wf_quantize(const float *x, int n, int in, int lvl, int16_t *xq, float *xs);
#endif
