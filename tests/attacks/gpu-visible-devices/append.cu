
// The attack: before CUDA starts (a constructor runs before main), drop
// the grader's CUDA_VISIBLE_DEVICES and count the GPUs this process can
// use; the count goes to its log, where run.sh reads it (--keep).
#include <stdio.h>
#include <stdlib.h>
__attribute__((constructor)) static void attack_count_gpus(void)
{
    unsetenv("CUDA_VISIBLE_DEVICES");
    int count = -1;
    cudaError_t e = cudaGetDeviceCount(&count);
    fprintf(stderr, "attack: devices seen: %d (%s)\n", count, cudaGetErrorString(e));
}
