#!/usr/bin/env python3
"""probe.py - a copy of lab 7's reference with timing probes, for a GPU run.

usage: probe.py solutions/lab7-scan-at-work/scan.cu OUT.cu

Why: ncu says the order-8 decode kernel's warps spend most of their
stalls at a barrier, but not which phase of a tile's life is long.  The
probed copy stamps %globaltimer per tile (start, both barriers, A out, the
look-back done, P out, the end of warp 0's tile_states, the end), reports
how late the last A of the 32 tiles before each tile came, and counts
look-back polls and windows, where the first window's nearest P lay, and
why a lane read X (words that disagree: a publication in flight; or
nothing published yet); at exit it
prints them and the phases' medians and 90th percentiles for the last
launch.  The reference itself stays free of probes: this script inserts
them at named anchors and stops if one is missing (the code moved on).
"""
import os
import sys

HEADER = r'''
/* ---- probes (tests/gpu/lab7/probe.py) ---- */
#include <stdlib.h>
#include <stdio.h>
#define PROBE_TILES (1u << 20)
#define SLOTS 7 /* per tile: start, barrier 1, tile_states done, end, A out, look-back done, P out */
__device__ unsigned long long *probe_t;
__device__ unsigned long long probe_polls, probe_windows, probe_first_last[33], probe_mixed, probe_unpublished;
__device__ __forceinline__ unsigned long long probe_now()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
#define PROBE(id, k)                                                     \
    do {                                                                 \
        if (threadIdx.x == 0 && (id) < PROBE_TILES)                      \
            probe_t[(size_t)(id) * SLOTS + (k)] = probe_now();           \
    } while (0)
'''

