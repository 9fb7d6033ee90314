/*
 * scan_given.cuh - an inclusive scan of n unsigned ints for a lab to call
 * as a given step (lab 7's compaction in three steps: flags, this scan,
 * scatter).
 *
 * Why it exists: a step a lab gives must not be built from the lab's own
 * TODOs, or a student who does the TODOs in the handout's order is graded
 * on code they have not written yet (lab 7's decode kernel is its TODO
 * 5-7).  And it must be right whatever order blocks run in: no block waits
 * on another, so it needs no tickets and no look-back, and the emulator's
 * reverse and random schedules cannot make it deadlock or race.
 *
 * How: reduce, then scan, in three launches.  Each block owns one
 * contiguous chunk of the input.  (1) Each block sums its chunk.  (2) One
 * block turns the chunks' sums into exclusive offsets.  (3) Each block
 * scans its chunk again, starting from its offset.  The block scan is a
 * warp scan of shuffles plus the warps' totals through shared memory.
 *
 * What it costs: the input is read twice and the output written once (12
 * bytes an element, against 8 for lab 6's single pass), in three launches;
 * launch 3 stages each row of its chunk in shared memory (coalesced loads
 * and stores), three barriers a row.  Good enough for a step that is
 * graded for correctness only; lab 7's stage 1b is the fast compaction.
 */
#ifndef SCAN_GIVEN_CUH
#define SCAN_GIVEN_CUH

#include <stddef.h>

#include "cuda_check.h"

/* Its tunables live here, not in sam_tuning.cuh: that header is the shape
 * of lab 7's one-pass layers, and this scan is no part of them. */
/* Threads of each of the scan's blocks: 8 warps, so each round of a row's
 * loads is 1 KiB, coalesced, and a block's warp totals are few enough for
 * every thread to add them up itself. */
#ifndef SCAN_GIVEN_THREADS
#define SCAN_GIVEN_THREADS 256
#endif
/* Consecutive elements a thread sums in registers in launch 3: one block
 * scan (5 shuffles, a barrier) per 8 elements a thread instead of per
 * element (on the CPU emulator, where shuffles and barriers are what
 * costs, a check run of compact-3step at 1114113 elements took 0.36
 * CPU-s instead of 0.54); a row of 2048 int32 (8 KiB) is staged in
 * shared memory. */
#ifndef SCAN_GIVEN_ITEMS
#define SCAN_GIVEN_ITEMS 8
#endif
/* Chunks (blocks) at most: enough blocks of 256 threads to fill an H200's
 * 132 SMs about 8 times over, and few enough sums for one block to scan
 * at once, 4 a thread.  Past 1024 rows of launch 3 (2^21 elements) the
 * chunks grow instead (2^28 elements: chunks of 128 rows, 2^18). */
#ifndef SCAN_GIVEN_BLOCKS
#define SCAN_GIVEN_BLOCKS 1024
#endif
#define SCAN_GIVEN_WARPS (SCAN_GIVEN_THREADS / 32)
static_assert(SCAN_GIVEN_THREADS % 32 == 0 && SCAN_GIVEN_THREADS <= 1024,
              "SCAN_GIVEN_THREADS: whole warps, one block");

/* Inclusive sum of v over a warp's lanes: at offset d each lane adds the
 * value d lanes below it (Kogge-Stone in registers). */
__device__ __forceinline__ unsigned int given_warp_scan(unsigned int v)
{
    const unsigned int lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned int offset = 1; offset < 32; offset *= 2) {
        const unsigned int below = __shfl_up_sync(0xffffffffu, v, offset);
        if (lane >= offset)
            v += below;
    }
    return v;
}

/* Inclusive sum of v over the block's threads; *total gets the whole
 * block's.  Each thread adds up the totals of the warps below its own
 * from shared memory (8 of them: no second scan needed).  A caller that
 * calls it again passes a barrier first (the warps' totals are reused). */
__device__ __forceinline__ unsigned int given_block_scan(unsigned int v, unsigned int *total)
{
    __shared__ unsigned int warp_totals[SCAN_GIVEN_WARPS];
    const unsigned int warp = threadIdx.x / 32;
    v = given_warp_scan(v);
    if (threadIdx.x % 32 == 31)
        warp_totals[warp] = v;
    __syncthreads();
    unsigned int before = 0, all = 0;
#pragma unroll
    for (unsigned int w = 0; w < SCAN_GIVEN_WARPS; w++) {
        before += w < warp ? warp_totals[w] : 0u;
        all += warp_totals[w];
    }
    *total = all;
    return before + v;
}

/* Launch 1: sums[b] = the sum of block b's chunk, in[b * chunk ...]. */
__global__ void __launch_bounds__(SCAN_GIVEN_THREADS)
    given_chunk_sums(const unsigned int *in, unsigned int *sums, size_t n, size_t chunk)
{
    const size_t begin = blockIdx.x * chunk, end = begin + chunk < n ? begin + chunk : n;
    unsigned int mine = 0;
    for (size_t i = begin + threadIdx.x; i < end; i += SCAN_GIVEN_THREADS)
        mine += in[i];
    unsigned int all;
    given_block_scan(mine, &all);
    if (threadIdx.x == 0)
        sums[blockIdx.x] = all;
}

