/* Kogge-Stone inclusive scan of one block.  "good" has both barriers; "bad"
 * reads and writes in the same step without the barrier between them, a
 * race that gives wrong sums under at least one schedule. */
#include "check.h"

template <bool SAFE> __global__ void scan(const int *in, int *out)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int off = 1; off < blockDim.x; off *= 2) {
        if (SAFE) {
            int v = t >= off ? s[t - off] : 0;
            __syncthreads();
            s[t] += v;
        } else if (t >= off) {
            s[t] += s[t - off];
        }
        __syncthreads();
    }
    out[t] = s[t];
}

int main(int argc, char **argv)
{
    bool safe = argc > 1 && !strcmp(argv[1], "good");
    const int n = 256;
    int h[n], g[n], *din, *dout;
    for (int i = 0; i < n; i++)
        h[i] = i % 7 + 1;
    CUDA_OK(cudaMalloc(&din, sizeof h));
    CUDA_OK(cudaMalloc(&dout, sizeof h));
    CUDA_OK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    if (safe)
        scan<true><<<1, n>>>(din, dout);
    else
        scan<false><<<1, n>>>(din, dout);
    CUDA_OK(cudaMemcpy(g, dout, sizeof g, cudaMemcpyDeviceToHost));
    int acc = 0, wrong = 0;
    for (int i = 0; i < n; i++) {
        acc += h[i];
        wrong += g[i] != acc;
    }
    printf(wrong ? "scan WRONG (%d of %d)\n" : "scan ok\n", wrong, n);
    return 0;
}
