/*
 * witness_gate.h - when a witness holds the GPU, and how.
 *
 * A witnessed program's kernels must have the GPU to themselves: their
 * durations include anything another worker's kernels take from them,
 * and they would slow another worker's timed runs.  The rest of the run
 * needs no GPU alone, and in a class every other grader of the GPU waits
 * for it: ncu's start (0.6 s on an H200), the program's CUDA start and
 * ncu's first launch (about 1 s), its input and output (0.3 s a case at
 * 2^26 elements), its end and ncu's report (0.25 s).  So a witness holds
 * the GPU in steps (gpulock.h), with `grade --sandbox-exec --gate PATH`
 * (sandbox_exec.h) and the harness's window (common/witness_window.h):
 *   ncu's start           shared, like a correctness run;
 *   the program's start   first in line: the runs already in finish beside
 *                         it, no new run or speed test gets in;
 *   'r' .. the last 'd'   alone, from the first case's first launch to the
 *                         last case's timed launches' end;
 *   the rest              shared again, so that runs start beside it.
 * A program that never says 'r' or says 'd' too soon has its own kernels
 * timed beside the runs already in, never faster; no other speed test
 * ever runs beside it, since .turn is held from the program's start until
 * it shares the GPU again, and a speed test needs .turn.
 *
 * The gate is three FIFOs made afresh in the witness's folder before each
 * witnessed process, for the sandbox's user, the grader's ends opened
 * then, before any code of the student's has run: PATH.ready (sandbox_exec
 * says it is about to run the program), PATH.window (the program's 'r'
 * and 'd') and PATH.go (the grader's answers).  Only the first byte of a
 * process on PATH.ready moves the hold, and what earlier processes left
 * on PATH.window and PATH.go is dropped then (the program can open them
 * by name): no program is running at that point, so no byte of a
 * student's can give the GPU back while its kernels run.
 */
#ifndef WITNESS_GATE_H
#define WITNESS_GATE_H
#include <stddef.h>

#include "run.h"

/* The gate's PATH in the folder dir (for --gate), kept by the module. */
const char *witness_gate_path(const char *dir);

/* Make the gate's FIFOs for the sandbox's user uid/gid (-1: this one) and
 * open the grader's ends; process_cases: the cases of each witnessed
 * process (after the last one's timed launches the GPU is shared again);
 * NULL with why when it cannot be made. */
const run_gate *witness_gate_arm(int uid, int gid, int process_cases, char *why, size_t len);

/* Close and remove the gate, and give the GPU back if it was taken. */
void witness_gate_disarm(void);

#endif /* WITNESS_GATE_H */
