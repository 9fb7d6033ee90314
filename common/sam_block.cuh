/*
 * sam_block.cuh - lab 7's block layer: the states that cross from warp to
 * warp and from tile to tile, between a tile's two barriers.  Warp 0
 * publishes the tile's own result (A) as soon as it can and then looks
 * back, since every later tile may be waiting for it; the other warps
 * poll older windows or scan the warps' totals meanwhile.  Built on the
 * thread layer (sam_state.cuh), the look-back (sam_lookback.cuh) and the
 * slices (sam_slices.cuh); scan.cu's kernels call tile_states and
 * run_start between their barriers.
 */
#ifndef SAM_BLOCK_CUH
#define SAM_BLOCK_CUH

#include "sam_lookback.cuh"
#include "sam_slices.cuh"

/* Whether the warps' totals of K orders are scanned by another warp than
 * warp 0 (tile_states says why): orders above 1, where a barrier follows
 * the window warps and a warp is left over after them. */
#define SCANNER_WARP(K) ((K) > 1 && LOOKBACK_WARPS_OF(K) > 1 && LOOKBACK_WARPS_OF(K) < WARPS)

/* With a scanner warp: warps 0..w's totals scanned (warp_states::total
 * holds them otherwise), and each warp's total moved to the tile's end,
 * value by value.  Without one it is empty, and takes no room. */
template <typename U, int K, int D, bool SPLIT = SCANNER_WARP(K)> struct scanner_states {};
template <typename U, int K, int D> struct scanner_states<U, K, D, true> {
    state<U, K, D> scanned[WARPS];
    U moved[K * D][WARPS];
};

/* The states that cross from warp to warp, in shared memory. */
template <typename U, int K, int D> struct warp_states : scanner_states<U, K, D> {
    state<U, K, D> total[WARPS];  /* each warp's slice from a zero state */
    state<U, K, D> before[WARPS]; /* the state where each warp's slice starts */
    alignas(16) lane_rows<U, K> rows; /* the block's copy of the lane rows (orders above 1) */
    state<U, K, D> window[LOOKBACK_WARPS_OF(K)]; /* window q's tiles, summed as seen from its end */
    unsigned int window_p[LOOKBACK_WARPS_OF(K)]; /* whether window q holds a P */
    static_assert(LOOKBACK_WARPS_OF(K) >= 1 && LOOKBACK_WARPS_OF(K) <= WARPS, "LOOKBACK_WARPS: 1 .. WARPS");
    /* the warps' totals scanned, wherever they are */
    __device__ const state<U, K, D> *scanned_totals() const
    {
        if constexpr (SCANNER_WARP(K))
            return this->scanned;
        else
            return total;
    }
};

/*
 * A block's copy of the lane rows of its K orders, from global into
 * shared memory.  Read from global memory at every move, they would miss
 * L1 (the streamed slices keep replacing it), and each tile would wait for
 * L2 on its critical path, in warp 0's tile_states and at every warp's run
 * start.  The copy is asynchronous (cp.async, 16 bytes a thread, no
 * registers held): it goes out when the tile starts and is waited for
 * before the first barrier, so it arrives while pass 1 runs.  One order
 * reads no rows, so it copies none.  The CPU emulator and GPUs older than
 * sm_80 (no cp.async) copy at once.
 */
template <typename T> __device__ __forceinline__ auto &row_table(T &rows, int t)
{
    return t == 0 ? rows.runs : t == 1 ? rows.slices : rows.tiles;
}
template <typename U, int K>
__device__ __forceinline__ void fetch_rows(lane_rows<U, K> &rows, const lane_rows<U> *g)
{
    if (K == 1)
        return;
    constexpr int CHUNKS = K * 32 * (int)sizeof(U) / 16; /* 16-byte pieces of one table's K rows */
    for (int i = threadIdx.x; i < 3 * CHUNKS; i += TILE_THREADS) {
        const char *src = (const char *)row_table(*g, i / CHUNKS) + 16 * (i % CHUNKS);
        char *dst = (char *)row_table(rows, i / CHUNKS) + 16 * (i % CHUNKS);
#if defined(__CUEMU__) || (defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800)
        *reinterpret_cast<uint4 *>(dst) = *reinterpret_cast<const uint4 *>(src);
#else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(
                         (unsigned int)__cvta_generic_to_shared(dst)),
                     "l"(src)
                     : "memory");
#endif
    }
}
/* This thread's part of fetch_rows has landed (a barrier must follow). */
__device__ __forceinline__ void rows_landed()
{
#if !defined(__CUEMU__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;" ::: "memory");
#endif
}

