/*
 * Lab 3 - Kogge-Stone scan of one section per block.
 *
 * An inclusive scan turns x0, x1, x2, ... into x0, x0+x1, x0+x1+x2, ...
 * Kogge-Stone computes it in log2(section) steps: after the step with
 * stride s, xy[t] holds the sum of the (up to) 2s elements ending at t.
 * Every thread works at every step, so the total work is about
 * n*log2(n) operations instead of the sequential n - 1: fast when the
 * hardware has threads to spare, wasteful otherwise (lab 4 fixes that).
 *
 * Each block scans its own SECTION of the input independently (lab 5 joins
 * the sections into a scan of the whole array).  Read handouts/lab3.md
 * first; `make lab3 && ./grade lab3` tells you how far you are.
 */
#include "cuda_check.h"
#include "kinds/section_scan.h"
#include "lab.h"
#include "ops.cuh"

/* One thread per element: the section is the block. */
#define SECTION 1024

/*
 * Scan in[b*SECTION ...] into out[b*SECTION ...] for block b, inclusive or
 * exclusive (out[i] combines the elements before i only).
 */
template <typename T, typename Op>
__global__ void kogge_stone_scan(const T *in, T *out, size_t n, int exclusive)
{
    __shared__ T xy[SECTION];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t i = (size_t)blockIdx.x * SECTION + t;

    /* TODO BEGIN 1: load.  Inclusive: xy[t] = in[i] (Op::identity() when
     * i >= n).  Exclusive, by a shifted load: xy[t] = in[i - 1], except
     * that thread 0 of the section (t == 0) loads the identity; the scan
     * below then produces the exclusive result directly. */
    if (exclusive)
        xy[t] = (t > 0 && i - 1 < n) ? in[i - 1] : Op::identity();
    else
        xy[t] = i < n ? in[i] : Op::identity();
    /* TODO END 1 */

    /* TODO BEGIN 2: the Kogge-Stone steps.  For stride = 1, 2, 4, ... while
     * stride < blockDim.x: threads t >= stride compute
     * op(xy[t - stride], xy[t]).  Two barriers per step: one before reading
     * (the previous step's writes must be done) and one between reading and
     * writing (nobody may overwrite xy[t - stride] before thread t has read
     * it).  Keep the value in a register between the two barriers. */
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        T sum = Op::identity();
        if (t >= stride)
            sum = op(xy[t - stride], xy[t]);
        __syncthreads();
        if (t >= stride)
            xy[t] = sum;
    }
    /* TODO END 2 */

    /* TODO BEGIN 3: store xy[t] to out[i] (only where i < n: the last
     * section may be partial). */
    if (i < n)
        out[i] = xy[t];
    /* TODO END 3 */
}

/* One block of SECTION threads per section; nothing to do for n = 0. */
template <typename T, typename Op> static int run_scan(const lab_problem *p)
{
    size_t sections = (p->n + SECTION - 1) / SECTION;
    if (sections > 0)
        kogge_stone_scan<T, Op><<<(unsigned int)sections, SECTION>>>(
            (const T *)p->in, (T *)p->out, p->n, p->exclusive);
    return cudaGetLastError();
}

static int scan(const lab_problem *p) { return KIT_DISPATCH(run_scan, p); }

/* What the harness checks: each section scanned on its own. */
static const section_scan_variant sections = {SECTION};

static const lab_variant variants[] = {
    {"kogge-stone", "section scans of 1024 elements, one thread each (TODO 1-3)",
     "section-scan", 0, "log2n", scan, &sections},
};

const lab_def LAB = {"lab3-scan-kogge-stone", "Kogge-Stone scan of one section per block",
                     variants, 1, 0};
