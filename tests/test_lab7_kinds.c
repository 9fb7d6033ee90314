/*
 * test_lab7_kinds.c - what the kit gained for lab 7: int64 inputs, the
 * delta encode/decode references (a round trip gives the data back for
 * every order and tuple size, int32 and int64, wrapping), the stable
 * compaction reference, the exact judge of both kinds (poison past the
 * count, wrong counts, unwritten elements), the --order/--tuple/--pred
 * options and the suite's order=/tuple=/pred= keys.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "prng.h"
#include "reference.h"
#include "suite.h"

/* ---- names and sizes ---------------------------------------------------------- */

Test(lab7_kinds, names_and_sizes)
{
    dtype_t t;
    kind_t k;
    pred_t p;
    cr_assert_eq(dtype_parse("int64", &t), 0);
    cr_assert_eq(t, DT_INT64);
    cr_assert_eq(dtype_size(DT_INT64), 8);
    cr_assert_eq(dtype_size(DT_INT32), 4);
    cr_assert_eq(kind_parse("compact", &k), 0);
    cr_assert_eq(k, KIND_COMPACT);
    cr_assert_eq(kind_parse("decode", &k), 0);
    cr_assert_eq(k, KIND_DECODE);
    cr_assert_eq(pred_parse("mult4", &p), 0);
    cr_assert_eq(p, PRED_MULT4);
    cr_assert_eq(pred_parse("even", &p), -1);
    cr_assert_eq(out_len_for(KIND_COMPACT, 10), 11, "kept elements, then the count");
    cr_assert_eq(out_len_for(KIND_DECODE, 10), 10);
    cr_assert_eq(out_words_for(KIND_COMPACT, 10, DT_INT64), 22);
    cr_assert_eq(out_words_for(KIND_SCAN, 10, DT_INT32), 10);
    cr_assert_eq(bytes_moved(KIND_DECODE, 100, DT_INT64), 1600.0);
    cr_assert_eq(bytes_moved(KIND_COMPACT, 100, DT_INT32), 400.0, "reads only: writes vary");
}

Test(lab7_kinds, predicates)
{
    cr_assert(pred_keep(PRED_POSITIVE, 1) && !pred_keep(PRED_POSITIVE, 0) &&
              !pred_keep(PRED_POSITIVE, -5));
    cr_assert(pred_keep(PRED_MULT4, 0) && pred_keep(PRED_MULT4, -8) && pred_keep(PRED_MULT4, 12));
    cr_assert(!pred_keep(PRED_MULT4, 6) && !pred_keep(PRED_MULT4, -3));
}

/* ---- int64 inputs ----------------------------------------------------------- */

Test(lab7_kinds, int64_inputs)
{
    int64_t a[1000], b[1000];
    gen_input(a, 1000, DT_INT64, DIST_WIDE, 3);
    gen_input(b, 1000, DT_INT64, DIST_WIDE, 3);
    cr_assert_eq(memcmp(a, b, sizeof a), 0, "regenerated identically");
    int high = 0;
    for (int i = 0; i < 1000; i++)
        high |= (a[i] >> 40) != 0 && (a[i] >> 40) != -1;
    cr_assert(high, "wide int64 uses the high bits");
    gen_input(a, 1000, DT_INT64, DIST_SMALL, 3);
    for (int i = 0; i < 1000; i++)
        cr_assert(a[i] >= -8 && a[i] <= 8);
    int32_t c[1000];
    gen_input(c, 1000, DT_INT32, DIST_SMALL, 3);
    for (int i = 0; i < 1000; i++)
        cr_assert_eq(a[i], c[i], "small int64 = small int32, element for element");
}

/* ---- encode / decode ---------------------------------------------------------- */

/* e[i] = sum_j (-1)^j C(k, j) x[i - j d]: how the harness's device encoder
 * computes it (one pass), against reference.c's k passes. */
static void encode_by_binomials(const uint32_t *x, uint32_t *e, size_t n, int k, int d)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t acc = 0, binom = 1;
        for (int j = 0; j <= k && (size_t)j * d <= i; j++) {
            uint32_t term = binom * x[i - (size_t)j * d];
            acc = (j & 1) ? acc - term : acc + term;
            binom = binom * (uint32_t)(k - j) / (uint32_t)(j + 1);
        }
        e[i] = acc;
    }
}

