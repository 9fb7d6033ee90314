/* test_prng.c - the PRNG and input generator: deterministic, seed-sensitive,
 * in range, and identical however the array is generated. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "perturb.h"
#include "prng.h"

Test(prng, same_seed_same_stream)
{
    for (uint64_t i = 0; i < 1000; i++)
        cr_assert_eq(prng_u64(42, i), prng_u64(42, i));
}

Test(prng, known_values_pin_the_stream)
{
    /* Changing the generator changes every graded input: pin it. */
    cr_assert_eq(prng_u64(1, 0), 0xdce423fc82c0d5b8ULL);
    int32_t first[4], expect[4] = {6, -2, 8, -8};
    gen_input(first, 4, DT_INT32, DIST_SMALL, 1);
    cr_assert_arr_eq(first, expect, sizeof first);
}

Test(prng, seeds_differ)
{
    int same = 0;
    for (uint64_t i = 0; i < 1000; i++)
        same += prng_u64(1, i) == prng_u64(2, i);
    cr_assert_eq(same, 0);
}

Test(prng, range_is_inclusive_and_covered)
{
    int seen[17] = {0};
    for (uint64_t i = 0; i < 100000; i++) {
        int32_t v = prng_range(7, i, -8, 8);
        cr_assert(v >= -8 && v <= 8, "value %d out of [-8, 8]", v);
        seen[v + 8]++;
    }
    for (int k = 0; k < 17; k++) /* each of 17 values ~5900 times */
        cr_assert(seen[k] > 5000 && seen[k] < 7000, "value %d seen %d times", k - 8, seen[k]);
}

Test(prng, distributions)
{
    enum { N = 4096 };
    int32_t iv[N];
    float fv[N];
    gen_input(iv, N, DT_INT32, DIST_ONES, 3);
    gen_input(fv, N, DT_FLOAT32, DIST_ONES, 3);
    for (int i = 0; i < N; i++)
        cr_assert(iv[i] == 1 && fv[i] == 1.0f);

    gen_input(fv, N, DT_FLOAT32, DIST_SMALL, 3);
    gen_input(iv, N, DT_INT32, DIST_SMALL, 3);
    for (int i = 0; i < N; i++)
        cr_assert_eq((int32_t)fv[i], iv[i], "float and int small inputs agree");

    int negative = 0, large = 0;
    gen_input(iv, N, DT_INT32, DIST_WIDE, 3);
    for (int i = 0; i < N; i++) {
        negative += iv[i] < 0;
        large += iv[i] > (1 << 30) || iv[i] < -(1 << 30);
    }
    cr_assert(negative > N / 3 && large > N / 3, "wide int32 covers the whole range");

    gen_input(fv, N, DT_FLOAT32, DIST_WIDE, 3);
    int fractional = 0;
    negative = 0;
    for (int i = 0; i < N; i++) {
        cr_assert(fv[i] >= -0.25f && fv[i] < 1.0f);
        fractional += fv[i] != (float)(int)fv[i];
        negative += fv[i] < 0;
    }
    cr_assert(fractional > N / 2, "wide float32 inputs are not integers");
    cr_assert(negative > N / 10 && negative < N / 4, "a fifth of them negative (%d)", negative);
}

Test(prng, element_depends_only_on_its_index)
{
    int32_t whole[100], part[10];
    gen_input(whole, 100, DT_INT32, DIST_WIDE, 9);
    gen_input(part, 10, DT_INT32, DIST_WIDE, 9);
    cr_assert_arr_eq(whole, part, sizeof part);
}

/* gen_element(i) is gen_input's element i, for every type and
 * distribution: the values a timed run's changes write (perturb.h) come
 * from the case's own distribution. */
Test(prng, element_matches_array)
{
    for (int t = 0; t < 3; t++)
        for (int d = 0; d < 3; d++) {
            dtype_t dt = t == 0 ? DT_INT32 : t == 1 ? DT_FLOAT32 : DT_INT64;
            dist_t di = d == 0 ? DIST_ONES : d == 1 ? DIST_SMALL : DIST_WIDE;
            int64_t arr[64], one = 0;
            gen_input(arr, 64, dt, di, 11);
            for (uint64_t i = 0; i < 64; i++) {
                gen_element(&one, i, dt, di, 11);
                cr_assert_eq(memcmp((char *)arr + i * dtype_size(dt), &one, dtype_size(dt)), 0,
                             "dtype %d dist %d element %llu", t, d, (unsigned long long)i);
            }
        }
}

/* The input a timed run's last call sees depends on the seed alone (not
 * on how many calls the run made), stays inside the distribution and
 * differs from the first call's (small integers: 16 of 17 values differ). */
Test(prng, perturbation_replays)
{
    int32_t a[1000], b[1000], base[1000];
    gen_input(base, 1000, DT_INT32, DIST_SMALL, 5);
    memcpy(a, base, sizeof a);
    memcpy(b, base, sizeof b);
    perturb_input p = {1000, DT_INT32, DIST_SMALL, 5, -1};
    perturb_host(a, &p, 7);
    perturb_host(b, &p, 50); /* the last call's input, however many calls */
    cr_assert_eq(memcmp(a, b, sizeof a), 0);
    cr_assert_neq(memcmp(a, base, sizeof a), 0);
    for (int i = 0; i < 1000; i++)
        cr_assert(a[i] >= -8 && a[i] <= 8);
    p.keep = PRED_MULT4; /* a compaction's: each element keeps its predicate */
    memcpy(a, base, sizeof a);
    perturb_host(a, &p, 50);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(pred_keep(PRED_MULT4, a[i]), pred_keep(PRED_MULT4, base[i]));
    cr_assert_neq(memcmp(a, base, sizeof a), 0);
    cr_assert_eq(perturb_calls(1, 5, 50), 55);
    cr_assert_eq(perturb_calls(1, 0, 1), 0);
    cr_assert_eq(perturb_calls(0, 5, 50), 0);
}
