/*
 * Lab 7 - scan at work: stream compaction, then higher-order and tuple
 * prefix sums (the decoding half of SAM).
 *
 * Lab 6 built a single-pass scan: every tile scanned in one block, the
 * prefix of the tiles before it learned by decoupled look-back.  This lab
 * puts that machinery to work:
 *   1. Stream compaction: keep the elements that satisfy a predicate, in
 *      input order.  First in three steps (flags, a scan of the flags,
 *      scatter), then in one pass where the look-back carries counts.
 *   2. Higher-order prefix sums: an order-k delta encoding is undone by k
 *      prefix sums in turn.  In one pass over memory, each tile carries k
 *      running carries, one per order, through k look-backs.
 *   3. Tuple prefix sums: records of d interleaved components (x0 y0 x1
 *      y1 ...) are decoded per component, without reordering memory; the
 *      carries become vectors of d values, one per component.
 *
 * Every sum is in the unsigned type of the element's width, so int32 and
 * int64 data wrap the way the encoder wrapped them, and a round trip gives
 * the data back bit for bit.
 *
 * Read handouts/lab7.md first; `make lab7 && ./grade lab7` tells you how
 * far you are.
 */
#include <stdint.h>
#include <string.h>

#include "cuda_check.h"
#include "lab.h"

/*
 * Tuning shape (the algorithm does not depend on it).  A thread holds ITEMS
 * consecutive elements in registers: at least KIT_MAX_TUPLE of them, so
 * every component of a record appears in each thread's run.  The tile
 * passes through shared memory on the way in and out, so that global loads
 * and stores stay coalesced; 4096 elements keep an int64 tile (32 KiB)
 * within the 48 KiB of static shared memory.
 */
#ifndef TILE_THREADS
#define TILE_THREADS 256 /* 8 warps */
#endif
#ifndef ITEMS
#define ITEMS 16 /* elements per thread */
#endif
#define WARPS (TILE_THREADS / 32)
#define TILE (TILE_THREADS * ITEMS) /* elements per tile: 4096 */
#define FULL_MASK 0xffffffffu
static_assert(ITEMS >= KIT_MAX_TUPLE, "a thread's run must hold a whole record");

/* Shared-memory index of tile element j: one word of padding every 32, so a
 * thread reading its ITEMS consecutive elements meets no bank conflict with
 * its neighbours. */
#define PAD(j) ((j) + (j) / 32)

/* ---- tile state: one status word and two vectors per tile and order ------------- */

/* X: nothing published; A: the tile's aggregate; P: its inclusive prefix. */
enum { STATUS_X = 0, STATUS_A = 1, STATUS_P = 2 };

/*
 * Device memory every launch shares, zeroed before each launch.  A
 * descriptor is now a vector (one value per tuple component), so it no
 * longer fits lab 6's single 64-bit word: the values go to agg[] and inc[]
 * first, a fence orders them, and the status word is published after.  A
 * reader that sees status A or P reads agg[] or inc[], which are written
 * once and never change afterwards.
 */
template <typename U> struct tile_state {
    unsigned int *next_tile;    /* ticket counter for dynamic tile ids */
    volatile unsigned int *status; /* [order][tile] */
    volatile U *agg;            /* [order][tile][component]: the tile's own sums */
    volatile U *inc;            /* [order][tile][component]: sums up to and with the tile */
    size_t tiles;               /* tiles of this launch */
};

/* Longest pause between two polls, in nanoseconds (0: spin, as lab 6
 * measured fastest).  On the CPU emulator a poll always yields. */
#ifndef MAX_BACKOFF_NS
#define MAX_BACKOFF_NS 0
#endif

/* Wait a little between polls (lab 6, section 4). */
__device__ __forceinline__ void back_off(unsigned int *ns)
{
#if MAX_BACKOFF_NS > 0
    __nanosleep(*ns);
    if (*ns < MAX_BACKOFF_NS)
        *ns *= 2;
#elif defined(__CUEMU__)
    __nanosleep(*ns);
#else
    (void)ns;
#endif
}

/* Shared memory of one block. */
template <typename U> struct tile_smem {
    U tile[PAD(TILE)];                 /* the tile on its way in and out */
    U warp_sums[WARPS][KIT_MAX_TUPLE]; /* each warp's sums, per component */
    U before[KIT_MAX_TUPLE];           /* everything before this tile, per component */
    U aggregate[KIT_MAX_TUPLE];        /* this tile's own sums, per component */
    unsigned int id;                   /* this block's tile */
};

