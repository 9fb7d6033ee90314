/*
 * speed_witness.h - the speed phase's witness (witness.h says what a
 * witness is): after the timed rounds, every passing speed test's case run
 * again under ncu, outside the student's process, all of a submission's
 * cases in one ncu process where it can (witness_unit); the student's time
 * becomes at least the witnessed one on the events' clock, turned so by
 * the reference's own ratio (kept per GPU: witness_cache.h).  A witness
 * that fails for the submission but works for the reference earns nothing.
 */
#ifndef SPEED_WITNESS_H
#define SPEED_WITNESS_H

#include "grade.h"
#include "launch.h"

/* Every passing speed test among g->speed[which[0..count)] (cases[i] is
 * which[i]'s case) witnessed as GRADE_WITNESS says, the GPU held alone;
 * mine and theirs plan the submission's and the reference's runs. */
void witness_all(grade_run *g, const int *which, const suite_case *const *cases, int count,
                 const run_plan *mine, const run_plan *theirs);

#endif /* SPEED_WITNESS_H */
