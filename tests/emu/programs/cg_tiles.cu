/* Cooperative groups on tiles: thread_block, thread_block_tile<N> for
 * N = 32, 16, 8, 4, 2 (shuffles, votes, match_any, ranks) and cg::reduce,
 * inclusive_scan, exclusive_scan with each operator, plus the dynamic
 * tiled_partition(block, n).  Integer values only, so a GPU prints the
 * same lines (tests/gpu/device-emu-compare.sh compares them); the host
 * recomputes every result. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "check.h"

namespace cg = cooperative_groups;

enum { THREADS = 96, FIELDS = 22 };

__host__ __device__ static int value_of(int t) { return (t * 7 + 3) % 23; }

template <unsigned N> __global__ void tile_ops(int *out)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
    int v = value_of(block.thread_rank());
    int *o = out + block.thread_rank() * FIELDS;
    o[0] = t.shfl(v, 1 % N);
    o[1] = t.shfl_up(v, 1);
    o[2] = t.shfl_down(v, N > 2 ? 2 : 1);
    o[3] = t.shfl_xor(v, N > 1 ? N / 2 : 0);
    o[4] = (int)t.ballot(v & 1);
    o[5] = t.any(v > 20);
    o[6] = t.all(v > 1);
    o[7] = (int)t.match_any(v % 4);
    o[8] = cg::reduce(t, v, cg::plus<int>());
    o[9] = cg::reduce(t, v, cg::less<int>());
    o[10] = cg::reduce(t, v, cg::greater<int>());
    o[11] = cg::reduce(t, v | 16, cg::bit_and<int>());
    o[12] = cg::reduce(t, v, cg::bit_or<int>());
    o[13] = cg::reduce(t, v, cg::bit_xor<int>());
    o[14] = cg::inclusive_scan(t, v, cg::plus<int>());
    o[15] = cg::exclusive_scan(t, v, cg::plus<int>());
    o[16] = cg::inclusive_scan(t, v, cg::greater<int>());
    o[17] = cg::exclusive_scan(t, v, cg::bit_or<int>());
    t.sync();
    o[18] = t.thread_rank();
    o[19] = t.meta_group_rank();
    o[20] = t.meta_group_size();
    o[21] = t.size();
}

/* What tile_ops<n> stores for thread i. */
static void expect_tile(unsigned n, int i, int *e)
{
    int base = i & ~(int)(n - 1), r = i - base;
    int v = value_of(i);
    int d = n > 2 ? 2 : 1, x = n > 1 ? (int)n / 2 : 0;
    e[0] = value_of(base + (int)(1 % n));
    e[1] = r >= 1 ? value_of(i - 1) : v;
    e[2] = r + d < (int)n ? value_of(i + d) : v;
    e[3] = value_of(base + (r ^ x));
    unsigned ballot = 0, match = 0;
    int any = 0, all = 1, sum = 0, mn = 1 << 30, mx = -1, band = -1, bor = 0, bxor = 0;
    int inc = 0, exc = 0, runmax = -1, excor = 0;
    for (int k = 0; k < (int)n; k++) {
        int w = value_of(base + k);
        ballot |= (unsigned)(w & 1) << k;
        match |= (unsigned)(w % 4 == v % 4) << k;
        any |= w > 20;
        all &= w > 1;
        sum += w;
        mn = w < mn ? w : mn;
        mx = w > mx ? w : mx;
        band &= w | 16;
        bor |= w;
        bxor ^= w;
        if (k <= r) {
            inc += w;
            runmax = w > runmax ? w : runmax;
        }
        if (k < r) {
            exc += w;
            excor |= w;
        }
    }
    int want[FIELDS] = {e[0], e[1], e[2], e[3], (int)ballot, any, all, (int)match, sum, mn, mx, band,
                        bor, bxor, inc, exc, runmax, excor, r, i / (int)n,
                        (THREADS + (int)n - 1) / (int)n, (int)n};
    for (int f = 0; f < FIELDS; f++)
        e[f] = want[f];
}

/* tiled_partition(block, n) at run time: a thread_group with sync,
 * thread_rank and size. */
