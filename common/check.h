/*
 * check.h - judging an output array against the CPU reference, and the
 * poison / guard-band patterns that make unwritten and out-of-bounds
 * elements visible.  Used by the grader (which is the only judge) and by
 * the harness's self-check printout.
 */
#ifndef CHECK_H
#define CHECK_H

#include "kinds/kinds.h"

#include <string.h>

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

/* What was computed, so the checker can recompute it.  section, order,
 * tuple and pred are the kind's parameters (kinds.h's kind_params): each
 * kind reads those its row names. */
typedef struct check_spec {
    kind_t kind;
    dtype_t dtype;
    op_t op;
    int exclusive;  /* scans only */
    size_t section; /* section scans: elements per section */
    size_t n;
    int depth;      /* association depth k of the float error bound */
    int order;      /* decodes: order k (1..KIT_MAX_ORDER) */
    int tuple;      /* decodes: tuple size d (1..KIT_MAX_TUPLE) */
    pred_t pred;    /* compactions: the predicate */
} check_spec;

typedef struct check_result {
    int ok;
    size_t mismatches;   /* how many elements are wrong */
    size_t first;        /* index of the first wrong element */
    int unwritten;       /* the first wrong element still holds POISON_WORD */
    double bound;        /* float error bound at `first` (0: exact check) */
    char detail[640];    /* one or two lines a student can act on */
} check_result;

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

/* Compare got[0..out_len) with the reference for in[0..n): the kind's own
 * check (kinds.h).  For a kind whose input is encoded, `in` is the data
 * before encoding. */
void check_output(const check_spec *spec, const void *in, const void *got, check_result *r);

/* The check of the FOLD and PREFIX forms (kinds.h): reductions and scans,
 * int32 exact, float32 within the error bound of spec->depth. */
void check_formed(const struct check_spec *spec, const void *in, const void *got,
                  struct check_result *r);

/* For the kinds' own checks: is element i of got (int32 or int64) still the
 * poison (inline, like reference.h's int_at: the checks of 2^26 elements
 * ask it per element); the element as a student reads it ("<unwritten>"
 * for the poison); and a wrong element recorded (the first is the one
 * described). */
static inline int elem_is_poison(const void *got, dtype_t dtype, size_t i)
{
    size_t words = dtype_size(dtype) / 4;
    for (size_t k = 0; k < words; k++) {
        uint32_t w;
        memcpy(&w, (const char *)got + 4 * (i * words + k), 4);
        if (w != POISON_WORD)
            return 0;
    }
    return 1;
}
void fmt_elem_int(char *buf, size_t size, const void *a, dtype_t dtype, size_t i);
void check_mark_wrong(check_result *r, size_t i, int unwritten);

/* A check's pass over elements [0, n) split across the host's cores
 * (host_par.h: one thread per 2^22 elements), for the grader's checks of
 * 2^26 elements: part marks the wrong elements of [from, to) in its own
 * tally (check_mark_wrong), and the tallies are added to r in order, so
 * that r->first stays the first wrong element of all (r may hold an
 * earlier pass's, of lower indices).  Returns the slice that held this
 * pass's first wrong element (for what a part keeps per slice), or -1. */
typedef void (*check_part_fn)(size_t from, size_t to, int slice, void *ctx,
                              check_result *tally);
int check_parallel(size_t n, check_part_fn part, void *ctx, check_result *r);

/* Fill `words` 32-bit words with w. */
void fill_words(void *buf, size_t words, uint32_t w);
/* Index of the first word that is not w, or -1 when all are intact. */
long first_changed_word(const void *buf, size_t words, uint32_t w);

#ifdef __cplusplus
}
#endif
#endif /* CHECK_H */
