/*
 * Lab 5 - hierarchical scan of any length.
 *
 * A block can only scan its own section.  To scan n elements, scan every
 * section and write each section's total to an array S; scan S (the same
 * problem, 2048 times smaller: recursion); then add S[b - 1], the total of
 * all sections before b, to every element of section b.  Three kernels and
 * some host code, and the result is a scan of the whole array.  It moves
 * about 4n elements through memory (read and write in the section scan,
 * read and write again to add).
 *
 * Stage 2 (reduce-then-scan) reorders the same three steps to move 3n:
 * reduce each section to its total (read n), scan the totals, then scan
 * each section again with its prefix combined in (read n, write n).  Lab 6
 * gets down to 2n.
 *
 * The section scan here is the three-phase scan of lab 4 with the block
 * phase done by warp shuffles (given).  Read handouts/lab5.md first;
 * `make lab5 && ./grade lab5` tells you how far you are.
 */
#include "cuda_check.h"
#include "lab.h"
#include "ops.cuh"

/* Tuning: threads per block, elements per thread, elements per section. */
#ifndef BLOCK_THREADS
#define BLOCK_THREADS 256
#endif
#ifndef ITEMS
#define ITEMS 8
#endif
#define SECTION (BLOCK_THREADS * ITEMS)
#define WARPS (BLOCK_THREADS / 32)
#define FULL_MASK 0xffffffffu

/* Shared-memory index of section element j, padded by one word every 32 so
 * that thread t reading j = t * ITEMS + k hits 32 different banks. */
__device__ __forceinline__ unsigned int padded(unsigned int j) { return j + j / 32; }

/* Inclusive scan across the lanes of a warp: at offset d each lane combines
 * the value d lanes below it, as in Kogge-Stone but in registers. */
template <typename T, typename Op> __device__ T warp_scan(T v)
{
    const Op op;
    const unsigned int lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned int offset = 1; offset < 32; offset *= 2) {
        T below = __shfl_up_sync(FULL_MASK, v, offset);
        if (lane >= offset)
            v = op(below, v);
    }
    return v;
}

/* For each thread's value v: the combination of the values of all threads
 * before it in the block (exclusive), and in *total the whole block's. */
template <typename T, typename Op> __device__ T block_exclusive_scan(T v, T *total)
{
    __shared__ T warp_totals[WARPS];
    const Op op;
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T inclusive = warp_scan<T, Op>(v);
    if (lane == 31)
        warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        T w = lane < WARPS ? warp_totals[lane] : Op::identity();
        w = warp_scan<T, Op>(w);
        if (lane < WARPS)
            warp_totals[lane] = w;
    }
    __syncthreads();
    T before_lane = __shfl_up_sync(FULL_MASK, inclusive, 1);
    if (lane == 0)
        before_lane = Op::identity();
    T before_warp = warp == 0 ? Op::identity() : warp_totals[warp - 1];
    *total = warp_totals[WARPS - 1];
    return op(before_warp, before_lane);
}

/*
 * Kernel 1: scan section b of in into out (inclusive or exclusive), and
 * write the section's total to sums[b] when sums is not NULL.  With carry
 * not NULL (stage 2), carry[b - 1] is the combination of every section
 * before b, and it is combined into each result of section b > 0.
 */
