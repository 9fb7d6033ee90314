/*
 * checksuite.h - `./grade labN --check-suite`: grade the lab's reference
 * solution with the lab's suite (hidden part included) and expect full
 * marks.  A suite that asks for a variant the lab lacks, a size a variant
 * cannot take or a tolerance too tight fails here, with the instructor,
 * instead of costing every student points.
 */
#ifndef CHECKSUITE_H
#define CHECKSUITE_H

#include <stdio.h>

#include "grade.h"

/* The reference solution's folder (top/solutions/<dir>) into *path; -1
 * with a message when this copy of the kit has none (a student's copy). */
int check_suite_submission(const char *top, const suite *s, const char **path);

/* After grading the reference: 0 when it got every point that could be
 * graded here, else -1; each lost test (with its parameters, hidden ones
 * too: this is the instructor's view) printed to f. */
int check_suite_verdict(const grade_run *g, FILE *f);

#endif /* CHECKSUITE_H */
