/* test_ref_round.c - the reference's round kept by a batch
 * (grader/ref_round.h): a grader of the same GPU reads back exactly the
 * round kept for the same binary and cases while it is recent; another
 * binary, another case list, an old round, a failed one, a file someone
 * else could write or a link is a miss, never a time. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ref_round.h"
#include "tunables.h"

static char dir[64], ref[96], path[96];
static suite_case store[2];
static const suite_case *cases[2] = {&store[0], &store[1]};

/* A folder with a fake reference binary; GRADE_REF_ROUND in it. */
static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_round.XXXXXX");
    cr_assert(mkdtemp(dir));
    snprintf(ref, sizeof ref, "%s/lab6", dir);
    snprintf(path, sizeof path, "%s/gpu0.round", dir);
    FILE *f = fopen(ref, "w");
    fputs("reference", f);
    fclose(f);
    setenv("GRADE_REF_ROUND", path, 1);
    for (int i = 0; i < 2; i++) {
        memset(&store[i], 0, sizeof store[i]);
        snprintf(store[i].variant, sizeof store[i].variant, "lookback-warp");
        store[i].n = (size_t)1 << (24 + i);
        store[i].seed = 7;
    }
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

/* A passing round of two cases. */
static void timed(test_result *t)
{
    memset(t, 0, 2 * sizeof *t);
    for (int i = 0; i < 2; i++) {
        t[i].verdict = V_PASS;
        t[i].ms = 0.25 * (i + 1);
        t[i].copy_gbps = 4100.5;
        snprintf(t[i].device, sizeof t[i].device, "NVIDIA H200");
    }
}

TestSuite(ref_round, .init = setup, .fini = teardown);

Test(ref_round, reads_back_the_round_kept_for_the_same_binary_and_cases)
{
    test_result t[2], got[2];
    timed(t);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "nothing kept yet");
    ref_round_put(ref, cases, 2, t);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), 0);
    for (int i = 0; i < 2; i++) {
        cr_assert_eq(got[i].verdict, V_PASS);
        cr_assert_float_eq(got[i].ms, t[i].ms, 1e-15);
        cr_assert_float_eq(got[i].copy_gbps, 4100.5, 1e-9);
        cr_assert_str_eq(got[i].device, "NVIDIA H200");
    }
}

Test(ref_round, nothing_is_kept_or_read_without_the_batch_naming_a_file)
{
    test_result t[2], got[2];
    timed(t);
    unsetenv("GRADE_REF_ROUND");
    ref_round_put(ref, cases, 2, t);
    cr_assert_eq(access(path, F_OK), -1);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1);
}

Test(ref_round, another_case_list_or_a_rebuilt_binary_is_a_miss)
{
    test_result t[2], got[2];
    timed(t);
    ref_round_put(ref, cases, 2, t);
    cr_assert_eq(ref_round_get(ref, cases, 1, got), -1, "one case of two");
    store[1].n++;
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "another size");
    store[1].n--;
    FILE *f = fopen(ref, "a");
    fputs(" rebuilt", f);
    fclose(f);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "the binary changed");
}

Test(ref_round, a_failed_round_is_not_kept)
{
    test_result t[2], got[2];
    timed(t);
    t[1].verdict = V_TIMEOUT;
    ref_round_put(ref, cases, 2, t);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1);
}

/* The kept file with its time line moved back by age seconds. */
static void age_by(double age)
{
    char *text = NULL, key[8192];
    size_t cap = 0;
    FILE *f = fopen(path, "r");
    cr_assert(f);
    cr_assert(fgets(key, sizeof key, f));
    double taken;
    cr_assert_eq(fscanf(f, "%lf\n", &taken), 1);
    ssize_t got = getdelim(&text, &cap, '\0', f);
    fclose(f);
    f = fopen(path, "w");
    fprintf(f, "%s%.6f\n%s", key, taken - age, got > 0 ? text : "");
    fclose(f);
    free(text);
}

Test(ref_round, a_round_older_than_the_limit_is_timed_again)
{
    test_result t[2], got[2];
    timed(t);
    ref_round_put(ref, cases, 2, t);
    chmod(path, 0600);
    age_by(REF_ROUND_MAX_AGE_S - 10);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), 0, "still recent");
    age_by(20);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "too old");
}

Test(ref_round, a_file_others_may_write_a_link_or_a_damaged_file_is_a_miss)
{
    test_result t[2], got[2];
    char link[128];
    timed(t);
    ref_round_put(ref, cases, 2, t);
    cr_assert_eq(chmod(path, 0622), 0);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "group and others may write it");
    cr_assert_eq(chmod(path, 0600), 0);
    snprintf(link, sizeof link, "%s.real", path);
    cr_assert_eq(rename(path, link), 0);
    cr_assert_eq(symlink(link, path), 0);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "a link");
    cr_assert_eq(unlink(path), 0);
    cr_assert_eq(rename(link, path), 0);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), 0);
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    cr_assert_eq(truncate(path, st.st_size - 5), 0);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "cut short");
    cr_assert_eq(truncate(path, 0), 0);
    cr_assert_eq(ref_round_get(ref, cases, 2, got), -1, "an empty file");
}
