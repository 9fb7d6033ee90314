/* test_sanitize.c - `./grade --sanitize` without a GPU: compute-sanitizer's
 * reports (in the format it prints) shortened for a student, the case each
 * group is sanitized on, the suite directive, the penalty, and whole runs
 * through a stand-in sanitizer wrapping the fake lab binary. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "paths.h"
#include "sanitize.h"

static const char memcheck_log[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at void reduce_kernel<int, Sum>(const int *, int *, unsigned long)+0x2f0 in "
    "/tmp/src/reduce.cu:58\n"
    "=========     by thread (255,0,0) in block (3,0,0)\n"
    "=========     Address 0x7f3a00000400 is out of bounds\n"
    "=========     and is 1 bytes after the nearest allocation at 0x7f3a00000000 of size 1024 "
    "bytes\n"
    "=========     Saved host backtrace up to driver entry point at kernel launch time\n"
    "=========         Host Frame: [0x2dfb5f] in libcuda.so.1\n"
    "========= \n"
    "========= Invalid __global__ write of size 4 bytes\n"
    "=========     at void reduce_kernel<int, Sum>(const int *, int *, unsigned long)+0x2f0 in "
    "/tmp/src/reduce.cu:58\n"
    "========= \n"
    "lab1-reduce-naive hierarchical int32 sum n=65536: self-check FAIL\n"
    "========= ERROR SUMMARY: 2 errors\n";

static const char racecheck_log[] =
    "========= COMPUTE-SANITIZER\n"
    "========= Error: Race reported between Write access at void ks_scan<int>(...)+0x1a0 in "
    "scan.cu:40\n"
    "=========     and Read access at void ks_scan<int>(...)+0x150 in scan.cu:38 [2016 hazards]\n"
    "========= \n"
    "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";

static const char clean_log[] = "========= COMPUTE-SANITIZER\n"
                                "lab3 kogge-stone int32 sum n=65536: self-check PASS\n"
                                "========= ERROR SUMMARY: 0 errors\n";

Test(sanitize, memcheck_report_shortened)
{
    char out[1024];
    cr_assert_eq(sanitizer_summary(memcheck_log, out, sizeof out), 2);
    cr_assert(strstr(out, "Invalid __global__ write of size 4 bytes at void reduce_kernel"), "%s",
              out);
    cr_assert(strstr(out, "reduce.cu:58"), "%s", out);
    cr_assert(strstr(out, "by thread (255,0,0) in block (3,0,0)"), "%s", out);
    cr_assert(strstr(out, "(compute-sanitizer: 2 errors)"), "%s", out);
    cr_assert_null(strstr(out, "Host Frame"), "%s", out);
    cr_assert_null(strstr(out, "COMPUTE-SANITIZER"), "%s", out);
}

Test(sanitize, racecheck_and_clean_and_unknown)
{
    char out[1024];
    cr_assert_eq(sanitizer_summary(racecheck_log, out, sizeof out), 1);
    cr_assert(strstr(out, "Race reported between Write access"), "%s", out);
    cr_assert(strstr(out, "[2016 hazards]"), "%s", out);
    cr_assert(strstr(out, "(compute-sanitizer: 1 error)"), "%s", out);
    cr_assert_eq(sanitizer_summary(clean_log, out, sizeof out), 0);
    cr_assert_eq(sanitizer_summary("something else entirely\n", out, sizeof out), -1);
    cr_assert(strstr(out, "no message found"), "%s", out);
    /* a tiny buffer truncates and stays terminated */
    char small[24];
    sanitizer_summary(memcheck_log, small, sizeof small);
    cr_assert_lt(strlen(small), sizeof small);
}

static const char suite_text[] =
    "lab lab9 dir=lab9-x files=x.cu variants=v,w\n"
    "group id=a points=40\n"
    "cases group=a variant=v n=1,1000,2^20 dtype=int32,float32\n"
    "cases group=a variant=v n=2^18 schedule=reverse threads=2\n"
    "group id=b points=20\n"
    "cases group=b variant=w n=5\n"
    "group id=c points=10\n"
    "cases group=c variant=v n=5 schedule=reverse\n";

