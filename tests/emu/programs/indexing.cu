/* threadIdx/blockIdx/blockDim/gridDim in three dimensions, warpSize. */
#include "check.h"

struct Rec { unsigned tx, ty, tz, bx, by, bz, dx, dy, dz, gx, gy, gz; int ws; };

__global__ void record(Rec *out)
{
    unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned per_block = blockDim.x * blockDim.y * blockDim.z;
    Rec r = {threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
             blockDim.x, blockDim.y, blockDim.z, gridDim.x, gridDim.y, gridDim.z, warpSize};
    out[block * per_block + thread] = r;
}

int main()
{
    dim3 grid(3, 2, 2), block(4, 3, 5);
    int n = 3 * 2 * 2 * 4 * 3 * 5;
    Rec *d, *h = (Rec *)malloc(n * sizeof(Rec));
    CUDA_OK(cudaMalloc(&d, n * sizeof(Rec)));
    record<<<grid, block>>>(d);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(h, d, n * sizeof(Rec), cudaMemcpyDeviceToHost));
    int i = 0;
    for (unsigned bz = 0; bz < 2; bz++) for (unsigned by = 0; by < 2; by++) for (unsigned bx = 0; bx < 3; bx++)
    for (unsigned tz = 0; tz < 5; tz++) for (unsigned ty = 0; ty < 3; ty++) for (unsigned tx = 0; tx < 4; tx++, i++) {
        Rec r = h[i];
        EXPECT(r.tx == tx && r.ty == ty && r.tz == tz);
        EXPECT(r.bx == bx && r.by == by && r.bz == bz);
        EXPECT(r.dx == 4 && r.dy == 3 && r.dz == 5 && r.gx == 3 && r.gy == 2 && r.gz == 2);
        EXPECT(r.ws == 32);
    }
    /* A 1-D launch with plain integers. */
    record<<<2, 64>>>(d);
    CUDA_OK(cudaMemcpy(h, d, 128 * sizeof(Rec), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 128; k++)
        EXPECT(h[k].tx == (unsigned)k % 64 && h[k].bx == (unsigned)k / 64 && h[k].dy == 1 && h[k].gz == 1);
    cudaFree(d);
    return finish("indexing");
}
