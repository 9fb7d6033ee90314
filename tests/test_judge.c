/* test_judge.c - verdicts from the grader's judge, against a fake lab
 * binary (tests/fake_lab.c) that misbehaves on purpose. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge.h"

static char work[] = "/tmp/test_judge.XXXXXX";

static void setup(void) { cr_assert_not_null(mkdtemp(work)); }
static void teardown(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", work);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(judge, .init = setup, .fini = teardown);

static test_result judge_reps(const char *mode, kind_t kind, dtype_t dtype, size_t n, int reps,
                              int warmup)
{
    suite_case c;
    memset(&c, 0, sizeof c);
    snprintf(c.variant, sizeof c.variant, "v");
    c.kind = kind;
    c.dtype = dtype;
    c.op = OP_SUM;
    c.dist = DIST_SMALL;
    c.n = n;
    c.seed = 3;
    snprintf(c.tol, sizeof c.tol, "log2n");
    setenv("FAKE_MODE", mode, 1);
    setenv("FAKE_KIND", kind == KIND_SCAN ? "scan" : "reduce", 1);
    run_plan plan = {.binary = KIT_TOP "/build/tests/fake_lab", .work = work, .box = work,
                     .reps = reps, .warmup = warmup, .timeout_s = 2.0};
    test_result t;
    judge_case(&plan, &c, &t);
    return t;
}

/* A correctness run: one input, launched twice (the repeat shows a race). */
static test_result judge(const char *mode, kind_t kind, dtype_t dtype, size_t n)
{
    return judge_reps(mode, kind, dtype, n, 1, 0);
}

Test(judge, correct_output_passes)
{
    cr_assert_eq(judge("ok", KIND_REDUCE, DT_INT32, 1000).verdict, V_PASS);
    cr_assert_eq(judge("ok", KIND_SCAN, DT_FLOAT32, 1000).verdict, V_PASS);
    cr_assert_eq(judge("ok", KIND_REDUCE, DT_INT32, 0).verdict, V_PASS);
}

Test(judge, wrong_values)
{
    test_result t = judge("wrong", KIND_SCAN, DT_INT32, 100);
    cr_assert_eq(t.verdict, V_WRONG);
    cr_assert(strstr(t.detail, "out[99]"), "%s", t.detail);
}

Test(judge, unwritten_guard_flaky)
{
    cr_assert_eq(judge("unwritten", KIND_SCAN, DT_INT32, 50).verdict, V_UNWRITTEN);
    test_result t = judge("guard", KIND_REDUCE, DT_INT32, 50);
    cr_assert_eq(t.verdict, V_OUT_OF_BOUNDS);
    cr_assert(strstr(t.detail, "out[6]"), "%s", t.detail);
    t = judge("flaky", KIND_SCAN, DT_INT32, 50);
    cr_assert_eq(t.verdict, V_RACE);
    cr_assert(strstr(t.detail, "repeated run"), "%s", t.detail);
}

Test(judge, process_failures)
{
    test_result t = judge("hang", KIND_REDUCE, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_TIMEOUT);
    t = judge("crash", KIND_REDUCE, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_CRASH);
    cr_assert(strstr(t.detail, "signal 11"), "%s", t.detail);
    t = judge("cuda", KIND_REDUCE, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_CUDA_ERROR);
    cr_assert(strstr(t.detail, "illegal memory access"), "%s", t.detail);
    t = judge("emu", KIND_REDUCE, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_EMU_ERROR);
    cr_assert(strstr(t.detail, "block 3, thread 7"), "%s", t.detail);
}

/* A host allocation that fails in the harness is the machine's failure:
 * its own verdict, never CUDA-ERROR (issue 15). */
Test(judge, host_memory_is_not_a_cuda_error)
{
    test_result t = judge("hostmem", KIND_SCAN, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_HOST_ERROR, "%s", verdict_name(t.verdict));
    cr_assert_str_eq(verdict_name(t.verdict), "HOST-ERROR");
    cr_assert(strstr(t.detail, "out of host memory"), "%s", t.detail);
    cr_assert(strstr(t.detail, "4294967296 bytes"), "the harness's own words: %s", t.detail);
    cr_assert(!strstr(t.detail, "CUDA"), "%s", t.detail);
}

/* The harness saw host code write the output (the emulator's output watch,
 * issue 34): HOST-WRITTEN and zero, though the values are right. */
