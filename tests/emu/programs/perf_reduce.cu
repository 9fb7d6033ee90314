/* Speed check: block-size-256 shared-memory reduction of 2^22 ints (one
 * element per thread, 16384 blocks), timed with events.  Also measures
 * context switches per second: one block of 1024 threads crossing 2000
 * barriers. */
#include "check.h"

__global__ void reduce256(const int *in, int *out, int n)
{
    __shared__ int s[256];
    int t = threadIdx.x, i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

__global__ void barriers(int rounds, int *out)
{
    int x = 0;
    for (int r = 0; r < rounds; r++) {
        x += r;
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[0] = x;
}

int main()
{
    const int n = 1 << 22;
    int *h = (int *)malloc(n * sizeof(int)), *d, *o, got;
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = i % 11;
        want += h[i];
    }
    CUDA_OK(cudaMalloc(&d, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&o, sizeof(int)));
    CUDA_OK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(o, 0, sizeof(int)));
    cudaEvent_t a, b;
    CUDA_OK(cudaEventCreate(&a));
    CUDA_OK(cudaEventCreate(&b));
    CUDA_OK(cudaEventRecord(a, 0));
    reduce256<<<n / 256, 256>>>(d, o, n);
    CUDA_OK(cudaEventRecord(b, 0));
    CUDA_OK(cudaEventSynchronize(b));
    float ms;
    CUDA_OK(cudaEventElapsedTime(&ms, a, b));
    CUDA_OK(cudaMemcpy(&got, o, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == want);
    printf("reduce 2^22 ints, 256 threads/block: %.1f ms\n", ms);

    const int rounds = 2000, threads = 1024;
    CUDA_OK(cudaEventRecord(a, 0));
    barriers<<<1, threads>>>(rounds, o);
    CUDA_OK(cudaEventRecord(b, 0));
    CUDA_OK(cudaEventElapsedTime(&ms, a, b));
    /* Each barrier is one pass over the block: the scheduler switches to the
     * first fiber, each fiber switches straight to the next, the last one
     * back to the scheduler: threads + 1 context switches per barrier. */
    double switches = (threads + 1.0) * (rounds + 1);
    printf("context switches: %.0f in %.1f ms = %.1f million/s\n", switches, ms,
           switches / ms / 1e3);
    return finish("perf_reduce");
}
