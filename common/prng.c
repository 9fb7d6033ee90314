/*
 * prng.c - counter-based generator: hash (seed, index) instead of stepping
 * a state, so regeneration in another process never depends on call order.
 */
#include "prng.h"

#include <string.h>

/* SplitMix64's finaliser: a bijection on 64 bits with good avalanche. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t prng_u64(uint64_t seed, uint64_t index)
{
    /* Hash the seed first so seeds 1 and 2 do not give shifted streams. */
    return mix64(mix64(seed + 0x9e3779b97f4a7c15ULL) + index * 0x9e3779b97f4a7c15ULL);
}

int32_t prng_range(uint64_t seed, uint64_t index, int32_t lo, int32_t hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    /* Multiply-shift keeps the bias below 2^-32 for the small spans used here. */
    uint64_t r = ((prng_u64(seed, index) >> 32) * span) >> 32;
    return (int32_t)((int64_t)lo + (int64_t)r);
}

/* Element i of an int64 array (lab 7): ones, [-8, 8] as for int32, or all
 * 2^64 values (wide). */
static int64_t elem_int64(dist_t dist, uint64_t seed, uint64_t i)
{
    uint64_t u = prng_u64(seed, i);
    int64_t v;
    if (dist == DIST_ONES)
        return 1;
    if (dist == DIST_SMALL)
        return prng_range(seed, i, -8, 8);
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Element i of an int32 or float32 array, as its 32 bits. */
static uint32_t elem_word(dtype_t dtype, dist_t dist, uint64_t seed, uint64_t i)
{
    uint32_t w;
    float f;
    if (dist == DIST_ONES) {
        f = 1.0f;
        if (dtype == DT_INT32)
            return 1;
    } else if (dist == DIST_SMALL) {
        int32_t v = prng_range(seed, i, -8, 8);
        if (dtype == DT_INT32)
            return (uint32_t)v;
        f = (float)v;
    } else if (dtype == DT_INT32) { /* DIST_WIDE, int32: all 2^32 values */
        return (uint32_t)(prng_u64(seed, i) >> 32);
    } else { /* DIST_WIDE, float32: uniform in [-0.25, 1), not integers */
        /* Mostly positive on purpose: sums then grow like n, so an answer
         * that is far off (0, or half the sum) cannot hide inside the
         * error bound, which scales with sum |x|. */
        uint64_t k = prng_u64(seed, i) >> 40; /* 24 random bits */
        f = (float)((double)k * 0x1p-24 * 1.25 - 0.25);
    }
    memcpy(&w, &f, sizeof w);
    return w;
}

void gen_element(void *dst, uint64_t i, dtype_t dtype, dist_t dist, uint64_t seed)
{
    if (dtype == DT_INT64) {
        int64_t v = elem_int64(dist, seed, i);
        memcpy(dst, &v, sizeof v);
    } else {
        uint32_t w = elem_word(dtype, dist, seed, i);
        memcpy(dst, &w, sizeof w);
    }
}

void gen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed)
{
    gen_input_part(out, 0, n, dtype, dist, seed);
}

void gen_input_part(void *out, size_t from, size_t to, dtype_t dtype, dist_t dist, uint64_t seed)
{
    if (dtype == DT_INT64) {
        int64_t *o64 = (int64_t *)out;
        for (size_t i = from; i < to; i++)
            o64[i] = elem_int64(dist, seed, i);
        return;
    }
    uint32_t *w = (uint32_t *)out;
    for (size_t i = from; i < to; i++)
        w[i] = elem_word(dtype, dist, seed, i);
}
