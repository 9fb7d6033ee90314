/* A thread waits for a flag nobody sets: reported after CUEMU_TIMEOUT. */
#include "check.h"

__global__ void wait_forever(volatile int *flag)
{
    if (blockIdx.x == 2 && threadIdx.x == 3)
        while (*flag == 0) {}
    __syncthreads();
}

int main()
{
    int *flag;
    CUDA_OK(cudaMalloc(&flag, sizeof(int)));
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    wait_forever<<<4, 32>>>(flag);
    CUDA_OK(cudaDeviceSynchronize());
    printf("no error detected\n");
    return 0;
}
