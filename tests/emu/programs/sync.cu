/* __syncthreads_count/and/or, __syncwarp, __threadfence(_block). */
#include "check.h"

__global__ void votes(int *out)
{
    int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    int all_pos = __syncthreads_and(t >= 0);
    int all_small = __syncthreads_and(t < 100);
    int any_big = __syncthreads_or(t == 150);
    int none = __syncthreads_or(0);
    if (t == 0) {
        out[0] = c;
        out[1] = all_pos;
        out[2] = all_small;
        out[3] = any_big;
        out[4] = none;
    }
}

__global__ void warp_pass(int *out)
{
    __shared__ int slot[64];
    int lane = threadIdx.x % 32;
    slot[threadIdx.x] = threadIdx.x * 10;
    __syncwarp();
    out[threadIdx.x] = slot[(threadIdx.x & ~31) + (lane + 1) % 32];
    __threadfence_block();
    __threadfence();
}

int main()
{
    int *d, h[200];
    CUDA_OK(cudaMalloc(&d, sizeof h));
    votes<<<1, 200>>>(d);
    CUDA_OK(cudaMemcpy(h, d, 5 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 67);
    EXPECT(h[1] != 0);
    EXPECT(h[2] == 0);
    EXPECT(h[3] != 0);
    EXPECT(h[4] == 0);
    warp_pass<<<1, 64>>>(d);
    CUDA_OK(cudaMemcpy(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        EXPECT(h[t] == 10 * ((t & ~31) + (t % 32 + 1) % 32));
    return finish("sync");
}
