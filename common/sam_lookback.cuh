/*
 * sam_lookback.cuh - lab 7's tile layer: lab 6's decoupled look-back
 * (common/lookback.cuh's descriptors, publication and back-off), for
 * tiles whose published value is a whole state.  A warp publishes a
 * state in one instruction, polls a window of 32 x LOOKBACK_TILES
 * predecessors at once, and moves what it finds along the tiles between
 * them and itself (sam_state.cuh) before adding it up.
 */
#ifndef SAM_LOOKBACK_CUH
#define SAM_LOOKBACK_CUH

#include "lookback.cuh"
#include "sam_state.cuh"

/* One word of a tile's descriptor: a status and 32 bits of the state. */
typedef descriptor word;

/*
 * A tile's descriptor is a whole state, k x d values, too big for lab 6's
 * single word.  Each 32 bits of it travel in a word of their own, with the
 * status beside them, published by one atomic exchange (lab 6: the atomic
 * is served in L2, where every poller reads).  A reader takes a tile's
 * descriptor only when every word of it shows the same status, so it can
 * never mix an aggregate with a prefix; no fence is needed, since no
 * reader ever reads a value that is not in the word it judged.
 */

/* Words per value: 1 for int32, 2 for int64 (low half first). */
template <typename U> __device__ __forceinline__ constexpr int halves() { return sizeof(U) / 4; }

struct tile_state {
    unsigned int *next_tile; /* ticket counter for dynamic tile ids */
    volatile word *desc;     /* [tile][words]: each tile's descriptor */
    unsigned int words;      /* words per descriptor: desc_words(order x d x halves) */
};

/* Words a descriptor of w words takes in the table: an odd count above 1
 * gets one word of padding, so that every descriptor starts 16 bytes
 * aligned and a poll reads it in pairs (load_pair), never word by word.
 * One word (plain sums, compaction) stays one. */
__host__ __device__ constexpr int desc_words(int w) { return w > 1 ? (w + 1) / 2 * 2 : w; }

/* Lane w's word of tile id's descriptor, for a lane that holds word w's
 * value v alone (publish_state below sends a whole state, the same in
 * every lane): half w % halves of v, with `status` beside it, in one
 * atomic exchange (served in L2, where every poller reads). */
template <typename U>
__device__ __forceinline__ void publish_word(tile_state st, unsigned int id, unsigned int status, U v)
{
    const unsigned int w = threadIdx.x % 32;
    atomicExch((word *)&st.desc[(size_t)id * st.words + w],
               pack(status, (unsigned int)(v >> (32 * (w % halves<U>())))));
}

/*
 * Warp 0: publish state s of tile `id` with `status`.  Lane w sends word
 * w (s is the same in every lane), so the whole descriptor goes out in one
 * atomic instruction, one request to L2, and readers seldom find it half
 * written (sent word by word, a poller would often find some words new and
 * some old, and poll again).  All loops unrolled, so s stays in registers.
 */
template <typename U, int K, int D>
__device__ void publish_state(tile_state st, unsigned int id, unsigned int status,
                        const state<U, K, D> &s, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    constexpr int W = K * D * halves<U>();
    volatile word *d = st.desc + (size_t)id * st.words;
#pragma unroll
    for (int base = 0; base < W; base += 32) {
        unsigned int bits = 0; /* word base + lane */
#pragma unroll
        for (int j = 0; j < K; j++)
#pragma unroll
            for (int c = 0; c < D; c++)
#pragma unroll
                for (int h = 0; h < halves<U>(); h++)
                    if ((j * D + c) * halves<U>() + h == base + (int)lane)
                        bits = (unsigned int)(s.v[j][c] >> (32 * h));
        if (base + (int)lane < W)
            atomicExch((word *)&d[base + lane], pack(status, bits));
    }
    (void)order;
}

/*
 * Two neighbouring words of a descriptor (16-byte aligned) in one 16-byte
 * load.  Each word is still read whole, which is all the status check
 * needs, and a poll issues half the loads.  The CPU emulator reads them
 * one at a time.
 */
__device__ __forceinline__ void load_pair(const volatile word *p, word *a, word *b)
{
#if defined(__CUEMU__)
    *a = p[0];
    *b = p[1];
#else
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(*a), "=l"(*b)
                 : "l"(p)
                 : "memory");
#endif
}

/* Read tile `tile`'s descriptor into s; its status, or X while its words
 * disagree (a publication in progress). */
