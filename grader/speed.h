/*
 * speed.h - the speed phase of a grading (speed.c): the suite's speed
 * tests timed for the student's binary and the reference in the same run.
 */
#ifndef SPEED_H
#define SPEED_H

#include "grade.h"
#include "judge.h"
#include "sandbox.h"

/* Every speed test of g's suite into g->speed: skipped with its reason
 * (no GPU, --no-speed, its group not passed), or timed in rounds that
 * alternate student and reference (ref; scratch in work), a round only
 * while one could still raise a score.  Points follow score.h. */
void run_speed_tests(grade_run *g, const char *student, const char *ref, const char *work,
                     const char *box,
                     double timeout, const sandbox *sb);

#endif /* SPEED_H */
