/* assert() in device code: a failure names the kernel, block and thread. */
#include <assert.h>
#include "check.h"

__global__ void checked(const int *p)
{
    assert(p[threadIdx.x] >= 0);
}

int main()
{
    int h[32], *d;
    for (int i = 0; i < 32; i++)
        h[i] = i == 17 ? -1 : i;
    CUDA_OK(cudaMalloc(&d, sizeof h));
    CUDA_OK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    checked<<<1, 32>>>(d);
    CUDA_OK(cudaDeviceSynchronize());
    printf("no error detected\n");
    return 0;
}
