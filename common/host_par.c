/*
 * host_par.c - see host_par.h.
 */
#include "host_par.h"

#include <pthread.h>
#include <unistd.h>

typedef struct {
    host_part_fn fn;
    void *ctx;
    size_t from, to;
    int index;
} slice;

static void *run_slice(void *arg)
{
    const slice *s = (const slice *)arg;
    s->fn(s->from, s->to, s->index, s->ctx);
    return NULL;
}

/* One slice per HOST_PAR_MIN_PER_THREAD elements, at most the cores
 * online and HOST_PAR_MAX_THREADS. */
int host_slices(size_t n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    size_t want = n / HOST_PAR_MIN_PER_THREAD;
    if (cores < 1)
        cores = 1;
    if (want > (size_t)cores)
        want = (size_t)cores;
    if (want > HOST_PAR_MAX_THREADS)
        want = HOST_PAR_MAX_THREADS;
    return want < 1 ? 1 : (int)want;
}

void host_parallel(size_t n, host_part_fn fn, void *ctx)
{
    int k = host_slices(n), started = 0;
    pthread_t tid[HOST_PAR_MAX_THREADS];
    slice part[HOST_PAR_MAX_THREADS];
    for (int t = 0; t < k; t++)
        part[t] = (slice){fn, ctx, n * (size_t)t / (size_t)k, n * (size_t)(t + 1) / (size_t)k, t};
    for (int t = 1; t < k; t++) {
        if (pthread_create(&tid[t], NULL, run_slice, &part[t]) == 0)
            started |= 1 << t;
        else
            run_slice(&part[t]);
    }
    run_slice(&part[0]);
    for (int t = 1; t < k; t++)
        if (started & (1 << t))
            pthread_join(tid[t], NULL);
}
