/* Divergent barriers and warp operations (argv[1] picks one). */
#include "check.h"

__global__ void early_exit(int *p, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return; /* these threads never reach the barrier */
    p[i] = i;
    __syncthreads();
    p[i] += p[(i + 1) % n];
}

__global__ void two_barriers(int *p)
{
    if (threadIdx.x < 16) {
        p[threadIdx.x] = 1;
        __syncthreads();
    } else {
        p[threadIdx.x] = 2;
        __syncthreads();
    }
}

__global__ void warp_exit(int *p)
{
    if (threadIdx.x == 5)
        return;
    p[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 1);
}

/* Issue 16: every lane runs the shuffle, the mask names only 16 of them
 * (lab 2's planted bug); compute-sanitizer's synccheck misses it. */
__global__ void half_mask(int *p)
{
    int v = (int)threadIdx.x;
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0x0000ffff, v, off);
    p[threadIdx.x] = v;
}

/* The mask names lanes 16..31, which take the other branch and leave. */
__global__ void mask_names_absent_lanes(int *p)
{
    if (threadIdx.x >= 16)
        return;
    p[threadIdx.x] = __shfl_down_sync(0xffffffff, (int)threadIdx.x, 1);
}

__global__ void fine_exit(int *p)
{
    /* Threads may exit once no barrier follows: not an error. */
    __syncthreads();
    if (threadIdx.x % 2)
        return;
    p[threadIdx.x] = 3;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "exit";
    int *d;
    CUDA_OK(cudaMalloc(&d, 256 * sizeof(int)));
    if (!strcmp(what, "exit"))
        early_exit<<<1, 64>>>(d, 50);
    else if (!strcmp(what, "split"))
        two_barriers<<<1, 32>>>(d);
    else if (!strcmp(what, "warp"))
        warp_exit<<<1, 32>>>(d);
    else if (!strcmp(what, "half-mask"))
        half_mask<<<2, 64>>>(d);
    else if (!strcmp(what, "absent-lanes"))
        mask_names_absent_lanes<<<1, 64>>>(d);
    else
        fine_exit<<<4, 64>>>(d);
    CUDA_OK(cudaDeviceSynchronize());
    printf("no error detected\n");
    return 0;
}
