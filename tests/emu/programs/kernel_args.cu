/* Kernel arguments are bytes (issue 12).  nvcc's host stub takes each
 * argument by value, so the host makes one copy per launch and destroys
 * it when the launch call returns; the device threads get the bytes and
 * run no constructor or destructor.  A class whose destructor releases
 * what it owns (CUDA by Example's Lock frees its mutex) must therefore
 * survive a launch of many threads.  cudaLaunchKernel copies the bytes
 * only: no constructor or destructor at all.  Each thread's copy is its
 * own: a thread that changes its parameter changes nobody else's. */
#include <cuda_runtime.h>

#include "check.h"

static int copies = 0, destroyed = 0; /* host side only */

/* Owns a device counter: allocated when made, freed when destroyed. */
struct Owner {
    int *counter;
    int bias;
    Owner() : bias(0)
    {
        CUDA_OK(cudaMalloc(&counter, sizeof(int)));
        CUDA_OK(cudaMemset(counter, 0, sizeof(int)));
    }
    Owner(const Owner &o) : counter(o.counter), bias(o.bias) { copies++; }
    ~Owner()
    {
        destroyed++;
        if (destroyed == 1000000)
            cudaFree(counter); /* never: what a per-thread destructor would reach */
    }
    __device__ void add(int v) { atomicAdd(counter, v); }
};

/* Every thread adds one; each changes its own copy's bias first. */
__global__ void count(Owner o, int *seen)
{
    o.bias += (int)threadIdx.x;
    seen[blockIdx.x * blockDim.x + threadIdx.x] = o.bias;
    o.add(1);
}

/* The same through a template whose argument the launch deduces. */
template <class T> __global__ void count_t(Owner o, T *seen)
{
    seen[blockIdx.x * blockDim.x + threadIdx.x] = (T)o.bias;
    o.add(1);
}

/* Frees its allocation in its destructor, as CUDA by Example's Lock does. */
struct Freeing {
    int *word;
    Freeing()
    {
        CUDA_OK(cudaMalloc(&word, sizeof(int)));
        CUDA_OK(cudaMemset(word, 0, sizeof(int)));
    }
    ~Freeing() { cudaFree(word); }
};
__global__ void use_freeing(Freeing f) { atomicAdd(f.word, 1); }

static int read_counter(const Owner &o)
{
    int v = -1;
    CUDA_OK(cudaMemcpy(&v, o.counter, sizeof v, cudaMemcpyDeviceToHost));
    return v;
}

int main()
{
    enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };
    Owner o;
    int *seen, h[N];
    CUDA_OK(cudaMalloc(&seen, N * sizeof(int)));
    count<<<BLOCKS, THREADS>>>(o, seen);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(h, seen, sizeof h, cudaMemcpyDeviceToHost));
    int own = 0;
    for (int i = 0; i < N; i++)
        own += h[i] == i % THREADS;
    printf("<<<>>>: %d threads counted, host copies %d, destroyed %d, %d threads saw only "
           "their own change\n", read_counter(o), copies, destroyed, own);
    EXPECT(read_counter(o) == N && own == N);

    count_t<<<BLOCKS, THREADS>>>(o, seen);
    CUDA_OK(cudaDeviceSynchronize());
    printf("template <<<>>>: %d threads counted, host copies %d, destroyed %d\n",
           read_counter(o), copies, destroyed);

    void *args[] = {&o, &seen};
    CUDA_OK(cudaLaunchKernel((void *)count, dim3(BLOCKS), dim3(THREADS), args, 0, 0));
    CUDA_OK(cudaDeviceSynchronize());
    printf("cudaLaunchKernel: %d threads counted, host copies %d, destroyed %d\n",
           read_counter(o), copies, destroyed);
    EXPECT(read_counter(o) == 3 * N);

    {
        Freeing f;
        use_freeing<<<BLOCKS, THREADS>>>(f);
        cudaError_t e = cudaDeviceSynchronize();
        printf("a by-value argument that frees in its destructor: %s\n", cudaGetErrorName(e));
        EXPECT(e == cudaSuccess);
    }
    cudaGetLastError(); /* f's own destructor frees the word a second time */
    CUDA_OK(cudaFree(seen));
    return finish("kernel_args");
}
