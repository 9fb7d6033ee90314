/* includes.cu - every CUDA header teaching programs include, as the
 * emulator provides them (tests/emu/headers.sh builds this with the
 * system's CUDA include folders out of reach and checks what was read). */
#include <builtin_types.h>
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_functions.h>
#include <device_launch_parameters.h>
#include <driver_types.h>
#include <host_defines.h>
#include <math_constants.h>
#include <math_functions.h>
#include <sm_60_atomic_functions.h>
#include <vector_functions.h>
#include <vector_types.h>
#include <stdio.h>

__global__ void sum_lanes(int *out)
{
    cooperative_groups::thread_block block = cooperative_groups::this_thread_block();
    atomicAdd(out, (int)block.thread_rank());
}

int main(void)
{
    int *d = NULL, h = 0;
    CUdeviceptr as_driver = 0;
    CUresult ok = CUDA_SUCCESS;
    if (cudaProfilerStart() != cudaSuccess || cudaMalloc(&d, sizeof(int)) != cudaSuccess)
        return 1;
    cudaMemset(d, 0, sizeof(int));
    sum_lanes<<<1, 32>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    as_driver = (CUdeviceptr)(size_t)d;
    cudaFree(d);
    if (cudaProfilerStop() != cudaSuccess)
        return 1;
    printf("headers ok: %d %d %d\n", h, (int)ok, as_driver != 0);
    return 0;
}
