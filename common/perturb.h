/*
 * perturb.h - the changes a timed run makes to its input between calls,
 * shared by the harness (which makes them on the device) and the grader
 * (which replays them when it regenerates the input).
 *
 * Why: the timed calls of a speed or witness run used to see one input, so
 * run() could return the output of an earlier call (an output cache got 19
 * of 20 speed points for a kernel 14 times slower than the reference).
 * Now, before each call after the first, PERTURB_ELEMS elements of the
 * input are replaced, at positions and with values derived from (seed,
 * call) by the counter-based generator, and the LAST call's output is the
 * one judged.  To serve that call from a cache, run() would have to know
 * that the input is unchanged, that is compare the whole input each call:
 * for a reduction or a scan that reads every element once, as costly as the
 * work itself.  The values come from the case's own distribution, so float
 * error bounds and lab 7's kinds (predicates, tuples, orders) hold as for
 * any input; a decode's changes are made to its encoded words, the input
 * its kernel reads.  (A case of ones changes nothing: its values are all 1;
 * the speed tests use small integers.)
 */
#ifndef PERTURB_H
#define PERTURB_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Elements replaced before each timed call.  A protocol constant (the
 * harness and the grader must agree, like GUARD_ELEMS): 16 scattered
 * elements change nearly every scan's output after the first of them and
 * nearly every sum, for 16 small copies (about 0.1 ms) outside the timed
 * region of each call. */
#define PERTURB_ELEMS 16

/* Calls after the first whose input is changed: warmup + reps for a graded
 * run with reps > 1 (a speed or witness run), else 0 (correctness runs
 * keep one input, so their repeated launch still shows a race). */
int perturb_calls(int graded, int warmup, int reps);

/* Change j (0 .. PERTURB_ELEMS - 1) made before call `call` (1, 2, ...)
 * to an input of n elements: its element index, its value into value (the
 * element's bytes: 4, or 8 for int64).  n > 0. */
size_t perturb_change(size_t n, dtype_t dtype, dist_t dist, uint64_t seed, int call, int j,
                      void *value);

/* The input as the last of `calls` perturbed calls saw it: every change of
 * calls 1 .. calls applied in order to in (n elements, on the host). */
void perturb_host(void *in, size_t n, dtype_t dtype, dist_t dist, uint64_t seed, int calls);

#ifdef __cplusplus
}
#endif
#endif /* PERTURB_H */
