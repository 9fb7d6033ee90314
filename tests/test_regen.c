/*
 * test_regen.c - the threaded input (regen.c: the grader's copy, a
 * witnessed run's input) is gen_input's, byte for byte, for every
 * distribution and type, int64 included, at sizes that split into several
 * threads and unevenly.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"
#include "regen.h"

Test(regen, same_bytes_as_gen_input)
{
    const size_t sizes[] = {0, 1, 1000003, ((size_t)1 << 23) + 5};
    const dist_t dists[] = {DIST_SMALL, DIST_ONES, DIST_WIDE};
    const dtype_t types[] = {DT_INT32, DT_FLOAT32, DT_INT64};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int d = 0; d < 3; d++)
            for (int t = 0; t < 3; t++) {
                size_t n = sizes[s], bytes = n * (types[t] == DT_INT64 ? 8 : 4);
                unsigned char *a = malloc(bytes + 4), *b = malloc(bytes + 4);
                cr_assert(a && b);
                gen_input(a, n, types[t], dists[d], 9);
                memset(b, 0xab, bytes + 4);
                regen_input(b, n, types[t], dists[d], 9);
                cr_assert_eq(memcmp(a, b, bytes), 0, "n=%zu dist %d type %d", n, d, t);
                cr_assert_eq(b[bytes], 0xab, "wrote past n=%zu", n); /* nothing beyond */
                free(a);
                free(b);
            }
}
