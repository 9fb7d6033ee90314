/* test_reference.c - the CPU references the grader trusts: identities,
 * wrap-around, empty inputs, inclusive/exclusive and section scans. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

Test(reference, identities)
{
    cr_assert_eq(identity_i32(OP_SUM), 0);
    cr_assert_eq(identity_i32(OP_MIN), INT32_MAX);
    cr_assert_eq(identity_i32(OP_MAX), INT32_MIN);
    cr_assert(isinf(identity_f64(OP_MIN)) && identity_f64(OP_MIN) > 0);
    cr_assert(isinf(identity_f64(OP_MAX)) && identity_f64(OP_MAX) < 0);
    for (op_t op = 0; op < OP_COUNT; op++) {
        cr_assert_eq(combine_i32(op, identity_i32(op), -5), -5);
        cr_assert_eq(combine_f64(op, identity_f64(op), 2.5), 2.5);
    }
}

Test(reference, empty_reduce_is_identity)
{
    cr_assert_eq(ref_reduce_i32(NULL, 0, OP_SUM), 0);
    cr_assert_eq(ref_reduce_i32(NULL, 0, OP_MAX), INT32_MIN);
    double mass = 1;
    cr_assert(isinf(ref_reduce_f32(NULL, 0, OP_MIN, &mass)));
    cr_assert_eq(mass, 0.0);
}

Test(reference, int_sum_wraps_like_the_gpu)
{
    int32_t in[] = {INT32_MAX, 1, 5};
    cr_assert_eq(ref_reduce_i32(in, 2, OP_SUM), INT32_MIN);
    cr_assert_eq(ref_reduce_i32(in, 3, OP_SUM), INT32_MIN + 5);
}

Test(reference, min_max)
{
    int32_t in[] = {3, -7, 12, 0};
    cr_assert_eq(ref_reduce_i32(in, 4, OP_MIN), -7);
    cr_assert_eq(ref_reduce_i32(in, 4, OP_MAX), 12);
    float f[] = {0.5f, -2.25f, 8.0f};
    cr_assert_eq(ref_reduce_f32(f, 3, OP_MIN, NULL), -2.25);
    cr_assert_eq(ref_reduce_f32(f, 3, OP_MAX, NULL), 8.0);
}

Test(reference, float_sum_is_exact_in_double_and_reports_mass)
{
    float f[] = {1e8f, 1.0f, -1e8f, 0.5f};
    double mass;
    /* float32 left to right would lose the 1.0 */
    cr_assert_eq(ref_reduce_f32(f, 4, OP_SUM, &mass), 1.5);
    cr_assert_eq(mass, 2e8 + 1.5);
}

Test(reference, scans)
{
    int32_t in[] = {1, 2, 3, 4, 5};
    int32_t out[5];
    ref_scan_i32(in, 5, OP_SUM, 0, 0, out);
    int32_t inc[] = {1, 3, 6, 10, 15};
    cr_assert_arr_eq(out, inc, sizeof out);
    ref_scan_i32(in, 5, OP_SUM, 1, 0, out);
    int32_t exc[] = {0, 1, 3, 6, 10};
    cr_assert_arr_eq(out, exc, sizeof out);
    ref_scan_i32(in, 5, OP_SUM, 0, 2, out);
    int32_t sec[] = {1, 3, 3, 7, 5};
    cr_assert_arr_eq(out, sec, sizeof out);
    ref_scan_i32(in, 5, OP_MAX, 1, 2, out);
    int32_t secx[] = {INT32_MIN, 1, INT32_MIN, 3, INT32_MIN};
    cr_assert_arr_eq(out, secx, sizeof out);
}

Test(reference, float_scan)
{
    float in[] = {0.5f, 0.25f, -1.0f};
    double out[3];
    ref_scan_f32(in, 3, OP_SUM, 0, 0, out);
    cr_assert(out[0] == 0.5 && out[1] == 0.75 && out[2] == -0.25);
    ref_scan_f32(in, 3, OP_MIN, 1, 0, out);
    cr_assert(isinf(out[0]) && out[1] == 0.5 && out[2] == 0.25);
}

/* The delta code's passes, split across the cores, give what one pass
 * from the start gives: x[i] -= x[i - d] from the end, x[i] += x[i - d]
 * from the start, wrapping; at a size cut into several slices (2^23 + 5:
 * two or more slices wherever there are two cores), unevenly. */
static void serial_pass(uint64_t *v64, uint32_t *v32, size_t n, size_t d, int sign)
{
    if (sign < 0) {
        for (size_t i = n; i-- > d;)
            v64 ? (void)(v64[i] -= v64[i - d]) : (void)(v32[i] -= v32[i - d]);
    } else {
        for (size_t i = d; i < n; i++)
            v64 ? (void)(v64[i] += v64[i - d]) : (void)(v32[i] += v32[i - d]);
    }
}

Test(reference, delta_passes_split_like_one_pass)
{
    const size_t n = ((size_t)1 << 23) + 5;
    const int orders[] = {1, 3, 8}, tuples[] = {1, 3, 8};
    uint64_t *a = malloc(n * 8), *b = malloc(n * 8);
    cr_assert(a && b);
    for (int wide = 0; wide < 2; wide++)
        for (int o = 0; o < 3; o++)
            for (int t = 0; t < 3; t++) {
                size_t bytes = n * (wide ? 8 : 4);
                for (size_t i = 0; i < n * 2; i++) /* any bits */
                    ((uint32_t *)a)[i] = (uint32_t)(i * 2654435761u + 12345u);
                memcpy(b, a, bytes);
                dtype_t dt = wide ? DT_INT64 : DT_INT32;
                ref_encode(a, n, dt, orders[o], tuples[t]);
                for (int k = 0; k < orders[o]; k++)
                    serial_pass(wide ? b : NULL, wide ? NULL : (uint32_t *)b, n,
                                (size_t)tuples[t], -1);
                cr_assert_eq(memcmp(a, b, bytes), 0, "encode order %d tuple %d wide %d",
                             orders[o], tuples[t], wide);
                ref_decode(a, n, dt, orders[o], tuples[t]);
                for (int k = 0; k < orders[o]; k++)
                    serial_pass(wide ? b : NULL, wide ? NULL : (uint32_t *)b, n,
                                (size_t)tuples[t], +1);
                cr_assert_eq(memcmp(a, b, bytes), 0, "decode order %d tuple %d wide %d",
                             orders[o], tuples[t], wide);
            }
    free(a);
    free(b);
}