template <typename U, int K, int D>
__device__ unsigned int read_descriptor(tile_state st, long tile, state<U, K, D> &s, int order)
{
    if (tile < 0) { /* before tile 0: the zero state, final */
        clear(s);
        return STATUS_P;
    }
    const volatile word *d = st.desc + (size_t)tile * st.words;
    constexpr int W = K * D * halves<U>(); /* the descriptor's words: every kernel's order is its K */
    constexpr int WP = desc_words(W);      /* with its padding, never published */
    word all[WP];
    if (WP % 2 == 0) {
#pragma unroll
        for (int w = 0; w < WP; w += 2)
            load_pair(d + w, &all[w], &all[w + 1]);
    } else {
        all[0] = d[0];
    }
    unsigned int status = status_of(all[0]), agree = 1;
    clear(s);
#pragma unroll
    for (int j = 0; j < K; j++)
        if (j < order)
#pragma unroll
            for (int c = 0; c < D; c++)
#pragma unroll
                for (int h = 0; h < halves<U>(); h++) {
                    const word w = all[(j * D + c) * halves<U>() + h];
                    agree &= status_of(w) == status;
                    s.v[j][c] |= (U)(unsigned int)w << (32 * h);
                }
    return agree ? status : STATUS_X;
}

/*
 * The sum of s over lanes 0..last, in every lane (lanes past `last` hold
 * zero states).  A butterfly over the smallest power-of-two group that
 * holds lanes 0..last, then a broadcast from lane 0 when that group is
 * not the whole warp: when the inclusive prefix lies a few tiles back, as
 * it mostly does, a few shuffles instead of five rounds of them.
 */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> window_sum(state<U, K, D> s, unsigned int last, int order)
{
#pragma unroll
    for (unsigned int offset = 1; offset < 32; offset *= 2) {
        if (offset > last)
            break;
#pragma unroll
        for (int j = 0; j < K; j++)
            if (j < order)
#pragma unroll
                for (int c = 0; c < D; c++)
                    s.v[j][c] += __shfl_xor_sync(FULL_MASK, s.v[j][c], offset);
    }
    return last < 16 ? shfl_from(s, 0, order) : s;
}

/*
 * Records of one order (d a power of two): component lane % D of the sum
 * of v over the warp, in that lane.  Each step halves what a lane holds:
 * at bit b it keeps the components whose bit b is the lane's and sends
 * its partner (lane ^ b) the others, so the sum takes D - 1 + 5 - log2(D)
 * shuffles (9 for 8-tuples) where window_sum takes up to 5 x D and a
 * broadcast of D.  Shuffles wait behind the other block's shared-memory
 * traffic, and the P that follows is what the next tiles wait for.
 */
template <typename U, int D> __device__ __forceinline__ U sum_by_component(const U (&v)[D])
{
    static_assert((D & (D - 1)) == 0, "a power of two");
    const unsigned int lane = threadIdx.x % 32;
    U a[D];
#pragma unroll
    for (int i = 0; i < D; i++)
        a[i] = v[i];
#pragma unroll
    for (int m = D, bit = 1; m > 1; m /= 2, bit *= 2) { /* a[i]: component lane % bit + bit x i */
        const bool up = lane & bit;
#pragma unroll
        for (int i = 0; i < m / 2; i++)
            a[i] = (up ? a[2 * i + 1] : a[2 * i]) + __shfl_xor_sync(FULL_MASK, up ? a[2 * i] : a[2 * i + 1], bit);
    }
#pragma unroll
    for (int bit = D; bit < 32; bit *= 2)
        a[0] += __shfl_xor_sync(FULL_MASK, a[0], bit);
    return a[0];
}

/*
 * One lane's share of a look-back window: the LOOKBACK_TILES tiles
 * nearest - t (t = 0, 1, ...), read at once, then combined nearest first
 * into one state as seen from tile `nearest`: tile t's state moved along
 * the t tiles after it.  The first P ends the lane's share (what lies
 * behind it is in it).  Returns whether the lane holds a P; *x_first tells
 * whether an X came before it (or, without a P, anywhere).
 */
template <typename U, int K, int D>
__device__ bool lane_tiles(tile_state st, long nearest, const binomials<U> &bin,
                           state<U, K, D> &acc, bool *x_first, int order)
{
    state<U, K, D> s[LOOKBACK_TILES];
    unsigned int status[LOOKBACK_TILES];
#pragma unroll
    for (int t = 0; t < LOOKBACK_TILES; t++)
        status[t] = read_descriptor(st, nearest - t, s[t], order);
    bool p = false, x = false;
    clear(acc);
#pragma unroll
    for (int t = 0; t < LOOKBACK_TILES; t++) {
        if (p)
            break;
        x |= status[t] == STATUS_X;
        p = status[t] == STATUS_P;
        const state<U, K, D> moved =
            shifted_by_count<LOOKBACK_BITS>(bin.c + B_TILES, s[t], t, LOOKBACK_TILES - 1, order);
#pragma unroll
        for (int j = 0; j < K; j++)
#pragma unroll
            for (int c = 0; c < D; c++)
                acc.v[j][c] += moved.v[j][c];
    }
    *x_first = x;
    return p;
}

