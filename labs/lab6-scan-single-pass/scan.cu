/*
 * Lab 6 - single-pass scan: chained scan, then decoupled look-back.
 *
 * Lab 5 moved every element through memory twice (scan the sections, then
 * add the section prefixes).  A single-pass scan reads each element once
 * and writes it once: each block scans its tile in shared memory and
 * registers, learns the combined total of all tiles before it from the
 * blocks that scanned them, and writes its tile out with that prefix added.
 * Blocks now wait for each other, which raises three questions this lab
 * answers in turn:
 *   1. Chained scan: block i waits for block i - 1's inclusive prefix.
 *      Which block gets which tile?  If tile i is blockIdx.x = i, a block can
 *      wait for a block that was never scheduled: deadlock.  Tiles handed out
 *      in arrival order by an atomic counter cannot deadlock.
 *   2. Decoupled look-back: publish your own tile's total (aggregate, A) at
 *      once, then walk back over predecessors adding their aggregates until
 *      one has published its inclusive prefix (P).  No tile waits for the
 *      whole chain before it.
 *   3. Warp-parallel look-back: one warp inspects 32 predecessors at a time.
 *
 * Read handouts/lab6.md first; `make lab6 && ./grade lab6` tells you how
 * far you are.
 */
#include <string.h>

#include "cuda_check.h"
#include "lab.h"
#include "ops.cuh"

/* Tuning (the algorithm does not depend on it): threads per tile, items
 * per thread, and the tile they make. */
#ifndef TILE_THREADS
#define TILE_THREADS 256
#endif
#ifndef ITEMS
#define ITEMS 16
#endif
#define TILE (TILE_THREADS * ITEMS)
#define WARPS (TILE_THREADS / 32)
#define FULL_MASK 0xffffffffu

/* Which way a block learns the prefix of the tiles before its own. */
enum { CHAINED_BLOCKIDX, CHAINED, LOOKBACK, LOOKBACK_WARP };

/* ---- tile descriptors: status and value in one 64-bit word ----------------- */

/* X: nothing published yet; A: the tile's aggregate; P: its inclusive
 * prefix (everything up to and including the tile). */
enum { STATUS_X = 0, STATUS_A = 1, STATUS_P = 2 };

typedef unsigned long long descriptor;

/* One word, so a reader can never see a new status with an old value: a
 * 64-bit aligned store is a single memory transaction. */
template <typename T> __device__ descriptor pack(unsigned int status, T value)
{
    unsigned int bits;
    memcpy(&bits, &value, sizeof bits);
    return ((descriptor)status << 32) | bits;
}
__device__ __forceinline__ unsigned int status_of(descriptor d) { return (unsigned int)(d >> 32); }
template <typename T> __device__ T value_of(descriptor d)
{
    unsigned int bits = (unsigned int)d;
    T value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* Device memory every launch shares, reset before each launch. */
typedef struct {
    unsigned int *next_tile;       /* ticket counter for dynamic tile ids */
    volatile descriptor *tiles;    /* one descriptor per tile (stages 2-3) */
    volatile unsigned int *flags;  /* chained scan: tile i's prefix is ready */
    volatile unsigned int *prefix; /* chained scan: tile i's inclusive prefix (bits) */
} tile_state;

/* Longest pause between two polls, in nanoseconds (0: spin without pausing). */
#ifndef MAX_BACKOFF_NS
#define MAX_BACKOFF_NS 256
#endif

/* Wait a little between polls: fewer memory requests from spinning blocks,
 * more bandwidth for the blocks doing work. */
__device__ __forceinline__ void back_off(unsigned int *ns)
{
#if MAX_BACKOFF_NS > 0
    __nanosleep(*ns);
    if (*ns < MAX_BACKOFF_NS)
        *ns *= 2;
#else
    (void)ns;
#endif
}

/* ---- the tile scan (given: labs 4 and 5 taught it) ----------------------------- */

struct tile_smem_base {
    unsigned int id; /* this block's tile */
};
template <typename T> struct tile_smem : tile_smem_base {
    T xy[TILE + TILE / 32]; /* the tile, padded: see padded() */
    T warp_totals[WARPS];
    T prefix;               /* combination of every tile before this one */
};

/* Element j of the tile in shared memory, one pad word per 32 so the
 * threads of a warp reading ITEMS consecutive elements hit distinct banks. */
__device__ __forceinline__ unsigned int padded(unsigned int j) { return j + j / 32; }

/* Inclusive scan over the lanes of a warp. */
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

/* Coalesced load of tile `id` into shared memory (identity past n). */
template <typename T, typename Op>
__device__ void load_tile(tile_smem<T> &sm, const T *in, size_t start, size_t n)
{
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        unsigned int j = k * TILE_THREADS + threadIdx.x;
        sm.xy[padded(j)] = start + j < n ? in[start + j] : Op::identity();
    }
    __syncthreads();
}

