/*
 * kit.h - the vocabulary shared by the harness, the grader and the tests:
 * element types, operators and input distributions (what an operation is:
 * kinds/kinds.h).
 * Plain C11 so every host module (and nvcc) can include it.
 */
#ifndef KIT_H
#define KIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of the input and output arrays.  INT64 (lab 7) wraps modulo
 * 2^64 like INT32 wraps modulo 2^32. */
typedef enum { DT_INT32 = 0, DT_FLOAT32 = 1, DT_INT64 = 2, DT_COUNT } dtype_t;

/* Associative operator of a reduction or scan. */
typedef enum { OP_SUM = 0, OP_MIN = 1, OP_MAX = 2, OP_COUNT } op_t;

/*
 * How inputs are drawn.  SMALL: integers in [-8, 8] (also for float32, where
 * every partial sum is then exact, so a dropped element is always visible).
 * ONES: all ones (counts are easy to read in a mismatch).  WIDE: int32 over
 * the whole range (exercises wrap-around), float32 uniform in [-0.25, 1)
 * (exercises rounding: checked against an error bound).
 */
typedef enum { DIST_SMALL = 0, DIST_ONES = 1, DIST_WIDE = 2, DIST_COUNT } dist_t;

/* Predicate of a compaction: POSITIVE keeps x > 0 (the Teaching Kit's
 * example), MULT4 keeps multiples of 4 (a quarter of DIST_WIDE's values). */
typedef enum { PRED_POSITIVE = 0, PRED_MULT4 = 1, PRED_COUNT } pred_t;

/* Largest order and tuple size of a decode (SAM's experiments go to 8). */
#define KIT_MAX_ORDER 8
#define KIT_MAX_TUPLE 8

const char *dtype_name(dtype_t t);
const char *op_name(op_t op);
const char *dist_name(dist_t d);
const char *pred_name(pred_t p);

/* Parse a name; return 0 on success, -1 when the name is unknown. */
int dtype_parse(const char *s, dtype_t *out);
int op_parse(const char *s, op_t *out);
int dist_parse(const char *s, dist_t *out);
int pred_parse(const char *s, pred_t *out);

/* Host and device code (nvcc) may both call the few inline helpers here. */
#ifdef __CUDACC__
#define KIT_HD __host__ __device__
#else
#define KIT_HD
#endif

/* Does x satisfy predicate p?  (Every compaction, host or device, agrees.) */
static inline KIT_HD int pred_keep(pred_t p, int64_t x)
{
    return p == PRED_MULT4 ? (x & 3) == 0 : x > 0;
}

/* Bytes of one element: 8 for int64, 4 for the others. */
static inline size_t dtype_size(dtype_t t) { return t == DT_INT64 ? 8 : 4; }

#ifdef __cplusplus
}
#endif
#endif /* KIT_H */