/* Launch 2, one block: sums[0 .. blocks) become exclusive offsets (each
 * chunk's start).  Each thread takes EACH consecutive sums (4), so one
 * block scan covers them all. */
__global__ void __launch_bounds__(SCAN_GIVEN_THREADS)
    given_chunk_offsets(unsigned int *sums, unsigned int blocks)
{
    constexpr unsigned int EACH = (SCAN_GIVEN_BLOCKS + SCAN_GIVEN_THREADS - 1) / SCAN_GIVEN_THREADS;
    const unsigned int first = threadIdx.x * EACH;
    unsigned int x[EACH], mine = 0;
#pragma unroll
    for (unsigned int k = 0; k < EACH; k++)
        mine += x[k] = first + k < blocks ? sums[first + k] : 0u;
    unsigned int all;
    unsigned int before = given_block_scan(mine, &all) - mine;
#pragma unroll
    for (unsigned int k = 0; k < EACH; k++) {
        if (first + k < blocks)
            sums[first + k] = before;
        before += x[k];
    }
}

/* A row's index i in the staging buffer of launch 3, one word of padding
 * after each 32: a thread's ITEMS consecutive words then fall in distinct
 * banks across the warp (no conflicts at ITEMS = 8), as do a row's
 * coalesced words. */
__device__ __forceinline__ unsigned int given_staged(unsigned int i) { return i + i / 32; }

/* Launch 3: out[i] = the inclusive sum of in[0 .. i], block b scanning its
 * chunk from its offset sums[b], a row of ROW elements at a time with a
 * running carry.  A row comes in coalesced through shared memory; each
 * thread then sums its ITEMS consecutive elements in registers, so one
 * block scan (and its barriers) serves ITEMS elements a thread; the sums
 * go back through shared memory and out coalesced. */
__global__ void __launch_bounds__(SCAN_GIVEN_THREADS)
    given_chunk_scan(const unsigned int *in, unsigned int *out, const unsigned int *sums, size_t n,
                     size_t chunk)
{
    constexpr unsigned int ROW = SCAN_GIVEN_THREADS * SCAN_GIVEN_ITEMS;
    __shared__ unsigned int stage[ROW + ROW / 32];
    const size_t begin = blockIdx.x * chunk, end = begin + chunk < n ? begin + chunk : n;
    const unsigned int t = threadIdx.x;
    unsigned int carry = sums[blockIdx.x];
    for (size_t row = begin; row < end; row += ROW) {
        for (unsigned int j = t; j < ROW; j += SCAN_GIVEN_THREADS)
            stage[given_staged(j)] = row + j < end ? in[row + j] : 0u;
        __syncthreads();
        unsigned int x[SCAN_GIVEN_ITEMS], mine = 0;
#pragma unroll
        for (unsigned int k = 0; k < SCAN_GIVEN_ITEMS; k++)
            x[k] = mine += stage[given_staged(t * SCAN_GIVEN_ITEMS + k)];
        unsigned int all;
        const unsigned int before = carry + given_block_scan(mine, &all) - mine;
#pragma unroll
        for (unsigned int k = 0; k < SCAN_GIVEN_ITEMS; k++)
            stage[given_staged(t * SCAN_GIVEN_ITEMS + k)] = before + x[k];
        __syncthreads();
        for (unsigned int j = t; j < ROW && row + j < end; j += SCAN_GIVEN_THREADS)
            out[row + j] = stage[given_staged(j)];
        carry += all;
        /* No barrier here: thread t stages the next row into the words j =
         * t + 256 k that only t itself reads out above, and every other
         * word of stage[] or warp_totals is written after the next barrier,
         * which no thread passes before all have read this row's. */
    }
}

/* Words of scratch scan_given needs beside in and out: one sum a chunk. */
static inline size_t scan_given_scratch(void) { return SCAN_GIVEN_BLOCKS; }

/*
 * out[i] = in[0] + ... + in[i] (mod 2^32) for i < n, on stream 0; `sums`
 * is scan_given_scratch() words of device scratch.  Chunks are whole rows
 * of launch 3, at least one, so every block but the last is full.
 */
static inline cudaError_t scan_given(const unsigned int *in, unsigned int *out, size_t n,
                                     unsigned int *sums)
{
    if (n == 0)
        return cudaSuccess;
    const size_t row = SCAN_GIVEN_THREADS * SCAN_GIVEN_ITEMS; /* launch 3's */
    const size_t rows = (n + row - 1) / row;
    const size_t chunk = (rows + SCAN_GIVEN_BLOCKS - 1) / SCAN_GIVEN_BLOCKS * row;
    const unsigned int blocks = (unsigned int)((n + chunk - 1) / chunk);
    given_chunk_sums<<<blocks, SCAN_GIVEN_THREADS>>>(in, sums, n, chunk);
    CUDA_TRY(cudaGetLastError());
    given_chunk_offsets<<<1, SCAN_GIVEN_THREADS>>>(sums, blocks);
    CUDA_TRY(cudaGetLastError());
    given_chunk_scan<<<blocks, SCAN_GIVEN_THREADS>>>(in, out, sums, n, chunk);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

#endif
