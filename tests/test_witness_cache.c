/* test_witness_cache.c - the reference's kept clock ratio
 * (grader/witness_cache.h): a later grading reads back exactly what was
 * kept for the same reference, GPU, ncu and case; any change of those is
 * a miss, and so is a damaged or foreign entry, never a wrong ratio. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tunables.h"
#include "witness_cache.h"

static char dir[64], ref[96], ncu[96];

/* A folder with a fake reference binary and a fake ncu in it. */
static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_wcache.XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(ref, sizeof ref, "%s/lab6", dir);
    snprintf(ncu, sizeof ncu, "%s/ncu", dir);
    FILE *f = fopen(ref, "w");
    fputs("reference", f);
    fclose(f);
    f = fopen(ncu, "w");
    fclose(f);
    unsetenv("GRADE_WITNESS_CACHE");
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

static suite_case speed_case(size_t n)
{
    suite_case c;
    memset(&c, 0, sizeof c);
    snprintf(c.variant, sizeof c.variant, "lookback-warp");
    c.n = n;
    c.seed = 7;
    return c;
}

static void key_for(char *key, const char *device, size_t n)
{
    suite_case c = speed_case(n);
    cr_assert_eq(witness_cache_key(key, WITNESS_CACHE_KEY_MAX + 1, ref, device, ncu, &c, 8, 2), 0);
}

TestSuite(witness_cache, .init = setup, .fini = teardown);

Test(witness_cache, reads_back_what_was_kept_for_the_same_key)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], cache[128];
    double got = 0;
    snprintf(cache, sizeof cache, "%s/witness", dir);
    key_for(key, "NVIDIA H100 80GB HBM3", 1 << 26);
    cr_assert_eq(witness_cache_get(cache, key, &got), -1, "an empty cache is a miss");
    witness_cache_put(cache, key, 1.0625);
    cr_assert_eq(witness_cache_get(cache, key, &got), 0);
    cr_assert_eq(got, 1.0625);
}

Test(witness_cache, another_gpu_case_or_rebuilt_reference_is_a_miss)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], other[WITNESS_CACHE_KEY_MAX + 1], cache[128];
    double got;
    snprintf(cache, sizeof cache, "%s/witness", dir);
    key_for(key, "NVIDIA H100 80GB HBM3", 1 << 26);
    witness_cache_put(cache, key, 1.1);
    key_for(other, "NVIDIA H200", 1 << 26);
    cr_assert_eq(witness_cache_get(cache, other, &got), -1, "another GPU");
    key_for(other, "NVIDIA H100 80GB HBM3", 1 << 24);
    cr_assert_eq(witness_cache_get(cache, other, &got), -1, "another case");
    struct timespec later[2] = {{.tv_sec = time(NULL) + 5}, {.tv_sec = time(NULL) + 5}};
    cr_assert_eq(utimensat(AT_FDCWD, ref, later, 0), 0);
    key_for(other, "NVIDIA H100 80GB HBM3", 1 << 26);
    cr_assert_str_neq(key, other, "a rebuilt reference has a new key");
    cr_assert_eq(witness_cache_get(cache, other, &got), -1);
}

Test(witness_cache, a_foreign_or_damaged_entry_is_a_miss)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], cache[128], path[256], cmd[512];
    double got;
    snprintf(cache, sizeof cache, "%s/witness", dir);
    key_for(key, "NVIDIA H100 80GB HBM3", 1 << 26);
    witness_cache_put(cache, key, 1.2);
    /* The entry's file, rewritten with another key (a hash collision). */
    snprintf(cmd, sizeof cmd, "ls %s/*.ratio", cache);
    FILE *ls = popen(cmd, "r");
    cr_assert(fgets(path, sizeof path, ls));
    pclose(ls);
    path[strcspn(path, "\n")] = '\0';
    FILE *f = fopen(path, "w");
    fprintf(f, "v1|another key\n0.5\n");
    fclose(f);
    cr_assert_eq(witness_cache_get(cache, key, &got), -1, "a foreign key");
    f = fopen(path, "w");
    fprintf(f, "%s\n", key); /* cut before the ratio */
    fclose(f);
    cr_assert_eq(witness_cache_get(cache, key, &got), -1, "no ratio");
    f = fopen(path, "w");
    fprintf(f, "%s\n-3\n", key);
    fclose(f);
    cr_assert_eq(witness_cache_get(cache, key, &got), -1, "a ratio no clock has");
}

Test(witness_cache, off_measures_every_time_and_a_nameless_gpu_is_not_keyed)
{
    char key[WITNESS_CACHE_KEY_MAX + 1], cache[128];
    double got;
    snprintf(cache, sizeof cache, "%s/witness", dir);
    key_for(key, "NVIDIA H100 80GB HBM3", 1 << 26);
    witness_cache_put(cache, key, 1.1);
    setenv("GRADE_WITNESS_CACHE", "off", 1);
    cr_assert_eq(witness_cache_get(cache, key, &got), -1);
    unsetenv("GRADE_WITNESS_CACHE");
    cr_assert_eq(witness_cache_get(cache, key, &got), 0);
    suite_case c = speed_case(1 << 26);
    cr_assert_eq(witness_cache_key(key, sizeof key, ref, "", ncu, &c, 8, 2), -1);
    cr_assert_eq(witness_cache_key(key, 40, ref, "H100", ncu, &c, 8, 2), -1, "too long to keep");
}
