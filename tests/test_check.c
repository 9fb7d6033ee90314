/* test_check.c - the judge: exact ints, float error bounds, unwritten
 * (poison) detection, guard bands, and the messages a student reads. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "prng.h"
#include "reference.h"

static check_spec spec(kind_t kind, dtype_t t, op_t op, size_t n)
{
    check_spec s = {kind, t, op, 0, 0, n, tol_depth("log2n", n), 1, 1, PRED_POSITIVE};
    return s;
}

Test(check, gamma_and_depth)
{
    cr_assert_float_eq(gamma_k(1), 0x1p-24 / (1 - 0x1p-24), 1e-30);
    cr_assert_eq(tol_depth("log2n", 1024), 11);
    cr_assert_eq(tol_depth("log2n", 1025), 12);
    cr_assert_eq(tol_depth("log2n", 0), 1);
    cr_assert_eq(tol_depth("chain:1024", 4096), 10 + 4);
    cr_assert_eq(tol_depth("n", 100), 99);
    cr_assert_eq(tol_depth("7", 100), 7);
    cr_assert_eq(tol_depth("2log2n+1", 1024), 2 * 10 + 1 + 1);
    cr_assert_eq(tol_depth("log2n+8", 1024), 10 + 1 + 8);
    cr_assert_eq(tol_depth("chain:4096+26", 8192), 12 + 2 + 26);
    cr_assert_eq(tol_depth("chain:4096+", 8192), -1);
    cr_assert_eq(tol_depth("chain:", 100), -1);
    cr_assert_eq(tol_depth("log2n+", 100), -1);
    cr_assert_eq(tol_depth("3log2", 100), -1);
    cr_assert_eq(tol_depth("0log2n", 100), -1);
    cr_assert_eq(tol_depth("banana", 100), -1);
}

Test(check, out_len)
{
    cr_assert_eq(out_len_for(KIND_REDUCE, 100), 1);
    cr_assert_eq(out_len_for(KIND_SCAN, 100), 100);
    cr_assert_eq(out_len_for(KIND_SECTION_SCAN, 100), 100);
}

Test(check, int_reduce_exact)
{
    int32_t in[] = {5, -3, 8};
    int32_t got = 10;
    check_spec s = spec(KIND_REDUCE, DT_INT32, OP_SUM, 3);
    check_result r;
    check_output(&s, in, &got, &r);
    cr_assert(r.ok);
    got = 11;
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, 0);
    cr_assert(strstr(r.detail, "expected 10 got 11"), "detail: %s", r.detail);
}

Test(check, empty_reduce_expects_identity)
{
    int32_t got = INT32_MAX;
    check_spec s = spec(KIND_REDUCE, DT_INT32, OP_MIN, 0);
    check_result r;
    check_output(&s, NULL, &got, &r);
    cr_assert(r.ok, "%s", r.detail);
}

Test(check, poison_is_reported_as_unwritten)
{
    int32_t in[] = {1, 2};
    uint32_t got = POISON_WORD;
    check_spec s = spec(KIND_REDUCE, DT_INT32, OP_SUM, 2);
    check_result r;
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok && r.unwritten);
    cr_assert(strstr(r.detail, "<unwritten>"), "detail: %s", r.detail);
}

Test(check, integer_valued_floats_must_be_exact)
{
    /* A dropped element must never hide inside the error bound. */
    enum { N = 1 << 16 };
    float *in = malloc(N * sizeof *in);
    gen_input(in, N, DT_FLOAT32, DIST_ONES, 1);
    float got = (float)(N - 1);
    check_spec s = spec(KIND_REDUCE, DT_FLOAT32, OP_SUM, N);
    check_result r;
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok, "one element short must fail");
    cr_assert_eq(r.bound, 0.0);
    got = (float)N;
    check_output(&s, in, &got, &r);
    cr_assert(r.ok);
    free(in);
}

Test(check, fractional_floats_get_the_stated_bound)
{
    enum { N = 4096 };
    float *in = malloc(N * sizeof *in);
    gen_input(in, N, DT_FLOAT32, DIST_WIDE, 5);
    double mass, exact = ref_reduce_f32(in, N, OP_SUM, &mass);
    check_spec s = spec(KIND_REDUCE, DT_FLOAT32, OP_SUM, N);
    double bound = gamma_k(s.depth) * mass;
    check_result r;
    float got = (float)exact; /* within half an ulp */
    check_output(&s, in, &got, &r);
    cr_assert(r.ok, "%s", r.detail);
    got = (float)(exact + 2 * bound + 1e-3);
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok);
    cr_assert_float_eq(r.bound, bound, 1e-12);
    cr_assert(strstr(r.detail, "allowed error"), "detail: %s", r.detail);
    got = NAN;
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok, "NaN never passes");
    free(in);
}

Test(check, float_min_max_are_exact)
{
    float in[] = {0.1f, -0.3f, 0.2f};
    float got = -0.3f;
    check_spec s = spec(KIND_REDUCE, DT_FLOAT32, OP_MIN, 3);
    check_result r;
    check_output(&s, in, &got, &r);
    cr_assert(r.ok);
    got = nextafterf(-0.3f, 0.0f);
    check_output(&s, in, &got, &r);
    cr_assert(!r.ok);
}

