/* test_witness.c - reading ncu's kernel table (grader/witness.h): the
 * witness credits a student's speed from these sums, so a row missed or a
 * thousands separator misread would misstate a time; a log without a
 * table (ncu failed) must read as a failure, never as zero kernels. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "witness.h"

/* Write text to a fresh file; its path. */
static const char *write_file(const char *text)
{
    static char path[] = "/tmp/test_witness.XXXXXX";
    snprintf(path, sizeof path, "/tmp/test_witness.XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

#define HEADER "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\"," \
               "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\"," \
               "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROW(id, name, ns) "\"" id "\",\"42\",\"lab1\",\"127.0.0.1\",\"" name "\",\"1\",\"7\"," \
                          "\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"Command line profiler " \
                          "metrics\",\"gpu__time_duration.sum\",\"ns\",\"" ns "\"\n"

Test(witness, sums_every_kernel_row_with_separators)
{
    const char *p = write_file("==PROF== Connected to process 42 (/w/lab1)\n" HEADER
                               ROW("0", "reduce_kernel(const int *, int *, unsigned long)", "1,234,567")
                               ROW("1", "finish(int *)", "2,048")
                               "==PROF== Disconnected from process 42\n");
    double ns;
    int k;
    cr_assert_eq(witness_parse_csv(p, &ns, &k), 0);
    cr_assert_eq(k, 2);
    cr_assert_float_eq(ns, 1234567.0 + 2048.0, 1e-6);
    remove(p);
}

Test(witness, a_log_without_a_table_is_a_failure)
{
    const char *p = write_file("==ERROR== The application returned an error code (1).\n");
    double ns;
    int k;
    cr_assert_eq(witness_parse_csv(p, &ns, &k), -1);
    cr_assert_eq(witness_parse_csv("/nonexistent/ncu.csv", &ns, &k), -1);
    remove(p);
}

Test(witness, a_table_without_kernels_is_zero_kernels)
{
    const char *p = write_file(HEADER "==WARNING== No kernels were profiled.\n");
    double ns = -1;
    int k = -1;
    cr_assert_eq(witness_parse_csv(p, &ns, &k), 0);
    cr_assert_eq(k, 0);
    cr_assert_float_eq(ns, 0.0, 1e-12);
    remove(p);
}

Test(witness, other_metrics_and_bad_values_are_not_counted)
{
    const char *p = write_file(HEADER ROW("0", "k", "1000")
                               "\"1\",\"42\",\"lab1\",\"h\",\"k\",\"1\",\"7\",\"b\",\"g\",\"0\",\"9.0\","
                               "\"s\",\"sm__cycles_elapsed.avg\",\"cycle\",\"5000\"\n"
                               ROW("2", "k", "n/a"));
    double ns;
    int k;
    cr_assert_eq(witness_parse_csv(p, &ns, &k), 0);
    cr_assert_eq(k, 1);
    cr_assert_float_eq(ns, 1000.0, 1e-9);
    remove(p);
}

Test(witness, mode_from_the_environment)
{
    witness_mode m;
    char why[200];
    setenv("GRADE_WITNESS", "require", 1);
    cr_assert_eq(witness_mode_get(&m, why, sizeof why), 0);
    cr_assert_eq(m, WITNESS_REQUIRE);
    setenv("GRADE_WITNESS", "sometimes", 1);
    cr_assert_eq(witness_mode_get(&m, why, sizeof why), -1);
    cr_assert(strstr(why, "auto, require or off") != NULL);
    unsetenv("GRADE_WITNESS");
    cr_assert_eq(witness_mode_get(&m, why, sizeof why), 0);
    cr_assert_eq(m, WITNESS_AUTO);
}

/* What ncu leaves when the program under it leaves before its first kernel
 * (a dodge of --witness) or kills ncu: no table, a failure, which the
 * speed test then pays for when the reference was timed
 * (speed_unwitnessed_credit, test_score.c). */
Test(witness, a_program_that_dodged_or_killed_the_profiler_leaves_a_failure)
{
    char early[64]; /* (write_file's path is reused by its next call) */
    snprintf(early, sizeof early, "%s", write_file("==PROF== Connected to process 42 (/w/lab6)\n"
                                                   "==PROF== Disconnected from process 42\n"
                                                   "==WARNING== No kernels were profiled.\n"));
    const char *killed = write_file("==PROF== Connected to process 42 (/w/lab6)\n"
                                    "==PROF== Profiling \"chained_scan\" - 0: 0%....50%");
    double ns;
    int k;
    cr_assert_eq(witness_parse_csv(early, &ns, &k), -1);
    remove(early);
    cr_assert_eq(witness_parse_csv(killed, &ns, &k), -1);
    remove(killed);
}

/* ---- a witness unit's table, split by the kit's marks (witness_mark.h) ---- */
#define ROWG(id, name, grid, ns) "\"" id "\",\"42\",\"lab6\",\"127.0.0.1\",\"" name "\",\"1\"," \
                                 "\"7\",\"(1, 1, 1)\",\"(" grid ", 1, 1)\",\"0\",\"9.0\",\"Command " \
                                 "line profiler metrics\",\"gpu__time_duration.sum\",\"ns\",\"" \
                                 ns "\"\n"
#define MARK(id, k1) ROWG(id, "kit_witness_mark", k1, "1,500")

Test(witness, a_unit_table_splits_at_each_case_mark)
{
    const char *p = write_file("==PROF== Connected to process 42 (/w/lab6)\n" HEADER
                               MARK("0", "1")
                               ROWG("1", "void scan<int, 2>(const int *, int *)", "4096", "2,000")
                               ROWG("2", "void scan<int, 2>(const int *, int *)", "4096", "3,000")
                               MARK("3", "2")
                               ROWG("4", "decode(int *)", "512", "10,000"));
    double ns[2];
    int k[2];
    cr_assert_eq(witness_parse_marked(p, 2, ns, k), 2);
    cr_assert_eq(k[0], 2);
    cr_assert_eq(k[1], 1);
    cr_assert_float_eq(ns[0], 5000.0, 1e-6); /* the marks' own time is nobody's */
    cr_assert_float_eq(ns[1], 10000.0, 1e-6);
    remove(p);
}

/* A lab that launches a kernel named like the mark (to move its kernels
 * into another case's sum) fails the whole split. */
Test(witness, a_forged_or_missing_mark_fails_the_split)
{
    double ns[3];
    int k[3];
    const char *extra = write_file(HEADER MARK("0", "1") MARK("1", "1") ROWG("2", "k", "8", "9"));
    cr_assert_eq(witness_parse_marked(extra, 3, ns, k), -1);
    remove(extra);
    const char *skipped = write_file(HEADER MARK("0", "1") ROWG("1", "k", "8", "9") MARK("2", "3"));
    cr_assert_eq(witness_parse_marked(skipped, 3, ns, k), -1);
    remove(skipped);
    const char *early = write_file(HEADER ROWG("0", "k", "8", "9") MARK("1", "1"));
    cr_assert_eq(witness_parse_marked(early, 3, ns, k), -1);
    remove(early);
    const char *too_many = write_file(HEADER MARK("0", "1") MARK("1", "2") MARK("2", "3"));
    cr_assert_eq(witness_parse_marked(too_many, 2, ns, k), -1);
    remove(too_many);
    const char *no_table = write_file("==ERROR== The application returned an error code (1).\n");
    cr_assert_eq(witness_parse_marked(no_table, 2, ns, k), 0); /* no mark: the caller's -1 */
    remove(no_table);
}

/* A process that died after its first case: fewer marks than cases, which
 * the caller (witness_unit) takes as a failed split. */
Test(witness, a_unit_cut_short_counts_its_marks)
{
    double ns[3];
    int k[3];
    const char *p = write_file(HEADER MARK("0", "1") ROWG("1", "k", "8", "7"));
    cr_assert_eq(witness_parse_marked(p, 3, ns, k), 1);
    cr_assert_eq(k[0], 1);
    remove(p);
}
