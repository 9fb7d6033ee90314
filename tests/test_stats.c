/* test_stats.c - median, minimum and GB/s of repeated timings. */
#include <criterion/criterion.h>
#include <math.h>

#include "kinds/kinds.h"
#include "stats.h"

Test(stats, median_and_min)
{
    double odd[] = {5, 1, 3};
    double even[] = {4, 1, 3, 2};
    cr_assert_eq(stats_median(odd, 3), 3);
    cr_assert_eq(stats_median(even, 4), 2.5);
    cr_assert_eq(stats_min(even, 4), 1);
    cr_assert(isnan(stats_median(odd, 0)));
    cr_assert(isnan(stats_min(odd, 0)));
}

Test(stats, bandwidth)
{
    cr_assert_float_eq(stats_gbps(1e9, 1000), 1.0, 1e-12);
    cr_assert(isnan(stats_gbps(1e9, 0)));
    cr_assert_eq(bytes_moved(KIND_REDUCE, 1000, DT_INT32), 4000);
    cr_assert_eq(bytes_moved(KIND_SCAN, 1000, DT_FLOAT32), 8000);
}

Test(stats, names_round_trip)
{
    for (int t = 0; t < DT_COUNT; t++) {
        dtype_t back;
        cr_assert_eq(dtype_parse(dtype_name((dtype_t)t), &back), 0);
        cr_assert_eq(back, t);
    }
    for (int k = 0; k < KIND_COUNT; k++) {
        kind_t back;
        cr_assert_eq(kind_parse(kind_name((kind_t)k), &back), 0);
        cr_assert_eq(back, k);
    }
    op_t op;
    cr_assert_eq(op_parse("product", &op), -1);
    cr_assert_str_eq(dist_name(DIST_WIDE), "wide");
}