/* Scan the tile: v[] receives this thread's ITEMS elements scanned within
 * the tile; returns the tile's aggregate (in every thread). */
template <typename T, typename Op> __device__ T scan_tile(tile_smem<T> &sm, T *v)
{
    const Op op;
    const unsigned int t = threadIdx.x, lane = t % 32, warp = t / 32;
    v[0] = sm.xy[padded(t * ITEMS)];
#pragma unroll
    for (unsigned int k = 1; k < ITEMS; k++)
        v[k] = op(v[k - 1], sm.xy[padded(t * ITEMS + k)]);
    T inclusive = warp_scan<T, Op>(v[ITEMS - 1]);
    if (lane == 31)
        sm.warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        T w = lane < WARPS ? sm.warp_totals[lane] : Op::identity();
        w = warp_scan<T, Op>(w);
        if (lane < WARPS)
            sm.warp_totals[lane] = w;
    }
    __syncthreads();
    T before = __shfl_up_sync(FULL_MASK, inclusive, 1);
    if (lane == 0)
        before = Op::identity();
    if (warp > 0)
        before = op(sm.warp_totals[warp - 1], before);
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++)
        v[k] = op(before, v[k]);
    return sm.warp_totals[WARPS - 1];
}

/* Combine the tile's prefix into v[] and store the tile coalesced (shifted
 * by one for an exclusive scan). */
template <typename T, typename Op>
__device__ void store_tile(tile_smem<T> &sm, T *out, const T *v, size_t start, size_t n,
                           int exclusive)
{
    const Op op;
    const unsigned int t = threadIdx.x;
    const T prefix = sm.prefix;
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++)
        sm.xy[padded(t * ITEMS + k)] = op(prefix, v[k]);
    __syncthreads();
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        unsigned int j = k * TILE_THREADS + t;
        if (start + j < n)
            out[start + j] = !exclusive ? sm.xy[padded(j)] : j > 0 ? sm.xy[padded(j - 1)] : prefix;
    }
}

/* ---- stage 1: the chained scan ------------------------------------------------- */

/* Past any real tile: load_tile and store_tile then touch no element. */
#define NO_TILE 0xffffffffu

/* A ticket: tiles are handed out in the order blocks start running, so
 * every tile's predecessors belong to blocks that are already running. */
__device__ unsigned int take_ticket(unsigned int *next_tile)
{
    unsigned int ticket = NO_TILE; /* a block without a ticket reads and writes nothing */
    /* TODO BEGIN 1: ticket = the value of *next_tile before adding 1 to it,
     * atomically (atomicAdd returns the old value). */
    /* TODO END 1 */
    return ticket;
}

/*
 * Thread 0 of tile `id` (aggregate `aggregate`): wait for tile id - 1's
 * inclusive prefix, publish this tile's, and return the exclusive prefix.
 */
