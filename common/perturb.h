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
 * set) by the counter-based generator, the previous call's changes undone
 * first: call c of a run sees the input with set c, and its last call with
 * set 0 (perturb_set), whose output is the one judged.  Consecutive calls
 * always differ, and the judged input is the same however many calls a run
 * made, so a speed run and the witness's run of one case are judged against
 * one expected output, checked on the host once.  To serve that call from a cache, run() would have to know
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

/* What a timed run's input is: its elements, and for a compaction
 * (keep >= 0, a pred_t) the predicate every change must keep: a changed
 * element is kept exactly when the one it replaces was, so the count and
 * the kept positions stay those of the first call, and out[count..n)
 * stays unwritten as the checker requires. */
typedef struct {
    size_t n;
    dtype_t dtype;
    dist_t dist;
    uint64_t seed;
    int keep;
} perturb_input;

/* The set of changes call `call` (1 .. calls) of a timed run sees: its own
 * number, but the last call's is set 0, whatever the number of calls. */
int perturb_set(int call, int calls);

/* Where change j (0 .. PERTURB_ELEMS - 1) of set `set` goes: an element
 * index below n (n > 0). */
size_t perturb_where(const perturb_input *p, int set, int j);

/* Its value, into value (4 bytes, or 8 for int64), given the element it
 * replaces (`current`, for a compaction's predicate).  0 when it changes
 * nothing (no value of the distribution keeps the predicate). */
int perturb_value(const perturb_input *p, int set, int j, const void *current, void *value);

/* The input as the last of `calls` perturbed calls saw it (when calls > 0:
 * set 0's changes applied in order to in, on the host). */
void perturb_host(void *in, const perturb_input *p, int calls);

#ifdef __cplusplus
}
#endif
#endif /* PERTURB_H */