__global__ void dynamic_tiles(int *out, unsigned n)
{
    cg::thread_group block = cg::this_thread_block();
    cg::thread_group t = cg::tiled_partition(block, n);
    t.sync();
    cg::sync(t);
    out[2 * block.thread_rank()] = (int)t.thread_rank();
    out[2 * block.thread_rank() + 1] = (int)t.size();
}

/* Tiles of several warps (64 and 128 threads of a 256-thread block):
 * reduce, shfl, sync and ranks. */
template <unsigned N> __global__ void big_tiles(int *out)
{
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block block = cg::this_thread_block(scratch);
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(block);
    int v = value_of(block.thread_rank());
    int s = cg::reduce(t, v, cg::plus<int>());
    int m = cg::reduce(t, v, cg::greater<int>());
    t.sync();
    int x = t.shfl(v, N - 1);
    out[4 * block.thread_rank()] = s;
    out[4 * block.thread_rank() + 1] = m;
    out[4 * block.thread_rank() + 2] = x;
    out[4 * block.thread_rank() + 3] = t.thread_rank() + 1000 * t.meta_group_rank();
}

template <unsigned N> static void run_big_tile(int *d, int *h)
{
    big_tiles<N><<<1, 256>>>(d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h, d, sizeof(int) * 4 * 256, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < 256; i++) {
        int base = i & ~(int)(N - 1), sum = 0, mx = -1;
        for (int k = base; k < base + (int)N; k++)
            sum += value_of(k), mx = value_of(k) > mx ? value_of(k) : mx;
        bad += h[4 * i] != sum || h[4 * i + 1] != mx || h[4 * i + 2] != value_of(base + (int)N - 1) ||
               h[4 * i + 3] != i - base + 1000 * (i / (int)N);
    }
    EXPECT(bad == 0);
    printf("tile<%u> of a 256-thread block: sums %d %d, max %d, %d threads wrong\n", N, h[0], h[4 * 255],
           h[1], bad);
}

template <unsigned N> static void run_tile(int *d, int *h)
{
    tile_ops<N><<<1, THREADS>>>(d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h, d, sizeof(int) * THREADS * FIELDS, cudaMemcpyDeviceToHost));
    unsigned long long hash = 0;
    int bad = 0;
    for (int i = 0; i < THREADS; i++) {
        int e[FIELDS];
        expect_tile(N, i, e);
        for (int f = 0; f < FIELDS; f++) {
            hash = hash * 1000003ull + (unsigned)h[i * FIELDS + f];
            if (h[i * FIELDS + f] != e[f] && bad++ < 4)
                printf("FAIL tile<%u> thread %d field %d: got %d, want %d\n", N, i, f,
                       h[i * FIELDS + f], e[f]);
        }
    }
    check_failures += bad != 0;
    printf("tile<%u>: sum %d, scan of thread 95 %d, hash %016llx\n", N, h[95 * FIELDS + 8],
           h[95 * FIELDS + 14], hash);
}

int main()
{
    int *d, *h = (int *)malloc(sizeof(int) * THREADS * FIELDS * 2);
    CUDA_OK(cudaMalloc(&d, sizeof(int) * THREADS * FIELDS * 2));
    run_tile<32>(d, h);
    run_tile<16>(d, h);
    run_tile<8>(d, h);
    run_tile<4>(d, h);
    run_tile<2>(d, h);
    run_big_tile<64>(d, h);
    run_big_tile<128>(d, h);
    for (unsigned n = 4; n <= 32; n *= 2) {
        dynamic_tiles<<<1, THREADS>>>(d, n);
        CUDA_OK(cudaMemcpy(h, d, sizeof(int) * 2 * THREADS, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int i = 0; i < THREADS; i++)
            bad += h[2 * i] != i % (int)n || h[2 * i + 1] != (int)n;
        EXPECT(bad == 0);
        printf("tiled_partition(block, %u): %d threads wrong\n", n, bad);
    }
    CUDA_OK(cudaFree(d));
    free(h);
    return finish("cg_tiles");
}
