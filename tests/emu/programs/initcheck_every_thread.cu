/*
 * initcheck_every_thread.cu - every thread of 64 blocks reads a buffer
 * nothing wrote.  The emulator warns once for the line; each further read
 * must cost no more than a look-up (naming the line runs addr2line, which
 * once ran for every read: 16,384 of them took minutes, and the emulator
 * reported a deadlock after 3 s without progress).
 */
#include <cstdio>

__global__ void sum_unwritten(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(out, in[i] == 12345 ? 1 : 0); /* 0 from fresh memory */
}

int main()
{
    const int blocks = 64, threads = 256;
    int *in, *out, got = -1;
    cudaMalloc(&in, blocks * threads * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    sum_unwritten<<<blocks, threads>>>(in, out);
    cudaMemcpy(&got, out, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum = %d\n", got);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
