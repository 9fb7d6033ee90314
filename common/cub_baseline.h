/*
 * cub_baseline.h - the same operation done by CUB (NVIDIA's library of
 * tuned primitives), timed in the same process: the "how far from the
 * state of the art" figure next to the copy yardstick.
 */
#ifndef CUB_BASELINE_H
#define CUB_BASELINE_H

#include "kinds/kinds.h"
#include "lab.h"
#include "timing.h"

/* Time CUB's algorithm `algo` (the kind's yardstick, kinds.h) on problem
 * p with the kind's parameters k.  Returns 0 and fills *t, or -1 when
 * there is no CUB equivalent here (CUB_NONE, a tuple size without one, or
 * the CPU emulator, which has no CUB). */
int time_cub(kind_cub algo, const lab_problem *p, const kind_params *k, int warmup, int reps,
             timing *t);

#endif /* CUB_BASELINE_H */
