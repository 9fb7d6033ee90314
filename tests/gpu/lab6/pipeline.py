#!/usr/bin/env python3
"""pipeline.py - lab 6's reference with another tile pipeline, for measuring.

usage: pipeline.py OUT.cu [--const-prefix]

Writes a copy of solutions/lab6-scan-single-pass/scan.cu whose given tile
code (load_tile, scan_tile, store_tile) is replaced by the version below;
the protocol code students write (tickets, chained scan, look-backs) is
untouched.  Hypothesis it tests (docs/perf-notes.md, lab 6): the reference
is latency bound, not bandwidth bound.  A block keeps its ITEMS elements in
registers through the look-back (v[ITEMS]), so it needs 56-58 registers,
4 blocks of 256 fit an SM, and at most 4 tiles (64 KiB) per SM are ever in
flight, whatever the tile shape; every tile shape tried measured the same.
Here the tile stays in shared memory: it is loaded with cp.async (no
register holds an element in flight), scanned in place, and stored from
shared memory; __launch_bounds__ asks for MIN_BLOCKS blocks per SM, so
2048 threads and twice the tiles in flight.

--const-prefix replaces the look-back by the identity (wrong answers; the
time of everything but the look-back, to see what the protocol costs).
"""
import re
import sys

SOLUTION = "solutions/lab6-scan-single-pass/scan.cu"

TILE_CODE = r'''/* A 4-byte copy from global to shared memory that no register holds on
 * the way (cp.async, sm_80 and later): a block can have its whole tile in
 * flight with few registers.  Elsewhere (older GPUs, the CPU emulator) an
 * ordinary load and store. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && !defined(__CUEMU__)
#define HAVE_CP_ASYNC 1
#else
#define HAVE_CP_ASYNC 0
#endif
template <typename T> __device__ __forceinline__ void copy_to_shared(T *dst, const T *src)
{
#if HAVE_CP_ASYNC
    static_assert(sizeof(T) == 4, "4-byte elements");
    const unsigned int to = (unsigned int)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(to), "l"(src) : "memory");
#else
    *dst = *src;
#endif
}

/* Wait for this thread's copies (the barrier after it makes them everyone's). */
__device__ __forceinline__ void copies_done()
{
#if HAVE_CP_ASYNC
    asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

/* Coalesced load of the tile into shared memory (identity past n). */
template <typename T, typename Op>
__device__ void load_tile(tile_smem<T> &sm, const T *in, size_t start, size_t n)
{
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        unsigned int j = k * TILE_THREADS + threadIdx.x;
        if (start + j < n)
            copy_to_shared(&sm.xy[padded(j)], &in[start + j]);
        else
            sm.xy[padded(j)] = Op::identity();
    }
    copies_done();
    __syncthreads();
}

/* Scan the tile in place in shared memory (each thread its ITEMS
 * consecutive elements, then the block over the threads' totals); returns
 * the tile's aggregate.  Nothing stays in registers afterwards. */
template <typename T, typename Op> __device__ T scan_tile(tile_smem<T> &sm)
{
    const Op op;
    const unsigned int t = threadIdx.x, lane = t % 32, warp = t / 32;
    T total = sm.xy[padded(t * ITEMS)];
#pragma unroll
    for (unsigned int k = 1; k < ITEMS; k++)
        total = op(total, sm.xy[padded(t * ITEMS + k)]);
    T inclusive = warp_scan<T, Op>(total);
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
    T run = __shfl_up_sync(FULL_MASK, inclusive, 1);
    if (lane == 0)
        run = Op::identity();
    if (warp > 0)
        run = op(sm.warp_totals[warp - 1], run);
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        run = op(run, sm.xy[padded(t * ITEMS + k)]);
        sm.xy[padded(t * ITEMS + k)] = run;
    }
    return sm.warp_totals[WARPS - 1];
}

/* Store the tile coalesced with its prefix combined in (shifted by one for
 * an exclusive scan). */
template <typename T, typename Op>
__device__ void store_tile(tile_smem<T> &sm, T *out, size_t start, size_t n, int exclusive)
{
    const Op op;
    const T prefix = sm.prefix;
#pragma unroll
    for (unsigned int k = 0; k < ITEMS; k++) {
        unsigned int j = k * TILE_THREADS + threadIdx.x;
        if (start + j < n)
            out[start + j] = !exclusive ? op(prefix, sm.xy[padded(j)])
                           : j > 0     ? op(prefix, sm.xy[padded(j - 1)])
                                       : prefix;
    }
}

'''


def sub_once(pattern, repl, text, what):
    new, count = re.subn(pattern, lambda m: repl, text, count=1, flags=re.S)
    if count != 1:
        sys.exit("pipeline.py: cannot find %s in %s (the solution changed?)" % (what, SOLUTION))
    return new


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__)
    text = open(SOLUTION).read()
    text = sub_once(r"/\* Coalesced load of tile.*?(?=/\* ---- stage 1)", TILE_CODE, text,
                    "the tile code")
    text = sub_once(r"    T v\[ITEMS\];\n    const T aggregate = scan_tile<T, Op>\(sm, v\);",
                    "    const T aggregate = scan_tile<T, Op>(sm);", text, "the scan call")
    text = sub_once(r"store_tile<T, Op>\(sm, out, v, start, n, exclusive\);",
                    "store_tile<T, Op>(sm, out, start, n, exclusive);", text, "the store call")
    text = sub_once(r"__launch_bounds__\(TILE_THREADS\)",
                    "__launch_bounds__(TILE_THREADS, MIN_BLOCKS)", text, "the launch bounds")
    text = sub_once(r"#define TILE \(TILE_THREADS \* ITEMS\)",
                    "#define TILE (TILE_THREADS * ITEMS)\n"
                    "/* Blocks per SM the register allocation must allow. */\n"
                    "#ifndef MIN_BLOCKS\n#define MIN_BLOCKS (2048 / TILE_THREADS)\n#endif",
                    text, "#define TILE")
    if "--const-prefix" in sys.argv[2:]:
        text = sub_once(r"T before = warp_lookback_prefix<T, Op>\(st, id, aggregate\);",
                        "T before = Op::identity(); (void)st;", text, "the look-back call")
    with open(sys.argv[1], "w") as f:
        f.write("/* GENERATED by tests/gpu/lab6/pipeline.py from %s: do not edit. */\n" % SOLUTION)
        f.write(text)


if __name__ == "__main__":
    main()
