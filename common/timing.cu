/*
 * timing.cu - CUDA events measure GPU time between two points of the
 * stream, so host overhead and launch latency outside the pair stay out.
 * A copy of the same bytes, timed the same way in the same process, is the
 * yardstick every figure is quoted against ("fraction of copy bandwidth").
 */
#include "timing.h"

#include <stdlib.h>

#include "buffers.h"
#include "cuda_check.h"
#include "stats.h"

timing time_runs(void (*fn)(void *), void *arg, int warmup, int reps)
{
    return time_runs_prep(fn, NULL, arg, warmup, reps);
}

timing time_runs_prep(void (*fn)(void *), void (*prep)(void *, int), void *arg, int warmup,
                      int reps)
{
    timing t = {0, 0, reps};
    double *ms = (double *)host_alloc((reps > 0 ? (size_t)reps : 1) * sizeof *ms);
    cudaEvent_t start, stop;

    for (int i = 0; i < warmup; i++) {
        if (prep)
            prep(arg, 1 + i);
        fn(arg);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    for (int i = 0; i < reps; i++) {
        float elapsed;
        if (prep) /* before the start event: not timed */
            prep(arg, 1 + warmup + i);
        CUDA_CHECK(cudaEventRecord(start, 0));
        fn(arg);
        CUDA_CHECK(cudaEventRecord(stop, 0));
        CUDA_CHECK(cudaEventSynchronize(stop));
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventElapsedTime(&elapsed, start, stop));
        ms[i] = elapsed;
    }
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    t.min_ms = stats_min(ms, (size_t)reps);
    t.median_ms = stats_median(ms, (size_t)reps);
    free(ms);
    return t;
}

typedef struct {
    void *dst;
    const void *src;
    size_t bytes;
} copy_job;

static void run_copy(void *arg)
{
    copy_job *job = (copy_job *)arg;
    CUDA_CHECK(cudaMemcpyAsync(job->dst, job->src, job->bytes, cudaMemcpyDeviceToDevice, 0));
}

timing time_copy(size_t bytes, int warmup, int reps)
{
    copy_job job = {NULL, NULL, bytes ? bytes : 4};
    void *src;
    CUDA_CHECK(cudaMalloc(&src, job.bytes));
    CUDA_CHECK(cudaMalloc(&job.dst, job.bytes));
    CUDA_CHECK(cudaMemset(src, 0x5a, job.bytes));
    job.src = src;
    timing t = time_runs(run_copy, &job, warmup, reps);
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(job.dst));
    return t;
}
