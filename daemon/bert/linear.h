// linear.h - the dense-layer kernel of package bert.
#ifndef WF_LINEAR_H
#define WF_LINEAR_H
void wf_linear(const float *x, int n, int in, const float *wt, const float *b, int out, float *y);
#endif
