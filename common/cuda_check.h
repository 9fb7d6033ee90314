/*
 * cuda_check.h - every CUDA call is checked, so a failure is reported where
 * it happened (file:line, the call, CUDA's own words) instead of computing
 * garbage.  Two macros, one for each side of lab.h's contract:
 *
 *   CUDA_TRY(call)    in a lab's host code (a variant's run() and the
 *                     helpers it calls, which return cudaError_t or int):
 *                     reports the failure and returns its error.
 *   CUDA_CHECK(call)  in the harness (harness.cu, buffers.cu, timing.cu,
 *                     cub_baseline.cu): reports the failure and exits with
 *                     EXIT_CUDA_ERROR (EXIT_CUDA_OOM when out of memory).
 *
 * Why two: only the harness ends the process.  lab.h says run() returns
 * the error it detected; the harness, which called it, names the variant
 * and exits with the code the grader reads (cuda_exit.h).  Lab code that
 * exited by itself would decide that for its caller.  A variant is not run
 * again after an error, so CUDA_TRY's early return need not free what its
 * function allocated.
 */
#ifndef CUDA_CHECK_H
#define CUDA_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "cuda_exit.h"

/* What both print: where, CUDA's name and words for err, the call. */
#define CUDA_REPORT_(err, call_text)                                                  \
    fprintf(stderr, "%s:%d: CUDA error %s (%s)\n    in: %s\n", __FILE__, __LINE__,    \
            cudaGetErrorName(err), cudaGetErrorString(err), call_text)

/* The exit code for a CUDA error (cuda_exit.h): out of device memory has
 * its own, which the grader reads as "maybe not yours: run again alone". */
static inline int cuda_exit_code(cudaError_t err)
{
    return err == cudaErrorMemoryAllocation ? EXIT_CUDA_OOM : EXIT_CUDA_ERROR;
}

/* Variadic, so that a call of a template, f<T, Op>(p), needs no extra
 * parentheses around it. */
#define CUDA_TRY(...)                                                                 \
    do {                                                                              \
        cudaError_t cuda_try_err_ = (__VA_ARGS__);                                    \
        if (cuda_try_err_ != cudaSuccess) {                                           \
            CUDA_REPORT_(cuda_try_err_, #__VA_ARGS__);                                \
            return cuda_try_err_;                                                     \
        }                                                                             \
    } while (0)

#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t cuda_check_err_ = (call);                                         \
        if (cuda_check_err_ != cudaSuccess) {                                         \
            CUDA_REPORT_(cuda_check_err_, #call);                                     \
            exit(cuda_exit_code(cuda_check_err_));                                    \
        }                                                                             \
    } while (0)

#endif /* CUDA_CHECK_H */
