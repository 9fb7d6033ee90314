/* test_forbid.c - forbidden shortcuts are found in code, with their line,
 * and never in comments or strings. */
#include <criterion/criterion.h>
#include <string.h>

#include "forbid.h"

static int scan(const char *text, const char *extra, char *why)
{
    return forbid_scan("scan.cu", text, extra, why, 256);
}

Test(forbid, clean_code_passes)
{
    char why[256];
    cr_assert_eq(scan("#include \"ops.cuh\"\n// cub::DeviceScan would be cheating\n"
                      "const char *s = \"thrust::reduce\";\nint x = cubic(3);\n", NULL, why),
                 0, "%s", why);
}

Test(forbid, libraries_and_harness_internals)
{
    char why[256];
    cr_assert_eq(scan("int a;\n\n  cub::DeviceScan::InclusiveSum(t, b, i, o, n);\n", NULL, why), 1);
    cr_assert(strstr(why, "scan.cu:3: uses CUB"), "%s", why);
    cr_assert_eq(scan("x = thrust::reduce(a, b);", NULL, why), 1);
    cr_assert_eq(scan("int r = ref_reduce_i32(in, n, op);", NULL, why), 1);
    cr_assert(strstr(why, "CPU reference"), "%s", why);
    cr_assert_eq(scan("gen_input(buf, n, t, d, 1);", NULL, why), 1);
}

Test(forbid, includes)
{
    char why[256];
    cr_assert_eq(scan("#include <cub/cub.cuh>\n", NULL, why), 1);
    cr_assert(strstr(why, "scan.cu:1: #include <cub/cub.cuh>"), "%s", why);
    cr_assert_eq(scan("\n#include \"/etc/shadow\"\n", NULL, why), 1);
    cr_assert(strstr(why, ":2:"), "%s", why);
    cr_assert_eq(scan("#include \"../../grader/suite.h\"\n", NULL, why), 1);
    cr_assert_eq(scan("/* #include <cub/cub.cuh> */\n#include <stdio.h>\n", NULL, why), 0, "%s", why);
}

Test(forbid, suite_words)
{
    char why[256];
    cr_assert_eq(scan("x = atomicAdd(p, 1);", "atomicAdd", why), 1);
    cr_assert(strstr(why, "uses atomicAdd"), "%s", why);
    cr_assert_eq(scan("x = myatomicAdd(p, 1);", "atomicAdd", why), 0, "whole words only");
}