template <typename T, typename Op>
__device__ T chained_prefix(tile_state st, unsigned int id, T aggregate)
{
    const Op op;
    T before = Op::identity();

    /* TODO BEGIN 2: the chain.  If id > 0: spin until st.flags[id - 1] is 1
     * (call back_off(&ns) in the loop, ns starting at 8), then
     * __threadfence() (no read below may be served from before the flag),
     * and read before = value_of-style from st.prefix[id - 1] (the prefix is
     * stored as raw bits: memcpy them into a T).  Then publish: store the
     * bits of op(before, aggregate) to st.prefix[id], __threadfence() (the
     * value must be visible before the flag), and set st.flags[id] = 1. */
    /* TODO END 2 */
    return before;
}

/* ---- stage 2: decoupled look-back, one predecessor at a time -------------------- */

/*
 * Thread 0 of tile `id`: publish the aggregate at once, then walk back
 * over predecessors, combining aggregates until an inclusive prefix (P)
 * ends the walk; publish this tile's P and return the exclusive prefix.
 */
template <typename T, typename Op>
__device__ T lookback_prefix(tile_state st, unsigned int id, T aggregate)
{
    const Op op;
    T before = Op::identity();

    /* TODO BEGIN 3: tile 0 knows its prefix: publish pack(STATUS_P,
     * aggregate) to st.tiles[0] and return the identity.  Any other tile:
     * publish pack(STATUS_A, aggregate) to st.tiles[id]; then for pred = id -
     * 1, id - 2, ...: read d = st.tiles[pred] until status_of(d) is not
     * STATUS_X (back_off between reads); before = op(value_of<T>(d), before);
     * stop after a STATUS_P.  Finally publish pack(STATUS_P, op(before,
     * aggregate)) to st.tiles[id]. */
    /* TODO END 3 */
    return before;
}

/* ---- stage 3: warp-parallel look-back ------------------------------------------- */

/* Combine v over lanes 0..last of the warp (the others contribute the
 * identity); every lane gets the result. */
template <typename T, typename Op> __device__ T warp_reduce_upto(T v, unsigned int last)
{
    const Op op;
    if (threadIdx.x % 32 > last)
        v = Op::identity();
#pragma unroll
    for (unsigned int offset = 16; offset > 0; offset /= 2)
        v = op(v, __shfl_xor_sync(FULL_MASK, v, offset));
    return v;
}

/*
 * All 32 lanes of warp 0 of tile `id`: the same protocol as stage 2, but
 * lane k inspects predecessor id - 1 - k of the current window, so 32
 * descriptors are read at once.  Returns the exclusive prefix in every lane.
 */
template <typename T, typename Op>
__device__ T warp_lookback_prefix(tile_state st, unsigned int id, T aggregate)
{
    const Op op;
    const unsigned int lane = threadIdx.x % 32;
    T before = Op::identity();

    /* TODO BEGIN 4: lane 0 publishes as in stage 2 (P for tile 0, then
     * return; A otherwise).  Then, for windows ending at end = id - 1,
     * id - 33, ...: lane k reads d = st.tiles[end - k] (a lane past tile 0
     * reads nothing and acts as a P carrying the identity).  Poll until,
     * with x = __ballot_sync(FULL_MASK, status_of(d) == STATUS_X) and p =
     * the same ballot for STATUS_P, there is no X below the first P (no X at
     * all if p == 0).  Combine the values of lanes 0..first P (or all 32)
     * with warp_reduce_upto, fold them into `before`, and stop after a
     * window that held a P.  Lane 0 publishes P = op(before, aggregate).
     * Beware: a lane's descriptor must be the one the ballots judged (read
     * it once per poll), or a P seen by one lane can be counted twice. */
    /* TODO END 4 */
    return before;
}

/* ---- the kernel: one tile per block, every stage ---------------------------------- */

