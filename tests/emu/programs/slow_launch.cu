/*
 * slow_launch.cu - a launch that takes the emulator a while: thread 0 of
 * each of 8 blocks spins on clock64() for argv[1] million ticks (default
 * 200: about 0.1 s a block on a CPU's time-stamp counter), argv[2] times
 * (default 1), then a fast launch.  test_emu runs it under a low
 * CUEMU_SLOW_NOTE and checks the progress note names the kernel and the
 * line below, or with many short launches that their total is noted; under
 * a high one, that no note is printed.  stdout is the same either way.
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
    int launches = argc > 2 ? atoi(argv[2]) : 1, want = 8 * launches + 32;
    int *out, got = -1;
    cudaMalloc(&out, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    for (int i = 0; i < launches; i++)
        spin_blocks<<<8, 32>>>(ticks, out); /* the line the note names */
    quick<<<1, 32>>>(out);
    cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("count = %d\nslow_launch: %s\n", got, got == want ? "ok" : "FAILED");
    cudaFree(out);
    return got == want ? 0 : 1;
}
