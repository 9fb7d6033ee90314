/* Kernel launches in the forms nvcc accepts: 2-, 3- and 4-argument
 * configurations, the IDE spacing `k<< <g, b >> >(...)`, templates with
 * explicit and deduced arguments, kernels in namespaces, and
 * cudaLaunchKernel with the kernel cast to void * or typed.  Each launch
 * adds its own tag to a counter; the same lines print on a GPU. */
#include "check.h"

__global__ void add(int *acc, int v) { atomicAdd(acc, v); }

template <class T, int Scale> __global__ void add_scaled(T *acc, T v) { atomicAdd(acc, v * Scale); }

template <class T> __global__ void add_deduced(T *acc, T v) { atomicAdd(acc, v); }

namespace outer {
namespace inner {
__global__ void add_ns(int *acc, int v) { atomicAdd(acc, v); }
}
}

__global__ void add_shared(int *acc, int v)
{
    extern __shared__ int buf[];
    buf[threadIdx.x] = v;
    __syncthreads();
    atomicAdd(acc, buf[(threadIdx.x + 1) % blockDim.x]);
}

/* Prints what a launch added; the host knows what it should be. */
/* The samples' spelling of dynamic shared memory: `extern T __shared__ a[]`. */
__global__ void add_shared_samples_spelling(int *acc, int v)
{
    extern int __shared__ cells[];
    cells[threadIdx.x] = v;
    __syncthreads();
    atomicAdd(acc, cells[blockDim.x - 1 - threadIdx.x]);
}

static void show(const char *form, int got, int want)
{
    printf("%s: %d\n", form, got);
    EXPECT(got == want);
}

static int read_and_clear(int *d)
{
    int h = 0;
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemset(d, 0, sizeof h));
    return h;
}

int main()
{
    int *d;
    cudaStream_t s;
    CUDA_OK(cudaMalloc(&d, sizeof(int)));
    CUDA_OK(cudaMemset(d, 0, sizeof(int)));
    CUDA_OK(cudaStreamCreate(&s));
    dim3 grid(2, 1, 1), block(4, 2);

    add<<<2, 3>>>(d, 1);
    show("<<<2, 3>>>", read_and_clear(d), 6);
    add<<<grid, block, 0>>>(d, 1);
    show("<<<dim3, dim3, 0>>>", read_and_clear(d), 16);
    add<<<grid, block, 0, s>>>(d, 1);
    show("<<<dim3, dim3, 0, stream>>>", read_and_clear(d), 16);
    add<< <3, 5 >> >(d, 1);
    show("<< <3, 5 >> >", read_and_clear(d), 15);
    add <<< 1 , 7 >>> ( d , 1 );
    show("spaced <<< 1 , 7 >>>", read_and_clear(d), 7);
    add_scaled<int, 3><<<1, 4>>>(d, 2);
    show("template <int, 3>", read_and_clear(d), 24);
    add_deduced<<<2, 2>>>(d, 5);
    show("deduced template", read_and_clear(d), 20);
    outer::inner::add_ns<<<1, 3>>>(d, 4);
    show("namespaced", read_and_clear(d), 12);
    add_shared<<<2, 8, 8 * sizeof(int), s>>>(d, 2);
    show("dynamic shared memory and a stream", read_and_clear(d), 32);

    add_shared_samples_spelling<<<1, 5, 5 * sizeof(int)>>>(d, 3);
    show("extern int __shared__ cells[]", read_and_clear(d), 15);

    int v = 10;
    void *args[] = {&d, &v};
    CUDA_OK(cudaLaunchKernel((void *)add, dim3(1), dim3(6), args, 0, 0));
    show("cudaLaunchKernel((void *)add)", read_and_clear(d), 60);
    CUDA_OK(cudaLaunchKernel((const void *)&add, 2, 2, args));
    show("cudaLaunchKernel((const void *)&add), defaults", read_and_clear(d), 40);
    CUDA_OK(cudaLaunchKernel(add_scaled<int, 2>, 1, 3, args, 0, s));
    show("cudaLaunchKernel(add_scaled<int, 2>)", read_and_clear(d), 60);
    CUDA_OK(cudaLaunchKernel(reinterpret_cast<void *>(add_shared), 1, 4, args, 4 * sizeof(int), s));
    show("cudaLaunchKernel(reinterpret_cast, shared memory)", read_and_clear(d), 40);

    add<<<1, 2048>>>(d, 1);
    cudaError_t e = cudaGetLastError();
    printf("<<<1, 2048>>>: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue); /* CUDA 13 on an H200 (launch_errors.cu) */
    e = cudaLaunchKernel((void *)add, 1, 2048, args, 0, 0);
    printf("cudaLaunchKernel with 2048 threads: %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidValue);
    cudaGetLastError();

    CUDA_OK(cudaStreamDestroy(s));
    CUDA_OK(cudaFree(d));
    return finish("launch_forms");
}
