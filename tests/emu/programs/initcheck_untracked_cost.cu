/* initcheck_untracked_cost.cu - a launch with a tracked allocation (one
 * never written whole) whose threads work on shared memory only, as NVIDIA's
 * scan sample does beside its partly written buffer.  Prints the process's
 * CPU seconds for the launches and the result (the same under every
 * CUEMU_INITCHECK): initcheck's hooks must cost such accesses next to
 * nothing, since no tracked byte is among them. */
#include <cstdio>
#include <ctime>

__global__ void shared_work(unsigned *partly, int rounds)
{
    __shared__ unsigned s[256];
    unsigned t = threadIdx.x, acc = t;
    s[t] = t;
    __syncthreads();
    for (int r = 0; r < rounds; r++)
        acc += s[(t + r) & 255] ^ s[(t * 7 + r) & 255];
    if (blockIdx.x == 0 && t == 1)
        partly[0] = acc; /* one element of many: the buffer stays tracked */
}

int main(void)
{
    unsigned *partly, h = 0;
    cudaMalloc(&partly, 1024 * sizeof(unsigned));
    clock_t c0 = clock();
    for (int i = 0; i < 4; i++)
        shared_work<<<8, 256>>>(partly, 20000);
    cudaDeviceSynchronize();
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    cudaMemcpy(&h, partly, sizeof h, cudaMemcpyDeviceToHost);
    printf("result %u\ncpu %.3f\n", h, secs);
    cudaFree(partly);
    return 0;
}
