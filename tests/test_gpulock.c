/* test_gpulock.c - the per-GPU readers-writer lock of a batch: correctness
 * runs share the GPU, a speed test has it alone, and a waiting speed test
 * is not starved by correctness runs that keep arriving.  Each role is a
 * forked process (the lock is between graders), timed by the clock. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpulock.h"

static char dir[] = "/tmp/test_gpulock.XXXXXX";

static void setup(void)
{
    char prefix[200];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(prefix, sizeof prefix, "%s/gpu0", dir);
    setenv("GRADE_GPU_LOCK", prefix, 1);
}
static void teardown(void)
{
    char cmd[200];
    unsetenv("GRADE_GPU_LOCK");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}
TestSuite(gpulock, .init = setup, .fini = teardown);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void nap(double s)
{
    struct timespec t = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&t, NULL);
}

/* A child that waits `start` s, takes the lock (exclusive or not), holds
 * it `hold` s and exits. */
static pid_t holder(double start, int exclusive, double hold)
{
    pid_t pid = fork();
    if (pid == 0) {
        nap(start);
        if ((exclusive ? gpu_lock_exclusive() : gpu_lock_shared()) != 0)
            _exit(1);
        nap(hold);
        gpu_unlock();
        _exit(0);
    }
    return pid;
}

static void reap(pid_t pid)
{
    int st;
    cr_assert_eq(waitpid(pid, &st, 0), pid);
    cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "a holder could not lock");
}

Test(gpulock, without_the_variable_nothing_is_locked)
{
    unsetenv("GRADE_GPU_LOCK");
    cr_assert_eq(gpu_lock_shared(), -1);
    cr_assert_eq(gpu_lock_exclusive(), -1);
    gpu_unlock();
}

Test(gpulock, correctness_runs_share_the_gpu)
{
    pid_t a = holder(0, 0, 1.0);
    nap(0.2);
    double t0 = now();
    cr_assert_eq(gpu_lock_shared(), 0);
    double waited = now() - t0;
    gpu_unlock();
    reap(a);
    cr_assert_lt(waited, 0.5, "a second reader waited %.2f s", waited);
}

Test(gpulock, a_speed_test_has_the_gpu_alone)
{
    pid_t w = holder(0, 1, 1.0);
    nap(0.2);
    double t0 = now();
    cr_assert_eq(gpu_lock_shared(), 0);
    double waited = now() - t0;
    gpu_unlock();
    reap(w);
    cr_assert_gt(waited, 0.6, "a reader got in beside a writer after %.2f s", waited);

    pid_t r = holder(0, 0, 1.0); /* and the other way round */
    nap(0.2);
    t0 = now();
    cr_assert_eq(gpu_lock_exclusive(), 0);
    waited = now() - t0;
    gpu_unlock();
    reap(r);
    cr_assert_gt(waited, 0.6, "a writer got in beside a reader after %.2f s", waited);
}

/* Reader R1 holds the GPU; writer W asks; reader R2 asks after W.  R2
 * must wait for W, even though R1 would let it in: writers first. */
Test(gpulock, a_waiting_speed_test_goes_before_new_runs)
{
    double t0 = now();
    pid_t r1 = holder(0, 0, 1.2);
    pid_t w = holder(0.3, 1, 0.8); /* gets it at ~1.2 s, gives it back at ~2.0 s */
    nap(0.6);
    cr_assert_eq(gpu_lock_shared(), 0);
    double got = now() - t0;
    gpu_unlock();
    reap(r1);
    reap(w);
    cr_assert_gt(got, 1.8, "the new reader got in at %.2f s, before the waiting writer", got);
}

/* The batch's account (grader/batch/timing.c) splits a grading's speed
 * phases into waiting for the GPU and holding it alone: a writer that
 * waits 0.8 s behind a reader, then holds the GPU 0.3 s, says so. */
Test(gpulock, the_wait_and_the_hold_are_counted_apart)
{
    double waited0, alone0, waited, alone;
    gpu_lock_times(&waited0, &alone0);
    pid_t r = holder(0, 0, 1.0);
    nap(0.2);
    cr_assert_eq(gpu_lock_exclusive(), 0);
    nap(0.3);
    gpu_unlock();
    reap(r);
    gpu_lock_times(&waited, &alone);
    cr_assert(waited - waited0 > 0.6 && waited - waited0 < 1.2, "waited %.2f s", waited - waited0);
    cr_assert(alone - alone0 > 0.25 && alone - alone0 < 0.6, "alone %.2f s", alone - alone0);
    cr_assert_eq(gpu_lock_shared(), 0); /* a shared hold is neither */
    nap(0.1);
    gpu_unlock();
    double w2, a2;
    gpu_lock_times(&w2, &a2);
    cr_assert_float_eq(a2, alone, 1e-9);
}
