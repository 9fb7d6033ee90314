/* managed_accumulator.cu - sums 1..1000 into an accumulator from
 * cudaMallocManaged that nobody set to 0 first.  A GPU's fresh memory is
 * zero in practice, so it prints 500500 there; the emulator warns at the
 * atomicAdd's line and (CUEMU_FRESH=zero) prints the same. */
#include <cstdio>

__global__ void accumulate(const int *x, int n, int *sum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(sum, x[i]);
}

int main(void)
{
    const int n = 1000;
    int *x, *sum;
    cudaMallocManaged(&x, n * sizeof(int));
    cudaMallocManaged(&sum, sizeof(int));
    for (int i = 0; i < n; i++)
        x[i] = i + 1;
    accumulate<<<(n + 255) / 256, 256>>>(x, n, sum);
    cudaDeviceSynchronize();
    printf("sum = %d\n", *sum);
    cudaFree(x);
    cudaFree(sum);
    return 0;
}
