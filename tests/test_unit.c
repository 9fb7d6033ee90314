/* test_unit.c - many cases in one process (grader/unit.c), against the fake
 * lab binary: every case judged as if alone, and a process that dies in
 * one case settles that case and leaves the rest to run again. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpulock.h"
#include "unit.h"

static char work[] = "/tmp/test_unit.XXXXXX";

static void setup(void) { cr_assert_not_null(mkdtemp(work)); }
static void teardown(void)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", work);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(unit, .init = setup, .fini = teardown);

enum { COUNT = 5 };
static suite_case store[COUNT];
static const suite_case *cases[COUNT];
static test_result got[COUNT];

/* COUNT scan cases, seeds 1..COUNT, and the plan that runs them in the
 * fake lab, which misbehaves (mode) on seed `bad` only. */
static run_plan plan_for(const char *mode, int bad)
{
    char seed[16];
    for (int i = 0; i < COUNT; i++) {
        suite_case *c = &store[i];
        memset(c, 0, sizeof *c);
        snprintf(c->variant, sizeof c->variant, "v");
        c->kind = KIND_SCAN;
        c->dtype = DT_INT32;
        c->op = OP_SUM;
        c->dist = DIST_SMALL;
        c->n = 100 + (size_t)i;
        c->seed = (uint64_t)i + 1;
        snprintf(c->tol, sizeof c->tol, "log2n");
        cases[i] = c;
    }
    snprintf(seed, sizeof seed, "%d", bad);
    setenv("FAKE_MODE", mode, 1);
    setenv("FAKE_SEED", seed, 1);
    setenv("FAKE_KIND", "scan", 1);
    run_plan plan = {.binary = KIT_TOP "/build/tests/fake_lab", .work = work, .box = work,
                     .reps = 1, .warmup = 0, .timeout_s = 1.0};
    return plan;
}

/* The cases from `from` run as plan_for says; run_unit's count of settled
 * cases. */
static int unit_of(const char *mode, int bad, int from)
{
    run_plan plan = plan_for(mode, bad);
    return run_unit(&plan, cases + from, COUNT - from, got + from);
}

Test(unit, every_case_judged_on_its_own)
{
    cr_assert_eq(unit_of("wrong", 2, 0), COUNT);
    for (int i = 0; i < COUNT; i++)
        cr_assert_eq(got[i].verdict, i == 1 ? V_WRONG : V_PASS, "case %d: %s", i, got[i].detail);
    cr_assert(strstr(got[1].detail, "out[100]"), "%s", got[1].detail);
}

Test(unit, a_crash_settles_its_case_and_stops)
{
    cr_assert_eq(unit_of("crash", 3, 0), 3);
    cr_assert_eq(got[0].verdict, V_PASS);
    cr_assert_eq(got[1].verdict, V_PASS);
    cr_assert_eq(got[2].verdict, V_CRASH, "%s", got[2].detail);
    cr_assert(strstr(got[2].detail, "signal 11"), "%s", got[2].detail);
    cr_assert_eq(unit_of("crash", 3, 3), 2); /* the rest, in another process */
    cr_assert_eq(got[3].verdict, V_PASS);
    cr_assert_eq(got[4].verdict, V_PASS);
}

Test(unit, a_cuda_error_names_its_own_case)
{
    cr_assert_eq(unit_of("cuda", 1, 0), 1);
    cr_assert_eq(got[0].verdict, V_CUDA_ERROR);
    cr_assert(strstr(got[0].detail, "illegal memory access"), "%s", got[0].detail);
}

Test(unit, a_hang_is_a_timeout_without_a_second_wait)
{
    time_t start = time(NULL);
    cr_assert_eq(unit_of("watchdog", 2, 0), 2);
    cr_assert_eq(got[0].verdict, V_PASS);
    cr_assert_eq(got[1].verdict, V_TIMEOUT, "%s", got[1].detail);
    cr_assert(strstr(got[1].detail, "TIMEOUT: still running"), "%s", got[1].detail);
    cr_assert_lt(time(NULL) - start, 5, "a hung case must not be rerun alone");
}

