/* Block 1 waits for a flag that block 0 sets: only works if blocks really
 * run at the same time (CUEMU_THREADS >= 2), whatever the dispatch order.
 * With "chain", block b waits for block b-1 (a chained scan without
 * dynamic block ids), which deadlocks under reverse order and 1 thread. */
#include "check.h"

__global__ void handshake(volatile int *flag, int *out)
{
    if (blockIdx.x == 1) {
        if (threadIdx.x == 0) {
            while (*flag == 0)
                __nanosleep(100);
            out[1] = *flag + 1;
        }
    } else if (threadIdx.x == 0) {
        *flag = 41;
        __threadfence();
        out[0] = 1;
    }
    __syncthreads();
}

__global__ void chain(volatile int *ready, int *out)
{
    int b = blockIdx.x;
    if (threadIdx.x == 0) {
        int prev = 0;
        if (b > 0)
            while ((prev = ready[b - 1]) == 0) { /* busy wait, no sleep */ }
        out[b] = prev + 1;
        __threadfence();
        ready[b] = prev + 1;
    }
}

int main(int argc, char **argv)
{
    int *flag, *out, h[64];
    CUDA_OK(cudaMalloc(&flag, 64 * sizeof(int)));
    CUDA_OK(cudaMalloc(&out, 64 * sizeof(int)));
    CUDA_OK(cudaMemset(flag, 0, 64 * sizeof(int)));
    if (argc > 1 && !strcmp(argv[1], "chain")) {
        chain<<<16, 32>>>(flag, out);
        CUDA_OK(cudaMemcpy(h, out, 16 * sizeof(int), cudaMemcpyDeviceToHost));
        for (int b = 0; b < 16; b++)
            EXPECT(h[b] == b + 1);
        return finish("chain");
    }
    handshake<<<2, 64>>>(flag, out);
    CUDA_OK(cudaMemcpy(h, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 1 && h[1] == 42);
    return finish("handshake");
}