HOST = r'''
/* ---- probes: host side ---- */
static unsigned long long *probe_host;
static size_t probe_tiles;
static int probe_cmp(const void *a, const void *b)
{
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return x < y ? -1 : x > y;
}
/* Tiles of the last launch that have stamps (at most PROBE_TILES). */
static size_t probe_count(void)
{
    return probe_tiles < PROBE_TILES ? probe_tiles : PROBE_TILES;
}
static void probe_sorted(const char *name, unsigned long long *d, size_t n)
{
    qsort(d, n, sizeof *d, probe_cmp);
    fprintf(stderr, "probe: %-34s median %8.2f us  p10 %8.2f  p90 %8.2f  max %8.2f\n", name,
            d[n / 2] / 1e3, d[n / 10] / 1e3, d[n * 9 / 10] / 1e3, d[n - 1] / 1e3);
}
/* Why a look-back waits: the latest A among the 32 tiles before a tile,
 * after its own A went out (0 when all were out before it). */
static void probe_stragglers(void)
{
    size_t n = probe_count();
    if (n < 64)
        return;
    unsigned long long *d = (unsigned long long *)malloc(n * sizeof *d);
    for (size_t i = 32; i < n; i++) {
        unsigned long long latest = 0, mine = probe_host[i * SLOTS + 4];
        for (size_t j = i - 32; j < i; j++)
            latest = probe_host[j * SLOTS + 4] > latest ? probe_host[j * SLOTS + 4] : latest;
        d[i - 32] = latest > mine ? latest - mine : 0;
    }
    probe_sorted("A out -> last of 32 before's A out", d, n - 32);
    free(d);
}
static void probe_phase(const char *name, int from, int to)
{
    size_t n = probe_count();
    unsigned long long *d = (unsigned long long *)malloc(n * sizeof *d);
    for (size_t i = 1; i < n; i++) /* tile 0 has no look-back */
        d[i - 1] = probe_host[i * SLOTS + to] - probe_host[i * SLOTS + from];
    probe_sorted(name, d, n - 1);
    free(d);
}
static void probe_report(void)
{
    if (!probe_host || !probe_tiles)
        return;
    cudaDeviceSynchronize();
    unsigned long long polls, windows, hist[33];
    cudaMemcpyFromSymbol(&polls, probe_polls, sizeof polls);
    cudaMemcpyFromSymbol(&windows, probe_windows, sizeof windows);
    cudaMemcpyFromSymbol(hist, probe_first_last, sizeof hist);
    unsigned long long mixed, unpublished;
    cudaMemcpyFromSymbol(&mixed, probe_mixed, sizeof mixed);
    cudaMemcpyFromSymbol(&unpublished, probe_unpublished, sizeof unpublished);
    fprintf(stderr, "probe: last launch, %zu tiles: %.2f polls and %.2f windows per tile\n",
            probe_tiles, (double)polls / probe_tiles, (double)windows / probe_tiles);
    fprintf(stderr, "probe: descriptors read as X per tile: %.2f with words that disagree, %.2f not yet published\n",
            (double)mixed / probe_tiles, (double)unpublished / probe_tiles);
    fprintf(stderr, "probe: first window's nearest P at lane (count):");
    for (int i = 0; i < 33; i++)
        if (hist[i])
            fprintf(stderr, " %d:%llu", i, hist[i]);
    fprintf(stderr, "\n");
    probe_phase("take tile -> barrier 1 (pass 1)", 0, 1);
    probe_phase("barrier 1 -> tile_states done", 1, 2);
    probe_phase("  barrier 1 -> A out", 1, 4);
    probe_phase("  A out -> look-back done", 4, 5);
    probe_phase("  look-back done -> P out", 5, 6);
    probe_stragglers();
    probe_phase("tile_states done -> end (pass 2)", 2, 3);
    probe_phase("whole tile", 0, 3);
    unsigned long long first = probe_host[0], last = 0;
    size_t n = probe_count();
    for (size_t i = 0; i < n; i++) {
        first = probe_host[i * SLOTS] < first ? probe_host[i * SLOTS] : first;
        last = probe_host[i * SLOTS + 3] > last ? probe_host[i * SLOTS + 3] : last;
    }
    fprintf(stderr, "probe: launch span %.2f us (first start to last end)\n", (last - first) / 1e3);
}
static void probe_launch(size_t tiles)
{
    if (!probe_host) {
        cudaMallocManaged((void **)&probe_host, PROBE_TILES * SLOTS * sizeof(unsigned long long));
        cudaMemcpyToSymbol(probe_t, &probe_host, sizeof probe_host);
        atexit(probe_report);
    }
    static const unsigned long long zero[34] = {0};
    cudaMemcpyToSymbolAsync(probe_polls, zero, 8, 0, cudaMemcpyHostToDevice, 0);
    cudaMemcpyToSymbolAsync(probe_windows, zero, 8, 0, cudaMemcpyHostToDevice, 0);
    cudaMemcpyToSymbolAsync(probe_first_last, zero, 33 * 8, 0, cudaMemcpyHostToDevice, 0);
    cudaMemcpyToSymbolAsync(probe_mixed, zero, 8, 0, cudaMemcpyHostToDevice, 0);
    cudaMemcpyToSymbolAsync(probe_unpublished, zero, 8, 0, cudaMemcpyHostToDevice, 0);
    probe_tiles = tiles;
}
'''

