/*
 * score.h - verdicts and points.  Correctness first: each group's points
 * are shared equally by its tests.  Speed second, CS149 style, and only for
 * a group that passed completely: full credit within 1.2x of the reference
 * timed in the same run, 1.2 * t_ref / t below that, nothing past 10x.
 */
#ifndef SCORE_H
#define SCORE_H

#include "suite.h"

typedef enum {
    V_PASS,
    V_WRONG,         /* output differs from the reference */
    V_UNWRITTEN,     /* output differs, and still holds the poison pattern */
    V_OUT_OF_BOUNDS, /* wrote into the guard band */
    V_RACE,          /* result changed between repeated runs */
    V_TIMEOUT,
    V_CRASH,         /* killed by a signal */
    V_CUDA_ERROR,    /* a CUDA call or kernel failed */
    V_EMU_ERROR,     /* the CPU emulator stopped it (bounds, barrier, deadlock) */
    V_NO_RESULT,     /* exited without a readable result */
    V_BUILD_FAILED,
    V_FORBIDDEN,     /* the submission uses a forbidden shortcut (forbid.h) */
    V_SKIPPED,       /* not run here (too large for the emulator; speed without a GPU) */
    V_SANITIZER,     /* compute-sanitizer reported errors (./grade --sanitize) */
    V_MISSING_FILE,  /* the submission lacks one of the lab's files (pick.h) */
    V_AMBIGUOUS_FILE, /* several of the submission's files could be the lab's one */
    V_IMPLAUSIBLE,   /* a speed run reported a time no GPU can reach (faster than a
                        device copy of the same bytes by the reference's own yardstick) */
    V_HOST_ERROR,    /* the harness ran out of host memory: the machine's failure, not
                        the kernel's (EXIT_HOST_ERROR) */
    V_HOST_WRITTEN,  /* the output was written by host code, not by the lab's kernels
                        (the emulator's output watch, or host copies counted on a GPU) */
    V_COUNT
} verdict_t;

const char *verdict_name(verdict_t v);

/* Fraction of the speed points for t_student / t_ref = ratio. */
double speed_fraction(double ratio);

/* Is a speed test's score final after a round that measured the student's
 * best median t_student and the reference's t_ref (INFINITY while not
 * measured)?  1 when both are measured and the ratio already earns full
 * points: no later round can raise it. */
int speed_settled(double t_student, double t_ref);

/* Points of a group: points * passed / run (skipped tests do not count). */
double group_score(double points, int passed, int run);

/*
 * Can a run that moves `bytes` take t_ms, on a GPU whose device copy moves
 * copy_gbps (GB/s, bytes / ms / 1e6)?  Not faster than max_ratio copies:
 * 1 plausible (or no yardstick to judge by), 0 not; *fastest_ms gets the
 * bound.  A time of 0 or less, or NaN, is never plausible.
 */
int speed_plausible(double t_ms, double bytes, double copy_gbps, double max_ratio, double *fastest_ms);

/*
 * May a speed test whose run the witness (witness.h) could not time be
 * credited with the student's own time, bounded by a device copy's?  Only
 * when the witness failed for the reference too (ncu missing or not
 * working here) and GRADE_WITNESS is not require.  Where it timed the
 * reference, a run it could not time is the student's program's doing (it
 * left early when watched, killed the profiler): no speed points.
 */
int speed_unwitnessed_credit(int require, int ref_witnessed);

#endif /* SCORE_H */
