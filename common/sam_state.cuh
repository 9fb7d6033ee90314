/*
 * sam_state.cuh - lab 7's thread layer: a state of k carries per
 * component, and how a state moves along a span of data (the carry
 * algebra of handouts/lab7.md section 4.3).  Every other layer of lab 7
 * (the warp scan, the warps' chain, the look-back) moves states with these
 * functions, so a count, a prefix sum, k orders and d-tuples all go
 * through the same code.  advance() and decode_run() are the lab's TODOs,
 * declared here and defined in scan.cu.
 */
#ifndef SAM_STATE_CUH
#define SAM_STATE_CUH

#include <string.h>

#include "cuda_check.h"
#include "sam_tuning.cuh"

/*
 * A state is what a decoder must know at a point of the data: for each
 * order j (0-based) and component c, the running value s[j][c] of the
 * (j+1)-th prefix sum there.  Running k prefix sums in turn over L more
 * elements of a component, starting from state s, ends in
 *     s'[j] = sum over e = 0..j of B_L[e] * s[j - e]  +  a[j]
 * where a is what the same L elements give from a zero state, and
 * B_L[e] = C(L - 1 + e, e) (handout section 4.3).  So a span of data acts
 * on a state as (B_L, a), and two spans one after the other compose:
 * B_{L1+L2} = B_L1 * B_L2 as polynomials, a = B_L2 * a1 + a2.
 */
/*
 * B for m spans of one length, one row per m = 0..31, for the moves whose
 * count is a lane's or a warp's own number: a run start is its warp's
 * start moved along `lane` runs, a slice start the tile's along `warp`
 * slices, a look-back lane's tiles along `lane` x LOOKBACK_TILES tiles.
 * With a row per lane each is one move instead of one per binary digit of
 * the count (five at most: 36 multiply-adds each at order 8).  Stored
 * [e][m], so 32 lanes reading their rows' e-th values read 128
 * consecutive bytes.  Made once per element type and tuple size, in
 * global memory (a row per lane from constant memory would be 32 reads
 * in turn), and copied by each block into its shared memory, E rows of
 * each (fetch_rows below says why).
 */
template <typename U, int E = KMAX> struct lane_rows {
    U runs[E][32];
    U slices[E][32];
    U tiles[E][32];
};

template <typename U> struct binomials {
    U c[12 + SLICE_ROWS + LOOKBACK_BITS][KMAX]; /* B for the lengths below, per component */
    const lane_rows<U> *lane;                   /* B for a lane's own count of spans */
};
/* Which length each row of binomials is for (L: a thread's run per component). */
enum {
    B_LANES = 0,                     /* rows 0-4: 1, 2, 4, 8, 16 runs (the warp scan's steps) */
    B_SLICES = 5,                    /* 1, 2, 4, ... WARPS / 2 slices of 32 runs (the warps' scan) */
    B_TILES = B_SLICES + SLICE_ROWS, /* 1, 2, 4, ... 16 x LOOKBACK_TILES tiles (a lane's own tiles) */
    B_WINDOW = B_TILES + 5 + LOOKBACK_BITS /* 32 x LOOKBACK_TILES tiles: a whole look-back window */
};

/* A state (or a span's zero-state result): k x d values. */
template <typename U, int K, int D> struct state {
    U v[K][D];
};

template <typename U, int K, int D> __device__ __forceinline__ void clear(state<U, K, D> &s)
{
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
        for (int c = 0; c < D; c++)
            s.v[j][c] = 0;
}

/* Defined in scan.cu (TODO 5-6); every move below goes through advance. */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> advance(const U *B, const state<U, K, D> &s, const state<U, K, D> &a,
                                  int order);
template <typename U, int K, int D, int R>
__device__ __forceinline__ state<U, K, D> decode_run(U (&x)[R], const state<U, K, D> &in, int order);

/* Only the move: B_L applied to s (a zero). */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shifted(const U *B, const state<U, K, D> &s, int order)
{
    state<U, K, D> zero;
    clear(zero);
    return advance(B, s, zero, order);
}

/*
 * Move s along `count` spans (count < 2^BITS) of the lengths in rows[0..]:
 * 1, 2, 4, ... spans, one row per binary digit of count (moves along spans
 * of one length commute, so the order does not matter).  Digits from
 * `limit`'s highest up are skipped: a warp whose counts are all at most
 * limit (the same in every lane) does only the moves it needs.
 */
template <int BITS, typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shifted_by_count(const U (*rows)[KMAX],
                                                           state<U, K, D> s, unsigned int count,
                                                           unsigned int limit, int order)
{
#pragma unroll
    for (int b = 0; b < BITS; b++) {
        if ((limit >> b) == 0)
            break;
        if ((count >> b) & 1)
            s = shifted(rows[b], s, order);
    }
    return s;
}

