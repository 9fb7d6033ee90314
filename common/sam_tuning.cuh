/*
 * sam_tuning.cuh - lab 7's tuning shape: how big a thread's run, a tile
 * and a look-back window are, and how many blocks share an SM.  The
 * algorithm does not depend on any of it; every size of the layers below
 * (sam_state.cuh, sam_lookback.cuh, sam_slices.cuh, sam_block.cuh) is
 * derived from these.  Each can be set with -D; handouts/lab7.md section
 * 7.1 says why each value was chosen, docs/perf-notes.md gives the figures.
 */
#ifndef SAM_TUNING_CUH
#define SAM_TUNING_CUH

#include "lab.h"

/* Threads of a block.  Large tiles, because a tile's look-back must reach
 * back to a published inclusive prefix, and the fewer the tiles, the
 * fewer windows of 32 tiles a look-back walks. */
#ifndef TILE_THREADS
#define TILE_THREADS 512 /* 16 warps */
#endif
/* Bytes of a thread's run of consecutive elements: 32 int32 or 16 int64,
 * cut down to a whole number of d-records (shape below).  The run stays in
 * shared memory and goes through the thread's state a step at a time. */
#ifndef RUN_BYTES
#define RUN_BYTES 128
#endif

/* Blocks per SM the compiler must fit a decode kernel in (__launch_bounds__,
 * so registers per thread at most 65536 / (blocks x TILE_THREADS)).  While
 * warp 0 looks back, the other warps wait at a barrier, and another block
 * fills that time; at 16 warps, 2 blocks (64 registers) is the most that
 * fits without spilling.  int64 states take twice the registers, so its
 * orders and records keep 1 block. */
#ifndef MINB_ORDERS
#define MINB_ORDERS 2
#endif
#ifndef MINB_TUPLES
#define MINB_TUPLES 2
#endif
#ifndef MINB_PLAIN /* order 1 of single values, and the fused compaction */
#define MINB_PLAIN 2
#endif
#ifndef MINB_WIDE_PLAIN
#define MINB_WIDE_PLAIN 2
#endif
#ifndef MINB_WIDE_ORDERS
#define MINB_WIDE_ORDERS 1
#endif
#ifndef MINB_WIDE_TUPLES
#define MINB_WIDE_TUPLES 1
#endif
#define DECODE_MINB(U, K, D)                                                     \
    (sizeof(U) == 8 ? ((K) > 1 ? MINB_WIDE_ORDERS : (D) == 1 ? MINB_WIDE_PLAIN : MINB_WIDE_TUPLES) \
                    : (K) == 1 ? ((D) == 1 ? MINB_PLAIN : MINB_TUPLES) : MINB_ORDERS)
#define WARPS (TILE_THREADS / 32)
#define FULL_MASK 0xffffffffu
#define KMAX KIT_MAX_ORDER /* orders a state holds at most */

/* The shape of one (element type, tuple size, run bytes) triple. */
template <typename U, int D, int RUN = RUN_BYTES> struct shape {
    static constexpr int R = (RUN / (int)sizeof(U)) / D * D; /* a thread's run */
    static constexpr int L = R / D;                          /* per component */
    static constexpr int SLICE = 32 * R;                     /* a warp's elements */
    static constexpr int TILE = WARPS * SLICE;               /* a block's elements */
};

/* Run bytes of a decode kernel that fits one block per SM (int64 orders
 * and records): its one tile's loads are all the bytes its SM has in
 * flight, so a longer run pays.  Only where that run is still whole
 * 128-byte groups of 16-byte chunks (slice_layout's swizzle); kernels of
 * two blocks per SM keep RUN_BYTES, since longer tiles no longer fit
 * twice in shared memory. */
#ifndef RUN_BYTES_SOLO
#define RUN_BYTES_SOLO 256
#endif
template <typename U, int K, int D> __host__ __device__ constexpr int decode_run_bytes()
{
    return DECODE_MINB(U, K, D) == 1 && shape<U, D, RUN_BYTES_SOLO>::R * (int)sizeof(U) % 128 == 0
               ? RUN_BYTES_SOLO
               : RUN_BYTES;
}

/* log2 of the warps per block: the rows of B for 1, 2, 4, ... slices. */
#define SLICE_ROWS \
    (WARPS >= 32 ? 5 : WARPS >= 16 ? 4 : WARPS >= 8 ? 3 : WARPS >= 4 ? 2 : WARPS >= 2 ? 1 : 0)
static_assert((1 << SLICE_ROWS) == WARPS, "TILE_THREADS must be 32 times a power of two");

/* Predecessor tiles each lane of the look-back inspects per poll: a window
 * is 32 x LOOKBACK_TILES tiles, and LOOKBACK_BITS its log2 (1, 2 or 4). */
#ifndef LOOKBACK_TILES
#define LOOKBACK_TILES 1
#endif
#define LOOKBACK_BITS (LOOKBACK_TILES >= 4 ? 2 : LOOKBACK_TILES >= 2 ? 1 : 0)
static_assert((1 << LOOKBACK_BITS) == LOOKBACK_TILES, "LOOKBACK_TILES must be 1, 2 or 4");

/*
 * Windows of the look-back a tile polls at once, one per warp (warps 0 ..
 * n - 1), before warp 0 goes on alone window by window.  The nearest
 * inclusive prefix lies mostly 33-64 tiles back, so with one window at a
 * time most tiles wait for L2 two or three times in turn.  Two windows at
 * once pay at orders above 1, where warp 0's work between polls is
 * longest; for plain sums the extra polls slow the data's own traffic
 * more than they save.  With one, warp 0 works alone and the block does
 * not wait.
 */
#ifndef LOOKBACK_WARPS_ORDERS
#define LOOKBACK_WARPS_ORDERS 2
#endif
#ifndef LOOKBACK_WARPS_PLAIN
#define LOOKBACK_WARPS_PLAIN 1
#endif
#define LOOKBACK_WARPS_OF(K) ((K) > 1 ? LOOKBACK_WARPS_ORDERS : LOOKBACK_WARPS_PLAIN)

/* Bytes a decoding thread takes from its run at a time (a step): no thread
 * holds its whole run in registers, only a state and one step. */
#ifndef STEP_BYTES
#define STEP_BYTES 32
#endif

/*
 * Orders from which a decode adds its odd orders' sums on the FMA pipe
 * (order_add in scan.cu).  A decode of 8 orders makes 16 adds an element,
 * and the integer pipe is its busiest; a multiply-add by a 1 the compiler
 * cannot see moves half of them to the FMA pipe.  Below 8 orders the
 * integer pipe is not the limit and an IMAD's longer latency costs.
 */
#ifndef FMA_FROM_ORDER
#define FMA_FROM_ORDER 8
#endif

/* Dynamic shared memory a kernel may use without asking (allow_smem). */
#define SMEM_DEFAULT_LIMIT (48 * 1024)

#endif
