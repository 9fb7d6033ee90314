/*
 * regen.c - see regen.h.
 */
#include "regen.h"

#include "host_par.h"
#include "prng.h"

typedef struct {
    void *out;
    dtype_t dtype;
    dist_t dist;
    uint64_t seed;
} input_spec;

static void make_part(size_t from, size_t to, int slice, void *ctx)
{
    (void)slice;
    const input_spec *s = (const input_spec *)ctx;
    gen_input_part(s->out, from, to, s->dtype, s->dist, s->seed);
}

void regen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed)
{
    input_spec s = {out, dtype, dist, seed};
    host_parallel(n, make_part, &s);
}