template <typename T, typename Op, int STAGE>
__global__ void __launch_bounds__(TILE_THREADS)
    single_pass_scan(const T *in, T *out, size_t n, int exclusive, tile_state st)
{
    __shared__ tile_smem<T> sm;
    const unsigned int t = threadIdx.x;

    if (t == 0)
        sm.id = STAGE == CHAINED_BLOCKIDX ? blockIdx.x : take_ticket(st.next_tile);
    __syncthreads();
    const unsigned int id = sm.id;
    const size_t start = (size_t)id * TILE;

    load_tile<T, Op>(sm, in, start, n);
    T v[ITEMS];
    const T aggregate = scan_tile<T, Op>(sm, v);

    if (STAGE == LOOKBACK_WARP) {
        if (t < 32) {
            T before = warp_lookback_prefix<T, Op>(st, id, aggregate);
            if (t == 0)
                sm.prefix = before;
        }
    } else if (t == 0) {
        sm.prefix = STAGE == LOOKBACK ? lookback_prefix<T, Op>(st, id, aggregate)
                                      : chained_prefix<T, Op>(st, id, aggregate);
    }
    __syncthreads();
    store_tile<T, Op>(sm, out, v, start, n, exclusive);
}

/* ---- host side -------------------------------------------------------------------- */

/*
 * One launch: tile state from the stream-ordered pool, zeroed (every status
 * X, ticket 0) before the kernel: state left by the previous launch would
 * be read as published prefixes.
 */
template <typename T, typename Op, int STAGE> static int run_stage(const lab_problem *p)
{
    const size_t tiles = (p->n + TILE - 1) / TILE;
    if (tiles == 0)
        return cudaSuccess;
    const size_t bytes = 16 + tiles * (sizeof(descriptor) + 2 * sizeof(unsigned int));
    char *scratch;
    CUDA_CHECK(cudaMallocAsync((void **)&scratch, bytes, 0));
    CUDA_CHECK(cudaMemsetAsync(scratch, 0, bytes, 0));
    tile_state st;
    st.next_tile = (unsigned int *)scratch;
    st.tiles = (descriptor *)(scratch + 16);
    st.flags = (unsigned int *)(scratch + 16 + tiles * sizeof(descriptor));
    st.prefix = st.flags + tiles;
    single_pass_scan<T, Op, STAGE><<<(unsigned int)tiles, TILE_THREADS>>>(
        (const T *)p->in, (T *)p->out, p->n, p->exclusive, st);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFreeAsync(scratch, 0));
    return cudaSuccess;
}

template <typename T, typename Op> static int run_chained_blockidx(const lab_problem *p)
{
    return run_stage<T, Op, CHAINED_BLOCKIDX>(p);
}
template <typename T, typename Op> static int run_chained(const lab_problem *p)
{
    return run_stage<T, Op, CHAINED>(p);
}
template <typename T, typename Op> static int run_lookback(const lab_problem *p)
{
    return run_stage<T, Op, LOOKBACK>(p);
}
template <typename T, typename Op> static int run_lookback_warp(const lab_problem *p)
{
    return run_stage<T, Op, LOOKBACK_WARP>(p);
}

static int chained_blockidx(const lab_problem *p) { return KIT_DISPATCH(run_chained_blockidx, p); }
static int chained(const lab_problem *p) { return KIT_DISPATCH(run_chained, p); }
static int lookback(const lab_problem *p) { return KIT_DISPATCH(run_lookback, p); }
static int lookback_warp(const lab_problem *p) { return KIT_DISPATCH(run_lookback_warp, p); }

/* Float tolerance: a chain through every tile, plus the depth inside one. */
#define TOL "chain:4096+32"

static const lab_variant variants[] = {
    {"chained-blockidx", "chained scan, tile = blockIdx.x: can deadlock (demonstration)",
     KIND_SCAN, 0, 0, TOL, chained_blockidx},
    {"chained", "chained scan with dynamic tile ids (TODO 1-2)", KIND_SCAN, 0, 0, TOL, chained},
    {"lookback", "decoupled look-back, serial (TODO 3)", KIND_SCAN, 0, 0, TOL, lookback},
    {"lookback-warp", "decoupled look-back, 32 predecessors at a time (TODO 4)", KIND_SCAN, 0, 0,
     TOL, lookback_warp},
};

const lab_def LAB = {"lab6-scan-single-pass", "single-pass scan: chained, then decoupled look-back",
                     variants, 4, 3};
