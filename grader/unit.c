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

/* The cases of a unit judged as they end (launch.h), while the rest run:
 * checking a case's output on the host needs no GPU and took as long as
 * running the whole rest of some units (lab 7: 2^26 elements checked in
 * 0.6 s), so the two overlap. */
typedef struct {
    const run_plan *plan;
    const suite_case *const *cases;
    test_result *out;
    unsigned char *judged;
} judging;

static void judge_ended(void *arg, int i, const case_run *run)
{
    judging *j = arg;
    judge_run(j->plan, j->cases[i], run, &j->out[i]);
    j->judged[i] = 1;
}

/*
 * The rest are judged after the GPU is given back: in a batch the other
 * workers of the GPU wait for an exclusive hold.  A timed unit (held
 * alone) is judged only after its end: nothing of the grader's runs
 * beside its timings.
 */
int run_unit(const run_plan *plan, const suite_case *const *cases, int count, test_result *out)
{
    case_run *runs = malloc((size_t)count * sizeof *runs);
    unsigned char *judged = calloc((size_t)count, 1);
    if (!runs || !judged) { /* (the grader short of memory: one case at a time still works) */
        free(runs);
        free(judged);
        hold_gpu(plan);
        judge_case(plan, cases[0], &out[0]);
        release_gpu(plan);
        settle_oom(plan, cases[0], &out[0]);
        return 1;
    }
    judging j = {plan, cases, out, judged};
    const int early = plan->gpu_hold != GPU_HELD_EXCLUSIVE;
    hold_gpu(plan);
    int done = launch_unit(plan, cases, count, runs, early ? judge_ended : NULL, &j);
    release_gpu(plan);
    for (int i = 0; i < done; i++) {
        if (!judged[i])
            judge_run(plan, cases[i], &runs[i], &out[i]);
        settle_oom(plan, cases[i], &out[i]);
    }
    free(runs);
    free(judged);
    return done;
}
