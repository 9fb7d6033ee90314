/* test_diagnose.c - the shape of wrong outputs (grader/diagnose.h), on
 * outputs broken the way students break them. */
#include <criterion/criterion.h>
#include <string.h>

#include "check.h"
#include "diagnose.h"
#include "reference.h"

#define N 64

static int32_t in[N], got[N];

/* A section scan of in[] (section S, or 0 for a whole scan) into got[]. */
static check_spec scan_spec(kind_t kind, size_t n, size_t section, int exclusive)
{
    check_spec s = {kind, DT_INT32, OP_SUM, exclusive, section, n, 1, 1, 1, 0};
    for (size_t i = 0; i < n; i++)
        in[i] = (int32_t)(i % 7) - 2 + (i == 0 ? 8 : 0); /* 6, -1, 0, 1, ... */
    ref_scan_i32(in, n, OP_SUM, exclusive, section, got);
    return s;
}

/* Judge got[] and describe it. */
static diagnosis look(const check_spec *s)
{
    check_result r;
    diagnosis d;
    check_output(s, in, got, &r);
    cr_assert(!r.ok, "the broken output passed the check");
    diagnose(s, in, got, &r, &d);
    return d;
}

/* `t > stride`: out[1] never adds in[0] (issue 14's -2 that is in[1]). */
Test(diagnose, sum_that_lacks_one_input_names_it)
{
    check_spec s = scan_spec(KIND_SECTION_SCAN, 32, 32, 0);
    got[1] = in[1];
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_MISSING_ONE, "bits %x: %s", d.bits, d.text);
    cr_assert(d.bits & PAT_IS_INPUT, "bits %x: %s", d.bits, d.text);
    cr_assert(strstr(d.text, "in[0..3] = 6, -1, 0, 1"), "%s", d.text);
    cr_assert(strstr(d.text, "out[1] lacks in[0] = 6"), "%s", d.text);
}

Test(diagnose, doubled_input)
{
    check_spec s = scan_spec(KIND_SCAN, 40, 0, 0);
    for (size_t i = 5; i < 40; i++)
        got[i] += in[3];
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_DOUBLED_ONE, "bits %x: %s", d.bits, d.text);
    cr_assert(strstr(d.text, "counts in[3]"), "%s", d.text);
}

Test(diagnose, first_of_each_section)
{
    check_spec s = scan_spec(KIND_SECTION_SCAN, 64, 16, 1);
    for (size_t i = 0; i < 64; i += 16)
        got[i] = 99;
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_SECTION_FIRST, "bits %x: %s", d.bits, d.text);
    cr_assert(!(d.bits & PAT_ALL));
    cr_assert(strstr(d.text, "combines no input: it is the identity"), "%s", d.text);
}

Test(diagnose, wrong_from_a_block_boundary)
{
    check_spec s = scan_spec(KIND_SCAN, 64, 0, 0);
    for (size_t i = 32; i < 64; i++)
        got[i] -= got[31]; /* the carry of the first 32 never added */
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_BOUNDARY, "bits %x: %s", d.bits, d.text);
    cr_assert(strstr(d.text, "out[0..32) are right"), "%s", d.text);
}

Test(diagnose, only_the_partial_tail)
{
    check_spec s = scan_spec(KIND_SECTION_SCAN, 40, 16, 0);
    got[39] = 12345;
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_TAIL, "bits %x: %s", d.bits, d.text);
}

Test(diagnose, inclusive_instead_of_exclusive)
{
    check_spec s = scan_spec(KIND_SCAN, 40, 0, 1);
    ref_scan_i32(in, 40, OP_SUM, 0, 0, got); /* the inclusive answer */
    diagnosis d = look(&s);
    cr_assert(d.bits & PAT_SHIFTED, "bits %x: %s", d.bits, d.text);
}

Test(diagnose, unwritten_and_reduce_prefix)
{
    check_spec s = scan_spec(KIND_SCAN, 40, 0, 0);
    memcpy(&got[7], &(uint32_t){POISON_WORD}, 4);
    cr_assert(look(&s).bits & PAT_UNWRITTEN);

    check_spec r = {KIND_REDUCE, DT_INT32, OP_SUM, 0, 0, 64, 1, 1, 1, 0};
    for (size_t i = 0; i < 64; i++)
        in[i] = (int32_t)i + 1;
    got[0] = 32 * 33 / 2; /* only the first 32 elements */
    diagnosis d = look(&r);
    cr_assert(d.bits & PAT_PREFIX, "bits %x: %s", d.bits, d.text);
    cr_assert(strstr(d.text, "only in[0..32)"), "%s", d.text);
    cr_assert(strstr(d.text, "(n = 64)"), "%s", d.text);
}
