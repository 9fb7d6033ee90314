/*
 * check.h - judging an output array against the CPU reference, and the
 * poison / guard-band patterns that make unwritten and out-of-bounds
 * elements visible.  Used by the grader (which is the only judge) and by
 * the harness's self-check printout.
 */
#ifndef CHECK_H
#define CHECK_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Written over every output before a run: an unwritten element keeps it.
 * As float32 it is a NaN, as int32 an unlikely 2142952365. */
#define POISON_WORD 0x7FBADBADu
/* Written into the guard band after every output; any change there is an
 * out-of-bounds write by the kernel. */
#define GUARD_WORD 0x6B1D6B1Du
/* Elements of guard band after each device output. */
#define GUARD_ELEMS 1024u

/* What was computed, so the checker can recompute it. */
typedef struct {
    kind_t kind;
    dtype_t dtype;
    op_t op;
    int exclusive;  /* scans only */
    size_t section; /* KIND_SECTION_SCAN only */
    size_t n;
    int depth;      /* association depth k of the float error bound */
    int order;      /* KIND_DECODE: order k (1..KIT_MAX_ORDER) */
    int tuple;      /* KIND_DECODE: tuple size d (1..KIT_MAX_TUPLE) */
    pred_t pred;    /* KIND_COMPACT: the predicate */
} check_spec;

typedef struct {
    int ok;
    size_t mismatches;   /* how many elements are wrong */
    size_t first;        /* index of the first wrong element */
    int unwritten;       /* the first wrong element still holds POISON_WORD */
    double bound;        /* float error bound at `first` (0: exact check) */
    char detail[640];    /* one or two lines a student can act on */
} check_result;

/* Number of output elements an operation writes for n inputs. */
size_t out_len_for(kind_t kind, size_t n);
/* The same in 32-bit words (the unit of poison, guard bands and raw files). */
size_t out_words_for(kind_t kind, size_t n, dtype_t dtype);

/* gamma_k = k u / (1 - k u), u = 2^-24: Higham's bound factor for float32. */
double gamma_k(int k);

/*
 * Association depth from a suite's tolerance spec: "log2n" (a tree over n:
 * ceil(log2 n) + 1), "Mlog2n+K" (M such trees one after another, plus K
 * more steps), "chain:E" (trees over E elements whose results are combined
 * one after another: ceil(log2 E) + ceil(n / E); "chain:E+K" adds K steps
 * inside each piece), "n" (any order: n - 1),
 * or a plain number.  Returns -1 for a malformed spec.
 */
int tol_depth(const char *spec, size_t n);

/* Compare got[0..out_len) with the reference for in[0..n).  For
 * KIND_DECODE, `in` is the data before encoding: the expected output. */
void check_output(const check_spec *spec, const void *in, const void *got, check_result *r);

/* Lab 7's two kinds (check_apps.c; check_output calls them): exact, int32
 * or int64.  A compaction must leave out[count..n) poisoned. */
void check_compact(const check_spec *spec, const void *in, const void *got, check_result *r);
void check_decode(const check_spec *spec, const void *in, const void *got, check_result *r);

/* Fill `words` 32-bit words with w. */
void fill_words(void *buf, size_t words, uint32_t w);
/* Index of the first word that is not w, or -1 when all are intact. */
long first_changed_word(const void *buf, size_t words, uint32_t w);

#ifdef __cplusplus
}
#endif
#endif /* CHECK_H */
