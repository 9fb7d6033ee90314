/*
 * slow_launch.cu - a launch that takes the emulator a while: thread 0 of
 * each of 8 blocks spins on clock64() for argv[1] million ticks (default
 * 200: about 0.1 s a block on a CPU's time-stamp counter), then a fast
 * launch.  test_emu runs it under a low CUEMU_SLOW_NOTE and checks the
 * progress note names the kernel and the line below; under a high one,
 * that no note is printed.  stdout is the same either way.
 */
#include <cstdio>
#include <cstdlib>

__global__ void spin_blocks(long long ticks, int *out)
{
    if (threadIdx.x == 0) {
        long long start = clock64();
        while (clock64() - start < ticks) {
        }
        atomicAdd(out, 1);
    }
}

__global__ void quick(int *out) { atomicAdd(out, 1); }

int main(int argc, char **argv)
{
    long long ticks = (argc > 1 ? atoll(argv[1]) : 200) * 1000000ll;
    int *out, got = -1;
    cudaMalloc(&out, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    spin_blocks<<<8, 32>>>(ticks, out); /* the line the note names */
    quick<<<1, 32>>>(out);
    cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("count = %d\nslow_launch: %s\n", got, got == 40 ? "ok" : "FAILED");
    cudaFree(out);
    return got == 40 ? 0 : 1;
}
