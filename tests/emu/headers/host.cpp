/* host.cpp - host C++ that includes the runtime's headers, as a .cpp file
 * of a CUDA program does (built by tests/emu/headers.sh). */
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess || cudaProfilerStart() != cudaSuccess)
        return 1;
    printf("host ok: %d device\n", n);
    return 0;
}
