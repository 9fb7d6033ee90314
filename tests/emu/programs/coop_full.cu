/* A cooperative grid as large as the device allows (issue 12): programs
 * size it as SMs x the occupancy API's blocks per SM, which on the
 * emulated H100 is 132 x 2 blocks of 1024 threads, or 132 x 32 blocks of
 * 32 threads, all resident at once whatever CUEMU_THREADS is.  Every block
 * publishes a value, meets the others at grid.sync() twice, and checks
 * what all the others published; one block more than the occupancy allows
 * is refused with cudaErrorCooperativeLaunchTooLarge, as on a GPU. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

/* Each block's sum of what every block published, in two rounds. */
__global__ void all_meet(unsigned *slots, unsigned *sums)
{
    cg::grid_group grid = cg::this_grid();
    unsigned nb = gridDim.x, b = blockIdx.x;
    for (unsigned round = 1; round <= 2; round++) {
        if (threadIdx.x == 0)
            slots[b] = b * round + 1;
        grid.sync();
        if (threadIdx.x == 0) {
            unsigned s = 0;
            for (unsigned i = 0; i < nb; i++)
                s += slots[i];
            sums[b] = s;
        }
        grid.sync();
    }
}

/* Launches all_meet cooperatively with the grid the device allows for
 * `threads` per block, checks every block's sums, then one block more. */
static void full_grid(int threads)
{
    int sms = 0, per_sm = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_meet, threads, 0));
    unsigned nb = (unsigned)(sms * per_sm);
    unsigned *slots, *sums;
    CUDA_OK(cudaMalloc(&slots, (nb + 1) * sizeof(unsigned)));
    CUDA_OK(cudaMalloc(&sums, (nb + 1) * sizeof(unsigned)));
    void *args[] = {&slots, &sums};
    CUDA_OK(cudaLaunchCooperativeKernel((void *)all_meet, nb, threads, args, 0, 0));
    CUDA_OK(cudaDeviceSynchronize());
    unsigned *h = (unsigned *)malloc(nb * sizeof(unsigned));
    CUDA_OK(cudaMemcpy(h, sums, nb * sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned want = 2 * (nb * (nb - 1) / 2) + nb, bad = 0;
    for (unsigned i = 0; i < nb; i++)
        bad += h[i] != want;
    EXPECT(bad == 0);
    printf("%d threads per block: %u blocks (%d per SM) met at grid.sync(): %s\n", threads, nb,
           per_sm, bad == 0 ? "every block saw every other" : "WRONG");
    cudaError_t e = cudaLaunchCooperativeKernel((void *)all_meet, nb + 1, threads, args, 0, 0);
    EXPECT(e == cudaErrorCooperativeLaunchTooLarge);
    printf("%u blocks: %s\n", nb + 1, cudaGetErrorName(e));
    cudaGetLastError();
    free(h);
    CUDA_OK(cudaFree(slots));
    CUDA_OK(cudaFree(sums));
}

int main()
{
    full_grid(1024);
    full_grid(32);
    return finish("coop_full");
}