Test(sanitize, picks_the_largest_case_clamped)
{
    static suite s;
    char err[200];
    cr_assert_eq(suite_parse(suite_text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.sanitize.tools, SAN_ALL);
    cr_assert_float_eq(s.sanitize.penalty, 0.25, 1e-12);
    cr_assert_eq(s.sanitize.max_n, (size_t)1 << 16);
    suite_case c;
    cr_assert_eq(sanitize_pick_case(&s, 0, &c), 0);
    cr_assert_eq(c.n, ((size_t)1 << 16) - 1);        /* 2^20 clamped, ragged */
    cr_assert_eq(c.dtype, DT_INT32);                 /* the first on a tie */
    cr_assert_eq(c.schedule[0], '\0');               /* emulator cases are not chosen */
    cr_assert_eq(sanitize_pick_case(&s, 1, &c), 0);
    cr_assert_eq(c.n, 5);                            /* odd already */
    cr_assert_eq(sanitize_pick_case(&s, 2, &c), -1); /* a group with only emulator cases */
}

/* The second case: the smallest n >= 2 below the first (n = 1 has no
 * bound to cross, emulator cases are not run), none where the group has
 * only one size. */
Test(sanitize, picks_the_smallest_case_too)
{
    static suite s;
    char err[200];
    cr_assert_eq(suite_parse(suite_text, &s, err, sizeof err), 0, "%s", err);
    suite_case large, small;
    cr_assert_eq(sanitize_pick_case(&s, 0, &large), 0);
    cr_assert_eq(sanitize_pick_small(&s, 0, &large, &small), 0);
    cr_assert_eq(small.n, 1000);             /* not 1, and as written (not made odd) */
    cr_assert_eq(small.schedule[0], '\0');
    cr_assert_eq(sanitize_pick_case(&s, 1, &large), 0);
    cr_assert_eq(sanitize_pick_small(&s, 1, &large, &small), -1); /* n=5 only */
}

Test(sanitize, directive)
{
    static suite s;
    char err[200], text[600];
    snprintf(text, sizeof text, "%ssanitize tools=memcheck,synccheck penalty=0.5 max_n=4096\n",
             suite_text);
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.sanitize.tools, SAN_MEMCHECK | SAN_SYNCCHECK);
    cr_assert_float_eq(s.sanitize.penalty, 0.5, 1e-12);
    cr_assert_eq(s.sanitize.max_n, 4096);
    snprintf(text, sizeof text, "%ssanitize tools=initcheck,memcheck\n", suite_text);
    cr_assert_eq(suite_parse(text, &s, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s.sanitize.tools, SAN_INITCHECK | SAN_MEMCHECK);
    cr_assert_str_eq(sanitize_tool_name(SAN_INITCHECK), "initcheck");
    const char *bad[] = {"sanitize tools=leakcheck\n", "sanitize penalty=2\n",
                         "sanitize max_n=0\n", "sanitize speed=1\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(text, sizeof text, "%s%s", suite_text, bad[i]);
        cr_assert_eq(suite_parse(text, &s, err, sizeof err), -1, "%s", bad[i]);
        cr_assert(strstr(err, "line 9:"), "%s", err);
    }
}

Test(sanitize, penalty_per_tool_capped_at_the_group)
{
    static suite s;
    static grade_run g;
    char err[200];
    cr_assert_eq(suite_parse(suite_text, &s, err, sizeof err), 0, "%s", err);
    memset(&g, 0, sizeof g);
    g.s = &s;
    for (int c = 0; c < s.ncases; c++)
        g.tests[c].verdict = V_PASS;
    g.sanitize = 1;
    for (int i = 0; i < s.ngroups; i++)
        for (int t = 0; t < 3; t++)
            g.san[i][t].verdict = V_PASS;
    g.san[0][0].verdict = V_SANITIZER; /* memcheck in group a: 0.25 * 40 */
    g.san[0][2].verdict = V_SANITIZER; /* and synccheck: another 10 */
    tally(&g);
    cr_assert_float_eq(g.group_points[0], 20.0, 1e-9);
    cr_assert_float_eq(g.san_taken[0], 20.0, 1e-9);
    cr_assert_float_eq(g.group_points[1], 20.0, 1e-9);
    cr_assert_float_eq(g.total, 50.0, 1e-9); /* 20 + 20 + group c's 10 */
    cr_assert_float_eq(g.max_total, 70.0, 1e-9);
    /* a group that already lost its points loses nothing more */
    for (int c = 0; c < s.ncases; c++)
        g.tests[c].verdict = s.cases[c].group == 0 ? V_WRONG : V_PASS;
    tally(&g);
    cr_assert_float_eq(g.group_points[0], 0.0, 1e-9);
    cr_assert_float_eq(g.san_taken[0], 0.0, 1e-9);
    /* without --sanitize nothing is taken */
    g.sanitize = 0;
    for (int c = 0; c < s.ncases; c++)
        g.tests[c].verdict = V_PASS;
    tally(&g);
    cr_assert_float_eq(g.total, 70.0, 1e-9);
}

/* ---- whole runs through a stand-in compute-sanitizer -------------------- */

static char work[] = "/tmp/test_sanitize.XXXXXX";
static char tool[200];

/* Takes compute-sanitizer's options as the grader passes them, runs the
 * program, and reports a finding when its tool is the one in FAKE_FIND. */
static const char fake_tool[] =
    "#!/bin/sh\n"
    "tool=; code=\n"
    "while [ $# -gt 0 ]; do case \"$1\" in\n"
    "  --tool) tool=$2; shift 2;; --error-exitcode) code=$2; shift 2;;\n"
    "  --print-limit|--report-api-errors|--check-exit-code) shift 2;;\n"
    "  -*) echo \"fake sanitizer: unknown option $1\"; exit 2;;\n"
    "  *) break;; esac; done\n"
    "echo '========= COMPUTE-SANITIZER'\n"
    "echo \"$*\" > \"$(dirname \"$0\")/argv-$tool\"\n"
    "\"$@\"; rc=$?\n"
    "if [ \"$tool\" = \"$FAKE_FIND\" ]; then\n"
    "  echo '========= Barrier error detected. Divergent thread(s) in warp'\n"
    "  echo '=========     at reduce_kernel+0x90 in reduce.cu:33'\n"
    "  echo '========= ERROR SUMMARY: 1 error'; exit $code; fi\n"
    "echo '========= ERROR SUMMARY: 0 errors'; exit $rc\n";

static void setup(void)
{
    cr_assert_not_null(mkdtemp(work));
    snprintf(tool, sizeof tool, "%s/compute-sanitizer", work);
    FILE *f = fopen(tool, "w");
    cr_assert_not_null(f);
    fputs(fake_tool, f);
    fclose(f);
    chmod(tool, 0755);
}
static void teardown(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", work);
    cr_assert_eq(system(cmd), 0);
}

static test_result sanitized(const char *find, const char *mode)
{
    suite_case c;
    memset(&c, 0, sizeof c);
    snprintf(c.variant, sizeof c.variant, "v");
    c.kind = KIND_REDUCE;
    c.dtype = DT_INT32;
    c.op = OP_SUM;
    c.dist = DIST_SMALL;
    c.n = 4096;
    c.seed = 3;
    snprintf(c.tol, sizeof c.tol, "log2n");
    setenv("FAKE_FIND", find, 1);
    setenv("FAKE_MODE", mode, 1);
    setenv("FAKE_KIND", "reduce", 1);
    run_plan plan = {.binary = KIT_TOP "/build/tests/fake_lab", .work = work, .box = work, .reps = 20,
                     .warmup = 3, .timeout_s = 2.0};
    test_result t;
    sanitize_case(tool, SAN_SYNCCHECK, &plan, 2.0, &c, &t);
    return t;
}

Test(sanitize, runs_through_the_tool, .init = setup, .fini = teardown)
{
    test_result t = sanitized("memcheck", "ok"); /* synccheck runs and finds nothing */
    cr_assert_eq(t.verdict, V_PASS, "%s %s", verdict_name(t.verdict), t.detail);
    char path[300], argv[600] = "";
    snprintf(path, sizeof path, "%s/argv-synccheck", work);
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "the tool was not run with --tool synccheck");
    cr_assert_not_null(fgets(argv, sizeof argv, f));
    fclose(f);
    cr_assert(strstr(argv, "--reps 0 --warmup 0"), "no timing under a sanitizer: %s", argv);
    cr_assert(strstr(argv, "--timeout 4 "), "the limit scaled by the slowdown: %s", argv);

    t = sanitized("synccheck", "ok");
    cr_assert_eq(t.verdict, V_SANITIZER, "%s", verdict_name(t.verdict));
    cr_assert(strstr(t.detail, "Barrier error detected"), "%s", t.detail);
    cr_assert(strstr(t.detail, "reduce.cu:33"), "%s", t.detail);
    cr_assert(strstr(t.detail, "(compute-sanitizer: 1 error)"), "%s", t.detail);

    /* a wrong answer without findings is judged as usual */
    t = sanitized("memcheck", "wrong");
    cr_assert_eq(t.verdict, V_WRONG, "%s", verdict_name(t.verdict));
}

