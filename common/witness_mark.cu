/*
 * witness_mark.cu - the marker kernel of a witnessed case list
 * (witness_mark.h says why).
 */
#include "witness_mark.h"

/* Does nothing: only its name and its grid reach the profiler's table. */
extern "C" __global__ void kit_witness_mark(void) {}

extern "C" int witness_mark_launch(int k)
{
    kit_witness_mark<<<k + 1, 1>>>();
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    return (int)e;
}