Test(unit, progress_records)
{
    const char *text = "begin k0\nend k0 0\nbegin k1\nend k1 1\nbegin k2\n";
    cr_assert_eq(unit_case_state(text, 0), 0);
    cr_assert_eq(unit_case_state(text, 1), 1);
    cr_assert_eq(unit_case_state(text, 2), -2);
    cr_assert_eq(unit_case_state(text, 3), -1);
    cr_assert_eq(unit_case_state("", 0), -1);
}

Test(unit, correctness_runs_hold_the_gpu_shared_and_give_it_back)
{
    char lock[200], mark[200], env[420];
    snprintf(lock, sizeof lock, "%s/gpu0", work);
    snprintf(mark, sizeof mark, "%s/mark", work);
    setenv("GRADE_GPU_LOCK", lock, 1);
    snprintf(env, sizeof env, "%s.rw", lock);
    setenv("UNIT_LOCK_RW", env, 1);
    setenv("UNIT_MARK", mark, 1);
    /* the process records whether it could have taken the GPU alone */
    static char *wrap[] = {"sh", "-c",
                           "flock -n \"$UNIT_LOCK_RW\" true && echo free >> \"$UNIT_MARK\" || "
                           "echo shared >> \"$UNIT_MARK\"; exec \"$@\"", "sh", NULL};
    run_plan plan = plan_for("ok", 0);
    plan.wrap = wrap;
    plan.gpu_hold = GPU_HELD_SHARED;
    cr_assert_eq(run_unit(&plan, cases, COUNT, got), COUNT);
    for (int i = 0; i < COUNT; i++)
        cr_assert_eq(got[i].verdict, V_PASS, "case %d: %s", i, got[i].detail);
    FILE *f = fopen(mark, "r");
    char line[32] = "";
    cr_assert_not_null(f, "the process did not run through the wrap");
    cr_assert_not_null(fgets(line, sizeof line, f));
    fclose(f);
    cr_assert_str_eq(line, "shared\n", "the process ran with the GPU not held shared");
    cr_assert_eq(gpu_lock_held(), GPU_HELD_NONE, "the hold outlived the unit");
    unsetenv("GRADE_GPU_LOCK");
}

/* A case is judged as soon as it has ended, while the later cases of its
 * process run: case 1 waits for case 0's verdict (its output removed) and
 * is right only if it came. */
Test(unit, a_case_is_judged_while_the_rest_run)
{
    cr_assert_eq(unit_of("awaitjudged", 2, 0), COUNT);
    for (int i = 0; i < COUNT; i++)
        cr_assert_eq(got[i].verdict, V_PASS, "case %d: %s", i, got[i].detail);
}

/* ... but not in a timed unit, which has the GPU alone: nothing of the
 * grader's runs beside its timings. */
Test(unit, a_timed_unit_is_judged_after_its_end)
{
    run_plan plan = plan_for("awaitjudged", 2);
    plan.gpu_hold = GPU_HELD_EXCLUSIVE;
    cr_assert_eq(run_unit(&plan, cases, COUNT, got), COUNT);
    cr_assert_eq(got[0].verdict, V_PASS, "%s", got[0].detail);
    cr_assert_eq(got[1].verdict, V_WRONG, "%s", got[1].detail);
}

/* A program that cuts an ended case's output short, and gives it its size
 * back, over and over while the grader may be reading it (case 0 has 2^22
 * elements, so reading and checking it takes a while): the grader reads a
 * copy (grader/rawout.h), never a mapping that would fault, so it lives
 * to give every case a verdict; case 0's is whatever it read. */
Test(unit, an_output_cut_short_while_judged_kills_no_grader)
{
    for (int round = 0; round < 5; round++) {
        run_plan plan = plan_for("cutbefore", 2);
        store[0].n = (size_t)1 << 22;
        cr_assert_eq(run_unit(&plan, cases, COUNT, got), COUNT);
        for (int i = 1; i < COUNT; i++)
            cr_assert_eq(got[i].verdict, V_PASS, "case %d: %s", i, got[i].detail);
    }
}
