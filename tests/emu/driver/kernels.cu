/* Part of a program split over files: kernels here, host code in main.cpp,
 * plain C in prng.c (like the kit's PRNG), a header from an -I directory. */
#include "config.h"

__global__ void add_offset(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] += OFFSET + EXTRA;
}

void run_add_offset(int *d, int n)
{
    add_offset<<<(n + 63) / 64, 64>>>(d, n);
}
