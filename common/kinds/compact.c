/*
 * compact.c - a stream compaction (lab 7): the elements that satisfy a
 * predicate, in input order, in out[0..count), and count in out[n];
 * out[count..n) is left as it was.  Integer-only and exact.
 */
#include "check.h"
#include "compact.h"
#include "host_par.h"
#include "kinds.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n places for the kept elements, then the count. */
static size_t compact_out_len(size_t n) { return n + 1; }

/* Counted as its reads alone: what it writes depends on the data, and the
 * grader's plausibility bound (grader/speed.c) must never call an honest
 * time too fast.  Counting n writes too made a fused compaction keeping a
 * quarter look like 1.36 device copies on an H100, and the reference's
 * own time was rejected. */
static double compact_bytes(size_t n, dtype_t dtype) { return (double)n * dtype_size(dtype); }

/* The first problem in output order, described: a wrong kept element, a
 * write past the kept ones, or a wrong count. */
static void describe_compact(const check_spec *s, const void *in, const void *got, size_t kept,
                             size_t src, size_t first_value_wrong, check_result *r)
{
    const char *what = pred_name(s->pred);
    char es[32], gs[32];
    if (r->first == first_value_wrong) {
        fmt_elem_int(es, sizeof es, in, s->dtype, src);
        fmt_elem_int(gs, sizeof gs, got, s->dtype, r->first);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements, %zu kept: %zu outputs wrong, first at "
                 "out[%zu]: expected %s (in[%zu], kept element #%zu) got %s; kept elements go "
                 "to out[] in input order",
                 what, s->n, kept, r->mismatches, r->first, es, src, r->first, gs);
    } else if (r->first < s->n) {
        fmt_elem_int(gs, sizeof gs, got, s->dtype, r->first);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements, %zu kept: out[%zu] is past the kept "
                 "elements and was written (holds %s); only out[0..%zu) and the count at out[%zu] "
                 "may be written",
                 what, s->n, kept, r->first, gs, kept, s->n);
    } else {
        fmt_elem_int(gs, sizeof gs, got, s->dtype, s->n);
        snprintf(r->detail, sizeof r->detail,
                 "compaction (keep %s) of %zu elements: the count at out[%zu] is %s, expected %zu",
                 what, s->n, s->n, gs, kept);
    }
}

/* The passes of the check, on the host's cores (check.h): how many each
 * slice keeps, then each slice's kept elements against their places from
 * the count before it, then the places past the last kept one. */
typedef struct {
    const check_spec *s;
    const void *in, *got;
    size_t kept[HOST_PAR_MAX_THREADS];  /* by the slice, then before it */
    size_t src[HOST_PAR_MAX_THREADS];   /* the input of the slice's first wrong output */
    size_t tail;                        /* the first place past the kept ones */
    size_t from[HOST_PAR_MAX_THREADS];  /* where each slice of the count began */
} compact_pass;

static void count_part(size_t from, size_t to, int slice, void *ctx)
{
    compact_pass *c = ctx;
    size_t kept = 0;
    for (size_t i = from; i < to; i++)
        kept += pred_keep(c->s->pred, int_at(c->in, c->s->dtype, i));
    c->kept[slice] = kept;
    c->from[slice] = from;
}

static void values_part(size_t from, size_t to, int slice, void *ctx, check_result *t)
{
    compact_pass *c = ctx;
    size_t kept = c->kept[slice];
    if (c->from[slice] != from) { /* (the cores online changed between the passes) */
        fprintf(stderr, "check: the compaction's slices moved between its passes\n");
        abort();
    }
    for (size_t i = from; i < to; i++) {
        int64_t x = int_at(c->in, c->s->dtype, i);
        if (!pred_keep(c->s->pred, x))
            continue;
        if (int_at(c->got, c->s->dtype, kept) != x) {
            if (t->ok)
                c->src[slice] = i; /* the input the first wrong output should hold */
            check_mark_wrong(t, kept, elem_is_poison(c->got, c->s->dtype, kept));
        }
        kept++;
    }
}

static void tail_part(size_t from, size_t to, int slice, void *ctx, check_result *t)
{
    const compact_pass *c = ctx;
    (void)slice;
    for (size_t j = c->tail + from; j < c->tail + to; j++)
        if (!elem_is_poison(c->got, c->s->dtype, j))
            check_mark_wrong(t, j, 0);
}

/*
 * out[j] is the j-th kept input, in input order; out[n] is the count;
 * out[count..n) must still hold the poison (a kernel that writes anything
 * there wrote where nothing belongs).
 */
static void check_compact(const check_spec *s, const void *in, const void *got, check_result *r)
{
    compact_pass *c = malloc(sizeof *c);
    if (!c) {
        fprintf(stderr, "check: out of memory\n");
        abort();
    }
    *c = (compact_pass){.s = s, .in = in, .got = got};
    memset(r, 0, sizeof *r);
    r->ok = 1;
    host_parallel(s->n, count_part, c);
    size_t kept = 0;
    for (int t = 0; t < HOST_PAR_MAX_THREADS; t++) { /* (those that did not run kept 0) */
        size_t mine = c->kept[t];
        c->kept[t] = kept;
        kept += mine;
    }
    int at = check_parallel(s->n, values_part, c, r);
    size_t src = at >= 0 ? c->src[at] : 0;
    size_t first_value_wrong = r->ok ? s->n + 1 : r->first;
    c->tail = kept;
    check_parallel(s->n - kept, tail_part, c, r);
    if (int_at(got, s->dtype, s->n) != (int64_t)kept)
        check_mark_wrong(r, s->n, elem_is_poison(got, s->dtype, s->n));
    if (!r->ok)
        describe_compact(s, in, got, kept, src, first_value_wrong, r);
    free(c);
}

/* The predicate, and the count's place after the n kept slots. */
static const void *compact_lab_args(const kind_params *k, void *out, size_t n, dtype_t dtype,
                                    kind_args *store)
{
    _Static_assert(sizeof(compact_args) <= sizeof(kind_args), "compact_args outgrew kind_args");
    compact_args *a = (compact_args *)store;
    a->pred = k->pred;
    a->count = (char *)out + n * dtype_size(dtype);
    return a;
}

const kind_def KIND_DEF_COMPACT = {
    .name = "compact",
    .noun = "compaction",
    .one_pass = "1 n read and the kept elements written once",
    .drawn = 0,
    .form = FORM_OWN,
    .input = INPUT_DATA,
    .layout = LAYOUT_COUNTED,
    .cub = CUB_SELECT,
    .dtypes = 1u << DT_INT32 | 1u << DT_INT64,
    .any_op = 0,
    .exclusive = 0,
    .params = KP_PRED,
    .out_len = compact_out_len,
    .bytes = compact_bytes,
    .check = check_compact,
    .variant_params = NULL,
    .lab_args = compact_lab_args,
};