Test(sanitize, locate_honours_the_environment, .init = setup, .fini = teardown)
{
    char buf[300];
    setenv("COMPUTE_SANITIZER", tool, 1);
    cr_assert_eq(sanitize_locate(buf, sizeof buf), 0);
    cr_assert_str_eq(buf, tool);
    setenv("COMPUTE_SANITIZER", "/nonexistent/compute-sanitizer", 1);
    cr_assert_eq(sanitize_locate(buf, sizeof buf), -1);
    unsetenv("COMPUTE_SANITIZER");
}

Test(sanitize, report_shows_the_tool_message_and_the_points)
{
    static suite s;
    static grade_run g;
    char err[200], *text = NULL;
    size_t len = 0;
    cr_assert_eq(suite_parse(suite_text, &s, err, sizeof err), 0, "%s", err);
    memset(&g, 0, sizeof g);
    g.s = &s;
    g.backend = "gpu";
    g.speed_graded = 1;
    for (int c = 0; c < s.ncases; c++)
        g.tests[c].verdict = V_PASS;
    g.sanitize = 1;
    for (int i = 0; i < s.ngroups; i++) {
        cr_assert_eq(i == 2 ? -1 : sanitize_pick_case(&s, i, &g.san_case[i]), i == 2 ? -1 : 0);
        for (int t = 0; t < 3; t++)
            g.san[i][t].verdict = V_PASS;
    }
    g.san[1][1].verdict = V_SANITIZER;
    g.san[0][0].verdict = V_SANITIZER; /* found on group a's small case */
    snprintf(g.san[0][0].detail, sizeof g.san[0][0].detail, "Invalid __global__ read of size 4");
    cr_assert_eq(sanitize_pick_small(&s, 0, &g.san_case[0], &g.san_small[0]), 0);
    g.san_on_small[0][0] = 1;
    snprintf(g.san[1][1].detail, sizeof g.san[1][1].detail,
             "Error: Race reported between Write access at k+0x10 in x.cu:9");
    tally(&g);
    FILE *f = open_memstream(&text, &len);
    print_report(&g, f);
    fclose(f);
    cr_assert(strstr(text, "CLEAN         memcheck"), "%s", text); /* group b's */
    cr_assert(strstr(text, "SANITIZER     racecheck"), "%s", text);
    /* the tool's own words (student-influenced text) on an indented line of their own */
    cr_assert(strstr(text, "racecheck on w int32 sum small n=5 seed=1:\n"), "%s", text);
    cr_assert(strstr(text, "seed=1:\n        Error: Race reported"), "%s", text);
    cr_assert(strstr(text, "15.0 / 20.0 points (5.0 taken off for sanitizer findings)"), "%s",
              text);
    cr_assert(strstr(text, "memcheck on v int32 sum small n=1000 seed=1:\n"), "%s", text);
    cr_assert(strstr(text, "seed=1:\n        Invalid __global__"), "%s", text);
    free(text);

    /* on the emulator: said once, nothing taken */
    snprintf(g.sanitize_why, sizeof g.sanitize_why, "compute-sanitizer needs an NVIDIA GPU");
    tally(&g);
    cr_assert_float_eq(g.group_points[1], 20.0, 1e-9);
    text = NULL;
    f = open_memstream(&text, &len);
    print_report(&g, f);
    fclose(f);
    cr_assert(strstr(text, "sanitize: not run: compute-sanitizer needs an NVIDIA GPU"), "%s",
              text);
    cr_assert_null(strstr(text, "CLEAN"), "%s", text);
    free(text);
}