/* B for the tiles between a window and the tile, one window further
 * back: window *= B_WINDOW, as polynomials (orders 0..K-1). */
template <int K, typename U>
__device__ __forceinline__ void further_back(U (&window)[KMAX], const binomials<U> &bin)
{
    U next[KMAX] = {0};
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
        for (int e = 0; e <= j; e++)
            next[j] += bin.c[B_WINDOW][e] * window[j - e];
#pragma unroll
    for (int j = 0; j < K; j++)
        window[j] = next[j];
}

/*
 * Poll one window of the look-back, the 32 x LOOKBACK_TILES tiles from
 * `end` back: lane k's share (lane_tiles) into s, polled again while an X
 * lies before the window's first P.  Returns which lanes hold a P.
 */
template <typename U, int K, int D>
__device__ unsigned int poll_window(tile_state st, long end, const binomials<U> &bin,
                                    state<U, K, D> &s, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    unsigned int ns = 8;
    for (;;) {
        bool x_first;
        const bool has_p = lane_tiles(st, end - (long)(lane * LOOKBACK_TILES), bin, s, &x_first,
                                      order);
        const unsigned int x = __ballot_sync(FULL_MASK, x_first);
        const unsigned int p = __ballot_sync(FULL_MASK, has_p);
        const unsigned int first_p = p ? __ffs(p) - 1 : 32;
        if ((first_p == 32 ? x : x & ((2u << first_p) - 1)) == 0)
            return p;
        back_off(&ns);
    }
}

/*
 * Warp 0 of tile `id`, after publishing its aggregate: lab 6's warp-
 * parallel look-back, for states.  Windows of 32 x LOOKBACK_TILES tiles,
 * nearest first, until one holds a P.  A lane adds up its shares of all
 * windows first, an older window's share moved along the tiles of the
 * newer ones (`window`: the same for every lane); only at the end is each
 * lane's sum moved along the k x LOOKBACK_TILES tiles between it and its
 * window's end (lane k's row of lane_rows) and summed over the lanes.
 * Moving and summing are linear, so this is the sum window by window,
 * with one warp reduction instead of one per window.  Returns this lane's
 * part of the state before tile id (lookback below sums the lanes), and in
 * *lanes the last lane whose part is not zero.
 */
template <typename U, int K, int D>
__device__ state<U, K, D> lookback_lanes(tile_state st, long id, const binomials<U> &bin,
                                         const U (*tile_rows)[32], unsigned int *lanes, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    state<U, K, D> mine, s; /* this lane's shares of the windows so far; of one window */
    clear(mine);
    U window[KMAX] = {1}; /* B for the tiles of the newer windows: none yet */
    unsigned int last = 31; /* the lanes to sum: all, once more than one window was read */
    for (long end = (long)id - 1;; end -= 32 * LOOKBACK_TILES) {
        const unsigned int p = poll_window(st, end, bin, s, order);
        const unsigned int first_p = p ? __ffs(p) - 1 : 31;
        if (end == (long)id - 1)
            last = first_p;
        if (lane > first_p)
            clear(s); /* behind the first P */
        mine = advance(window, s, mine, order);
        if (p)
            break;
        further_back<K>(window, bin); /* the next window lies behind this one's tiles */
    }
    *lanes = last;
    return shifted_by_lane(tile_rows, mine, order);
}

/* The state before tile id, in every lane (state_before also asks it for
 * the tile just behind the window warps' windows). */
template <typename U, int K, int D>
__device__ state<U, K, D> lookback(tile_state st, long id, const binomials<U> &bin,
                                   const U (*tile_rows)[32], int order)
{
    unsigned int last;
    const state<U, K, D> mine = lookback_lanes<U, K, D>(st, id, bin, tile_rows, &last, order);
    return window_sum(mine, last, order);
}

/* ---- host side ------------------------------------------------------------ */

/* Tile state for `tiles` tiles of `words`-word descriptors, zeroed on the
 * stream (every status X, ticket 0), in scratch slot 0 (kept_memory). */
static cudaError_t fresh_state(size_t tiles, unsigned int words, tile_state *st)
{
    const size_t bytes = 16 + tiles * words * sizeof(word);
    char *m;
    CUDA_TRY(kept_memory(0, bytes, &m));
    CUDA_TRY(cudaMemsetAsync(m, 0, bytes, 0));
    st->next_tile = (unsigned int *)m;
    st->desc = (word *)(m + 16);
    st->words = words;
    return cudaSuccess;
}

#endif
