/*
 * correctness.h - the correctness phase of a grading: every case of the
 * suite run and judged (judge.h), consecutive cases of a group in one
 * process (unit.h), and on a GPU the groups spread over lanes that run at
 * the same time.
 *
 * Why lanes: on a GPU a group's cases spend their time in process starts,
 * host copies and the grader's own checking, not on the GPU, so one group
 * after another left the GPU idle most of the time (lab 7: 10 s of
 * correctness on an H100, its largest group 2.7 s).  A lane is a forked
 * copy of the grader with its own scratch folder that runs whole groups
 * (on a GPU, a group's device cases and its emulated cases in two lanes:
 * lanes.h), so everything that depends on earlier cases of a group (a
 * hang rule, LIMIT_HANGS_PER_GROUP) sees them in order, as before.
 * Verdicts are the same whatever the number of lanes; the timing phase
 * comes after, alone.
 */
#ifndef CORRECTNESS_H
#define CORRECTNESS_H

#include "grade.h"
#include "judge.h"

typedef struct {
    int lanes;           /* groups run at once (1: one after another) */
    int emu_unavailable; /* the emulator build failed: cases with a schedule fail */
    int progress;        /* a live counter on stderr */
} correctness_opts;

/* Every case into g->tests (and g->device from the first run naming one). */
void run_correctness(grade_run *g, const run_plan *plan, const correctness_opts *o);

/* The lanes to use when the command line does not say: on a GPU one per
 * two cores, emulated one per core (each run then gets its share of
 * threads), up to LANES_MAX. */
int default_lanes(const char *backend);

#endif /* CORRECTNESS_H */
