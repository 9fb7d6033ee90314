/*
 * ref_round.h - the reference's timed round, shared by the graders of a
 * batch on one GPU.
 *
 * Every grading times the reference's speed cases once on the events'
 * clock, the GPU held alone: the witness's ratio turns the student's ncu
 * time into that clock, and the score is the ratio of the two.  In a
 * batch that round (0.4 s of lab 6's 3.0 s alone on the GPU a student,
 * H200) measures the same binary on the same GPU again and again.  So the
 * batch driver names a file per GPU in GRADE_REF_ROUND (grader/batch,
 * in its scratch folder, which no sandbox can open), and the first grader
 * to time the round keeps it there for the others: every student of the
 * class on that GPU is held against the same reference times, measured
 * again once they are REF_ROUND_MAX_AGE_S old (a GPU's clocks drift over
 * minutes).  Without GRADE_REF_ROUND every call misses and nothing is
 * kept: a single grading times the reference itself, as before.
 *
 * Trust: the file is the grader's own (owned by this user, written by no
 * one else, no link followed, checked before it is read), and its first
 * line names the reference binary (path, size, inode, time) and every
 * case's command; anything else is a miss, never a time.
 */
#ifndef REF_ROUND_H
#define REF_ROUND_H

#include "grade.h"

/* The kept round of the reference binary ref over cases[0..count): 0 with
 * out[i] (a passing verdict, ms, copy_gbps, device) for each case, or -1
 * (none kept, too old, another binary or case list, a damaged file). */
int ref_round_get(const char *ref, const suite_case *const *cases, int count,
                  test_result *out);

/* Keep a round just timed for the other graders, when every case passed
 * (a failed reference round is the kit's fault and is timed again by the
 * next grader); silent when it cannot be written. */
void ref_round_put(const char *ref, const suite_case *const *cases, int count,
                   const test_result *out);

#endif /* REF_ROUND_H */