Test(check, scan_mismatch_shows_neighbours)
{
    int32_t in[] = {1, 1, 1, 1, 1, 1};
    int32_t got[] = {1, 2, 3, 5, 6, 7};
    check_spec s = spec(KIND_SCAN, DT_INT32, OP_SUM, 6);
    check_result r;
    check_output(&s, in, got, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, 3);
    cr_assert_eq(r.mismatches, 3);
    cr_assert(strstr(r.detail, "out[2] expected 3 got 3"), "detail: %s", r.detail);
    cr_assert(strstr(r.detail, "out[3] expected 4 got 5 <--"), "detail: %s", r.detail);
}

Test(check, exclusive_and_section_scans)
{
    int32_t in[] = {2, 3, 4, 5, 6};
    int32_t excl[] = {0, 2, 5, 9, 14};
    check_spec s = spec(KIND_SCAN, DT_INT32, OP_SUM, 5);
    s.exclusive = 1;
    check_result r;
    check_output(&s, in, excl, &r);
    cr_assert(r.ok, "%s", r.detail);

    int32_t sec_excl[] = {0, 2, 0, 4, 0};
    s.kind = KIND_SECTION_SCAN;
    s.section = 2;
    check_output(&s, in, sec_excl, &r);
    cr_assert(r.ok, "%s", r.detail);
    s.exclusive = 0;
    int32_t sec_incl[] = {2, 5, 4, 9, 6};
    check_output(&s, in, sec_incl, &r);
    cr_assert(r.ok, "%s", r.detail);
    sec_incl[4] = 15; /* carried over the section boundary: wrong */
    check_output(&s, in, sec_incl, &r);
    cr_assert(!r.ok && r.first == 4);
}

Test(check, guard_words)
{
    uint32_t band[64];
    fill_words(band, 64, GUARD_WORD);
    cr_assert_eq(first_changed_word(band, 64, GUARD_WORD), -1);
    band[17] = 0;
    cr_assert_eq(first_changed_word(band, 64, GUARD_WORD), 17);
}

/* The int32 check and lab 7's run on the host's cores, one slice per 2^22
 * elements (check_parallel): over 2^23 + 4099 elements (two slices or
 * more), wrong elements planted on both sides of a slice's edge must be
 * found with the same count and first place as one pass over the whole
 * output finds them, in scans with and without sections (1000: sections
 * straddle the slices' edges), inclusive and exclusive, and in lab 7's
 * decode and compaction. */
static size_t count_wrong(const int32_t *want, const int32_t *got, size_t n, size_t *first)
{
    size_t wrong = 0;
    for (size_t i = n; i-- > 0;)
        if (want[i] != got[i]) {
            wrong++;
            *first = i;
        }
    return wrong;
}

Test(check, slices_agree_with_one_pass)
{
    const size_t n = ((size_t)1 << 23) + 4099;
    int32_t *in = malloc(n * 4), *want = malloc((n + 1) * 4), *got = malloc((n + 1) * 4);
    cr_assert(in && want && got);
    for (size_t i = 0; i < n; i++)
        in[i] = prng_range(7, i, -1000, 1000);
    for (int form = 0; form < 6; form++) { /* scan/section x inclusive/exclusive, decode, compact */
        size_t section = form == 1 || form == 3 ? 1000 : 0;
        int excl = form == 2 || form == 3;
        kind_t kind = form < 4 ? (section ? KIND_SECTION_SCAN : KIND_SCAN)
                               : form == 4 ? KIND_DECODE : KIND_COMPACT;
        check_spec s = spec(kind, DT_INT32, OP_SUM, n);
        s.exclusive = excl;
        s.section = section;
        s.pred = PRED_POSITIVE;
        size_t len = n, kept = n; /* (a compaction's output: n places and the count) */
        if (form < 4)
            ref_scan_i32(in, n, OP_SUM, excl, section, want);
        else if (form == 4)
            memcpy(want, in, n * 4);
        else {
            kept = ref_compact(in, n, DT_INT32, PRED_POSITIVE, want);
            fill_words(want + kept, (uint32_t)(n - kept), POISON_WORD);
            want[n] = (int32_t)kept;
            len = n + 1;
        }
        memcpy(got, want, len * 4);
        check_result r;
        check_output(&s, in, got, &r);
        cr_assert(r.ok, "form %d: a right output judged wrong: %s", form, r.detail);
        const size_t plant[] = {kept / 2 - 1, kept / 2, kept / 2 + 3, kept - 1,
                                kept + (n - kept) / 2}; /* (the last: a compaction's tail) */
        for (int k = 0; k < 5; k++)
            if (plant[k] < len)
                got[plant[k]] ^= 0x10;
        size_t first = 0, wrong = count_wrong(want, got, len, &first);
        check_output(&s, in, got, &r);
        cr_assert(!r.ok, "form %d", form);
        cr_assert_eq(r.mismatches, wrong, "form %d: %zu wrong, %zu found", form, wrong,
                     r.mismatches);
        cr_assert_eq(r.first, first, "form %d: first wrong %zu, found %zu", form, first, r.first);
    }
    free(in);
    free(want);
    free(got);
}
