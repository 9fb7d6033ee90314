/*
 * regen.c - see regen.h.
 */
#include "regen.h"

#include <pthread.h>
#include <unistd.h>

#include "prng.h"
#include "tunables.h"

typedef struct {
    void *out;
    size_t from, to;
    dtype_t dtype;
    dist_t dist;
    uint64_t seed;
} slice;

static void *make_slice(void *arg)
{
    const slice *s = (const slice *)arg;
    gen_input_part(s->out, s->from, s->to, s->dtype, s->dist, s->seed);
    return NULL;
}

/* Threads for n elements: one per REGEN_MIN_PER_THREAD, at most the
 * cores online and REGEN_MAX_THREADS. */
static int threads_for(size_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = n / REGEN_MIN_PER_THREAD;
    if (cores < 1)
        cores = 1;
    if (want > (size_t)cores)
        want = (size_t)cores;
    if (want > REGEN_MAX_THREADS)
        want = REGEN_MAX_THREADS;
    return want < 1 ? 1 : (int)want;
}

void regen_input(void *out, size_t n, dtype_t dtype, dist_t dist, uint64_t seed)
{
    if (dtype == DT_INT64) { /* made in one pass (gen_input_part is for 4-byte types) */
        gen_input(out, n, dtype, dist, seed);
        return;
    }
    int k = threads_for(n), started = 0;
    pthread_t tid[REGEN_MAX_THREADS];
    slice part[REGEN_MAX_THREADS];
    for (int t = 0; t < k; t++)
        part[t] = (slice){out, n * t / k, n * (t + 1) / k, dtype, dist, seed};
    /* Slices 1 .. k-1 on threads, slice 0 here; a thread that cannot be
     * started is made here too, so the result never depends on threads. */
    for (int t = 1; t < k; t++) {
        if (pthread_create(&tid[t], NULL, make_slice, &part[t]) == 0)
            started |= 1 << t;
        else
            make_slice(&part[t]);
    }
    make_slice(&part[0]);
    for (int t = 1; t < k; t++)
        if (started & (1 << t))
            pthread_join(tid[t], NULL);
}
