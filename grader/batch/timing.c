/*
 * timing.c - the batch's closing account of where its time went: for each
 * GPU (or the emulator), the seconds its students' gradings spent building,
 * running correctness tests and sanitizers, in the speed rounds and in the
 * witness, summed from each results.json's extra_data.timing (written by
 * the grader, report.c).  The speed rounds and the witness hold the GPU
 * alone (gpulock.h); their phase times include the wait for it, so the
 * time the GPU was held alone is counted apart (gpu_alone; gpu_wait is
 * the waiting), and so is the time it was kept from other graders' new
 * runs (gpu_kept: held alone, or a witness first in line).  Kept next to
 * the wall-clock says whether a class is bound by its GPUs' serial part
 * or by the cores (builds and correctness run side by side).
 */
#include <stdio.h>
#include <string.h>

#include "batch.h"

enum { PH_BUILD, PH_CORRECT, PH_SANITIZE, PH_SPEED, PH_WITNESS, PH_WAIT, PH_ALONE, PH_KEPT,
       PHASES };
static const char *const phase_key[PHASES] = {"build",   "correctness", "sanitize", "speed",
                                              "witness", "gpu_wait",    "gpu_alone", "gpu_kept"};

typedef struct {
    int gpu, students;
    double sum[PHASES];
} gpu_account;

/* Add student s's phases to its GPU's account (made on first sight);
 * 0, or -1 when the results hold no timing (a result from an older
 * grader, or one resumed from an earlier batch). */
static int add_student(const student *s, gpu_account *acc, int *nacc, int max)
{
    const jv *t = s->json ? jv_get(jv_get(s->json, "extra_data"), "timing") : NULL;
    double v[PHASES];
    for (int p = 0; p < PHASES; p++)
        if (!t || jv_num(t, phase_key[p], &v[p]) != 0)
            return -1;
    int k = 0;
    while (k < *nacc && acc[k].gpu != s->gpu)
        k++;
    if (k == *nacc) {
        if (k == max)
            return -1;
        memset(&acc[k], 0, sizeof acc[k]);
        acc[k].gpu = s->gpu;
        (*nacc)++;
    }
    acc[k].students++;
    for (int p = 0; p < PHASES; p++)
        acc[k].sum[p] += v[p];
    return 0;
}

void print_timing(const batch *b, double wall)
{
    gpu_account acc[65];
    int nacc = 0, counted = 0;
    for (int i = 0; i < b->nst; i++)
        if (b->st[i].ran && add_student(&b->st[i], acc, &nacc, 65) == 0)
            counted++;
    if (!counted)
        return;
    batch_say(stderr, "batch: where the time went (seconds summed over the %d student(s) graded "
                      "now; %.0f s wall-clock, %d worker(s)):\n", counted, wall, b->jobs);
    for (int k = 0; k < nacc; k++) {
        const double *s = acc[k].sum;
        char who[32];
        if (acc[k].gpu >= 0)
            snprintf(who, sizeof who, "GPU %d", acc[k].gpu);
        else
            snprintf(who, sizeof who, "%s", b->emu || !b->ngpu ? "emulator" : "no GPU");
        char held[200] = "";
        if (acc[k].gpu >= 0)
            snprintf(held, sizeof held, "; the GPU held alone %.0f s (%.0f%% of the wall-clock), "
                     "kept from new runs %.0f s (%.0f%%), waited for %.0f s", s[PH_ALONE],
                     wall > 0 ? 100.0 * s[PH_ALONE] / wall : 0.0, s[PH_KEPT],
                     wall > 0 ? 100.0 * s[PH_KEPT] / wall : 0.0, s[PH_WAIT]);
        batch_say(stderr, "batch:   %s, %d student(s): builds %.0f, correctness %.0f, sanitizers "
                          "%.0f, speed %.0f, witness %.0f%s\n", who, acc[k].students,
                  s[PH_BUILD], s[PH_CORRECT], s[PH_SANITIZE], s[PH_SPEED], s[PH_WITNESS], held);
    }
}
