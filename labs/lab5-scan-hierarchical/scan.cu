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
 * The section scan here is lab 4's three-phase scan with every warp's
 * part of the section kept in registers (given, common/warp_tile.cuh).
 * Read handouts/lab5.md first; `make lab5 && ./grade lab5` tells you how
 * far you are.
 */
#include <stdint.h>

#include "cuda_check.h"
#include "lab.h"
#include "ops.cuh"
#include "warp_tile.cuh"

/*
 * Tuning shape: threads per block and rows per thread; everything else is
 * derived.  A thread holds ROWS rows of VEC (4) consecutive elements in
 * registers (common/warp_tile.cuh), so a section is BLOCK_THREADS * ROWS *
 * 4 elements.  Measured choices: docs/perf-notes.md, lab 5.
 */
#ifndef BLOCK_THREADS
#define BLOCK_THREADS 256
#endif
#ifndef ROWS
#define ROWS 2
#endif
#define ITEMS (ROWS * VEC) /* elements per thread: 8 */
#define SECTION (BLOCK_THREADS * ITEMS)
#define WARPS (BLOCK_THREADS / 32)
#define WARP_ITEMS (32 * ITEMS) /* one warp's slice of a section */

/*
 * Kernel 1: scan section b of in into out (inclusive or exclusive), and
 * write the section's total to sums[b] when sums is not NULL.  With carry
 * not NULL (stage 2), carry[b - 1] is the combination of every section
 * before b, and it is combined into each result of section b > 0.
 *
 * Lab 4's three phases, with each warp's slice kept in registers
 * (warp_tile.cuh): phase 1 scans each lane's rows and each row across the
 * warp; phase 2 combines the slices' totals in shared memory; phase 3
 * stores every element with everything before it combined in.  Each warp
 * loads its whole slice before it stores any of it, so in == out is safe.
 */
template <typename T, typename Op>
__global__ void __launch_bounds__(BLOCK_THREADS)
    scan_sections(const T *in, T *out, T *sums, size_t n, int exclusive, const T *carry)
{
    __shared__ T warp_totals[WARPS];
    const Op op;
    const unsigned int t = threadIdx.x, warp = t / 32;
    /* Read first, used last: the load's latency hides behind the section's. */
    const T section_prefix = carry && blockIdx.x > 0 ? carry[blockIdx.x - 1] : Op::identity();

    /* This warp's slice: where it starts, how much of it exists. */
    const size_t first = (size_t)blockIdx.x * SECTION + (size_t)warp * WARP_ITEMS;
    const size_t left = first < n ? n - first : 0;
    /* Whole 16-byte rows need 16-byte aligned arrays (cudaMalloc gives 256). */
    const bool aligned = (((uintptr_t)in | (uintptr_t)out) % 16) == 0;
    const bool vector = aligned && left >= WARP_ITEMS;

    T x[ITEMS], row_before[ROWS]; /* phase 1 */
    load_slice<T, Op, ROWS>(x, in + first, left, vector);
    const T slice_total = scan_slice<T, Op, ROWS>(x, row_before);
    if (t % 32 == 0)
        warp_totals[warp] = slice_total;
    __syncthreads();

    T before = section_prefix, total = Op::identity(); /* phase 2 */
    for (unsigned int w = 0; w < WARPS; w++) {
        if (w == warp)
            before = op(before, total);
        total = op(total, warp_totals[w]);
    }
    store_slice<T, Op, ROWS>(out + first, left, vector, x, row_before, before, exclusive);

    /* TODO BEGIN 1: publish the section's total (`total`, the same in every
     * thread) to sums[blockIdx.x]: one thread writes it, and only when
     * sums != NULL (a single-section scan has no S). */
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
     * op(before, out[start + j]).  Coalesced: in each trip the block
     * touches BLOCK_THREADS consecutive elements. */
    /* TODO END 2 */
}

/*
 * Scan in[0..n) into out (which may be the same array), any n.  Why
 * recursion: S has ceil(n / SECTION) elements; when that is more than one
 * section, scanning S is the very same problem.
 */