/* Defined in scan.cu (TODO 7), used by tile_states' callers. */
template <typename U, int K, int D>
__device__ state<U, K, D> warp_scan_states(warp_states<U, K, D> &ws, const binomials<U> &bin,
                                           state<U, K, D> mine, int order);

/* Shared memory of one block: each warp's slice of elements E on its way
 * in and out, and the warps' states (of type U: E itself when decoding,
 * counts when compacting); a folded decode's runs' starting states. */
template <typename E, int D, bool FOLD> struct folded_starts {};
template <typename E, int D> struct folded_starts<E, D, true> {
    E starts[WARPS][32 * D]; /* each run's starting state, run r's at r x D (folded decodes) */
};
template <typename E, typename U, int K, int D, int RUN = RUN_BYTES, bool FOLD = false>
struct tile_smem : folded_starts<E, D, FOLD> {
    E slice[WARPS][PADDED((shape<E, D, RUN>::SLICE))];
    warp_states<U, K, D> warps;
    unsigned int id; /* this block's tile */
};

/*
 * Warp q < LOOKBACK_WARPS_OF(K): window q of tile id's look-back, the 32 x
 * LOOKBACK_TILES tiles from id - 1 - q x 32 x LOOKBACK_TILES back, up to
 * its first P, summed as seen from the window's end (each lane's share
 * moved along the tiles between it and the end, by its row of
 * lane_rows), into ws.window[q].
 */
template <typename U, int K, int D>
__device__ void window_share(warp_states<U, K, D> &ws, tile_state st, unsigned int id,
                             unsigned int q, const binomials<U> &bin, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    state<U, K, D> s;
    const unsigned int p =
        poll_window(st, (long)id - 1 - (long)q * 32 * LOOKBACK_TILES, bin, s, order);
    const unsigned int last = p ? __ffs(p) - 1 : 31;
    if (lane > last)
        clear(s); /* behind the first P */
    s = window_sum(shifted_by_lane(ws.rows.tiles, s, order), last, order);
    if (lane == 0) {
        ws.window[q] = s;
        ws.window_p[q] = p != 0;
    }
}

/*
 * Warp 0, from what the window warps found: the state before tile id.
 * Windows 0, 1, ... up to the first that holds a P, each moved along the
 * windows after it (`window`: B for their tiles); if none of them does,
 * warp 0 looks further back alone (lookback) from the tile after them.
 */
template <typename U, int K, int D>
__device__ state<U, K, D> state_before(const warp_states<U, K, D> &ws, tile_state st,
                                       unsigned int id, const binomials<U> &bin, int order)
{
    state<U, K, D> before;
    clear(before);
    U window[KMAX] = {1}; /* B for the tiles of the newer windows: none yet */
#pragma unroll
    for (int q = 0; q < LOOKBACK_WARPS_OF(K); q++) {
        before = advance(window, ws.window[q], before, order);
        if (ws.window_p[q])
            return before;
        further_back<K>(window, bin);
    }
    const long further = (long)id - 32L * LOOKBACK_TILES * LOOKBACK_WARPS_OF(K);
    return advance(window, lookback<U, K, D>(st, further, bin, ws.rows.tiles, order), before, order);
}

/*
 * Warp 0's scan of the warps' totals for records of one order (k = 1,
 * d > 1), a component per lane: lane (g, c) adds up component c of the
 * totals of warps g x PER .. g x PER + PER - 1, read from shared memory,
 * and the G groups scan their sums by log2(G) shuffles (one move is a
 * plain sum at one order).  Then the tile's total goes out as A, and each
 * lane writes back its warps' scanned totals.  Why not the state-per-lane
 * scan below: warp shuffles go through the SM's shared-memory pipe, which
 * the other block's slices keep busy, and a state-per-lane scan of an
 * 8-tuple takes 40 of them on the way to A, which the next tiles wait for.
 */