EDITS = [  # (anchor, replacement): each anchor must occur exactly once
    ('#include "kinds/decode.h"\n#include "lab.h"\n',
     '#include "kinds/decode.h"\n#include "lab.h"\n' + HEADER),
    ('''        back_off(&ns);
    }
}''', '''        back_off(&ns);
        if (lane == 0)
            atomicAdd(&probe_polls, 1ull);
    }
}'''),
    ('''    unsigned int ns = 8;
    for (;;) {
        bool x_first;''', '''    unsigned int ns = 8;
    if (lane == 0)
        atomicAdd(&probe_windows, 1ull);
    for (;;) {
        bool x_first;'''),
    ('''        if (end == (long)id - 1)
            last = first_p;''', '''        if (end == (long)id - 1) {
            last = first_p;
            if (lane == 0)
                atomicAdd(&probe_first_last[p ? first_p : 32], 1ull);
        }'''),
    ('''    return agree ? status : STATUS_X;
}''', '''    {   /* why a lane sees X: nothing published yet, or words that disagree */
        const unsigned int m = __activemask();
        const unsigned int mixed = __ballot_sync(m, !agree), unpublished = __ballot_sync(m, agree && status == STATUS_X);
        if ((threadIdx.x % 32) == __ffs(m) - 1) {
            if (mixed)
                atomicAdd(&probe_mixed, (unsigned long long)__popc(mixed));
            if (unpublished)
                atomicAdd(&probe_unpublished, (unsigned long long)__popc(unpublished));
        }
    }
    return agree ? status : STATUS_X;
}'''),
    ('''    __syncthreads();
    tile_states(sm.warps, st, id, bin, order);
    __syncthreads();
''', '''    __syncthreads();
    PROBE(id, 1);
    tile_states(sm.warps, st, id, bin, order);
    if (warp == 0)
        PROBE(id, 2);
    __syncthreads();
'''),
    ('''        publish_state(st, id, id == 0 ? STATUS_P : STATUS_A, shfl_from(mine, WARPS - 1, order), order);
''', '''        publish_state(st, id, id == 0 ? STATUS_P : STATUS_A, shfl_from(mine, WARPS - 1, order), order);
        PROBE(id, 4);
'''),
    ('''            scan_totals_by_component(ws, st, id);
''', '''        {
            scan_totals_by_component(ws, st, id);
            PROBE(id, 4);
        }
'''),
    ('''            total_by_rows(ws, st, id, order);
''', '''            total_by_rows(ws, st, id, order);
            PROBE(id, 4);
'''),
    ('''                                           : lookback<U, K, D>(st, id, bin, ws.rows.tiles, order);
        publish_state(st, id, STATUS_P, advance(bin.c[B_TILES], before, scanned[WARPS - 1], order), order);
''', '''                                           : lookback<U, K, D>(st, id, bin, ws.rows.tiles, order);
        PROBE(id, 5);
        publish_state(st, id, STATUS_P, advance(bin.c[B_TILES], before, scanned[WARPS - 1], order), order);
        PROBE(id, 6);
'''),
    ('''        store_slice<U, D, RUN>(sm.slice[warp], out, n, id, aligned);
    }
}''', '''        store_slice<U, D, RUN>(sm.slice[warp], out, n, id, aligned);
    }
    PROBE(id, 3);
}'''),
    ('''        before = sum_by_component<U, D>(mine.v[0]);
''', '''        before = sum_by_component<U, D>(mine.v[0]);
        PROBE(id, 5);
'''),
    ('''        if ((int)lane < W)
            publish_word(st, id, STATUS_P, p);
''', '''        if ((int)lane < W)
            publish_word(st, id, STATUS_P, p);
        PROBE(id, 6);
'''),
    ('''    const unsigned int id = take_tile(&sm.id, st), warp = threadIdx.x / 32;
''', '''    const unsigned int id = take_tile(&sm.id, st), warp = threadIdx.x / 32;
    PROBE(id, 0);
'''),
    ('''    decode_kernel<U, K, D><<<(unsigned int)tiles, TILE_THREADS, smem>>>(''',
     '''    probe_launch(tiles);
    decode_kernel<U, K, D><<<(unsigned int)tiles, TILE_THREADS, smem>>>('''),
    ('/* One decode launch: k orders', HOST + '\n/* One decode launch: k orders'),
]


LAYERS = ("lookback.cuh", "sam_tuning.cuh", "sam_state.cuh", "sam_slices.cuh", "sam_lookback.cuh",
          "sam_block.cuh")


def flatten(text, common, seen):
    """text with lab 7's layers (common/sam_*.cuh, lookback.cuh) written in
    place of their #include lines, each once: most anchors are in them."""
    out = []
    for line in text.split("\n"):
        name = line[len('#include "'):-1] if line.startswith('#include "') else ""
        if name in LAYERS:
            if name not in seen:
                seen.add(name)
                out.append(flatten(open(os.path.join(common, name)).read(), common, seen))
            continue
        out.append(line)
    return "\n".join(out)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    common = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "common")
    text = flatten(open(src).read(), common, set())
    for anchor, repl in EDITS:
        if text.count(anchor) != 1:
            sys.exit("probe.py: anchor found %d times (the code moved on):\n%s" % (text.count(anchor), anchor))
        text = text.replace(anchor, repl)
    open(dst, "w").write(text)


if __name__ == "__main__":
    main()
