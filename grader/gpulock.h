/*
 * gpulock.h - fair timing when several graders share one GPU (a batch with
 * more workers than GPUs).  Correctness runs may overlap each other; a
 * speed test must have the GPU to itself.  So: a readers-writer lock per
 * GPU, shared for a correctness run, exclusive for a speed test, with
 * writers first (a speed test waits for the runs already going, and no new
 * one starts meanwhile), built from two flock(2) files that the batch
 * driver names in GRADE_GPU_LOCK.  Without GRADE_GPU_LOCK every call does
 * nothing.  A process that dies holds nothing: the kernel drops its locks.
 */
#ifndef GPULOCK_H
#define GPULOCK_H

/* Take the GPU shared (a correctness run) or exclusive (a speed test);
 * 0, or -1 when the lock files cannot be used (then nothing is held and
 * the caller goes on unlocked). */
int gpu_lock_shared(void);
int gpu_lock_exclusive(void);
/*
 * A witnessed program (witness_gate.h) is timed only part of its run: the
 * rest (the GPU's start, its input, its output, ncu's report) needs the
 * GPU no more than a correctness run does.  So the witness takes the GPU
 * in three steps, none of which lets another speed test in beside a
 * program's kernels:
 *   gpu_lock_next      first in line: .turn held (no new run, no other
 *                      speed test), the GPU shared with the runs already
 *                      in, which finish meanwhile;
 *   gpu_lock_upgrade   from there, alone once those runs are done;
 *   gpu_lock_downgrade from alone, shared again: .turn given back, so
 *                      runs start beside the program's last steps; a
 *                      speed test waits for the program's end.
 * Each returns 0, or -1: the wrong step (nothing changes), or flock
 * failed, and then .turn is still held, so nothing starts beside the
 * program until gpu_unlock.  The two conversions are safe only because .turn is held
 * through them: no other writer can take the GPU in between.
 */
int gpu_lock_next(void);
int gpu_lock_upgrade(void);
int gpu_lock_downgrade(void);

/* Give back what gpu_lock_* took. */
void gpu_unlock(void);

/* What this process holds now: GPU_HELD_NONE (also without lock files),
 * GPU_HELD_SHARED, GPU_HELD_NEXT (gpu_lock_next) or GPU_HELD_EXCLUSIVE. */
enum { GPU_HELD_NONE, GPU_HELD_SHARED, GPU_HELD_NEXT, GPU_HELD_EXCLUSIVE };
int gpu_lock_held(void);

/* This process's seconds spent waiting for the GPU held alone (or first
 * in line), holding it alone, and keeping it from other graders' new runs
 * (.turn held: alone, or first in line), since it started (the batch's
 * account of a class: time in the speed phases is mostly waiting when
 * workers share a GPU). */
void gpu_lock_times(double *waited, double *alone, double *kept);

#endif /* GPULOCK_H */