/* An element's bits read as the signed integer they are (the predicate's view). */
template <typename U> __device__ __forceinline__ int64_t as_signed(U x)
{
    return sizeof(U) == 4 ? (int64_t)(int32_t)x : (int64_t)x;
}

/* ---- given: tickets, the tile through shared memory, the look-back ------------- */

/* Tiles in the order blocks start (lab 6, stage 1): a tile's predecessors
 * always belong to running blocks, so no look-back can wait forever. */
template <typename U> __device__ unsigned int take_tile(tile_smem<U> &sm, tile_state<U> st)
{
    if (threadIdx.x == 0)
        sm.id = atomicAdd(st.next_tile, 1u);
    __syncthreads();
    return sm.id;
}

/* Load tile `id` coalesced into shared memory, then this thread's ITEMS
 * consecutive elements into x[] (0 past the end: it changes no sum). */
template <typename U>
__device__ void load_tile(tile_smem<U> &sm, const U *in, size_t n, unsigned int id, U (&x)[ITEMS])
{
    const size_t base = (size_t)id * TILE;
    for (unsigned int r = 0; r < ITEMS; r++) {
        const unsigned int j = r * TILE_THREADS + threadIdx.x;
        sm.tile[PAD(j)] = base + j < n ? in[base + j] : U(0);
    }
    __syncthreads();
#pragma unroll
    for (unsigned int i = 0; i < ITEMS; i++)
        x[i] = sm.tile[PAD(threadIdx.x * ITEMS + i)];
}

/* The reverse: x[] into shared memory, then coalesced stores of the tile.
 * (Each thread overwrites only the elements it read itself.) */
template <typename U>
__device__ void store_tile(tile_smem<U> &sm, U *out, size_t n, unsigned int id, const U (&x)[ITEMS])
{
    const size_t base = (size_t)id * TILE;
#pragma unroll
    for (unsigned int i = 0; i < ITEMS; i++)
        sm.tile[PAD(threadIdx.x * ITEMS + i)] = x[i];
    __syncthreads();
    for (unsigned int r = 0; r < ITEMS; r++) {
        const unsigned int j = r * TILE_THREADS + threadIdx.x;
        if (base + j < n)
            out[base + j] = sm.tile[PAD(j)];
    }
}

/* Publish a status after the values it announces (each lane fenced its own). */
__device__ __forceinline__ void publish_status(volatile unsigned int *slot, unsigned int status)
{
    __syncwarp();
    if (threadIdx.x % 32 == 0)
        atomicExch((unsigned int *)slot, status);
}

/*
 * Warp 0 of tile `id`: lab 6's decoupled look-back, for a vector.  Lane c
 * (c < D) handles component c: `mine` is the tile's own sum of it, and the
 * result is the sum of component c over every tile before.  Lane 0 polls
 * the status of one predecessor at a time; all D lanes then read their
 * component of the value that status announces.
 */
template <typename U, int D>
__device__ U lookback(tile_state<U> st, unsigned int id, U mine)
{
    const unsigned int lane = threadIdx.x % 32;
    U before = 0;
    if (lane < D) { /* tile 0 knows its prefix at once */
        (id == 0 ? st.inc : st.agg)[(size_t)id * D + lane] = mine;
        __threadfence();
    }
    publish_status(&st.status[id], id == 0 ? STATUS_P : STATUS_A);
    if (id == 0)
        return before;
    for (unsigned int pred = id - 1;; pred--) {
        unsigned int s = STATUS_X, ns = 8;
        if (lane == 0)
            while ((s = st.status[pred]) == STATUS_X)
                back_off(&ns);
        s = __shfl_sync(FULL_MASK, s, 0);
        __threadfence(); /* no value read below may be older than the status */
        if (lane < D)
            before += (s == STATUS_P ? st.inc : st.agg)[(size_t)pred * D + lane];
        if (s == STATUS_P)
            break;
    }
    if (lane < D) {
        st.inc[(size_t)id * D + lane] = before + mine;
        __threadfence();
    }
    publish_status(&st.status[id], STATUS_P);
    return before;
}

/*
 * The whole block: each thread brings its sums per component (tot[c]) and
 * gets back, in carry[c], the sum of component c over everything before
 * its own run: the tiles before (look-back) and the threads before in this
 * tile (a warp scan, then the warps before).  Two barriers: the warp sums,
 * then the tile's prefix, each published in shared memory for all warps.
 */