/* Move s along as many spans as this lane's number (in tile_states, lane
 * w stands for warp w): one move by this lane's row of `rows` (in shared
 * memory).  A state of one order moves unchanged (B[0] is 1), so it
 * reads nothing. */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shifted_by_lane(const U (*rows)[32],
                                                          const state<U, K, D> &s, int order)
{
    if (K == 1)
        return s;
    const unsigned int lane = threadIdx.x % 32;
    U B[KMAX];
#pragma unroll
    for (int e = 0; e < K; e++)
        B[e] = e < order ? rows[e][lane] : U(0);
    return shifted(B, s, order);
}

/* Every value of a state from another lane, one warp shuffle per value:
 * from lane - arg (UP; a lane below 0 keeps its own) or from lane arg. */
template <bool UP, typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shfl_state(const state<U, K, D> &s, unsigned int arg,
                                                     int order)
{
    state<U, K, D> r = s;
#pragma unroll
    for (int j = 0; j < K; j++)
        if (j < order)
#pragma unroll
            for (int c = 0; c < D; c++)
                r.v[j][c] = UP ? __shfl_up_sync(FULL_MASK, s.v[j][c], arg)
                               : __shfl_sync(FULL_MASK, s.v[j][c], arg);
    return r;
}
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shfl_up(const state<U, K, D> &s, unsigned int delta,
                                                  int order)
{
    return shfl_state<true>(s, delta, order);
}
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> shfl_from(const state<U, K, D> &s, unsigned int from,
                                                    int order)
{
    return shfl_state<false>(s, from, order);
}

/* ---- host side: the binomial rows a kernel is given ---------------------- */

/*
 * B_L[e] = C(L - 1 + e, e) for a run's length per component, exactly (at
 * most C(38, 7) < 2^24), then every longer span by products: the
 * polynomial of L1 + L2 elements is the product of theirs, taken modulo
 * 2^32 or 2^64 like every sum of the lab.
 */
template <typename U> static void multiply_into(const U *a, const U *b, U *out)
{
    for (int j = 0; j < KMAX; j++) {
        U s = 0;
        for (int e = 0; e <= j; e++)
            s += a[e] * b[j - e];
        out[j] = s;
    }
}
template <typename U, int D, int RUN> static binomials<U> make_binomials()
{
    binomials<U> b;
    b.lane = NULL;
    for (int e = 0; e < KMAX; e++) { /* C(L - 1 + e, e) by the multiplicative formula */
        unsigned long long c = 1;
        for (int i = 1; i <= e; i++)
            c = c * (unsigned long long)(shape<U, D, RUN>::L - 1 + i) / (unsigned long long)i;
        b.c[B_LANES][e] = (U)c;
    }
    for (int r = B_LANES + 1; r <= B_SLICES; r++) /* 2, 4, 8, 16, 32 runs (1 slice) */
        multiply_into(b.c[r - 1], b.c[r - 1], b.c[r]);
    for (int r = B_SLICES + 1; r <= B_TILES; r++) /* 2, 4, ... WARPS slices (1 tile) */
        multiply_into(b.c[r - 1], b.c[r - 1], b.c[r]);
    for (int r = B_TILES + 1; r <= B_WINDOW; r++) /* 2, 4, ... 32 x LOOKBACK_TILES tiles */
        multiply_into(b.c[r - 1], b.c[r - 1], b.c[r]);
    return b;
}

/* lane_rows for spans of one run, one slice and LOOKBACK_TILES tiles: row
 * m is B for m such spans, the m-th power of the span's B. */
template <typename U> static lane_rows<U> make_lane_rows(const binomials<U> &b)
{
    lane_rows<U> r;
    const U *span[3] = {b.c[B_LANES], b.c[B_SLICES], b.c[B_TILES + LOOKBACK_BITS]};
    U(*table[3])[32] = {r.runs, r.slices, r.tiles};
    for (int t = 0; t < 3; t++) {
        U power[KMAX] = {1}, next[KMAX];
        for (int m = 0; m < 32; m++) {
            for (int e = 0; e < KMAX; e++)
                table[t][e][m] = power[e];
            multiply_into(power, span[t], next);
            memcpy(power, next, sizeof power);
        }
    }
    return r;
}

/* The binomials a kernel of element type U, tuple size D and runs of RUN
 * bytes is given: the rows by value, the lane rows in device memory,
 * uploaded on first use and kept (one table per instantiation; they never
 * change). */
template <typename U, int D, int RUN> static cudaError_t kernel_binomials(binomials<U> *out)
{
    static lane_rows<U> *device_rows;
    binomials<U> b = make_binomials<U, D, RUN>();
    if (!device_rows) {
        const lane_rows<U> rows = make_lane_rows(b);
        CUDA_TRY(cudaMalloc((void **)&device_rows, sizeof rows));
        CUDA_TRY(cudaMemcpy(device_rows, &rows, sizeof rows, cudaMemcpyHostToDevice));
    }
    b.lane = device_rows;
    *out = b;
    return cudaSuccess;
}

#endif
