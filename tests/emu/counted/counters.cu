/*
 * counters.cu - kernels whose counts are known by hand, for the counted
 * build (emu-nvcc --count; tests/emu/counters.sh checks each launch's
 * counts against the numbers in the comments).  One warp or two per block,
 * so that every number is small enough to derive.
 */
#include <cstdio>

#define WARPS 2
#define THREADS (32 * WARPS)

/* Launch 1: odd lanes take the branch, even ones do not: one divergent
 * branch per warp (2 of 2).  `if (threadIdx.x < 32)` splits the block at a
 * warp boundary: 2 warp-level branches, none divergent.  The loop runs
 * lane % 4 + 1 times, so its condition runs 2 to 5 times per lane: 5
 * warp-level executions per warp, of which the 2nd, 3rd and 4th diverge
 * (lanes of 1, 2, 3 trips leave there while others stay): 10, 6
 * divergent.  In all 14 warp-level branches, 8 divergent. */
__global__ void branches(int *out)
{
    int v = 0;
    if (threadIdx.x % 2)
        v += 1;
    if (threadIdx.x < 32)
        v += 2;
    int trips = threadIdx.x % 4 + 1;
    while (trips > 0)
        trips--, v++;
    out[threadIdx.x] = v;
}

/* Launches 2-5: one warp stores s[lane * stride] then loads it back; 2
 * barriers per block, 1 warp each. */
template <int STRIDE> __global__ void strided(int *out)
{
    __shared__ int s[32 * 32];
    s[threadIdx.x * STRIDE] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * STRIDE];
    __syncthreads();
}

/* Launch 6: every lane loads the same word: a broadcast, 1 wavefront. */
__global__ void broadcast(int *out)
{
    __shared__ int s[32];
    if (threadIdx.x == 0)
        s[0] = 7;
    __syncthreads();
    out[threadIdx.x] = s[0];
}

/* Launch 7: dynamic shared memory through a raw pointer, stride 2 (2-way),
 * and one atomic on shared memory (not a request: said in the report). */
__global__ void dynamic(int *out)
{
    extern __shared__ int d[];
    int *p = d;
    p[threadIdx.x * 2] = (int)threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&d[1], 1);
    out[threadIdx.x] = p[threadIdx.x * 2];
}

/* Launch 8: 8-byte elements at stride 1: 64 words over 32 banks is 2
 * wavefronts, the fewest 256 bytes take: no conflict. */
__global__ void wide(double *out)
{
    __shared__ double s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main()
{
    int *out;
    double *dout;
    cudaMalloc(&out, THREADS * sizeof(int));
    cudaMalloc(&dout, 32 * sizeof(double));
    branches<<<1, THREADS>>>(out);
    strided<1><<<1, 32>>>(out);
    strided<2><<<1, 32>>>(out);
    strided<32><<<1, 32>>>(out);
    strided<33><<<1, 32>>>(out);
    broadcast<<<1, 32>>>(out);
    dynamic<<<1, 32, 64 * sizeof(int)>>>(out);
    wide<<<1, 32>>>(dout);
    cudaDeviceSynchronize();
    printf("done\n");
    return 0;
}
