/* Host C++ that calls the runtime API and a launcher from another file. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>

extern "C" uint32_t next_value(uint32_t *state);
void run_add_offset(int *d, int n);

int main()
{
    const int n = 100;
    int h[n], *d;
    uint32_t s = 1;
    for (int i = 0; i < n; i++)
        h[i] = (int)(next_value(&s) % 10);
    int expect = h[n - 1] + 100 + 5;
    cudaMalloc((void **)&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    run_add_offset(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("last = %d, expected %d\n", h[n - 1], expect);
    return h[n - 1] == expect ? 0 : 1;
}