template <typename U, int K, int D>
__device__ void scan_totals_by_component(warp_states<U, K, D> &ws, tile_state st, unsigned int id)
{
    constexpr int FIT = 32 / D; /* groups of D lanes in a warp */
    constexpr int G2 = FIT >= 16 ? 16 : FIT >= 8 ? 8 : FIT >= 4 ? 4 : FIT >= 2 ? 2 : 1;
    constexpr int G = G2 < WARPS ? G2 : WARPS, PER = WARPS / G; /* groups, warps per group */
    constexpr int W = K * D * halves<U>();
    static_assert(K == 1 && G * PER == WARPS, "one order; whole groups of warps");
    const unsigned int lane = threadIdx.x % 32, c = lane % D, g = lane / D;
    U incl[PER], sum = 0; /* this lane's warps, scanned within the group */
#pragma unroll
    for (int k = 0; k < PER; k++) {
        if (g < G)
            sum += ws.total[g * PER + k].v[0][c];
        incl[k] = sum;
    }
#pragma unroll
    for (int o = 1; o < G; o *= 2) {
        const U below = __shfl_up_sync(FULL_MASK, sum, D * o);
        if (g >= (unsigned int)o)
            sum += below;
    }
    /* word w of the descriptor: half w % halves of component w / halves of the last group */
    const U total = __shfl_sync(FULL_MASK, sum, (G - 1) * D + (lane / halves<U>()) % D);
    if ((int)lane < W)
        publish_word(st, id, id == 0 ? STATUS_P : STATUS_A, total);
    const U groups_before = sum - incl[PER - 1];
    if (g < G)
#pragma unroll
        for (int k = 0; k < PER; k++)
            ws.total[g * PER + k].v[0][c] = groups_before + incl[k];
}

/*
 * The warps' totals scanned, lane w < WARPS holding warps 0..w's (at step
 * 1 << b, a lane's own span is 1 << b slices: B row B_SLICES + b), so
 * the tile's own result is ready after log2(WARPS) steps instead of a
 * chain of WARPS.
 */
template <typename U, int K, int D>
__device__ __forceinline__ state<U, K, D> scan_totals_by_lane(const warp_states<U, K, D> &ws,
                                                             const binomials<U> &bin, int order)
{
    const unsigned int lane = threadIdx.x % 32;
    state<U, K, D> mine;
    if (lane < WARPS)
        mine = ws.total[lane];
    else
        clear(mine);
#pragma unroll
    for (int b = 0; b < SLICE_ROWS; b++) {
        const unsigned int offset = 1u << b;
        const state<U, K, D> below = shfl_up(mine, offset, order);
        if (lane >= offset)
            mine = advance(bin.c[B_SLICES + b], below, mine, order);
    }
    return mine;
}

/*
 * Warp 0, orders above 1: the tile's total, published as A, without the
 * scan.  Lane w < WARPS moves warp w's total along the WARPS - 1 - w
 * slices after it (one move, by its lane row), the lanes' states go
 * through shared memory value by value, and lane i adds up value i of
 * them.  A scan by lanes (which a scanner warp does meanwhile) takes 40
 * shuffles at order 8, and shuffles wait behind the other block's
 * shared-memory traffic, so A would go out later.
 */
template <typename U, int K, int D>
__device__ void total_by_rows(warp_states<U, K, D> &ws, tile_state st, unsigned int id, int order)
{
    constexpr int W = K * D * halves<U>();
    static_assert(W <= 32, "a descriptor word per lane");
    const unsigned int lane = threadIdx.x % 32;
    if (lane < WARPS) {
        U B[KMAX];
#pragma unroll
        for (int e = 0; e < K; e++)
            B[e] = e < order ? ws.rows.slices[e][WARPS - 1 - lane] : U(0);
        const state<U, K, D> s = shifted(B, ws.total[lane], order);
#pragma unroll
        for (int j = 0; j < K; j++)
#pragma unroll
            for (int c = 0; c < D; c++)
                ws.moved[j * D + c][lane] = s.v[j][c];
    }
    __syncwarp();
    if ((int)lane < W) { /* word w: half w % halves of value w / halves */
        U sum = 0;
#pragma unroll
        for (int w = 0; w < WARPS; w++)
            sum += ws.moved[lane / halves<U>()][w];
        publish_word(st, id, id == 0 ? STATUS_P : STATUS_A, sum);
    }
}

/*
 * Warp 0, records of one order (d a power of two), after
 * scan_totals_by_component: the state before tile id, a component per lane
 * (sum_by_component), then P and the state where each warp's slice
 * starts, component lane % D of warps lane / D, lane / D + 32 / D, ...
 */
template <typename U, int K, int D>
__device__ void records_before(warp_states<U, K, D> &ws, tile_state st, unsigned int id,
                               const binomials<U> &bin)
{
    constexpr int W = D * halves<U>();
    const unsigned int lane = threadIdx.x % 32, c = lane % D;
    U before = 0; /* component c of the state before the tile */
    if (id > 0) {
        unsigned int last;
        const state<U, K, D> mine = lookback_lanes<U, K, D>(st, id, bin, ws.rows.tiles, &last, 1);
        before = sum_by_component<U, D>(mine.v[0]);
        U p = before + ws.total[WARPS - 1].v[0][c];
        if (halves<U>() > 1) /* word w: half w % halves of component w / halves */
            p = __shfl_sync(FULL_MASK, p, lane / halves<U>());
        if ((int)lane < W)
            publish_word(st, id, STATUS_P, p);
    }
#pragma unroll
    for (unsigned int w = lane / D; w < WARPS; w += 32 / D)
        ws.before[w].v[0][c] = before + (w > 0 ? ws.total[w - 1].v[0][c] : U(0));
}

