/* The warp-synchronous idiom of older textbooks (issue 12): the last 64
 * partial sums of a block are folded by one warp through `volatile`
 * memory, with no __syncwarp() between the steps.  CUDA no longer
 * promises it (independent thread scheduling, since Volta), but a GPU
 * still runs a converged warp's lanes in step, so every lane reads its
 * partner before any lane writes: the sum is right.  The emulator makes
 * each volatile access a step the warp's lanes take together, so it
 * prints the same.  Three forms: in shared memory, in place in global
 * memory, and a rotation in which each lane reads the slot its neighbour
 * has just written. */
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 256, BLOCKS = 40 };

/* The unrolled last warp: 64 partial sums folded into v[0]. */
__device__ void fold_last_warp(volatile int *v, unsigned tid)
{
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
}

/* Tree in shared memory down to 64 sums, then the last warp alone. */
__global__ void sum_shared(const int *in, int *out)
{
    __shared__ int part[THREADS];
    unsigned tid = threadIdx.x;
    part[tid] = in[blockIdx.x * THREADS + tid];
    __syncthreads();
    for (unsigned half = THREADS / 2; half > 32; half /= 2) {
        if (tid < half)
            part[tid] += part[tid + half];
        __syncthreads();
    }
    if (tid < 32)
        fold_last_warp(part, tid);
    if (tid == 0)
        out[blockIdx.x] = part[0];
}

/* The same, in place in the block's slice of global memory. */
__global__ void sum_in_place(int *data, int *out)
{
    int *mine = data + blockIdx.x * THREADS;
    unsigned tid = threadIdx.x;
    for (unsigned half = THREADS / 2; half > 32; half /= 2) {
        if (tid < half)
            mine[tid] += mine[tid + half];
        __syncthreads();
    }
    if (tid < 32)
        fold_last_warp(mine, tid);
    if (tid == 0)
        out[blockIdx.x] = mine[0];
}

/* Every lane stores its number, then reads its right neighbour's slot:
 * in step, the neighbour's number; lanes one after another, the value
 * from before (-1) for all but the last lane. */
__global__ void rotate(int *out)
{
    __shared__ int slot[32];
    volatile int *v = slot;
    unsigned lane = threadIdx.x;
    slot[lane] = -1;
    __syncthreads();
    v[lane] = (int)lane;
    out[lane] = v[(lane + 1) % 32];
}

static int expected_block(const int *in, int b)
{
    int s = 0;
    for (int i = 0; i < THREADS; i++)
        s += in[b * THREADS + i];
    return s;
}

/* Runs sum_shared and sum_in_place and checks every block's sum. */
static void block_sums(const int *h_in, int *d_in, int *d_out)
{
    int h_out[BLOCKS];
    const char *names[] = {"shared memory", "global memory, in place"};
    for (int form = 0; form < 2; form++) {
        CUDA_OK(cudaMemcpy(d_in, h_in, BLOCKS * THREADS * sizeof(int), cudaMemcpyHostToDevice));
        if (form == 0)
            sum_shared<<<BLOCKS, THREADS>>>(d_in, d_out);
        else
            sum_in_place<<<BLOCKS, THREADS>>>(d_in, d_out);
        CUDA_OK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        int wrong = 0;
        for (int b = 0; b < BLOCKS; b++)
            wrong += h_out[b] != expected_block(h_in, b);
        EXPECT(wrong == 0);
        printf("last warp through volatile %s: %d of %d block sums right\n", names[form],
               BLOCKS - wrong, BLOCKS);
    }
}

int main()
{
    int *h_in = (int *)malloc(BLOCKS * THREADS * sizeof(int)), *d_in, *d_out;
    for (int i = 0; i < BLOCKS * THREADS; i++)
        h_in[i] = (i * 7919) % 1000 - 300;
    CUDA_OK(cudaMalloc(&d_in, BLOCKS * THREADS * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_out, BLOCKS * THREADS * sizeof(int)));
    block_sums(h_in, d_in, d_out);

    int rot[32], right = 0;
    rotate<<<1, 32>>>(d_out);
    CUDA_OK(cudaMemcpy(rot, d_out, sizeof rot, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++)
        right += rot[l] == (l + 1) % 32;
    EXPECT(right == 32);
    printf("rotation through volatile shared memory: %d of 32 lanes read their neighbour's number\n",
           right);
    CUDA_OK(cudaFree(d_in));
    CUDA_OK(cudaFree(d_out));
    free(h_in);
    return finish("warp_volatile");
}
