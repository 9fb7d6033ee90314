/* Cooperative-groups bugs the emulator reports (test_emu.c runs each):
 *   tile       a tile shuffle that lane 5 of its tile skips
 *   mixed      lanes of a warp, each named in the other's mask, wait in
 *              different operations (a ballot and a shuffle)
 *   grid       grid.sync() in a kernel launched with <<<>>>
 *   grid-exit  block 1 returns while the others wait at grid.sync()
 *   fine       a correct program with the same shapes (exit 0) */
#include <cooperative_groups.h>
#include <string.h>

#include "check.h"

namespace cg = cooperative_groups;

__global__ void tile_skip(int *out)
{
    cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
    int v = threadIdx.x;
    if (t.thread_rank() != 5)
        v = t.shfl_down(v, 1);
    out[threadIdx.x] = v;
}

__global__ void mixed(int *out)
{
    int v = threadIdx.x;
    if (threadIdx.x == 3)
        v = __ballot_sync(0xffffffff, 1);
    else
        v = __shfl_sync(0xffffffff, v, 0);
    out[threadIdx.x] = v;
}

__global__ void grid_wait(int *out, int leave)
{
    cg::grid_group g = cg::this_grid();
    if (leave && blockIdx.x == 1)
        return;
    g.sync();
    out[g.thread_rank()] = 1;
}

__global__ void tile_fine(int *out)
{
    cg::thread_block_tile<8> t = cg::tiled_partition<8>(cg::this_thread_block());
    out[threadIdx.x] = t.shfl_down((int)threadIdx.x, 1);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "fine";
    int *d, leave = strcmp(mode, "grid-exit") == 0;
    CUDA_OK(cudaMalloc(&d, 4096 * sizeof(int)));
    void *args[] = {&d, &leave};
    if (!strcmp(mode, "tile"))
        tile_skip<<<1, 32>>>(d);
    else if (!strcmp(mode, "mixed"))
        mixed<<<1, 32>>>(d);
    else if (!strcmp(mode, "grid"))
        grid_wait<<<2, 32>>>(d, 0);
    else if (!strcmp(mode, "grid-exit"))
        CUDA_OK(cudaLaunchCooperativeKernel((void *)grid_wait, 3, 32, args, 0, 0));
    else {
        tile_fine<<<1, 32>>>(d);
        CUDA_OK(cudaLaunchCooperativeKernel((void *)grid_wait, 3, 32, args, 0, 0));
    }
    CUDA_OK(cudaDeviceSynchronize());
    printf("no error detected\n");
    return 0;
}
