/*
 * reference.c - the simplest correct code for each operation.  The grader
 * trusts these, so they stay sequential and obvious.
 */
#include "reference.h"

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

int64_t int_at(const void *a, dtype_t dtype, size_t i)
{
    return dtype == DT_INT64 ? ((const int64_t *)a)[i] : (int64_t)((const int32_t *)a)[i];
}

/* One pass of stride-d differencing (sign -1) or summing (+1), wrapping:
 * unsigned arithmetic of the element's width, so no overflow is undefined. */
static void stride_pass(void *x, size_t n, dtype_t dtype, size_t d, int sign)
{
    if (dtype == DT_INT64) {
        uint64_t *v = (uint64_t *)x;
        if (sign < 0)
            for (size_t i = n; i-- > d;) v[i] -= v[i - d];
        else
            for (size_t i = d; i < n; i++) v[i] += v[i - d];
    } else {
        uint32_t *v = (uint32_t *)x;
        if (sign < 0)
            for (size_t i = n; i-- > d;) v[i] -= v[i - d];
        else
            for (size_t i = d; i < n; i++) v[i] += v[i - d];
    }
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
