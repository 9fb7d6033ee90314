/*
 * unit.c - several cases in one process of a lab binary (unit.h says why):
 * launched (launch.h), then each judged (judge.h), in that order.
 */
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulock.h"

int unit_compatible(const suite_case *a, const suite_case *b)
{
    return strcmp(a->schedule, b->schedule) == 0 && a->emu_threads == b->emu_threads;
}

/*
 * A case that ran out of GPU memory while the GPU was shared (correctness
 * lanes, or a batch's workers on one GPU) may have lost the memory to
 * another process: it is run again alone, the GPU held exclusive
 * (gpulock.h), and that run's verdict stands, so a student's own
 * out-of-memory, which repeats alone, keeps its verdict.  Under an
 * exclusive hold (the speed phase) or with no lock, the verdict is final.
 */
static void settle_oom(const run_plan *plan, const suite_case *c, test_result *t)
{
    if (!t->gpu_oom || plan->gpu_hold != GPU_HELD_SHARED || gpu_lock_exclusive() != 0)
        return;
    judge_case(plan, c, t);
    gpu_unlock();
}

/* The GPU held as plan asks while its processes run. */
static void hold_gpu(const run_plan *plan)
{
    if (plan->gpu_hold == GPU_HELD_SHARED)
        gpu_lock_shared(); /* beside other correctness runs, never beside a timing */
    else if (plan->gpu_hold == GPU_HELD_EXCLUSIVE)
        gpu_lock_exclusive(); /* a timing: alone */
}

static void release_gpu(const run_plan *plan)
{
    if (plan->gpu_hold != GPU_HELD_NONE)
        gpu_unlock();
}

/*
 * The outputs are judged after the GPU is given back: checking 2^26
 * elements on the host takes up to half a second a case and needs no GPU,
 * and in a batch the other workers of the GPU wait for the hold.
 */
int run_unit(const run_plan *plan, const suite_case *const *cases, int count, test_result *out)
{
    case_run *runs = malloc((size_t)count * sizeof *runs);
    if (!runs) { /* (the grader short of memory: one case at a time still works) */
        hold_gpu(plan);
        judge_case(plan, cases[0], &out[0]);
        release_gpu(plan);
        settle_oom(plan, cases[0], &out[0]);
        return 1;
    }
    hold_gpu(plan);
    int done = launch_unit(plan, cases, count, runs);
    release_gpu(plan);
    for (int i = 0; i < done; i++) {
        judge_run(plan, cases[i], &runs[i], &out[i]);
        settle_oom(plan, cases[i], &out[i]);
    }
    free(runs);
    return done;
}
