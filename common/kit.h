/*
 * kit.h - the vocabulary shared by the harness, the grader and the tests:
 * element types, operators, input distributions and what an operation is.
 * Plain C11 so every host module (and nvcc) can include it.
 */
#ifndef KIT_H
#define KIT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element type of the input and output arrays. */
typedef enum { DT_INT32 = 0, DT_FLOAT32 = 1, DT_COUNT } dtype_t;

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

/*
 * What a lab variant computes.  REDUCE writes one element.  SCAN writes n
 * elements (inclusive or exclusive).  SECTION_SCAN scans independent
 * sections of `section` elements each (the last one may be partial).
 */
typedef enum { KIND_REDUCE = 0, KIND_SCAN = 1, KIND_SECTION_SCAN = 2, KIND_COUNT } kind_t;

const char *dtype_name(dtype_t t);
const char *op_name(op_t op);
const char *dist_name(dist_t d);
const char *kind_name(kind_t k);

/* Parse a name; return 0 on success, -1 when the name is unknown. */
int dtype_parse(const char *s, dtype_t *out);
int op_parse(const char *s, op_t *out);
int dist_parse(const char *s, dist_t *out);
int kind_parse(const char *s, kind_t *out);

/* The fewest bytes an operation must move through device memory: a reduce
 * reads its n inputs, a scan reads n and writes n.  GB/s figures use this. */
double bytes_moved(kind_t kind, size_t n, dtype_t dtype);

/* Bytes of one element (4 for both types the kit uses). */
static inline size_t dtype_size(dtype_t t) { (void)t; return 4; }

#ifdef __cplusplus
}
#endif
#endif /* KIT_H */