Test(lab7_kinds, round_trip_every_order_and_tuple)
{
    enum { N = 1000 };
    static int32_t x32[N], y32[N];
    static int64_t x64[N], y64[N];
    for (int dist = 0; dist < DIST_COUNT; dist++) {
        gen_input(x32, N, DT_INT32, (dist_t)dist, 5);
        gen_input(x64, N, DT_INT64, (dist_t)dist, 5);
        for (int k = 1; k <= KIT_MAX_ORDER; k++)
            for (int d = 1; d <= KIT_MAX_TUPLE; d++) {
                memcpy(y32, x32, sizeof x32);
                memcpy(y64, x64, sizeof x64);
                ref_encode(y32, N, DT_INT32, k, d);
                ref_encode(y64, N, DT_INT64, k, d);
                ref_decode(y32, N, DT_INT32, k, d);
                ref_decode(y64, N, DT_INT64, k, d);
                cr_assert_eq(memcmp(x32, y32, sizeof x32), 0, "int32 k=%d d=%d %s", k, d,
                             dist_name((dist_t)dist));
                cr_assert_eq(memcmp(x64, y64, sizeof x64), 0, "int64 k=%d d=%d", k, d);
            }
    }
}

Test(lab7_kinds, encoders_agree)
{
    enum { N = 500 };
    static uint32_t x[N], e[N], byb[N];
    gen_input(x, N, DT_INT32, DIST_WIDE, 9); /* wrapping everywhere */
    for (int k = 1; k <= KIT_MAX_ORDER; k++)
        for (int d = 1; d <= KIT_MAX_TUPLE; d++) {
            memcpy(e, x, sizeof x);
            ref_encode(e, N, DT_INT32, k, d);
            encode_by_binomials(x, byb, N, k, d);
            cr_assert_eq(memcmp(e, byb, sizeof e), 0, "k=%d d=%d", k, d);
        }
}

Test(lab7_kinds, decode_examples)
{
    /* SAM's slides: 1 2 3 4 5 2 4 6 8 10, order 1 then 2 */
    int32_t x[10] = {1, 2, 3, 4, 5, 2, 4, 6, 8, 10};
    int32_t o1[10] = {1, 1, 1, 1, 1, -3, 2, 2, 2, 2}, o2[10] = {1, 0, 0, 0, 0, -4, 5, 0, 0, 0};
    int32_t y[10];
    memcpy(y, x, sizeof x);
    ref_encode(y, 10, DT_INT32, 1, 1);
    cr_assert_eq(memcmp(y, o1, sizeof y), 0);
    memcpy(y, x, sizeof x);
    ref_encode(y, 10, DT_INT32, 2, 1);
    cr_assert_eq(memcmp(y, o2, sizeof y), 0);
    /* pairs: x and y decoded apart */
    int32_t t[6] = {1, 10, 2, 20, 3, 30};
    ref_decode(t, 6, DT_INT32, 1, 2);
    int32_t want[6] = {1, 10, 3, 30, 6, 60};
    cr_assert_eq(memcmp(t, want, sizeof t), 0);
}

Test(lab7_kinds, int64_wraps)
{
    int64_t v[2] = {INT64_MAX, 1};
    ref_decode(v, 2, DT_INT64, 1, 1);
    cr_assert_eq(v[1], INT64_MIN);
}

/* ---- compaction reference --------------------------------------------------- */

Test(lab7_kinds, compaction_is_stable)
{
    int32_t in[8] = {3, -1, 0, 7, -2, 5, 4, 8}, out[8];
    cr_assert_eq(ref_compact(in, 8, DT_INT32, PRED_POSITIVE, out), 5);
    int32_t want[5] = {3, 7, 5, 4, 8};
    cr_assert_eq(memcmp(out, want, sizeof want), 0);
    int64_t in64[4] = {4, 1, -8, 2}, out64[4];
    cr_assert_eq(ref_compact(in64, 4, DT_INT64, PRED_MULT4, out64), 2);
    cr_assert(out64[0] == 4 && out64[1] == -8);
}

/* ---- the judge ------------------------------------------------------------------ */

static check_spec lab7_spec(kind_t kind, dtype_t t, size_t n, int order, int tuple, pred_t pred)
{
    check_spec s = {kind, t, OP_SUM, 0, 0, n, 0, order, tuple, pred};
    return s;
}

