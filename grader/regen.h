/*
 * regen.h - the grader's copy of a case's input, made with every core.
 * At 2^28 elements one core took about a second (the harness makes its
 * copy on the GPU); the generator is counter-based (prng.h), so each
 * thread makes its own slice and the bytes are those of gen_input.
 */
#ifndef REGEN_H
#define REGEN_H

#include "kit.h"

/* gen_input(out, n, ...), split over up to REGEN_MAX_THREADS threads when
 * n is large enough to pay for them (tunables.h). */
void regen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed);

#endif /* REGEN_H */
