/*
 * cuda_check.h - every CUDA call goes through CUDA_CHECK, so a failure is
 * reported where it happened (file:line, the call, CUDA's own words) and
 * the program stops with EXIT_CUDA_ERROR instead of computing garbage.
 */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_exit.h"

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t cuda_check_err_ = (call);                                         \
        if (cuda_check_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: CUDA error %s (%s)\n    in: %s\n", __FILE__,      \
                    __LINE__, cudaGetErrorName(cuda_check_err_),                      \
                    cudaGetErrorString(cuda_check_err_), #call);                      \
            exit(EXIT_CUDA_ERROR);                                                    \
        }                                                                             \
    } while (0)

#endif /* CUDA_CHECK_H */
