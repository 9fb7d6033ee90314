/*
 * speed_witness.h - the speed phase's witness (witness.h says what a
 * witness is): every passing speed test's case run under ncu, outside the
 * student's process, all of a submission's cases in one ncu process where
 * it can (witness_unit).  The student's time is the witnessed one, turned
 * to the events' clock by the reference's own ratio (kept per GPU:
 * witness_cache.h); the process's self-reported time is not used, so a
 * witnessed grading runs no speed round of the submission's.  A witness
 * that fails for the submission but works for the reference earns nothing.
 */
#ifndef SPEED_WITNESS_H
#define SPEED_WITNESS_H

#include <limits.h>

#include "grade.h"
#include "launch.h"
#include "witness.h"

/* What GRADE_WITNESS asks for and where ncu is: looked up once a grading
 * (witness_setup_get), read by witness_planned and witness_all. */
typedef struct {
    int ok;            /* GRADE_WITNESS understood; else why says why */
    witness_mode mode; /* what it asks for (when ok) */
    int found;         /* a witness is asked for and ncu is at ncu */
    char ncu[PATH_MAX];
    char why[200];
} witness_setup;

void witness_setup_get(witness_setup *w);

/* 1 when GRADE_WITNESS asks for a witness and ncu is there: the speed
 * phase then times the submission by witness_all alone. */
int witness_planned(const witness_setup *w);

/* Every passing speed test among g->speed[which[0..count)] (cases[i] is
 * which[i]'s case) witnessed as GRADE_WITNESS says, the GPU held alone;
 * mine and theirs plan the submission's and the reference's runs, and the
 * reference's times (t_ref) are already in g->speed.  A test it leaves
 * passing without a time (t_student infinite: no witness, and
 * GRADE_WITNESS allows that) is for the self-reported rounds. */
void witness_all(grade_run *g, const int *which, const suite_case *const *cases, int count,
                 const run_plan *mine, const run_plan *theirs, const witness_setup *w);

#endif /* SPEED_WITNESS_H */
