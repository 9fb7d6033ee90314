/*
 * prng.h - the kit's one pseudo-random generator and the input arrays made
 * from it.  Counter-based: element i depends only on (seed, i), so the
 * harness and the grader regenerate identical inputs independently, and
 * any element can be recomputed without the ones before it.
 */
#ifndef PRNG_H
#define PRNG_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 64 well-mixed bits for position `index` of stream `seed` (SplitMix64 finaliser). */
uint64_t prng_u64(uint64_t seed, uint64_t index);

/* Uniform integer in [lo, hi] (inclusive), for position `index`. */
int32_t prng_range(uint64_t seed, uint64_t index, int32_t lo, int32_t hi);

/*
 * Fill `out` (n elements of `dtype`) with distribution `dist` from `seed`.
 * The bytes written are the same on every machine.
 */
void gen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed);

/* Elements from .. to - 1 of the same array, into out[from .. to) (of
 * dtype's elements): the generator is counter-based, so parts can be made
 * in parallel (regen.h). */
void gen_input_part(void *out, size_t from, size_t to, dtype_t dtype, dist_t dist, uint64_t seed);

/* Element i alone, its bytes (4, or 8 for int64) into dst: what
 * gen_input writes at out[i]. */
void gen_element(void *dst, uint64_t i, dtype_t dtype, dist_t dist, uint64_t seed);

#ifdef __cplusplus
}
#endif
#endif /* PRNG_H */
