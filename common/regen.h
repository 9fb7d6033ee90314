/*
 * regen.h - a case's input made with every core (host_par.h): the
 * grader's copy, to check an output against, and a witnessed run's
 * input, made on the host because such a run launches no kernel of the
 * harness's own (harness.cu).  The generator is counter-based (prng.h),
 * so each thread makes its own slice and the bytes are those of gen_input.
 */
#ifndef REGEN_H
#define REGEN_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* gen_input(out, n, ...), split across the cores when n is large enough
 * to pay for threads. */
void regen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif /* REGEN_H */
