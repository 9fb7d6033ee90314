/* Prints the order in which the threads of a block and the blocks of a grid
 * first ran, so the tests can check CUEMU_SCHEDULE (use CUEMU_THREADS=1 for
 * the block order to be the dispatch order). */
#include "check.h"

__global__ void ticket(int *thread_order, int *block_order, int *counters)
{
    int t = atomicAdd(&counters[0], 1);
    thread_order[blockIdx.x * blockDim.x + threadIdx.x] = t - blockIdx.x * 0; /* global ticket */
    if (threadIdx.x == 0)
        block_order[atomicAdd(&counters[1], 1)] = blockIdx.x;
}

int main()
{
    const int B = 6, T = 8;
    int *d, h[B * T + B + 2];
    CUDA_OK(cudaMalloc(&d, sizeof h));
    CUDA_OK(cudaMemset(d, 0, sizeof h));
    ticket<<<B, T>>>(d, d + B * T, d + B * T + B);
    CUDA_OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    /* Threads of block 0, by the rank of their ticket within the block. */
    printf("threads:");
    for (int t = 0; t < T; t++) {
        int rank = 0;
        for (int u = 0; u < T; u++)
            rank += h[u] < h[t];
        printf(" %d", rank);
    }
    printf("\nblocks:");
    for (int b = 0; b < B; b++)
        printf(" %d", h[B * T + b]);
    printf("\n");
    return 0;
}
