/* Cooperative groups beyond tiles: coalesced_threads() in a divergent
 * branch (size, ranks, shuffles by rank, packed ballot, reduce and scans
 * over non-contiguous lanes), labeled_partition and binary_partition, and
 * grid_group::sync() under cudaLaunchCooperativeKernel (with its
 * too-large error).  Integer results, the same on a GPU; the host
 * recomputes them. */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include "check.h"

namespace cg = cooperative_groups;

enum { THREADS = 64, FIELDS = 10, BLOCKS = 4, GRID_THREADS = 128 };

__host__ __device__ static int value_of(int t) { return (t * 5 + 1) % 17; }
__host__ __device__ static bool takes_branch(int t) { return value_of(t) % 3 != 0; }

__global__ void coalesced(int *out)
{
    int t = threadIdx.x, v = value_of(t);
    int *o = out + t * FIELDS;
    for (int f = 0; f < FIELDS; f++)
        o[f] = -1;
    if (takes_branch(t)) {
        cg::coalesced_group g = cg::coalesced_threads();
        o[0] = g.size();
        o[1] = g.thread_rank();
        o[2] = g.shfl(v, 0);
        o[3] = g.shfl_up(v, 1);
        o[4] = g.shfl_down(v, 1);
        o[5] = (int)g.ballot(v & 1);
        o[6] = cg::reduce(g, v, cg::plus<int>());
        o[7] = cg::inclusive_scan(g, v, cg::plus<int>());
        o[8] = cg::exclusive_scan(g, v, cg::greater<int>());
        o[9] = cg::reduce(g, v, cg::greater<int>());
    }
}

static void expect_coalesced(int t, int *e)
{
    int base = t & ~31, v = value_of(t), rank = 0, size = 0;
    int lanes[32];
    for (int l = base; l < base + 32; l++)
        if (takes_branch(l)) {
            if (l == t)
                rank = size;
            lanes[size++] = l;
        }
    for (int f = 0; f < FIELDS; f++)
        e[f] = -1;
    if (!takes_branch(t))
        return;
    unsigned ballot = 0;
    int sum = 0, inc = 0, excmax = 0, mx = -1;
    for (int k = 0; k < size; k++) {
        int w = value_of(lanes[k]);
        ballot |= (unsigned)(w & 1) << k;
        sum += w;
        mx = w > mx ? w : mx;
        if (k <= rank)
            inc += w;
        if (k < rank)
            excmax = w > excmax ? w : excmax;
    }
    int want[FIELDS] = {size, rank, value_of(lanes[0]), rank >= 1 ? value_of(lanes[rank - 1]) : v,
                        rank + 1 < size ? value_of(lanes[rank + 1]) : v, (int)ballot, sum, inc,
                        excmax, mx};
    for (int f = 0; f < FIELDS; f++)
        e[f] = want[f];
}

/* labeled_partition by v % 3 and binary_partition by v odd, within the
 * warp: size and sum of each thread's part. */
__global__ void partitions(int *out)
{
    cg::thread_block_tile<32> w = cg::tiled_partition<32>(cg::this_thread_block());
    int v = value_of(threadIdx.x);
    cg::coalesced_group lab = cg::labeled_partition(w, v % 3);
    out[4 * threadIdx.x] = lab.size();
    out[4 * threadIdx.x + 1] = cg::reduce(lab, v, cg::plus<int>());
    cg::coalesced_group bin = cg::binary_partition(w, v & 1);
    out[4 * threadIdx.x + 2] = bin.size();
    out[4 * threadIdx.x + 3] = cg::reduce(bin, v, cg::plus<int>());
}

/* Every block adds its values, the grid meets, block 0 adds the partial
 * sums, the grid meets again, every thread reads the total. */
__global__ void grid_total(const int *in, int *partial, int *total, int *seen)
{
    cg::grid_group grid = cg::this_grid();
    cg::thread_block block = cg::this_thread_block();
    __shared__ int acc;
    if (block.thread_rank() == 0)
        acc = 0;
    block.sync();
    atomicAdd(&acc, in[grid.thread_rank()]);
    block.sync();
    if (block.thread_rank() == 0)
        partial[blockIdx.x] = acc;
    grid.sync();
    if (grid.thread_rank() == 0) {
        int s = 0;
        for (unsigned b = 0; b < grid.num_blocks(); b++)
            s += partial[b];
        *total = s;
    }
    grid.sync();
    seen[grid.thread_rank()] = *total + (grid.is_valid() ? 0 : 1000000);
}