template <typename U, int D>
__device__ void tile_prefix(tile_smem<U> &sm, tile_state<U> st, unsigned int id,
                            const U (&tot)[D], U (&carry)[D])
{
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    U inc[D];
#pragma unroll
    for (int c = 0; c < D; c++) {
        inc[c] = tot[c];
#pragma unroll
        for (unsigned int offset = 1; offset < 32; offset *= 2) {
            const U below = __shfl_up_sync(FULL_MASK, inc[c], offset);
            if (lane >= offset)
                inc[c] += below;
        }
        if (lane == 31)
            sm.warp_sums[warp][c] = inc[c];
    }
    __syncthreads();
    if (warp == 0) { /* the tile's sums, then the look-back */
        U mine = 0;
        for (unsigned int w = 0; w < WARPS && lane < D; w++)
            mine += sm.warp_sums[w][lane];
        const U before = lookback<U, D>(st, id, mine);
        if (lane < D)
            sm.before[lane] = before, sm.aggregate[lane] = mine;
    }
#pragma unroll
    for (int c = 0; c < D; c++) {
        carry[c] = inc[c] - tot[c];
        for (unsigned int w = 0; w < warp; w++)
            carry[c] += sm.warp_sums[w][c];
    }
    __syncthreads();
#pragma unroll
    for (int c = 0; c < D; c++)
        carry[c] += sm.before[c];
}

/* ---- stage 1: stream compaction -------------------------------------------------- */

/* Step 1 of 3: flags[i] = 1 where in[i] is kept, else 0. */
template <typename U>
__global__ void flag_kernel(const U *in, unsigned int *flags, size_t n, pred_t pred)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        /* TODO BEGIN 1: flags[i] = 1 if pred_keep(pred, as_signed(in[i])), else 0. */
        /* TODO END 1 */
    }
}

/* Step 3 of 3: pos[] is the inclusive scan of flags[] (step 2), so a kept
 * in[i] goes to out[pos[i] - 1]: its exclusive position.  The count is
 * pos[n - 1]. */
template <typename U>
__global__ void scatter_kernel(const U *in, const unsigned int *flags, const unsigned int *pos,
                               U *out, U *count, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        /* TODO BEGIN 2: if flags[i], out[pos[i] - 1] = in[i]; the thread of
         * i = n - 1 also writes *count = pos[n - 1]. */
        /* TODO END 2 */
    }
}

/*
 * The fused compaction: one pass.  Each thread counts what it keeps of its
 * run, tile_prefix turns the counts into the position of the thread's
 * first kept element (look-back on counts), and the thread writes its kept
 * elements there in order.
 */
template <typename U>
__global__ void __launch_bounds__(TILE_THREADS)
    compact_kernel(const U *in, U *out, U *count, size_t n, pred_t pred, tile_state<U> st)
{
    __shared__ tile_smem<U> sm;
    const unsigned int id = take_tile(sm, st);
    U x[ITEMS];
    load_tile(sm, in, n, id, x);
    const size_t first = (size_t)id * TILE + (size_t)threadIdx.x * ITEMS; /* x[0]'s index */

    /* TODO BEGIN 3: kept[0] = how many of x[i] (only those with first + i < n)
     * satisfy pred_keep(pred, as_signed(x[i])); then tile_prefix<U, 1>(sm,
     * st, id, kept, at) gives at[0], where this thread's first kept element
     * goes.  Write the kept x[i] to out[at[0]], out[at[0] + 1], ... in order.
     * The last tile (id == gridDim.x - 1) has thread 0 write the count:
     * sm.before[0] + sm.aggregate[0]. */
    /* TODO END 3 */
}

/* ---- stages 2 and 3: decoding, one order after the other, d components -------- */

/*
 * The descriptors of order `level` (0 = the first prefix sum): each order
 * has its own status words and vectors, so the carries of one order never
 * mix with another's.
 */
template <typename U, int D> __device__ tile_state<U> level_state(tile_state<U> st, int level)
{
    tile_state<U> lv = st;
    /* TODO BEGIN 4: move lv.status on by level * st.tiles words, and lv.agg
     * and lv.inc on by level * st.tiles * D values each (the host lays the
     * orders out one after the other, see run_decode). */
    /* TODO END 4 */
    return lv;
}

/*
 * A thread's sums per component from its scanned run.  After the strided
 * scan, x[ITEMS - D + m] (m = 0..D-1) holds the run's sum of one component
 * each: which one depends on where the run starts (`first`, the index of
 * x[0]), since components are global: element g belongs to g % D.
 */
template <typename U, int D>
__device__ void sums_by_component(const U (&x)[ITEMS], size_t first, U (&tot)[D])
{
#pragma unroll
    for (int c = 0; c < D; c++)
        tot[c] = 0;
    if (D == 1) {
        tot[0] = x[ITEMS - 1];
        return;
    }
    /* TODO BEGIN 5: x[ITEMS - D + m] belongs to component (first + ITEMS -
     * D + m) % D: put it in tot[] at that component.  (Compare with
     * unrolled loops over c and m rather than index tot[] by a computed
     * value: registers cannot be indexed at run time.) */
    /* TODO END 5 */
}

