/* static __shared__ (arrays and scalars, in kernels and device functions)
 * and extern __shared__ sized by the launch, at function and file scope. */
#include "check.h"

extern __shared__ int file_scope_dyn[];

__device__ int block_total(int v)
{
    __shared__ int total;      /* one per block, in a device function */
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, v);
    __syncthreads();
    return total;
}

template <int N> __global__ void reverse_block(const int *in, int *out)
{
    __shared__ int tile[N];
    __shared__ int scalar;
    int base = blockIdx.x * N;
    tile[threadIdx.x] = in[base + threadIdx.x];
    if (threadIdx.x == 0)
        scalar = blockIdx.x;
    __syncthreads();
    out[base + threadIdx.x] = tile[N - 1 - threadIdx.x] + 1000 * scalar;
}

__global__ void dynamic(int *out)
{
    extern __shared__ int dyn[];
    extern __shared__ float same_bytes[]; /* all extern arrays alias one buffer */
    dyn[threadIdx.x] = threadIdx.x * 2;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] =
        dyn[blockDim.x - 1 - threadIdx.x] + (same_bytes == (float *)dyn);
}

__global__ void file_scope(int *out)
{
    file_scope_dyn[threadIdx.x] = threadIdx.x + 5;
    __syncthreads();
    out[threadIdx.x] = file_scope_dyn[(threadIdx.x + 1) % blockDim.x] + block_total(1);
}

int main()
{
    const int N = 128, B = 64;
    int *h = (int *)malloc(N * B * sizeof(int)), *g = (int *)malloc(N * B * sizeof(int));
    for (int i = 0; i < N * B; i++)
        h[i] = i;
    int *din, *dout;
    CUDA_OK(cudaMalloc(&din, N * B * sizeof(int)));
    CUDA_OK(cudaMalloc(&dout, N * B * sizeof(int)));
    CUDA_OK(cudaMemcpy(din, h, N * B * sizeof(int), cudaMemcpyHostToDevice));
    reverse_block<N><<<B, N>>>(din, dout);
    CUDA_OK(cudaMemcpy(g, dout, N * B * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < B; b++)
        for (int t = 0; t < N; t++)
            EXPECT(g[b * N + t] == h[b * N + N - 1 - t] + 1000 * b);

    dynamic<<<B, 96, 96 * sizeof(int)>>>(dout);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(g, dout, 96 * B * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < B; b++)
        for (int t = 0; t < 96; t++)
            EXPECT(g[b * 96 + t] == 2 * (95 - t) + 1);

    file_scope<<<1, 40, 40 * sizeof(int)>>>(dout);
    CUDA_OK(cudaMemcpy(g, dout, 40 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 40; t++)
        EXPECT(g[t] == (t + 1) % 40 + 5 + 40);
    return finish("shared");
}