template <typename T, typename Op>
__global__ void scan_sections(const T *in, T *out, T *sums, size_t n, int exclusive,
                              const T *carry)
{
    __shared__ T xy[SECTION + SECTION / 32];
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * SECTION;
    /* Read first, used last: the load's latency hides behind the section's. */
    const T section_prefix = carry && blockIdx.x > 0 ? carry[blockIdx.x - 1] : Op::identity();

    for (unsigned int k = 0; k < ITEMS; k++) { /* coalesced load */
        unsigned int j = k * BLOCK_THREADS + t;
        xy[padded(j)] = start + j < n ? in[start + j] : Op::identity();
    }
    __syncthreads();

    T v[ITEMS]; /* phase 1: this thread's chunk, scanned in registers */
    v[0] = xy[padded(t * ITEMS)];
#pragma unroll
    for (unsigned int k = 1; k < ITEMS; k++)
        v[k] = op(v[k - 1], xy[padded(t * ITEMS + k)]);

    T total; /* phase 2: the chunks before mine; phase 3: add them */
    T before = block_exclusive_scan<T, Op>(v[ITEMS - 1], &total);
    before = op(section_prefix, before);
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++)
        xy[padded(t * ITEMS + k)] = op(before, v[k]);
    __syncthreads();

    for (unsigned int k = 0; k < ITEMS; k++) { /* coalesced store, shifted if exclusive */
        unsigned int j = k * BLOCK_THREADS + t;
        if (start + j < n)
            out[start + j] = !exclusive ? xy[padded(j)]
                             : j > 0    ? xy[padded(j - 1)]
                                        : section_prefix;
    }

    /* TODO BEGIN 1: publish the section's total (`total`, the same in every
     * thread) to sums[blockIdx.x]: one thread writes it, and only when
     * sums != NULL (a single-section scan has no S). */
    if (t == 0 && sums)
        sums[blockIdx.x] = total;
    /* TODO END 1 */
}

/*
 * Kernel 3: block b handles section b + 1 (section 0 needs nothing added)
 * and combines sums[b] - the inclusive scan of the totals, i.e. everything
 * before section b + 1 - into each of its elements.
 */
template <typename T, typename Op> __global__ void add_section_prefix(T *out, const T *sums, size_t n)
{
    const Op op;
    const unsigned int t = threadIdx.x;

    /* TODO BEGIN 2: start = (blockIdx.x + 1) * SECTION; every thread reads
     * before = sums[blockIdx.x] and, for k = 0 .. ITEMS - 1, updates element
     * j = k * BLOCK_THREADS + t of the section (where start + j < n) to
     * op(before, out[start + j]).  Same coalesced pattern as the loads. */
    const size_t start = ((size_t)blockIdx.x + 1) * SECTION;
    const T before = sums[blockIdx.x];
    for (unsigned int k = 0; k < ITEMS; k++) {
        size_t i = start + k * BLOCK_THREADS + t;
        if (i < n)
            out[i] = op(before, out[i]);
    }
    /* TODO END 2 */
}

/*
 * Scan in[0..n) into out (which may be the same array), any n.  Why
 * recursion: S has ceil(n / SECTION) elements; when that is more than one
 * section, scanning S is the very same problem.
 */
template <typename T, typename Op> static void scan_any(const T *in, T *out, size_t n, int exclusive)
{
    const size_t sections = (n + SECTION - 1) / SECTION;
    if (sections == 0)
        return;

    /* TODO BEGIN 3: the host side.
     *  - one section: launch scan_sections<T, Op> with 1 block and sums = NULL;
     *  - otherwise: allocate S (sections elements) with cudaMallocAsync(&S,
     *    bytes, 0); launch scan_sections with `sections` blocks writing S;
     *    scan S in place, inclusively, by calling scan_any<T, Op>(S, S,
     *    sections, 0); launch add_section_prefix<T, Op> with sections - 1
     *    blocks; free S with cudaFreeAsync(S, 0).
     * Blocks have BLOCK_THREADS threads.  Check every CUDA call with
     * CUDA_CHECK.  (Stream-ordered allocation: no device-wide sync, unlike
     * cudaMalloc / cudaFree.) */
    T *sums = NULL;
    if (sections > 1)
        CUDA_CHECK(cudaMallocAsync((void **)&sums, sections * sizeof(T), 0));
    scan_sections<T, Op><<<(unsigned int)sections, BLOCK_THREADS>>>(in, out, sums, n, exclusive,
                                                                    NULL);
    CUDA_CHECK(cudaGetLastError());
    if (sections > 1) {
        scan_any<T, Op>(sums, sums, sections, 0);
        add_section_prefix<T, Op><<<(unsigned int)(sections - 1), BLOCK_THREADS>>>(out, sums, n);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaFreeAsync(sums, 0));
    }
    /* TODO END 3 */
}

/* ---- stage 2: reduce, then scan ------------------------------------------------ */