/* The reverse mapping: by_pos[m] = carry of the component of x[m]. */
template <typename U, int D>
__device__ void carries_by_position(const U (&carry)[D], size_t first, U (&by_pos)[D])
{
#pragma unroll
    for (int m = 0; m < D; m++)
        by_pos[m] = 0;
    if (D == 1) {
        by_pos[0] = carry[0];
        return;
    }
    /* TODO BEGIN 6: x[m] (and every x[m + j D]) belongs to component
     * (first + m) % D: by_pos[m] = carry[that component]. */
    /* TODO END 6 */
}

/*
 * One prefix sum of stride D over the tile, in registers: the thread's run
 * is scanned per component (x[i] += x[i - D]), the block and the
 * look-back supply each component's carry, and the carry is added.
 */
template <typename U, int D>
__device__ void scan_level(tile_smem<U> &sm, tile_state<U> lv, unsigned int id, size_t first,
                           U (&x)[ITEMS])
{
#pragma unroll
    for (int i = D; i < ITEMS; i++)
        x[i] += x[i - D];
    U tot[D], carry[D], by_pos[D];
    sums_by_component<U, D>(x, first, tot);
    tile_prefix<U, D>(sm, lv, id, tot, carry);
    carries_by_position<U, D>(carry, first, by_pos);
#pragma unroll
    for (int i = 0; i < ITEMS; i++)
        x[i] += by_pos[i % D];
}

/* Decode one tile: read once, `order` prefix sums of stride D in registers
 * (each with its own look-back), write once. */
template <typename U, int D>
__global__ void __launch_bounds__(TILE_THREADS)
    decode_kernel(const U *in, U *out, size_t n, int order, tile_state<U> st)
{
    __shared__ tile_smem<U> sm;
    const unsigned int id = take_tile(sm, st);
    U x[ITEMS];
    load_tile(sm, in, n, id, x);
    const size_t first = (size_t)id * TILE + (size_t)threadIdx.x * ITEMS;
    /* TODO BEGIN 7: for each order level = 0 .. order - 1, scan_level<U, D>
     * with that level's descriptors (level_state<U, D>(st, level)): level
     * j + 1 scans what level j produced, and the data never leaves the
     * registers in between. */
    /* TODO END 7 */
    store_tile(sm, out, n, id, x);
}

/* Step 2 of the three-step compaction: one plain prefix sum (order 1,
 * tuple 1), the single-pass scan of lab 6. */
template <typename U>
__global__ void __launch_bounds__(TILE_THREADS)
    scan_kernel(const U *in, U *out, size_t n, tile_state<U> st)
{
    __shared__ tile_smem<U> sm;
    const unsigned int id = take_tile(sm, st);
    U x[ITEMS];
    load_tile(sm, in, n, id, x);
    scan_level<U, 1>(sm, st, id, (size_t)id * TILE + (size_t)threadIdx.x * ITEMS, x);
    store_tile(sm, out, n, id, x);
}

/* ---- host side -------------------------------------------------------------------- */

/* Device scratch kept from one launch to the next and grown when a launch
 * needs more (lab 6: allocating per launch cost more than the small scans). */
static char *scratch_memory(int slot, size_t bytes)
{
    static char *memory[2];
    static size_t capacity[2];
    if (bytes > capacity[slot]) {
        if (memory[slot])
            CUDA_CHECK(cudaFree(memory[slot]));
        CUDA_CHECK(cudaMalloc((void **)&memory[slot], bytes));
        capacity[slot] = bytes;
    }
    return memory[slot];
}

/* Round up to 16 bytes, so every array of the tile state is aligned. */
static size_t align16(size_t bytes) { return (bytes + 15) / 16 * 16; }

/*
 * Tile state for `levels` orders of `tiles` tiles with d-value vectors,
 * zeroed on the stream (every status X, ticket 0): the ticket, then the
 * status words of order 0, 1, ..., then agg[] and inc[] the same way.
 */
template <typename U> static tile_state<U> fresh_state(size_t tiles, int levels, int d)
{
    const size_t status = align16((size_t)levels * tiles * sizeof(unsigned int));
    const size_t values = align16((size_t)levels * tiles * d * sizeof(U));
    const size_t bytes = 16 + status + 2 * values;
    char *m = scratch_memory(0, bytes);
    CUDA_CHECK(cudaMemsetAsync(m, 0, bytes, 0));
    tile_state<U> st;
    st.next_tile = (unsigned int *)m;
    st.status = (unsigned int *)(m + 16);
    st.agg = (U *)(m + 16 + status);
    st.inc = (U *)(m + 16 + status + values);
    st.tiles = tiles;
    return st;
}