static void run_coalesced(int *d, int *h)
{
    coalesced<<<1, THREADS>>>(d);
    CUDA_OK(cudaMemcpy(h, d, sizeof(int) * THREADS * FIELDS, cudaMemcpyDeviceToHost));
    int bad = 0;
    unsigned long long hash = 0;
    for (int t = 0; t < THREADS; t++) {
        int e[FIELDS];
        expect_coalesced(t, e);
        for (int f = 0; f < FIELDS; f++) {
            hash = hash * 1000003ull + (unsigned)h[t * FIELDS + f];
            if (h[t * FIELDS + f] != e[f] && bad++ < 4)
                printf("FAIL coalesced thread %d field %d: got %d, want %d\n", t, f, h[t * FIELDS + f], e[f]);
        }
    }
    check_failures += bad != 0;
    printf("coalesced_threads: group of thread 0 has %d threads, sum %d, hash %016llx\n", h[0], h[6],
           hash);
}

static void run_partitions(int *d, int *h)
{
    partitions<<<1, THREADS>>>(d);
    CUDA_OK(cudaMemcpy(h, d, sizeof(int) * 4 * THREADS, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < THREADS; t++) {
        int v = value_of(t), ls = 0, lsum = 0, bs = 0, bsum = 0;
        for (int l = t & ~31; l < (t & ~31) + 32; l++) {
            int w = value_of(l);
            if (w % 3 == v % 3)
                ls++, lsum += w;
            if ((w & 1) == (v & 1))
                bs++, bsum += w;
        }
        bad += h[4 * t] != ls || h[4 * t + 1] != lsum || h[4 * t + 2] != bs || h[4 * t + 3] != bsum;
    }
    EXPECT(bad == 0);
    printf("labeled/binary_partition: thread 0 in %d (sum %d) and %d (sum %d), %d wrong\n", h[0], h[1],
           h[2], h[3], bad);
}

static void run_grid()
{
    int n = BLOCKS * GRID_THREADS, *in, *partial, *total, *seen;
    CUDA_OK(cudaMallocManaged(&in, n * sizeof(int)));
    CUDA_OK(cudaMallocManaged(&partial, BLOCKS * sizeof(int)));
    CUDA_OK(cudaMallocManaged(&total, sizeof(int)));
    CUDA_OK(cudaMallocManaged(&seen, n * sizeof(int)));
    int want = 0;
    for (int i = 0; i < n; i++)
        want += in[i] = value_of(i);
    int coop = 0;
    CUDA_OK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    EXPECT(coop == 1);
    void *args[] = {&in, &partial, &total, &seen};
    CUDA_OK(cudaLaunchCooperativeKernel((void *)grid_total, BLOCKS, GRID_THREADS, args, 0, 0));
    CUDA_OK(cudaDeviceSynchronize());
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += seen[i] != want;
    EXPECT(bad == 0);
    printf("grid.sync: total %d (want %d), %d threads saw another\n", *total, want, bad);
    /* Far more blocks than can be resident at once: refused, as on a GPU. */
    cudaError_t e = cudaLaunchCooperativeKernel((void *)grid_total, 1 << 20, GRID_THREADS, args, 0, 0);
    printf("cooperative launch of 2^20 blocks: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorCooperativeLaunchTooLarge);
    EXPECT(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CUDA_OK(cudaFree(in));
    CUDA_OK(cudaFree(partial));
    CUDA_OK(cudaFree(total));
    CUDA_OK(cudaFree(seen));
}

int main()
{
    int *d, *h = (int *)malloc(sizeof(int) * THREADS * FIELDS);
    CUDA_OK(cudaMalloc(&d, sizeof(int) * THREADS * FIELDS));
    run_coalesced(d, h);
    run_partitions(d, h);
    run_grid();
    CUDA_OK(cudaFree(d));
    free(h);
    return finish("cg_coalesced");
}
