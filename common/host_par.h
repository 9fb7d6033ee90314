/*
 * host_par.h - a loop over [0, n) split across the host's cores, for the
 * host-side work that grows with a case's size: the grader's copy of an
 * input (regen.h), a witnessed run's input, a delta code's passes
 * (reference.c: a witnessed decode's encoding, the grader's check).
 * At 2^26 elements one core spent 0.4-0.6 s making a witnessed case's
 * input and 1.2-1.4 s making and encoding an order-8 one (H200,
 * tests/gpu/device-witness-steps.sh), inside the grader's hold of the GPU.
 */
#ifndef HOST_PAR_H
#define HOST_PAR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One thread per this many elements (below it a thread costs more than it
 * saves), at most the cores online and HOST_PAR_MAX_THREADS (at 2^28 one
 * core took about a second to make an input; 16 share that well). */
#define HOST_PAR_MIN_PER_THREAD ((size_t)1 << 22)
#define HOST_PAR_MAX_THREADS 16

/* The work on elements [from, to), slice number `slice`: it must write
 * only there (or in its slice's own entry of ctx), so that the slices may
 * run at once. */
typedef void (*host_part_fn)(size_t from, size_t to, int slice, void *ctx);

/* How many slices host_parallel cuts n elements into (1 to
 * HOST_PAR_MAX_THREADS): slice t is [n t / k, n (t + 1) / k). */
int host_slices(size_t n);

/* fn over [0, n) in host_slices(n) slices, the first on this thread and
 * the rest on threads of their own; a thread that cannot be started has
 * its slice made here, so the result never depends on the threads. */
void host_parallel(size_t n, host_part_fn fn, void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* HOST_PAR_H */
