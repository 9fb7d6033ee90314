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
 *      prefix sums in turn.  In one pass over memory: a thread runs the k
 *      sums over its own elements in registers, and what crosses from one
 *      thread, warp or tile to the next is a state of k carries, one per
 *      order, combined by a small linear rule (section 4 of the handout).
 *   3. Tuple prefix sums: records of d interleaved components (x0 y0 x1
 *      y1 ...) are decoded per component, without reordering memory; every
 *      run of elements a thread holds is a whole number of records, so the
 *      component of a thread's element i is simply i % d.
 *
 *
 * The machinery lab 6 taught is given, written for states, in layers under
 * common/ (handout section 2): the thread layer, a state and how it moves
 * (sam_state.cuh); the warp layer, slices in shared memory
 * (sam_slices.cuh); the tile layer, the look-back of states
 * (sam_lookback.cuh, on lab 6's common/lookback.cuh); and the block
 * layer, the states between a tile's barriers (sam_block.cuh).  Their
 * sizes are in sam_tuning.cuh.  This file is the algorithm: the kernels,
 * the TODOs and the launches.
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
#include "kinds/compact.h"
#include "kinds/decode.h"
#include "lab.h"
#include "sam_block.cuh"
#include "scan_given.cuh"

/* Tiles in the order blocks start (lab 6, stage 1): a tile's predecessors
 * always belong to running blocks, so no look-back can wait forever. */
__device__ unsigned int take_tile(unsigned int *id, tile_state st)
{
    if (threadIdx.x == 0)
        *id = atomicAdd(st.next_tile, 1u);
    __syncthreads();
    return *id;
}

/* ---- stage 1: stream compaction -------------------------------------------------- */

/* An element's bits read as the signed integer they are (the predicate's view). */
template <typename U> __device__ __forceinline__ int64_t as_signed(U x)
{
    return sizeof(U) == 4 ? (int64_t)(int32_t)x : (int64_t)x;
}

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
 * run; the counts are scanned like any state (order 1, one component), so
 * a thread learns how many elements the runs before it keep, in its warp
 * (`lanes_before`) and before its warp (sm.warps.before).  Kept elements
 * are packed, in order, at the front of the warp's shared buffer, and the
 * warp writes them out in one coalesced stream.
 */
template <typename U>
__global__ void __launch_bounds__(TILE_THREADS, MINB_PLAIN)
    compact_kernel(const U *in, U *out, U *count, size_t n, pred_t pred, tile_state st,
                   binomials<unsigned int> bin, int aligned)
{
    typedef shape<U, 1> S;
    tile_smem<U, unsigned int, 1, 1> &sm = block_smem<tile_smem<U, unsigned int, 1, 1>>();
    const unsigned int id = take_tile(&sm.id, st), lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    load_slice<U, 1>(sm.slice[warp], in, n, id, aligned);
    U x[S::R];
    read_run<U, 1>(sm.slice[warp], x);
    const size_t first = (size_t)id * S::TILE + (size_t)warp * S::SLICE + (size_t)lane * S::R;
    state<unsigned int, 1, 1> kept;
    clear(kept);
    /* TODO BEGIN 3: kept.v[0][0] = how many of x[i] (only those with first +
     * i < n) satisfy pred_keep(pred, as_signed(x[i])).  The given code
     * below turns the counts into positions. */
    /* TODO END 3 */
    const state<unsigned int, 1, 1> lanes_before = warp_scan_states(sm.warps, bin, kept, 1);
    __syncthreads();
    tile_states(sm.warps, st, id, bin, 1);
    __syncthreads();
    const unsigned int warp_start = sm.warps.before[warp].v[0][0]; /* kept before this warp */
    U *buf = sm.slice[warp];
    unsigned int at = lanes_before.v[0][0]; /* this run's first kept element, in the warp */
    __syncwarp();
    /* TODO BEGIN 4: every kept x[i] (first + i < n and pred_keep) goes to
     * buf[pad(at)], then at + 1, ... in input order.  After __syncwarp(),
     * the lanes copy buf[pad(0 .. kept in the warp - 1)] to out[warp_start +
     * ...], a coalesced stream; the warp's kept count is its last lane's
     * `at` (take it with __shfl_sync).  In the last tile (id == gridDim.x -
     * 1), the last thread writes *count: everything kept before the last
     * warp's slice, plus what that warp kept. */
    /* TODO END 4 */
}

/* ---- stages 2 and 3: decoding, k orders, d components ---------------------------- */

/* The 1 of order_add (FMA_FROM_ORDER, common/sam_tuning.cuh). */
__constant__ unsigned int one_for_fma = 1; /* a 1 the compiler cannot fold away */

/* a + b, in a decode of K orders, for order j: a multiply-add by 1 (the
 * FMA pipe) where FMA_FROM_ORDER says so, else a plain add (the integer
 * pipe).  The same wrapping sum either way. */
template <typename U, int K> __device__ __forceinline__ U order_add(U a, U b, int j)
{
    if (sizeof(U) == 4 && K >= FMA_FROM_ORDER && (j & 1))
        return b * (U)one_for_fma + a;
    return a + b;
}

/*
 * Decode this thread's run x[] in place, starting from state `in`: k
 * prefix sums of stride D, one after the other (component c is every
 * D-th element, starting at x[c]).  Returns the state after the run.
 */
template <typename U, int K, int D, int R>
__device__ __forceinline__ state<U, K, D> decode_run(U (&x)[R], const state<U, K, D> &in,
                                                     int order)
{
    state<U, K, D> out = in;
    /* TODO BEGIN 5: for each order j < order (and j < K): one prefix sum of
     * stride D over x[], in place, that starts from the carry in.v[j][]:
     * x[i] += in.v[j][i] for i < D, then x[i] += x[i - D].  After it, x[] holds this
     * order's sums, which the next order sums again; out.v[j][c] is its
     * last value of component c, x[R - D + c].  (The reference writes the
     * second add as order_add, the same sum on another pipe at order 8;
     * a plain += is as right, and about 1 % slower there.) */
    /* TODO END 5 */
    return out;
}

/*
 * Move state s along a span of length L (B = B_L) and add a: the rule of
 * carry algebra (common/sam_state.cuh), for orders 0..order-1.  Orders
 * past `order` are left alone.
 */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> advance(const U *B, const state<U, K, D> &s,
                                                  const state<U, K, D> &a, int order)
{
    state<U, K, D> r = a;
    /* TODO BEGIN 6: for each order j < order (and j < K) and component c,
     * r.v[j][c] = a.v[j][c] + sum over e = 0..j of B[e] * s.v[j - e][c].
     * (B[0] is 1: order j keeps its own carry; the lower orders' carries
     * have been summed into it e more times.)  Loops over j, e and c with
     * compile-time bounds (K, D) and an `if (j < order)`, so that the
     * arrays stay in registers. */
    /* TODO END 6 */
    return r;
}

/*
 * Each lane brings `mine`, its run's result from a zero state, and gets
 * back the result of the lanes before it (a zero state for lane 0); the
 * warp's total goes to ws.total.  An inclusive warp scan in which
 * combining moves the lower lanes' result along the higher lanes' runs
 * (at step `offset`, a lane's own span is `offset` runs: B row b).
 */
template <typename U, int K, int D>
__device__ state<U, K, D> warp_scan_states(warp_states<U, K, D> &ws, const binomials<U> &bin,
                                           state<U, K, D> mine, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    state<U, K, D> before; /* what the lanes below this one give */
    clear(before);
    /* TODO BEGIN 7: for b = 0..4 (offset = 1 << b): below = shfl_up(mine,
     * offset, order); lanes with lane >= offset set mine = advance(bin.c[B_LANES
     * + b], below, mine, order): the lower span moved along this lane's
     * span, plus this lane's.  Then lane 31 stores the warp's total in
     * ws.total[warp], and every lane returns the inclusive result of
     * the lane below it (shfl_up by 1; lane 0 returns a cleared state). */
    /* TODO END 7 */
    return before;
}

/*
 * Decode one tile in one pass: each warp's slice comes in once; a thread
 * decodes its run from a zero state to learn what its run does (its
 * result); the results become starting states by a warp scan, the warps'
 * chain and the look-back; the thread decodes its run again, this time
 * from its true starting state, and the slice goes out once.  (A folded
 * decode, see folded(), keeps pass 1's values and adds the starting
 * states as the slice goes out.)
 */
template <typename U, int K, int D>
__global__ void __launch_bounds__(TILE_THREADS, DECODE_MINB(U, K, D))
    decode_kernel(const U *in, U *out, size_t n, tile_state st, binomials<U> bin, int aligned)
{
    /* The order is the kernel's K, known to the compiler, so no loop over
     * orders tests it and no state is bigger than it (the order as an
     * argument of one kernel of KMAX orders was much slower). */
    constexpr int order = K, RUN = decode_run_bytes<U, K, D>();
    typedef shape<U, D, RUN> S;
    constexpr bool FOLD = folded<U, K, D, RUN>(); /* pass 2 in the store */
    typedef tile_smem<U, U, K, D, RUN, FOLD> smem_t;
    smem_t &sm = block_smem<smem_t>();
    const unsigned int id = take_tile(&sm.id, st), warp = threadIdx.x / 32;
    fetch_rows(sm.warps.rows, bin.lane);
    load_slice<U, D, RUN>(sm.slice[warp], in, n, id, aligned);
    constexpr int STEP = slice_layout<U, D, RUN>::STEP;
    state<U, K, D> mine; /* what this run does: decoded from a zero state */
    clear(mine);
#pragma unroll
    for (int i = 0; i < S::R; i += STEP) {
        U x[STEP];
        read_elems<U, D, RUN>(sm.slice[warp], i, x);
        mine = decode_run(x, mine, order);
        if (FOLD)
            write_elems<U, D, RUN>(sm.slice[warp], i, x);
    }
    const state<U, K, D> lanes_before = warp_scan_states(sm.warps, bin, mine, order);
    rows_landed();
    __syncthreads();
    tile_states(sm.warps, st, id, bin, order);
    __syncthreads();
    state<U, K, D> s = run_start(sm.warps, bin, lanes_before, order);
    if constexpr (FOLD) {
        U *starts = sm.starts[warp];
#pragma unroll
        for (int c = 0; c < D; c++)
            starts[threadIdx.x % 32 * D + c] = s.v[0][c];
        __syncwarp();
        store_slice<U, D, RUN>(sm.slice[warp], out, n, id, aligned, starts);
    } else {
#pragma unroll
        for (int i = 0; i < S::R; i += STEP) {
            U x[STEP];
            read_elems<U, D, RUN>(sm.slice[warp], i, x);
            s = decode_run(x, s, order);
            write_elems<U, D, RUN>(sm.slice[warp], i, x);
        }
        store_slice<U, D, RUN>(sm.slice[warp], out, n, id, aligned);
    }
}

/* ---- host side -------------------------------------------------------------------- */

/* Grid of a grid-stride loop over n elements. */
static unsigned int stride_blocks(size_t n)
{
    size_t blocks = (n + 255) / 256;
    return (unsigned int)(blocks < 4096 ? blocks : 4096);
}


/* One decode launch: k orders (at most K) of tuple size D. */
template <typename U, int K, int D>
static cudaError_t launch_decode(const U *in, U *out, size_t n)
{
    constexpr int RUN = decode_run_bytes<U, K, D>();
    const size_t tiles = (n + shape<U, D, RUN>::TILE - 1) / shape<U, D, RUN>::TILE;
    const unsigned int words = (unsigned int)desc_words(K * D * (int)(sizeof(U) / 4));
    const size_t smem = sizeof(tile_smem<U, U, K, D, RUN, folded<U, K, D, RUN>()>);
    tile_state st;
    binomials<U> bin;
    CUDA_TRY(fresh_state(tiles, words, &st));
    CUDA_TRY(kernel_binomials<U, D, RUN>(&bin));
    CUDA_TRY(allow_smem(decode_kernel<U, K, D>, smem));
    decode_kernel<U, K, D><<<(unsigned int)tiles, TILE_THREADS, smem>>>(
        in, out, n, st, bin, aligned16(in, out));
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

/* Stage 1, three steps: flags, scan, scatter (two n-word arrays of scratch,
 * and the given scan's own).  The scan is given (common/scan_given.cuh) and
 * built from none of this file's TODOs, so TODO 1-2 are graded alone. */
template <typename U> static int run_compact_3step(const lab_problem *p)
{
    const compact_args *a = (const compact_args *)p->args;
    if (p->n == 0)
        return (int)cudaMemsetAsync(a->count, 0, sizeof(U), 0);
    char *scratch;
    CUDA_TRY(kept_memory(1, (2 * p->n + scan_given_scratch()) * sizeof(unsigned int), &scratch));
    unsigned int *flags = (unsigned int *)scratch;
    unsigned int *pos = flags + p->n;
    flag_kernel<U><<<stride_blocks(p->n), 256>>>((const U *)p->in, flags, p->n, a->pred);
    CUDA_TRY(cudaGetLastError());
    CUDA_TRY(scan_given(flags, pos, p->n, pos + p->n));
    scatter_kernel<U><<<stride_blocks(p->n), 256>>>((const U *)p->in, flags, pos, (U *)p->out,
                                                    (U *)a->count, p->n);
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

/* Stage 1, fused: one launch, a look-back on counts. */
template <typename U> static int run_compact(const lab_problem *p)
{
    const compact_args *a = (const compact_args *)p->args;
    if (p->n == 0)
        return (int)cudaMemsetAsync(a->count, 0, sizeof(U), 0);
    const size_t tiles = (p->n + shape<U, 1>::TILE - 1) / shape<U, 1>::TILE;
    const size_t smem = sizeof(tile_smem<U, unsigned int, 1, 1>);
    tile_state st;
    binomials<unsigned int> bin;
    CUDA_TRY(fresh_state(tiles, 1, &st));
    CUDA_TRY(kernel_binomials<unsigned int, 1, RUN_BYTES>(&bin));
    CUDA_TRY(allow_smem(compact_kernel<U>, smem));
    compact_kernel<U><<<(unsigned int)tiles, TILE_THREADS, smem>>>(
        (const U *)p->in, (U *)p->out, (U *)a->count, p->n, a->pred, st, bin,
        aligned16(p->in, p->out));
    CUDA_TRY(cudaGetLastError());
    return cudaSuccess;
}

/*
 * Stages 2-3.  D and the order are compile-time constants, so states
 * live in registers and no loop tests the order.  Orders 1..8 of single
 * values each have their kernel (K = the order).  Orders above 1 of
 * tuples run the order-1 tuple kernel `order` times, in place (order-k
 * decoding is k prefix sums in turn): one pass per order.  Their one-pass
 * kernels (8 orders of 7 tuple sizes, twice) would be most of this file's
 * nvcc time, which every student's build pays; no graded speed case is a
 * tuple of a higher order.
 */
template <typename U, int D> static int run_decode_d(const lab_problem *p, int order)
{
    if (D == 1)
        switch (order) {
        case 2: return launch_decode<U, 2, 1>((const U *)p->in, (U *)p->out, p->n);
        case 3: return launch_decode<U, 3, 1>((const U *)p->in, (U *)p->out, p->n);
        case 4: return launch_decode<U, 4, 1>((const U *)p->in, (U *)p->out, p->n);
        case 5: return launch_decode<U, 5, 1>((const U *)p->in, (U *)p->out, p->n);
        case 6: return launch_decode<U, 6, 1>((const U *)p->in, (U *)p->out, p->n);
        case 7: return launch_decode<U, 7, 1>((const U *)p->in, (U *)p->out, p->n);
        case 8: return launch_decode<U, 8, 1>((const U *)p->in, (U *)p->out, p->n);
        }
    CUDA_TRY(launch_decode<U, 1, D>((const U *)p->in, (U *)p->out, p->n));
    for (int k = 1; k < order; k++)
        CUDA_TRY(launch_decode<U, 1, D>((const U *)p->out, (U *)p->out, p->n));
    return cudaSuccess;
}

template <typename U> static int run_decode(const lab_problem *p)
{
    const decode_args *a = (const decode_args *)p->args;
    if (p->n == 0)
        return cudaSuccess;
    switch (a->tuple) {
    case 1: return run_decode_d<U, 1>(p, a->order);
    case 2: return run_decode_d<U, 2>(p, a->order);
    case 3: return run_decode_d<U, 3>(p, a->order);
    case 4: return run_decode_d<U, 4>(p, a->order);
    case 5: return run_decode_d<U, 5>(p, a->order);
    case 6: return run_decode_d<U, 6>(p, a->order);
    case 7: return run_decode_d<U, 7>(p, a->order);
    case 8: return run_decode_d<U, 8>(p, a->order);
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
    {"compact-3step", "compaction: flags, scan, scatter (TODO 1-2)", "compact", 0, "0",
     compact_3step},
    {"compact", "compaction in one pass, look-back on counts (TODO 3-4)", "compact", 0, "0",
     compact},
    {"decode", "order-k, d-tuple delta decoding in one pass (TODO 5-7)", "decode", 0, "0", decode},
};

const lab_def LAB = {"lab7-scan-at-work", "scan at work: stream compaction, higher-order and tuple prefix sums",
                     variants, 3, 2};
