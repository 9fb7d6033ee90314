/*
 * reference.c - the simplest correct code for each operation.  The grader
 * trusts these, so they stay sequential and obvious.
 */
#include "reference.h"

#include "host_par.h"

#include <math.h>
#include <string.h>

int32_t identity_i32(op_t op)
{
    return op == OP_MIN ? INT32_MAX : op == OP_MAX ? INT32_MIN : 0;
}

double identity_f64(op_t op)
{
    return op == OP_MIN ? INFINITY : op == OP_MAX ? -INFINITY : 0.0;
}

int32_t combine_i32(op_t op, int32_t a, int32_t b)
{
    if (op == OP_MIN) return a < b ? a : b;
    if (op == OP_MAX) return a > b ? a : b;
    return (int32_t)((uint32_t)a + (uint32_t)b); /* wraps like the GPU */
}

double combine_f64(op_t op, double a, double b)
{
    if (op == OP_MIN) return a < b ? a : b;
    if (op == OP_MAX) return a > b ? a : b;
    return a + b;
}

int32_t ref_reduce_i32(const int32_t *in, size_t n, op_t op)
{
    int32_t acc = identity_i32(op);
    for (size_t i = 0; i < n; i++)
        acc = combine_i32(op, acc, in[i]);
    return acc;
}

double ref_reduce_f32(const float *in, size_t n, op_t op, double *abs_sum)
{
    double acc = identity_f64(op), mag = 0.0;
    for (size_t i = 0; i < n; i++) {
        acc = combine_f64(op, acc, (double)in[i]);
        mag += fabs((double)in[i]);
    }
    if (abs_sum)
        *abs_sum = mag;
    return acc;
}

void ref_scan_i32(const int32_t *in, size_t n, op_t op, int exclusive, size_t section,
                  int32_t *out)
{
    int32_t acc = identity_i32(op);
    for (size_t i = 0; i < n; i++) {
        if (section && i % section == 0)
            acc = identity_i32(op);
        if (exclusive) {
            out[i] = acc;
            acc = combine_i32(op, acc, in[i]);
        } else {
            acc = combine_i32(op, acc, in[i]);
            out[i] = acc;
        }
    }
}

void ref_scan_f32(const float *in, size_t n, op_t op, int exclusive, size_t section,
                  double *out)
{
    double acc = identity_f64(op);
    for (size_t i = 0; i < n; i++) {
        if (section && i % section == 0)
            acc = identity_f64(op);
        if (exclusive) {
            out[i] = acc;
            acc = combine_f64(op, acc, (double)in[i]);
        } else {
            acc = combine_f64(op, acc, (double)in[i]);
            out[i] = acc;
        }
    }
}

/*
 * Stride-d differencing and summing, the passes of a delta code, wrapping:
 * unsigned arithmetic of the element's width (done in 64 bits and cut to
 * 32 for int32: the same bits), so no overflow is undefined.  Each pass is
 * split across the cores (host_par.h): an order-8 decode of 2^26 elements
 * made the grader's check of one lab 7 speed case take 2 s on one core.
 * A slice needs what lies before it: for a difference, the d elements
 * before it as they were (kept aside before any slice starts); for a sum,
 * every earlier element of each of the d components (each slice's totals,
 * then the carries they add up to, then the slices summed from them).
 */
typedef struct {
    void *x;
    size_t d;
    int wide;
    uint64_t edge[HOST_PAR_MAX_THREADS][KIT_MAX_TUPLE];
} pass_job;

static uint64_t word_at(const pass_job *j, size_t i)
{
    return j->wide ? ((const uint64_t *)j->x)[i] : ((const uint32_t *)j->x)[i];
}

static void word_set(const pass_job *j, size_t i, uint64_t v)
{
    if (j->wide)
        ((uint64_t *)j->x)[i] = v;
    else
        ((uint32_t *)j->x)[i] = (uint32_t)v;
}

/* x[i] -= x[i - d] over the slice, from its end; the d elements before it
 * come from edge[slice]. */
static void difference_part(size_t from, size_t to, int slice, void *ctx)
{
    pass_job *j = (pass_job *)ctx;
    for (size_t i = to; i-- > from;) {
        if (i < j->d)
            break;
        uint64_t before = i - j->d >= from ? word_at(j, i - j->d) : j->edge[slice][i - from];
        word_set(j, i, word_at(j, i) - before);
    }
}

/* edge[slice][c]: the sum of the slice's elements of component c. */
static void totals_part(size_t from, size_t to, int slice, void *ctx)
{
    pass_job *j = (pass_job *)ctx;
    uint64_t tot[KIT_MAX_TUPLE] = {0};
    for (size_t i = from, c = from % j->d; i < to; i++, c = c + 1 == j->d ? 0 : c + 1)
        tot[c] += word_at(j, i);
    memcpy(j->edge[slice], tot, sizeof tot);
}

/* The slice summed per component, from the carries in edge[slice]. */
static void sum_part(size_t from, size_t to, int slice, void *ctx)
{
    pass_job *j = (pass_job *)ctx;
    uint64_t run[KIT_MAX_TUPLE];
    memcpy(run, j->edge[slice], sizeof run);
    for (size_t i = from, c = from % j->d; i < to; i++, c = c + 1 == j->d ? 0 : c + 1) {
        run[c] += word_at(j, i);
        word_set(j, i, run[c]);
    }
}

static void stride_pass(void *x, size_t n, dtype_t dtype, size_t d, int sign)
{
    pass_job j = {x, d, dtype == DT_INT64, {{0}}};
    const int k = host_slices(n);
    if (sign < 0) {
        for (int t = 1; t < k; t++) /* (slices are far longer than d) */
            for (size_t m = 0, from = n * (size_t)t / (size_t)k; m < d && from >= d; m++)
                j.edge[t][m] = word_at(&j, from - d + m);
        host_parallel(n, difference_part, &j);
        return;
    }
    host_parallel(n, totals_part, &j);
    uint64_t carry[KIT_MAX_TUPLE] = {0}, next;
    for (int t = 0; t < k; t++)
        for (size_t c = 0; c < d; c++) {
            next = carry[c] + j.edge[t][c];
            j.edge[t][c] = carry[c];
            carry[c] = next;
        }
    host_parallel(n, sum_part, &j);
}

void ref_encode(void *x, size_t n, dtype_t dtype, int order, int tuple)
{
    for (int k = 0; k < order; k++)
        stride_pass(x, n, dtype, (size_t)tuple, -1);
}

void ref_decode(void *x, size_t n, dtype_t dtype, int order, int tuple)
{
    for (int k = 0; k < order; k++)
        stride_pass(x, n, dtype, (size_t)tuple, +1);
}

size_t ref_compact(const void *in, size_t n, dtype_t dtype, pred_t pred, void *out)
{
    size_t kept = 0, size = dtype_size(dtype);
    for (size_t i = 0; i < n; i++)
        if (pred_keep(pred, int_at(in, dtype, i)))
            memcpy((char *)out + size * kept++, (const char *)in + size * i, size);
    return kept;
}