Test(judge, an_output_written_by_host_code_fails)
{
    test_result t = judge("hostwritten", KIND_SCAN, DT_INT32, 100);
    cr_assert_eq(t.verdict, V_HOST_WRITTEN, "%s", verdict_name(t.verdict));
    cr_assert(strstr(t.detail, "written by host code, not by your kernel"), "%s", t.detail);
    cr_assert(strstr(t.detail, "out[2]"), "byte 8 of int32: %s", t.detail);
    cr_assert_eq(judge("ok", KIND_SCAN, DT_INT32, 100).verdict, V_PASS, "-1: no host write");
}

Test(judge, printed_claims_are_not_believed)
{
    test_result t = judge("liar", KIND_REDUCE, DT_INT32, 10);
    cr_assert_eq(t.verdict, V_NO_RESULT);
    t = judge("short", KIND_SCAN, DT_INT32, 100);
    cr_assert_eq(t.verdict, V_NO_RESULT);
    cr_assert(strstr(t.detail, "bytes"), "%s", t.detail);
}

/* A long emulator report keeps its first line and its hint whole, with
 * its line breaks; the block lines in between give way (issue 14: the
 * hint used to be cut off at the end). */
Test(judge, emulator_report_keeps_first_line_and_hint)
{
    char text[8192], out[1024];
    size_t o = (size_t)snprintf(text, sizeof text,
                                "cuemu: error: deadlock: no progress for 3 s in kernel 'k'\n");
    for (int b = 0; b < 40; b++)
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "cuemu:   block (%d,0,0) on worker 0: thread (0,0,0) is running "
                              "(spinning, waiting for something that never happens?)\n", b);
    snprintf(text + o, sizeof text - o,
             "cuemu:   hint: blocks run in dispatch order; code that waits for a block with a "
             "larger blockIdx.x can wait forever\n");
    log_excerpt_text(text, out, sizeof out);
    cr_assert(strncmp(out, "cuemu: error: deadlock", 22) == 0, "%s", out);
    cr_assert(strstr(out, "\ncuemu:   block (0,0,0)") != NULL, "%s", out);
    cr_assert(strstr(out, "(more lines left out here)") != NULL, "%s", out);
    cr_assert(strstr(out, "can wait forever") != NULL, "%s", out);
    cr_assert(strlen(out) < sizeof out);
}

/* A timed run (reps > 1) changes its input between calls and judges the
 * last call: an output cache, which answers the first call's input, is
 * WRONG; an honest program passes, for sums and scans, ints and floats. */
Test(judge, timed_run_defeats_an_output_cache)
{
    cr_assert_eq(judge_reps("ok", KIND_REDUCE, DT_INT32, 100000, 5, 1).verdict, V_PASS);
    cr_assert_eq(judge_reps("ok", KIND_SCAN, DT_FLOAT32, 100000, 5, 1).verdict, V_PASS);
    cr_assert_eq(judge_reps("ok", KIND_SCAN, DT_INT32, 0, 5, 1).verdict, V_PASS);
    test_result t = judge_reps("cache", KIND_REDUCE, DT_INT32, 100000, 5, 1);
    cr_assert_eq(t.verdict, V_WRONG, "%s", t.detail);
    t = judge_reps("cache", KIND_SCAN, DT_INT32, 100000, 50, 5);
    cr_assert_eq(t.verdict, V_WRONG, "%s", t.detail);
    /* a correctness run keeps one input: the cache is right there */
    cr_assert_eq(judge("cache", KIND_SCAN, DT_INT32, 1000).verdict, V_PASS);
}

/* A GPU's counts of the lab's host copies (common/copy_count.h): a host
 * answer copied into `out`, or the input read back, is HOST-WRITTEN even
 * when right; an accumulator's 4-byte start (the "ok" mode) passes. */
Test(judge, host_copies_counted_on_a_gpu)
{
    test_result t = judge("hostcopied", KIND_SCAN, DT_INT32, 1000);
    cr_assert_eq(t.verdict, V_HOST_WRITTEN, "%s", t.detail);
    cr_assert(strstr(t.detail, "4000 bytes"), "%s", t.detail);
    t = judge("inread", KIND_REDUCE, DT_INT32, 1000);
    cr_assert_eq(t.verdict, V_HOST_WRITTEN, "%s", t.detail);
    cr_assert_eq(judge("hostcopied", KIND_SCAN, DT_INT32, 0).verdict, V_PASS);
}