/* A correct compaction output of in[0..n): kept elements, poison, count. */
static void *right_compaction(const void *in, size_t n, dtype_t t, pred_t p)
{
    size_t size = dtype_size(t);
    char *out = malloc((n + 1) * size);
    fill_words(out, (n + 1) * size / 4, POISON_WORD);
    size_t kept = ref_compact(in, n, t, p, out);
    if (t == DT_INT64)
        ((int64_t *)out)[n] = (int64_t)kept;
    else
        ((int32_t *)out)[n] = (int32_t)kept;
    return out;
}

Test(lab7_kinds, compaction_judge)
{
    enum { N = 100 };
    int32_t in[N];
    gen_input(in, N, DT_INT32, DIST_SMALL, 2);
    check_spec s = lab7_spec(KIND_COMPACT, DT_INT32, N, 1, 1, PRED_POSITIVE);
    check_result r;
    int32_t *out = right_compaction(in, N, DT_INT32, PRED_POSITIVE);
    int32_t kept = out[N];
    cr_assert(kept > 10 && kept < 90);
    check_output(&s, in, out, &r);
    cr_assert(r.ok, "%s", r.detail);

    int32_t saved = out[3]; /* a kept value wrong */
    out[3] = saved + 1;
    check_output(&s, in, out, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, 3);
    cr_assert(strstr(r.detail, "input order"), "%s", r.detail);
    out[3] = saved;

    out[kept + 2] = 0; /* a write past the kept elements */
    check_output(&s, in, out, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, (size_t)kept + 2);
    cr_assert(strstr(r.detail, "past the kept"), "%s", r.detail);
    fill_words(&out[kept + 2], 1, POISON_WORD);

    out[N] = kept - 1; /* the count */
    check_output(&s, in, out, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, N);
    cr_assert(strstr(r.detail, "the count"), "%s", r.detail);
    fill_words(&out[N], 1, POISON_WORD);
    check_output(&s, in, out, &r);
    cr_assert(!r.ok && r.unwritten, "an unwritten count is named so");
    free(out);
}

Test(lab7_kinds, compaction_judge_swapped_order)
{
    int32_t in[4] = {1, 2, -1, 3};
    int32_t out[5] = {2, 1, 3, 0, 3};
    fill_words(&out[3], 1, POISON_WORD);
    check_spec s = lab7_spec(KIND_COMPACT, DT_INT32, 4, 1, 1, PRED_POSITIVE);
    check_result r;
    check_output(&s, in, out, &r);
    cr_assert(!r.ok, "the right elements in the wrong order are wrong");
    cr_assert_eq(r.first, 0);
}

Test(lab7_kinds, compaction_judge_int64_and_empty)
{
    int64_t in[3] = {-1, -2, -3};
    int64_t *out = right_compaction(in, 3, DT_INT64, PRED_POSITIVE);
    check_spec s = lab7_spec(KIND_COMPACT, DT_INT64, 3, 1, 1, PRED_POSITIVE);
    check_result r;
    cr_assert_eq(out[3], 0);
    check_output(&s, in, out, &r);
    cr_assert(r.ok, "%s", r.detail);
    out[0] = 0x100000000LL + (int64_t)POISON_WORD; /* the high word written */
    check_output(&s, in, out, &r);
    cr_assert(!r.ok && r.first == 0);
    free(out);
    int64_t none[1] = {0}; /* n = 0: only the count */
    check_spec z = lab7_spec(KIND_COMPACT, DT_INT64, 0, 1, 1, PRED_POSITIVE);
    check_output(&z, in, none, &r);
    cr_assert(r.ok);
}

Test(lab7_kinds, decode_judge)
{
    enum { N = 64 };
    int64_t data[N], got[N];
    gen_input(data, N, DT_INT64, DIST_WIDE, 4);
    memcpy(got, data, sizeof got);
    check_spec s = lab7_spec(KIND_DECODE, DT_INT64, N, 3, 2, PRED_POSITIVE);
    check_result r;
    check_output(&s, data, got, &r);
    cr_assert(r.ok);
    got[40] ^= (int64_t)1 << 50; /* a high-bit error must show */
    got[41] = 7;
    check_output(&s, data, got, &r);
    cr_assert(!r.ok);
    cr_assert_eq(r.first, 40);
    cr_assert_eq(r.mismatches, 2);
    cr_assert(strstr(r.detail, "order-3 decode of 2-tuples"), "%s", r.detail);
    fill_words(&got[40], 2, POISON_WORD);
    check_output(&s, data, got, &r);
    cr_assert(r.unwritten && strstr(r.detail, "<unwritten>"), "%s", r.detail);
}

