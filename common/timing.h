/*
 * timing.h - GPU timing with CUDA events: warm-up, then one event pair per
 * repetition, summarised as median and minimum milliseconds.
 */
#ifndef TIMING_H
#define TIMING_H

#include <stddef.h>

typedef struct {
    double median_ms;
    double min_ms;
    int reps;
} timing;

/* Time fn(arg) `reps` times after `warmup` untimed calls.  fn enqueues work
 * on the default stream; every CUDA call is checked. */
timing time_runs(void (*fn)(void *), void *arg, int warmup, int reps);

/* The same with prep(arg, call) before each call, outside the timed region
 * (call 1 .. warmup + reps: the timed run's input changes, perturb.h). */
timing time_runs_prep(void (*fn)(void *), void (*prep)(void *, int), void *arg, int warmup,
                      int reps);

/* Time a device-to-device copy of `bytes` bytes (so 2*bytes are moved). */
timing time_copy(size_t bytes, int warmup, int reps);

#endif /* TIMING_H */
