/* Qualifiers, templates, functors, __constant__ and __device__ variables,
 * and the launch syntax in its forms. */
#include "check.h"

__constant__ int coeff[4];
__device__ int device_counter;
__device__ int device_table[8];

template <typename T> struct Sum {
    static __host__ __device__ T identity() { return T(0); }
    __device__ T operator()(T a, T b) const { return a + b; }
};
template <typename T> struct Mul {
    static __host__ __device__ T identity() { return T(1); }
    __device__ T operator()(T a, T b) const { return a * b; }
};

__host__ __device__ int twice(int x) { return 2 * x; }
__device__ __forceinline__ int plus_one(int x) { return x + 1; }
__device__ __noinline__ int minus_one(int x) { return x - 1; }
template <typename T> __device__ T square(T x) { return x * x; }

template <typename T, typename Op, int ITEMS>
__global__ void __launch_bounds__(128) fold(const T *__restrict__ in, T *__restrict__ out)
{
    Op op;
    T acc = Op::identity();
#pragma unroll
    for (int k = 0; k < ITEMS; k++)
        acc = op(acc, in[threadIdx.x * ITEMS + k]);
    out[threadIdx.x] = acc;
}

/* A template kernel whose arguments are deduced at the launch. */
template <typename T> __global__ void scale(T *p, T by, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = square(p[i]) * by + coeff[i % 4] + twice(plus_one(minus_one(1)));
}

__global__ void count(int times)
{
    for (int k = 0; k < times; k++)
        atomicAdd(&device_counter, 1);
    device_table[threadIdx.x % 8] = (int)threadIdx.x % 8;
}

namespace ns {
__global__ void in_namespace(int *p) { p[threadIdx.x] = 7; }
}

int main()
{
    const int n = 64;
    int h[n * 4], *din, *dout;
    for (int i = 0; i < n * 4; i++)
        h[i] = i % 5 + 1;
    CUDA_OK(cudaMalloc(&din, sizeof h));
    CUDA_OK(cudaMalloc(&dout, sizeof h));
    CUDA_OK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));

    fold<int, Sum<int>, 4><<<1, n>>>(din, dout);
    int got[n * 4];
    CUDA_OK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++)
        EXPECT(got[t] == h[4 * t] + h[4 * t + 1] + h[4 * t + 2] + h[4 * t + 3]);
    fold<int, Mul<int>, 4>
        <<<dim3(1), dim3(n), 0, 0>>>(din,
                                     dout);
    CUDA_OK(cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++)
        EXPECT(got[t] == h[4 * t] * h[4 * t + 1] * h[4 * t + 2] * h[4 * t + 3]);

    int c[4] = {10, 20, 30, 40};
    CUDA_OK(cudaMemcpyToSymbol(coeff, c, sizeof c));
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));
    scale<<<2, 32, 0, s>>>(din, 3, n);   /* T deduced as int */
    CUDA_OK(cudaStreamSynchronize(s));
    CUDA_OK(cudaMemcpy(got, din, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(got[i] == h[i] * h[i] * 3 + c[i % 4] + 2);
    CUDA_OK(cudaStreamDestroy(s));

    int zero = 0;
    CUDA_OK(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero));
    count<<<4, 32>>>(3);
    int counted = 0, table[8];
    CUDA_OK(cudaMemcpyFromSymbol(&counted, device_counter, sizeof counted));
    EXPECT(counted == 4 * 32 * 3);
    int *table_ptr;
    CUDA_OK(cudaGetSymbolAddress((void **)&table_ptr, device_table));
    CUDA_OK(cudaMemcpy(table, table_ptr, sizeof table, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        EXPECT(table[i] == i);

    ns::in_namespace<<<1, 4>>>(dout);
    CUDA_OK(cudaMemcpy(got, dout, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(got[0] == 7 && got[3] == 7);
    EXPECT(twice(21) == 42); /* __host__ __device__ from the host */
    return finish("qualifiers");
}
