/*
 * witness_gate.h - when a witness holds the GPU alone.
 *
 * A witnessed run must have the GPU to itself from the first instruction
 * of the student's program to its end: its kernels' durations include
 * anything another worker's kernels take from them, and its kernels
 * would slow another worker's timed runs.  ncu's own start (0.6 s on an
 * H200) comes before that and needs no GPU, so the witness starts ncu
 * with `grade --sandbox-exec --gate PATH` (sandbox_exec.h), which waits
 * just before it runs the program; the grader takes the GPU alone
 * (gpulock.h) when it says so, and lets it through (run.h's run_gate).
 * Until then it holds the GPU shared, as a correctness run does: in a
 * batch ncu starts beside the other workers' correctness runs, and never
 * beside a program that is being timed.
 *
 * The gate is two FIFOs, PATH.ready and PATH.go, made afresh in the
 * witness's folder before each witnessed process, for the sandbox's
 * user, and the grader's ends are opened then, before any code of the
 * student's has run; the grader writes to PATH.go only once it holds the
 * GPU alone, so no byte a student's run leaves on PATH.ready (a process
 * run again within the same hold) can let a program through unheld.
 */
#ifndef WITNESS_GATE_H
#define WITNESS_GATE_H
#include <stddef.h>

#include "run.h"

/* The gate's PATH in the folder dir (for --gate), kept by the module. */
const char *witness_gate_path(const char *dir);

/* Make the gate's FIFOs for the sandbox's user uid/gid (-1: this one) and
 * open its ready end; NULL with why when it cannot be made. */
const run_gate *witness_gate_arm(int uid, int gid, char *why, size_t len);

/* Close and remove the gate, and give the GPU back if it was taken. */
void witness_gate_disarm(void);

#endif /* WITNESS_GATE_H */
