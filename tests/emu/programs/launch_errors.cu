/* A launch with a bad configuration does not run, and cudaGetLastError
 * returns the error CUDA gives. */
#include "check.h"

__global__ void mark(int *p) { p[0] = 1; }

__global__ void uses_dynamic(int *p)
{
    extern __shared__ int big[];
    big[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
        p[0] = 2 + big[0];
}

int main()
{
    int *d, h = 0;
    CUDA_OK(cudaMalloc(&d, sizeof(int)));
    CUDA_OK(cudaMemset(d, 0, sizeof(int)));

    /* CUDA 13 on an H200 (tests/gpu/device-emu-compare.sh): every bad
     * configuration is an invalid value (CUDA 12 said invalid configuration). */
    mark<<<1, 1025>>>(d);
    cudaError_t e = cudaGetLastError();
    printf("1025 threads: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaSuccess);

    mark<<<dim3(1), dim3(32, 32, 2)>>>(d);
    e = cudaGetLastError();
    printf("32 x 32 x 2 threads: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    mark<<<dim3(1), dim3(1, 1, 65)>>>(d);
    e = cudaGetLastError();
    printf("block z 65: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    mark<<<0, 32>>>(d);
    e = cudaGetLastError();
    printf("grid of 0 blocks: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    mark<<<dim3(1, 70000), 32>>>(d);
    e = cudaGetLastError();
    printf("grid y 70000: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    uses_dynamic<<<1, 32, 64 * 1024>>>(d);
    e = cudaGetLastError();
    printf("64 KiB dynamic shared memory: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);

    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 0); /* none of the bad launches ran */

    /* Opting in to more dynamic shared memory, as on Volta and later. */
    CUDA_OK(cudaFuncSetAttribute(uses_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    uses_dynamic<<<1, 32, 64 * 1024>>>(d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 3);

    mark<<<1, 1024>>>(d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 1);
    return finish("launch_errors");
}