/* The combination of the values of all threads of the block, in every thread. */
template <typename T, typename Op> __device__ T block_reduce(T v)
{
    T total;
    block_exclusive_scan<T, Op>(v, &total);
    return total;
}

/*
 * Kernel 1 of stage 2: the total of section b into sums[b], and nothing
 * else: this pass reads the section and writes one element.
 */
template <typename T, typename Op> __global__ void reduce_sections(const T *in, T *sums, size_t n)
{
    const Op op;
    const unsigned int t = threadIdx.x;
    const size_t start = (size_t)blockIdx.x * SECTION;
    T mine = Op::identity();

    /* TODO BEGIN 4: combine this thread's elements j = k * BLOCK_THREADS +
     * t, k = 0 .. ITEMS - 1 (where start + j < n) into `mine`, coalesced as
     * in scan_sections; then total = block_reduce<T, Op>(mine) (every thread
     * calls it: it has barriers) and thread 0 writes sums[blockIdx.x]. */
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        size_t i = start + k * BLOCK_THREADS + t;
        if (i < n)
            mine = op(mine, in[i]);
    }
    const T total = block_reduce<T, Op>(mine);
    if (t == 0)
        sums[blockIdx.x] = total;
    /* TODO END 4 */
}

/*
 * Reduce-then-scan: the same answer as scan_any, 3n moved instead of 4n.
 * The sections' totals come first, from a pass that only reads; their scan
 * gives every section its prefix; the section scan then writes each result
 * once, final.
 */
template <typename T, typename Op>
static void reduce_then_scan(const T *in, T *out, size_t n, int exclusive)
{
    const size_t sections = (n + SECTION - 1) / SECTION;
    if (sections <= 1) { /* nothing to reduce: scan_any's one-section scan is the whole job */
        scan_any<T, Op>(in, out, n, exclusive);
        return;
    }

    /* TODO BEGIN 5: the host side of stage 2 (sections > 1): allocate S
     * (sections elements) with cudaMallocAsync; launch reduce_sections<T, Op>
     * with `sections` blocks writing S; scan S in place, inclusively, with
     * scan_any<T, Op>(S, S, sections, 0); launch scan_sections with
     * `sections` blocks, sums = NULL and carry = S (block b combines S[b - 1]
     * in); free S with cudaFreeAsync.  Check every CUDA call with CUDA_CHECK. */
    T *sums;
    CUDA_CHECK(cudaMallocAsync((void **)&sums, sections * sizeof(T), 0));
    reduce_sections<T, Op><<<(unsigned int)sections, BLOCK_THREADS>>>(in, sums, n);
    CUDA_CHECK(cudaGetLastError());
    scan_any<T, Op>(sums, sums, sections, 0);
    scan_sections<T, Op><<<(unsigned int)sections, BLOCK_THREADS>>>(in, out, NULL, n, exclusive,
                                                                    sums);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFreeAsync(sums, 0));
    /* TODO END 5 */
}

/* ---- the variants ----------------------------------------------------------------- */

template <typename T, typename Op> static int run_scan(const lab_problem *p)
{
    scan_any<T, Op>((const T *)p->in, (T *)p->out, p->n, p->exclusive);
    return cudaGetLastError();
}
template <typename T, typename Op> static int run_reduce_then_scan(const lab_problem *p)
{
    reduce_then_scan<T, Op>((const T *)p->in, (T *)p->out, p->n, p->exclusive);
    return cudaGetLastError();
}

static int scan(const lab_problem *p) { return KIT_DISPATCH(run_scan, p); }
static int rts(const lab_problem *p) { return KIT_DISPATCH(run_reduce_then_scan, p); }

static const lab_variant variants[] = {
    {"hierarchical", "scan of any n: sections, scan of totals (recursive), add (TODO 1-3)",
     KIND_SCAN, 0, 0, "2log2n+16", scan},
    {"reduce-then-scan", "stage 2: reduce sections, scan totals, rescan with prefix (TODO 4-5)",
     KIND_SCAN, 0, 0, "2log2n+16", rts},
};

const lab_def LAB = {"lab5-scan-hierarchical", "hierarchical scan of arbitrary length", variants,
                     2, 0};