static unsigned int tiles_for(size_t n) { return (unsigned int)((n + TILE - 1) / TILE); }

/* Grid of a grid-stride loop over n elements. */
static unsigned int stride_blocks(size_t n)
{
    size_t blocks = (n + 255) / 256;
    return (unsigned int)(blocks < 4096 ? blocks : 4096);
}

/* Stage 1, three steps: flags, scan, scatter (two n-word arrays of scratch). */
template <typename U> static int run_compact_3step(const lab_problem *p)
{
    if (p->n == 0)
        return (int)cudaMemsetAsync(p->count, 0, sizeof(U), 0);
    unsigned int *flags = (unsigned int *)scratch_memory(1, 2 * p->n * sizeof(unsigned int));
    unsigned int *pos = flags + p->n;
    flag_kernel<U><<<stride_blocks(p->n), 256>>>((const U *)p->in, flags, p->n, p->pred);
    CUDA_CHECK(cudaGetLastError());
    scan_kernel<unsigned int><<<tiles_for(p->n), TILE_THREADS>>>(
        flags, pos, p->n, fresh_state<unsigned int>(tiles_for(p->n), 1, 1));
    CUDA_CHECK(cudaGetLastError());
    scatter_kernel<U><<<stride_blocks(p->n), 256>>>((const U *)p->in, flags, pos, (U *)p->out,
                                                    (U *)p->count, p->n);
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

/* Stage 1, fused: one launch, a look-back on counts. */
template <typename U> static int run_compact(const lab_problem *p)
{
    if (p->n == 0)
        return (int)cudaMemsetAsync(p->count, 0, sizeof(U), 0);
    const unsigned int tiles = tiles_for(p->n);
    compact_kernel<U><<<tiles, TILE_THREADS>>>((const U *)p->in, (U *)p->out, (U *)p->count, p->n,
                                               p->pred, fresh_state<U>(tiles, 1, 1));
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

/* Stages 2-3: one launch decodes every order; the tuple size picks the
 * kernel (D is a compile-time constant, so the per-component vectors live
 * in registers). */
template <typename U, int D> static int run_decode_d(const lab_problem *p)
{
    const unsigned int tiles = tiles_for(p->n);
    decode_kernel<U, D><<<tiles, TILE_THREADS>>>((const U *)p->in, (U *)p->out, p->n, p->order,
                                                 fresh_state<U>(tiles, p->order, D));
    CUDA_CHECK(cudaGetLastError());
    return cudaSuccess;
}

template <typename U> static int run_decode(const lab_problem *p)
{
    if (p->n == 0)
        return cudaSuccess;
    switch (p->tuple) {
    case 1: return run_decode_d<U, 1>(p);
    case 2: return run_decode_d<U, 2>(p);
    case 3: return run_decode_d<U, 3>(p);
    case 4: return run_decode_d<U, 4>(p);
    case 5: return run_decode_d<U, 5>(p);
    case 6: return run_decode_d<U, 6>(p);
    case 7: return run_decode_d<U, 7>(p);
    case 8: return run_decode_d<U, 8>(p);
    }
    return cudaErrorInvalidValue;
}

/* The unsigned type of the element's width: sums wrap as the encoder's did. */
#define LAB7_DISPATCH(fn, p) \
    ((p)->dtype == DT_INT64 ? fn<unsigned long long>(p) : fn<unsigned int>(p))

static int compact_3step(const lab_problem *p) { return LAB7_DISPATCH(run_compact_3step, p); }
static int compact(const lab_problem *p) { return LAB7_DISPATCH(run_compact, p); }
static int decode(const lab_problem *p) { return LAB7_DISPATCH(run_decode, p); }

static const lab_variant variants[] = {
    {"compact-3step", "compaction: flags, scan, scatter (TODO 1-2)", KIND_COMPACT, 0, 0, "0",
     compact_3step},
    {"compact", "compaction in one pass, look-back on counts (TODO 3)", KIND_COMPACT, 0, 0, "0",
     compact},
    {"decode", "order-k, d-tuple delta decoding in one pass (TODO 4-7)", KIND_DECODE, 0, 0, "0",
     decode},
};

const lab_def LAB = {"lab7-scan-at-work", "scan at work: stream compaction, higher-order and tuple prefix sums",
                     variants, 3, 2};
