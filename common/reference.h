/*
 * reference.h - sequential CPU references for reductions and scans.
 * Integers wrap like the GPU's 32-bit two's-complement arithmetic; floats
 * are accumulated in double so the reference is (nearly) exact and the
 * GPU's float result can be judged against a stated error bound.
 */
#ifndef REFERENCE_H
#define REFERENCE_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Identity of op: 0 for sum, the largest value for min, the smallest for max. */
int32_t identity_i32(op_t op);
double identity_f64(op_t op);

/* a op b; the int32 sum wraps modulo 2^32 (computed in unsigned, no UB). */
int32_t combine_i32(op_t op, int32_t a, int32_t b);
double combine_f64(op_t op, double a, double b);

/* Reduce n elements (n = 0 gives the identity). */
int32_t ref_reduce_i32(const int32_t *in, size_t n, op_t op);
/* Float inputs reduced in double; *abs_sum (if not NULL) receives sum |x_i|. */
double ref_reduce_f32(const float *in, size_t n, op_t op, double *abs_sum);

/*
 * Scan n elements into out.  exclusive: out[i] combines in[0..i-1] (out[0] is
 * the identity); otherwise in[0..i].  section > 0 restarts the scan every
 * `section` elements (independent section scans); 0 scans the whole array.
 */
void ref_scan_i32(const int32_t *in, size_t n, op_t op, int exclusive, size_t section,
                  int32_t *out);
void ref_scan_f32(const float *in, size_t n, op_t op, int exclusive, size_t section,
                  double *out);

/*
 * Lab 7.  Delta encoding of order k with tuple size d, in place over n
 * elements of an integer dtype (int32 or int64, wrapping): k times,
 * x[i] -= x[i - d] for every i >= d, from the end down.  Decoding is its
 * inverse: k times, x[i] += x[i - d] from the front up (k stride-d
 * inclusive prefix sums).  ref_decode(ref_encode(x)) == x exactly.
 */
void ref_encode(void *x, size_t n, dtype_t dtype, int order, int tuple);
void ref_decode(void *x, size_t n, dtype_t dtype, int order, int tuple);

/* Copy the elements of in[0..n) that satisfy pred to out, in order;
 * return how many (a stable stream compaction). */
size_t ref_compact(const void *in, size_t n, dtype_t dtype, pred_t pred, void *out);

/* Element i of an int32 or int64 array, widened.  Inline: the checks of
 * 2^26 elements call it per element, and a call each cost half of a
 * compaction's check. */
static inline int64_t int_at(const void *a, dtype_t dtype, size_t i)
{
    return dtype == DT_INT64 ? ((const int64_t *)a)[i] : (int64_t)((const int32_t *)a)[i];
}

#ifdef __cplusplus
}
#endif
#endif /* REFERENCE_H */
