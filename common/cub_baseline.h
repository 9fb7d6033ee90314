/*
 * cub_baseline.h - the same operation done by CUB (NVIDIA's library of
 * tuned primitives), timed in the same process: the "how far from the
 * state of the art" figure next to the copy yardstick.
 */
#ifndef CUB_BASELINE_H
#define CUB_BASELINE_H

#include "lab.h"
#include "timing.h"

/* Time CUB on problem p (whole-array reduce or scan).  Returns 0 and fills
 * *t, or -1 when there is no CUB equivalent here (section scans, or the
 * CPU emulator, which has no CUB). */
int time_cub(kind_t kind, const lab_problem *p, int warmup, int reps, timing *t);

#endif /* CUB_BASELINE_H */