/*
 * Every warp of the block, between its two barriers.  Warp 0 first: the
 * tile's own result goes out at once as A, with the warps' totals scanned
 * (scan_totals_by_lane at order 1; scan_totals_by_component for records;
 * at orders above 1 total_by_rows, while a scanner warp scans them,
 * SCANNER_WARP: those say why).  Then the state before the tile:
 * with more than one look-back warp, warps 1 .. LOOKBACK_WARPS_OF(K) - 1
 * poll their windows meanwhile, warp 0 its own, and after a barrier warp
 * 0 adds them up (state_before); with one, warp 0 looks back alone and
 * the block does not wait.  Then the tile's inclusive state, published as
 * P before anything else (successors may be waiting for it), and last the
 * state where each warp's slice starts, into ws.before, each lane its own
 * warp's (warp w starts where warps 0..w-1 leave it).  Records of d a
 * power of two do the last three a component per lane (records_before).
 */
template <typename U, int K, int D>
__device__ void tile_states(warp_states<U, K, D> &ws, tile_state st, unsigned int id,
                            const binomials<U> &bin, int order)
{
    const unsigned int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if constexpr (K == 1 && D > 1) {
        if (warp == 0)
            scan_totals_by_component(ws, st, id);
    } else if constexpr (SCANNER_WARP(K)) {
        if (warp == 0) {
            total_by_rows(ws, st, id, order);
        } else if (warp == LOOKBACK_WARPS_OF(K)) { /* the scanner warp */
            const state<U, K, D> mine = scan_totals_by_lane(ws, bin, order);
            if (lane < WARPS)
                ws.scanned[lane] = mine;
        }
    } else if (warp == 0) {
        const state<U, K, D> mine = scan_totals_by_lane(ws, bin, order);
        publish_state(st, id, id == 0 ? STATUS_P : STATUS_A, shfl_from(mine, WARPS - 1, order), order);
        __syncwarp();
        if (lane < WARPS)
            ws.total[lane] = mine; /* from here on: warps 0..w, scanned */
    }
    if (LOOKBACK_WARPS_OF(K) > 1) {
        if (id > 0 && warp < LOOKBACK_WARPS_OF(K))
            window_share(ws, st, id, warp, bin, order);
        __syncthreads(); /* the window warps' shares (and the scanner's totals) are in ws */
    }
    if (warp != 0)
        return;
    __syncwarp(); /* each lane reads other lanes' scanned totals below */
    if constexpr (K == 1 && D > 1 && (D & (D - 1)) == 0) {
        records_before(ws, st, id, bin);
        return;
    }
    const state<U, K, D> *scanned = ws.scanned_totals();
    state<U, K, D> before;
    clear(before);
    if (id > 0) {
        before = LOOKBACK_WARPS_OF(K) > 1 ? state_before(ws, st, id, bin, order)
                                           : lookback<U, K, D>(st, id, bin, ws.rows.tiles, order);
        publish_state(st, id, STATUS_P, advance(bin.c[B_TILES], before, scanned[WARPS - 1], order), order);
    }
    state<U, K, D> slices_before; /* warps 0..w-1 from zero */
    if (lane >= 1 && lane < WARPS)
        slices_before = scanned[lane - 1];
    else
        clear(slices_before);
    state<U, K, D> start = shifted_by_lane(ws.rows.slices, before, order);
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
        for (int c = 0; c < D; c++)
            start.v[j][c] += slices_before.v[j][c];
    if (lane < WARPS)
        ws.before[lane] = start;
}

/*
 * The state where this thread's run starts: its warp's starting state
 * moved along the runs of the lanes before it (B for `lane` runs: this
 * lane's row of lane_rows), plus what those runs give (`lanes_before`).
 */
template <typename U, int K, int D>
__device__ state<U, K, D> run_start(const warp_states<U, K, D> &ws, const binomials<U> &bin,
                                    const state<U, K, D> &lanes_before, int order)
{
    state<U, K, D> s = shifted_by_lane(ws.rows.runs, ws.before[threadIdx.x / 32], order);
#pragma unroll
    for (int j = 0; j < K; j++)
#pragma unroll
        for (int c = 0; c < D; c++)
            s.v[j][c] += lanes_before.v[j][c];
    return s;
}

#endif