/* ---- command line ---------------------------------------------------------- */

static int parse_args(cli_opts *o, char *err, int argc, char **argv)
{
    cli_defaults(o);
    return cli_parse(argc, argv, o, err, 256);
}

Test(lab7_kinds, cli_options)
{
    cli_opts o;
    char err[256];
    char *ok[] = {"lab", "--order", "8", "--tuple=3", "--pred", "mult4", "-t", "int64"};
    cr_assert_eq(parse_args(&o, err, 8, ok), CLI_OK, "%s", err);
    cr_assert(o.order == 8 && o.tuple == 3 && o.pred == PRED_MULT4 && o.dtype == DT_INT64);
    char *plain[] = {"lab"};
    cr_assert_eq(parse_args(&o, err, 1, plain), CLI_OK);
    cr_assert(o.order == 1 && o.tuple == 1 && o.pred == PRED_POSITIVE);
    char *bad[][3] = {{"lab", "--order", "0"}, {"lab", "--order", "9"}, {"lab", "--tuple", "x"},
                      {"lab", "--pred", "odd"}, {"lab", "-t", "int16"}};
    const char *why[] = {"bad order", "bad order", "bad tuple", "bad predicate", "int64"};
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(parse_args(&o, err, 3, bad[i]), CLI_ERROR, "%s %s", bad[i][1], bad[i][2]);
        cr_assert(strstr(err, why[i]), "%s", err);
    }
}

/* ---- suite keys -------------------------------------------------------------- */

Test(lab7_kinds, suite_keys)
{
    static suite s;
    char err[200];
    const char *text = "lab lab7 dir=d files=a.cu variants=decode,compact\ngroup id=g points=1\n"
                       "cases group=g variant=decode kind=decode order=1,8 tuple=2,3,4 "
                       "dtype=int32,int64 n=9\n"
                       "cases group=g variant=compact kind=compact pred=positive,mult4 n=5\n"
                       "speed group=g variant=decode kind=decode order=8 n=2^20 points=1\n";
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.ncases, 2 * 3 * 2 + 2);
    cr_assert(s.cases[0].order == 1 && s.cases[0].tuple == 2 && s.cases[0].dtype == DT_INT32);
    cr_assert(s.cases[2].order == 1 && s.cases[2].tuple == 4, "tuple varies innermost");
    cr_assert(s.cases[3].order == 8 && s.cases[3].tuple == 2);
    cr_assert(s.cases[12].pred == PRED_POSITIVE && s.cases[13].pred == PRED_MULT4);
    cr_assert(s.cases[12].order == 1 && s.cases[12].tuple == 1, "defaults for a compaction");
    cr_assert(s.speed[0].order == 8 && s.speed[0].tuple == 1);
}

Test(lab7_kinds, suite_key_errors)
{
    static suite s;
    char err[200];
    const char *head = "lab lab7 dir=d files=a.cu variants=v\ngroup id=g points=1\n";
    const char *bad[][2] = {
        {"cases group=g variant=v kind=scan order=2 n=9\n", "kind=decode"},
        {"cases group=g variant=v kind=decode pred=mult4 n=9\n", "kind=compact"},
        {"cases group=g variant=v kind=decode order=9 n=9\n", "order is 1..8"},
        {"cases group=g variant=v kind=decode tuple=0 n=9\n", "tuple is 1..8"},
        {"cases group=g variant=v kind=compact pred=odd n=9\n", "pred is"},
        {"speed group=g variant=v kind=decode order=1,2 n=9 points=1\n", "order is 1..8"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", head, bad[i][0]);
        cr_assert_eq(suite_parse(text, &s, err, sizeof err), -1, "%s", bad[i][0]);
        cr_assert(strstr(err, bad[i][1]) && strstr(err, "line 3"), "%s", err);
    }
}
