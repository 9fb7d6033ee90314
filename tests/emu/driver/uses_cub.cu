/* A kernel that uses CUB's block reduction: emu-nvcc must stop with one
 * clear line (the emulator does not support CUB). */
#include <cub/block/block_reduce.cuh>

__global__ void sum(const int *in, int *out)
{
    typedef cub::BlockReduce<int, 128> Reduce;
    __shared__ typename Reduce::TempStorage tmp;
    int s = Reduce(tmp).Sum(in[threadIdx.x]);
    if (threadIdx.x == 0)
        *out = s;
}

int main() { return 0; }
