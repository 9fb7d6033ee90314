/*
 * shfl_reduce.cu - an ordinary CUDA program (no emulator-specific code):
 * a shared-memory reduction with warp shuffles and atomics.  It builds with
 * the real nvcc and with emu-nvcc and prints the same lines on both: every
 * printed value is independent of the order in which blocks and threads run
 * (integer atomics; float partial sums per block by a fixed tree, added on
 * the host in block order).
 *
 *   nvcc -arch=sm_90 -o shfl_reduce shfl_reduce.cu && ./shfl_reduce
 *   common/emu/emu-nvcc -o shfl_reduce shfl_reduce.cu && ./shfl_reduce
 */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
    do {                                                                                 \
        cudaError_t err = (call);                                                        \
        if (err != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err));  \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

const int BLOCK = 256;
const int WARPS = BLOCK / 32;

__device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__device__ __forceinline__ int warp_max(int v)
{
    for (int mask = 16; mask > 0; mask /= 2)
        v = max(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}

__device__ __forceinline__ float warp_fsum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void reduce(const int *in, int n, unsigned *sum, int *maximum, unsigned *big,
                       float *block_fsum)
{
    __shared__ unsigned s_sum[WARPS];
    __shared__ int s_max[WARPS];
    __shared__ float s_fsum[WARPS];
    unsigned acc = 0, count = 0;
    int best = -2147483647 - 1;
    float facc = 0.0f;
    /* Every thread of the block makes the same number of trips, so the whole
     * warp is present at each __ballot_sync. */
    for (int start = blockIdx.x * blockDim.x; start < n; start += gridDim.x * blockDim.x) {
        int i = start + threadIdx.x;
        bool valid = i < n;
        int x = valid ? in[i] : 0;
        if (valid) {
            acc += (unsigned)x;
            best = max(best, x);
            facc += (float)(x & 1023) * 0.125f;
        }
        unsigned votes = __ballot_sync(0xffffffffu, valid && x > 1000000);
        if ((threadIdx.x & 31) == 0)
            count += __popc(votes);
    }
    acc = warp_sum(acc);
    best = warp_max(best);
    facc = warp_fsum(facc);
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0) {
        s_sum[warp] = acc;
        s_max[warp] = best;
        s_fsum[warp] = facc;
        if (count)
            atomicAdd(big, count);
    }
    __syncthreads();
    if (warp == 0) {
        acc = lane < WARPS ? s_sum[lane] : 0u;
        best = lane < WARPS ? s_max[lane] : -2147483647 - 1;
        facc = lane < WARPS ? s_fsum[lane] : 0.0f;
        acc = warp_sum(acc);
        best = warp_max(best);
        facc = warp_fsum(facc);
        if (lane == 0) {
            atomicAdd(sum, acc);
            atomicMax(maximum, best);
            block_fsum[blockIdx.x] = facc;
        }
    }
}

int main()
{
    const int n = (1 << 20) + 37; /* not a multiple of the block size */
    const int blocks = 120;
    int *h = (int *)malloc(n * sizeof(int));
    unsigned state = 12345u;
    for (int i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        h[i] = (int)(state >> 9) - (1 << 21); /* values in [-2^21, 2^23) */
    }
    int *d_in, *d_max;
    unsigned *d_sum, *d_big;
    float *d_fsum;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sum, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_big, sizeof(unsigned)));
    CHECK(cudaMalloc(&d_max, sizeof(int)));
    CHECK(cudaMalloc(&d_fsum, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_sum, 0, sizeof(unsigned)));
    CHECK(cudaMemset(d_big, 0, sizeof(unsigned)));
    int lowest = -2147483647 - 1;
    CHECK(cudaMemcpy(d_max, &lowest, sizeof(int), cudaMemcpyHostToDevice));

    reduce<<<blocks, BLOCK>>>(d_in, n, d_sum, d_max, d_big, d_fsum);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    unsigned sum, big;
    int maximum;
    float *fsum = (float *)malloc(blocks * sizeof(float));
    CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&big, d_big, sizeof big, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&maximum, d_max, sizeof maximum, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fsum, d_fsum, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    float ftotal = 0.0f;
    for (int b = 0; b < blocks; b++)
        ftotal += fsum[b];

    unsigned ref_sum = 0, ref_big = 0;
    int ref_max = lowest;
    double ref_f = 0;
    for (int i = 0; i < n; i++) {
        ref_sum += (unsigned)h[i];
        ref_max = h[i] > ref_max ? h[i] : ref_max;
        ref_big += h[i] > 1000000;
        ref_f += (h[i] & 1023) * 0.125;
    }
    printf("n = %d, blocks = %d x %d threads\n", n, blocks, BLOCK);
    printf("sum (mod 2^32) = %u\n", sum);
    printf("max = %d\n", maximum);
    printf("count > 1000000 = %u\n", big);
    printf("float sum = %.9g (fp64 reference %.9g)\n", ftotal, ref_f);
    bool ok = sum == ref_sum && maximum == ref_max && big == ref_big &&
              (ftotal - ref_f) * (ftotal - ref_f) < 1e-6 * ref_f * ref_f;
    printf("%s\n", ok ? "PASS" : "FAIL");
    cudaFree(d_in);
    cudaFree(d_sum);
    cudaFree(d_big);
    cudaFree(d_max);
    cudaFree(d_fsum);
    free(h);
    free(fsum);
    return ok ? 0 : 1;
}
