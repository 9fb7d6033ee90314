/* cuda.h - part of the cuemu CPU emulator.  The runtime API lives in
 * cuda_runtime.h; of the driver API, teaching programs use only the common
 * types and the version macro (CUDA_VERSION, defined there), which are
 * declared here.  The driver API's functions (cuInit, cuModuleLoad ...)
 * are not provided. */
#ifndef CUEMU_CUDA_H
#define CUEMU_CUDA_H
#include "cuda_runtime.h"
#define __cuda_cuda_h__
typedef enum cudaError_enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_NO_DEVICE = 100,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_NOT_SUPPORTED = 801,
    CUDA_ERROR_UNKNOWN = 999
} CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
#endif
