/* Each warp of a block sums its lanes with shuffles and lane 0 stores the
 * warp's total in shared memory; warp 0 then adds the totals.  "good" has
 * the __syncthreads() between the stores and warp 0's reads; "bad" has a
 * __syncwarp() there, which orders the lanes of one warp only.  Every warp meets its own lanes at each shuffle, so schedules
 * that run the threads of a block in passes keep the warps in step and
 * hide the race; CUEMU_SCHEDULE=warps runs warp 0 to its end first and
 * catches it. */
#include "check.h"

template <bool SAFE> __global__ void block_sum(const int *in, int *out)
{
    __shared__ int totals[8];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        totals[warp] = v;
    if (SAFE)
        __syncthreads();
    else
        __syncwarp(); /* orders this warp's lanes only */
    if (warp == 0) {
        int s = lane < (int)blockDim.x / 32 ? totals[lane] : 0;
        for (int off = 16; off > 0; off /= 2)
            s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0)
            out[blockIdx.x] = s;
    }
}

int main(int argc, char **argv)
{
    const bool safe = argc > 1 && !strcmp(argv[1], "good");
    const int blocks = 4, threads = 256, n = blocks * threads;
    int h[n], g[blocks], *din, *dout;
    for (int i = 0; i < n; i++)
        h[i] = i % 13 + 1;
    CUDA_OK(cudaMalloc(&din, sizeof h));
    CUDA_OK(cudaMalloc(&dout, sizeof g));
    CUDA_OK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    if (safe)
        block_sum<true><<<blocks, threads>>>(din, dout);
    else
        block_sum<false><<<blocks, threads>>>(din, dout);
    CUDA_OK(cudaMemcpy(g, dout, sizeof g, cudaMemcpyDeviceToHost));
    int wrong = 0;
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int i = 0; i < threads; i++)
            want += h[b * threads + i];
        wrong += g[b] != want;
    }
    printf(wrong ? "sums WRONG (%d of %d)\n" : "sums ok\n", wrong, blocks);
    return 0;
}
