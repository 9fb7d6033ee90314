/*
 * emu_pace.h - how long a run takes on the CPU emulator, so that a size
 * it cannot do in time gets "this size is slow on the emulator" instead
 * of a TIMEOUT that blames the kernel.  Plain C: the harness calls it only
 * when built for the emulator.
 */
#ifndef EMU_PACE_H
#define EMU_PACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The emulator's fastest pace, per element and launch: lab 6's solution
 * (many elements per thread, the fewest barriers) took about 150 ns an
 * element on a 2-core machine (2^20 elements, 3 launches in 0.5 s); lab 3's
 * about 1000 ns.  A machine with 8 times the cores is assumed at most 8
 * times faster: an estimate from this floor never refuses a run that could
 * finish. */
#define EMU_FLOOR_NS_PER_ELEMENT 20.0

/* Seconds `launches` launches over n elements take at least. */
double emu_pace_floor_s(size_t n, int launches);

/* The advice for a run estimated at est_s seconds, more than timeout_s:
 * what is slow and what to do instead, one line into out. */
void emu_pace_advice(double est_s, double timeout_s, size_t n, const char *what, char *out,
                     size_t len);

#ifdef __cplusplus
}
#endif
#endif /* EMU_PACE_H */