template <typename T, typename Op>
static cudaError_t scan_any(const T *in, T *out, size_t n, int exclusive)
{
    const size_t sections = (n + SECTION - 1) / SECTION;
    if (sections == 0)
        return cudaSuccess;

    /* TODO BEGIN 3: the host side.
     *  - one section: launch scan_sections<T, Op> with 1 block and sums = NULL;
     *  - otherwise: allocate S (sections elements) with cudaMallocAsync(&S,
     *    bytes, 0); launch scan_sections with `sections` blocks writing S;
     *    scan S in place, inclusively, by calling scan_any<T, Op>(S, S,
     *    sections, 0); launch add_section_prefix<T, Op> with sections - 1
     *    blocks; free S with cudaFreeAsync(S, 0).
     * Blocks have BLOCK_THREADS threads.  Check every CUDA call, every
     * launch (CUDA_TRY(cudaGetLastError())) and the recursive call with
     * CUDA_TRY: it returns a failed call's error to the caller.
     * (Stream-ordered allocation: no device-wide sync, unlike cudaMalloc /
     * cudaFree.) */
    /* TODO END 3 */
    return cudaSuccess;
}

/* ---- stage 2: reduce, then scan ------------------------------------------------ */

/* The combination of v over all threads of the block, in every thread:
 * each warp halves its values with shuffles (offsets 16, 8, .., 1: lab 2's
 * tree in registers), then every thread combines the warp totals. */
template <typename T, typename Op> __device__ T block_reduce(T v)
{
    __shared__ T warp_totals[WARPS];
    const Op op;
#pragma unroll
    for (unsigned int offset = 16; offset > 0; offset /= 2)
        v = op(v, __shfl_xor_sync(FULL_MASK, v, offset));
    if (threadIdx.x % 32 == 0)
        warp_totals[threadIdx.x / 32] = v;
    __syncthreads();
    T total = warp_totals[0];
    for (unsigned int w = 1; w < WARPS; w++)
        total = op(total, warp_totals[w]);
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
     * t, k = 0 .. ITEMS - 1 (where start + j < n) into `mine` (coalesced:
     * in each trip the block reads BLOCK_THREADS consecutive elements);
     * then total = block_reduce<T, Op>(mine) (every thread calls it: it
     * has barriers) and thread 0 writes sums[blockIdx.x]. */
    /* TODO END 4 */
}

/*
 * Reduce-then-scan: the same answer as scan_any, 3n moved instead of 4n.
 * The sections' totals come first, from a pass that only reads; their scan
 * gives every section its prefix; the section scan then writes each result
 * once, final.
 */
template <typename T, typename Op>
static cudaError_t reduce_then_scan(const T *in, T *out, size_t n, int exclusive)
{
    const size_t sections = (n + SECTION - 1) / SECTION;
    if (sections <= 1) /* nothing to reduce: scan_any's one-section scan is the whole job */
        return scan_any<T, Op>(in, out, n, exclusive);

    /* TODO BEGIN 5: the host side of stage 2 (sections > 1): allocate S
     * (sections elements) with cudaMallocAsync; launch reduce_sections<T, Op>
     * with `sections` blocks writing S; scan S in place, inclusively, with
     * scan_any<T, Op>(S, S, sections, 0); launch scan_sections with
     * `sections` blocks, sums = NULL and carry = S (block b combines S[b - 1]
     * in); free S with cudaFreeAsync.  As in TODO 3, CUDA_TRY every CUDA
     * call, launch and scan_any. */
    /* TODO END 5 */
    return cudaSuccess;
}

/* ---- the variants ----------------------------------------------------------------- */

template <typename T, typename Op> static int run_scan(const lab_problem *p)
{
    CUDA_TRY(scan_any<T, Op>((const T *)p->in, (T *)p->out, p->n, p->exclusive));
    return cudaGetLastError();
}
template <typename T, typename Op> static int run_reduce_then_scan(const lab_problem *p)
{
    CUDA_TRY(reduce_then_scan<T, Op>((const T *)p->in, (T *)p->out, p->n, p->exclusive));
    return cudaGetLastError();
}

static int scan(const lab_problem *p) { return KIT_DISPATCH(run_scan, p); }
static int rts(const lab_problem *p) { return KIT_DISPATCH(run_reduce_then_scan, p); }

static const lab_variant variants[] = {
    {"hierarchical", "scan of any n: sections, scan of totals (recursive), add (TODO 1-3)",
     "scan", 0, "2log2n+16", scan},
    {"reduce-then-scan", "stage 2: reduce sections, scan totals, rescan with prefix (TODO 4-5)",
     "scan", 0, "2log2n+16", rts},
};

const lab_def LAB = {"lab5-scan-hierarchical", "hierarchical scan of arbitrary length", variants,
                     2, 0};
