/*
 * Lab 4 - Brent-Kung scan (work-efficient), then the coarsened three-phase
 * scan.
 *
 * Brent-Kung scans a section of 2*blockDim elements in two sweeps of a
 * balanced tree: a reduction tree that leaves partial sums at the
 * positions 2s*(t+1) - 1, then a distribution tree that pushes those sums
 * down to the positions still missing them.  About 2n operations in total,
 * like the sequential scan's n, at the price of 2*log2(n) steps.
 *
 * The three-phase scan adds thread coarsening: each thread first scans a
 * contiguous chunk of COARSEN elements sequentially, the block then scans
 * the chunk totals, and each thread adds its predecessor's total to its
 * chunk.  Most of the work becomes cheap sequential work in registers and
 * shared memory, and a section is much larger than the block.
 *
 * Read handouts/lab4.md first; `make lab4 && ./grade lab4` tells you how
 * far you are.
 */
#include "cuda_check.h"
#include "kinds/section_scan.h"
#include "lab.h"
#include "ops.cuh"

/* Brent-Kung: threads per block, and the section (two elements each). */
#define BLOCK_THREADS 512
#define SECTION (2 * BLOCK_THREADS)

/* Three-phase: threads per block, elements per thread, their product. */
#define CHUNK_THREADS 256
#define COARSEN 8
#define CHUNK_SECTION (CHUNK_THREADS * COARSEN)

/*
 * Store a section scanned inclusively in xy[0..len) to out[start ...]:
 * element j goes out as xy[j], or for an exclusive scan as xy[j - 1] (the
 * identity for j = 0).  A shifted store is the other way to an exclusive
 * scan (lab 3 shifted the load).
 */
template <typename T, typename Op>
__device__ void store_section(const T *xy, T *out, size_t start, unsigned int j, size_t n,
                              int exclusive)
{
    if (start + j < n)
        out[start + j] = !exclusive ? xy[j] : j > 0 ? xy[j - 1] : Op::identity();
}

/* Brent-Kung scan of block b's SECTION elements. */
template <typename T, typename Op>
__global__ void brent_kung_scan(const T *in, T *out, size_t n, int exclusive)
{
    __shared__ T xy[SECTION];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * SECTION;

    /* TODO BEGIN 1: load.  Each thread loads two elements, t and
     * t + blockDim.x of the section (coalesced), Op::identity() past n. */
    xy[t] = start + t < n ? in[start + t] : Op::identity();
    xy[t + blockDim.x] =
        start + t + blockDim.x < n ? in[start + t + blockDim.x] : Op::identity();
    /* TODO END 1 */

    /* TODO BEGIN 2: the reduction tree.  For stride = 1, 2, 4, ... up to
     * blockDim.x: __syncthreads(); then index = (t + 1) * 2 * stride - 1; if
     * index < SECTION, xy[index] = op(xy[index - stride], xy[index]).  The
     * active threads are t = 0, 1, 2, ...: contiguous, so warps retire
     * whole. */
    for (unsigned int stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        unsigned int index = (t + 1) * 2 * stride - 1;
        if (index < SECTION)
            xy[index] = op(xy[index - stride], xy[index]);
    }
    /* TODO END 2 */

    /* TODO BEGIN 3: the distribution tree.  For stride = SECTION / 4, then
     * half of it each step, down to 1: __syncthreads(); index = (t + 1) * 2 *
     * stride - 1; if index + stride < SECTION, xy[index + stride] =
     * op(xy[index], xy[index + stride]).  Then one more __syncthreads(), and
     * store the thread's two elements, t and t + blockDim.x, with
     * store_section<T, Op>(xy, out, start, j, n, exclusive). */
    for (unsigned int stride = SECTION / 4; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned int index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION)
            xy[index + stride] = op(xy[index], xy[index + stride]);
    }
    __syncthreads();
    store_section<T, Op>(xy, out, start, t, n, exclusive);
    store_section<T, Op>(xy, out, start, t + blockDim.x, n, exclusive);
    /* TODO END 3 */
}

/*
 * Kogge-Stone over blockDim.x values, one per thread (lab 3), used by the
 * three-phase scan for the chunk totals: thread t contributes `mine`, and
 * afterwards vals[t] holds the inclusive scan up to t for every thread.
 */
