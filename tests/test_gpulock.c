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
 * phases into waiting for the GPU, holding it alone and keeping it from
 * new runs: a writer that waits 0.8 s behind a reader, then holds the GPU
 * 0.3 s, says so; a shared hold is none of them; a witness first in line
 * 0.3 s, alone 0.2 s, then shared 0.2 s keeps it 0.5 s. */
Test(gpulock, the_wait_the_hold_and_the_keeping_are_counted_apart)
{
    double waited0, alone0, kept0, waited, alone, kept;
    gpu_lock_times(&waited0, &alone0, &kept0);
    pid_t r = holder(0, 0, 1.0);
    nap(0.2);
    cr_assert_eq(gpu_lock_exclusive(), 0);
    nap(0.3);
    gpu_unlock();
    reap(r);
    gpu_lock_times(&waited, &alone, &kept);
    cr_assert(waited - waited0 > 0.6 && waited - waited0 < 1.2, "waited %.2f s", waited - waited0);
    cr_assert(alone - alone0 > 0.25 && alone - alone0 < 0.6, "alone %.2f s", alone - alone0);
    cr_assert(kept - kept0 > 0.25 && kept - kept0 < 0.6, "kept %.2f s", kept - kept0);
    cr_assert_eq(gpu_lock_shared(), 0); /* a shared hold is neither */
    nap(0.1);
    gpu_unlock();
    double w2, a2, k2;
    gpu_lock_times(&w2, &a2, &k2);
    cr_assert_float_eq(a2, alone, 1e-9);
    cr_assert_float_eq(k2, kept, 1e-9);
    cr_assert_eq(gpu_lock_next(), 0);
    nap(0.3);
    cr_assert_eq(gpu_lock_upgrade(), 0);
    nap(0.2);
    cr_assert_eq(gpu_lock_downgrade(), 0);
    nap(0.2);
    gpu_unlock();
    gpu_lock_times(&w2, &a2, &k2);
    cr_assert(a2 - alone > 0.15 && a2 - alone < 0.35, "alone %.2f s", a2 - alone);
    cr_assert(k2 - kept > 0.45 && k2 - kept < 0.65, "kept %.2f s", k2 - kept);
}

/* A child that waits `start` s, takes the GPU shared or alone, writes when
 * it got it (seconds since t0) on fd, gives it back and exits. */
static pid_t asker(double t0, double start, int exclusive, int fd)
{
    pid_t pid = fork();
    if (pid == 0) {
        nap(start);
        if ((exclusive ? gpu_lock_exclusive() : gpu_lock_shared()) != 0)
            _exit(1);
        double got = now() - t0;
        gpu_unlock();
        _exit(write(fd, &got, sizeof got) == sizeof got ? 0 : 1);
    }
    return pid;
}

static double got_at(int fd, pid_t pid)
{
    double got = -1;
    reap(pid);
    cr_assert_eq(read(fd, &got, sizeof got), (ssize_t)sizeof got);
    return got;
}

/* First in line (a witness's program starting): the run already in goes
 * on beside it, but no new run and no speed test gets in until it gives
 * the GPU back. */
Test(gpulock, first_in_line_keeps_new_runs_and_speed_tests_out)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    double t0 = now();
    pid_t r1 = holder(0, 0, 1.0);
    nap(0.2);
    cr_assert_eq(gpu_lock_next(), 0);
    cr_assert_lt(now() - t0, 0.5, "first in line waited for the run already in");
    cr_assert_eq(gpu_lock_held(), GPU_HELD_NEXT);
    pid_t r2 = asker(t0, 0.1, 0, p[1]);
    nap(1.3); /* r1 is done by now: the GPU is free, but not for r2 */
    gpu_unlock();
    double got = got_at(p[0], r2);
    reap(r1);
    cr_assert_gt(got, 1.4, "a new run got in at %.2f s beside the program first in line", got);

    cr_assert_eq(gpu_lock_next(), 0); /* and a speed test waits the same way */
    pid_t w = asker(now(), 0.1, 1, p[1]);
    nap(0.6);
    gpu_unlock();
    got = got_at(p[0], w);
    cr_assert_gt(got, 0.5, "a speed test got in at %.2f s beside the program first in line", got);
}

/* The upgrade waits for the runs already in, and then holds the GPU
 * alone; nothing else got in meanwhile. */
Test(gpulock, the_upgrade_waits_for_the_runs_already_in)
{
    double t0 = now();
    pid_t r1 = holder(0, 0, 1.0);
    nap(0.2);
    cr_assert_eq(gpu_lock_upgrade(), -1, "an upgrade without being first in line");
    cr_assert_eq(gpu_lock_next(), 0);
    cr_assert_eq(gpu_lock_upgrade(), 0);
    double got = now() - t0;
    cr_assert_eq(gpu_lock_held(), GPU_HELD_EXCLUSIVE);
    reap(r1);
    cr_assert_gt(got, 0.9, "alone at %.2f s, while a run was still in", got);
    char check[300];
    snprintf(check, sizeof check, "flock -n -s %s/gpu0.rw true", dir);
    cr_assert_neq(system(check), 0, "a reader could take the GPU beside the upgraded hold");
    gpu_unlock();
}

/* A hold that went from alone to shared again (gpu_lock_downgrade): the
 * GPU held alone from first in line, then shared back, once with a run
 * waiting and once with a speed test waiting; when each got in (seconds
 * since the hold was alone). */
static double waiter_after_downgrade(int exclusive)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(gpu_lock_next(), 0);
    cr_assert_eq(gpu_lock_upgrade(), 0);
    double t0 = now();
    pid_t pid = asker(t0, 0.1, exclusive, p[1]);
    nap(0.5);
    cr_assert_eq(gpu_lock_downgrade(), 0);
    cr_assert_eq(gpu_lock_held(), GPU_HELD_SHARED);
    nap(0.7);
    gpu_unlock();
    double got = got_at(p[0], pid);
    close(p[0]);
    close(p[1]);
    return got;
}

/* After the downgrade a waiting run gets in at once, but a speed test
 * waits for the program's end (gpu_unlock). */
Test(gpulock, after_the_downgrade_runs_come_in_but_no_speed_test)
{
    cr_assert_eq(gpu_lock_downgrade(), -1, "a downgrade of nothing");
    double run = waiter_after_downgrade(0);
    cr_assert(run > 0.45 && run < 0.9, "the run got in at %.2f s", run);
    double speed = waiter_after_downgrade(1);
    cr_assert_gt(speed, 1.15, "the speed test got in at %.2f s, beside the program", speed);
}

/* A speed test already waiting goes first; first in line comes after it,
 * with no deadlock though a run holds the GPU all along. */
Test(gpulock, first_in_line_waits_behind_a_waiting_speed_test)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    double t0 = now();
    pid_t r1 = holder(0, 0, 0.6);
    pid_t w = asker(t0, 0.1, 1, p[1]); /* waits for r1, then ~0 s */
    nap(0.3);
    cr_assert_eq(gpu_lock_next(), 0);
    double got = now() - t0;
    cr_assert_eq(gpu_lock_upgrade(), 0);
    gpu_unlock();
    reap(r1);
    cr_assert_lt(got_at(p[0], w), got + 0.05);
    cr_assert_gt(got, 0.55, "first in line at %.2f s, before the waiting speed test", got);
}