/* A finding quotes the student's own path, not the grader's scratch copy,
 * and leaves everything else (line numbers, other files) alone. */
Test(sanitize, shows_the_students_path)
{
    char text[400] = "Invalid __global__ read of size 4 bytes at reduce(int*)+0x90 in "
                     "/dev/shm/grade.Ab12/src/reduce.cu:42 by thread (3,0,0); "
                     "see common/harness.cu:10 and my_reduce.cu:7";
    show_student_paths(text, sizeof text, "reduce.cu", "lab1-reduce-naive");
    cr_assert(strstr(text, " labs/lab1-reduce-naive/reduce.cu:42 by thread") != NULL, "%s", text);
    cr_assert(strstr(text, "/dev/shm") == NULL, "%s", text);
    cr_assert(strstr(text, "common/harness.cu:10") != NULL, "%s", text);
    cr_assert(strstr(text, " my_reduce.cu:7") != NULL, "%s", text); /* another file */
    char bare[100] = "write at kernel+0x3d0 in reduce.cu:64 by thread";
    show_student_paths(bare, sizeof bare, "reduce.cu", "lab1-reduce-naive");
    cr_assert_str_eq(bare, "write at kernel+0x3d0 in labs/lab1-reduce-naive/reduce.cu:64 by thread");
    char small[24] = "x /a/reduce.cu:1";
    show_student_paths(small, sizeof small, "reduce.cu", "lab1-reduce-naive");
    cr_assert_eq(strlen(small), sizeof small - 1); /* cut, never overrun */
}