template <typename T, typename Op> __device__ void block_scan(T *vals, T mine)
{
    const Op op;
    const unsigned int t = threadIdx.x;
    vals[t] = mine;
    for (unsigned int stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        T sum = t >= stride ? op(vals[t - stride], vals[t]) : vals[t];
        __syncthreads();
        vals[t] = sum;
    }
    __syncthreads();
}

/* Three-phase scan of block b's CHUNK_SECTION elements. */
template <typename T, typename Op>
__global__ void three_phase_scan(const T *in, T *out, size_t n, int exclusive)
{
    __shared__ T xy[CHUNK_SECTION];
    __shared__ T totals[CHUNK_THREADS];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * CHUNK_SECTION;

    /* Load the section coalesced: in trip k, thread t reads element
     * k * blockDim.x + t, so a warp reads 32 consecutive elements. */
    for (unsigned int k = 0; k < COARSEN; k++) {
        unsigned int j = k * blockDim.x + t;
        xy[j] = start + j < n ? in[start + j] : Op::identity();
    }
    __syncthreads();

    /* TODO BEGIN 4: phase 1.  Thread t owns the chunk xy[t * COARSEN ...
     * t * COARSEN + COARSEN - 1] and scans it sequentially in place (each
     * element becomes op(previous, element)). */
    T *chunk = xy + t * COARSEN;
    for (unsigned int k = 1; k < COARSEN; k++)
        chunk[k] = op(chunk[k - 1], chunk[k]);
    /* TODO END 4 */

    /* TODO BEGIN 5: phase 2.  Scan the chunk totals (the last element of
     * each chunk) across the block: block_scan<T, Op>(totals, total of my
     * chunk).  Phase 3: every thread but the first combines the total of
     * the chunks before it (totals[t - 1]) into each element of its chunk.
     * Then __syncthreads() and store the section coalesced, as it was
     * loaded: store_section<T, Op>(xy, out, start, k * blockDim.x + t, n,
     * exclusive) for k = 0 .. COARSEN - 1. */
    block_scan<T, Op>(totals, chunk[COARSEN - 1]);
    if (t > 0) {
        T before = totals[t - 1];
        for (unsigned int k = 0; k < COARSEN; k++)
            chunk[k] = op(before, chunk[k]);
    }
    __syncthreads();
    for (unsigned int k = 0; k < COARSEN; k++)
        store_section<T, Op>(xy, out, start, k * blockDim.x + t, n, exclusive);
    /* TODO END 5 */
}

template <typename T, typename Op> static int run_brent_kung(const lab_problem *p)
{
    size_t sections = (p->n + SECTION - 1) / SECTION;
    if (sections > 0)
        brent_kung_scan<T, Op><<<(unsigned int)sections, BLOCK_THREADS>>>(
            (const T *)p->in, (T *)p->out, p->n, p->exclusive);
    return cudaGetLastError();
}

template <typename T, typename Op> static int run_three_phase(const lab_problem *p)
{
    size_t sections = (p->n + CHUNK_SECTION - 1) / CHUNK_SECTION;
    if (sections > 0)
        three_phase_scan<T, Op><<<(unsigned int)sections, CHUNK_THREADS>>>(
            (const T *)p->in, (T *)p->out, p->n, p->exclusive);
    return cudaGetLastError();
}

static int brent_kung(const lab_problem *p) { return KIT_DISPATCH(run_brent_kung, p); }
static int three_phase(const lab_problem *p) { return KIT_DISPATCH(run_three_phase, p); }

/* What the harness checks: each section scanned on its own. */
static const section_scan_variant sections = {SECTION}, chunk_sections = {CHUNK_SECTION};

static const lab_variant variants[] = {
    {"brent-kung", "work-efficient section scan of 2*512 elements (TODO 1-3)", "section-scan", 0,
     "2log2n+1", brent_kung, &sections},
    {"three-phase", "coarsened: 256 threads x 8 elements per section (TODO 4-5)",
     "section-scan", 0, "log2n+8", three_phase, &chunk_sections},
};

const lab_def LAB = {"lab4-scan-brent-kung", "Brent-Kung scan, then the three-phase coarsened scan",
                     variants, 2, 0};
