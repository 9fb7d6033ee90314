/*
 * cuda_runtime.h - the CUDA runtime API and device built-ins as the CPU
 * emulator (cuemu) provides them.  emu-nvcc force-includes this file into
 * every .cu file, as nvcc does with the real one.  It never includes a real
 * CUDA header.  See common/emu/README.md for the subset and its semantics.
 *
 * The C part (types, error codes, API functions) also compiles as C11 so
 * that plain host .c files may include it.
 */
#ifndef CUEMU_CUDA_RUNTIME_H
#define CUEMU_CUDA_RUNTIME_H

#ifndef __CUEMU__
#define __CUEMU__ 1
#endif

#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
#include <cmath>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#endif

/* ---- execution-space and storage qualifiers --------------------------
 * Device code is ordinary host code here, so the qualifiers vanish.
 * __shared__ is rewritten by emu-nvcc's source pass (static per-block
 * storage); defining it here as well lets plain host files that merely
 * mention it compile. */
#if defined(CUEMU_CONTRACT_DEVICE) && defined(__GNUC__) && !defined(__clang__)
/* nvcc contracts a*b+c into one fused multiply-add in device code by
 * default (--fmad=true); host code is compiled by a host compiler that
 * does not.  emu-nvcc, where the machine has FMA, compiles a .cu file
 * with -mfma -ffp-contract=off and defines CUEMU_CONTRACT_DEVICE, so that
 * kernels and __device__ functions (and what is inlined into them:
 * lambdas, templates) are contracted and host functions are not.  On a
 * variable the attribute means nothing (emu-nvcc passes -Wno-attributes).
 * A __host__ __device__ function is contracted for host callers too. */
#define __global__ __attribute__((optimize("fp-contract=fast")))
#define __device__ __attribute__((optimize("fp-contract=fast")))
#else
#define __global__
#define __device__
#endif
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
/* __noinline__ is rewritten by the source pass: libstdc++ spells the GNU
 * attribute __attribute__((__noinline__)), so it cannot be a macro. */
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#ifndef CUEMU_SOURCE_PASS
#define __shared__ static __thread
#endif

#define CUDART_VERSION 12000
#define CUDART_CB
#define CUDARTAPI
#define CUDART_DEVICE __device__
#define __CUDART_API_VERSION 12000
#ifndef CUDA_VERSION
#define CUDA_VERSION 12000
#endif
/* The include guards of the real headers: code such as the CUDA samples'
 * helper_cuda.h tests them to learn what has been included. */
#define __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_API_H__
#define __DRIVER_TYPES_H__
#define __VECTOR_TYPES_H__
#define __HOST_DEFINES_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__

#ifdef __cplusplus
#define CUEMU_EXTERN_C extern "C"
#else
#define CUEMU_EXTERN_C
#endif

/* ---- vector types ---------------------------------------------------- */
#define CUEMU_VEC1(T, N)                                                                   \
    typedef struct N { T x; } N;                                                           \
    static inline N make_##N(T x) { N r; r.x = x; return r; }
#define CUEMU_VEC2(T, N, A)                                                                \
    typedef struct __attribute__((aligned(A))) N { T x, y; } N;                            \
    static inline N make_##N(T x, T y) { N r; r.x = x; r.y = y; return r; }
#define CUEMU_VEC3(T, N)                                                                   \
    typedef struct N { T x, y, z; } N;                                                     \
    static inline N make_##N(T x, T y, T z) { N r; r.x = x; r.y = y; r.z = z; return r; }
#define CUEMU_VEC4(T, N, A)                                                                \
    typedef struct __attribute__((aligned(A))) N { T x, y, z, w; } N;                      \
    static inline N make_##N(T x, T y, T z, T w)                                           \
    { N r; r.x = x; r.y = y; r.z = z; r.w = w; return r; }
#define CUEMU_VECS(T, B, A2, A4)                                                           \
    CUEMU_VEC1(T, B##1) CUEMU_VEC2(T, B##2, A2) CUEMU_VEC3(T, B##3) CUEMU_VEC4(T, B##4, A4)

CUEMU_VECS(signed char, char, 2, 4)
CUEMU_VECS(unsigned char, uchar, 2, 4)
CUEMU_VECS(short, short, 4, 8)
CUEMU_VECS(unsigned short, ushort, 4, 8)
CUEMU_VECS(int, int, 8, 16)
CUEMU_VECS(unsigned int, uint, 8, 16)
CUEMU_VECS(long, long, 16, 16)
CUEMU_VECS(unsigned long, ulong, 16, 16)
CUEMU_VECS(long long, longlong, 16, 16)
CUEMU_VECS(unsigned long long, ulonglong, 16, 16)
CUEMU_VECS(float, float, 8, 16)
CUEMU_VECS(double, double, 16, 16)

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

/* ---- error codes (values as in CUDA 12) ------------------------------ */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInsufficientDriver = 35,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

typedef enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9
} cudaFuncAttribute;

#include "cuemu_device_attr.h"

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaCpuDeviceId ((int)-1)
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaEventInterprocess 0x04
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaStreamLegacy ((cudaStream_t)0x1)
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *user_data);
typedef void (*cudaHostFn_t)(void *user_data);

typedef struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    size_t sharedMemPerBlockOptin;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int cooperativeLaunch;
    int cooperativeMultiDeviceLaunch;
    int concurrentManagedAccess;
    int pageableMemoryAccess;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int directManagedMemAccessFromHost;
    int hostNativeAtomicSupported;
    int pciDomainID;
    int tccDriver;
    int memoryPoolsSupported;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int singleToDoublePrecisionPerfRatio;
    int maxTexture1D;
    int maxTexture2D[2];
    int maxTexture3D[3];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    char uuid[16];
    char luid[8];
} cudaDeviceProp;

/* ---- runtime API ------------------------------------------------------ */
CUEMU_EXTERN_C cudaError_t cudaMalloc(void **ptr, size_t size);
CUEMU_EXTERN_C cudaError_t cudaFree(void *ptr);
CUEMU_EXTERN_C cudaError_t cudaMallocHost(void **ptr, size_t size);
CUEMU_EXTERN_C cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaFreeHost(void *ptr);
CUEMU_EXTERN_C cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                      cudaMemcpyKind kind);
CUEMU_EXTERN_C cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                           cudaMemcpyKind kind, cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaMemset(void *ptr, int value, size_t count);
CUEMU_EXTERN_C cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count,
                                           cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                               unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaDeviceSynchronize(void);
CUEMU_EXTERN_C cudaError_t cudaDeviceReset(void);
CUEMU_EXTERN_C cudaError_t cudaGetLastError(void);
CUEMU_EXTERN_C cudaError_t cudaPeekAtLastError(void);
CUEMU_EXTERN_C const char *cudaGetErrorString(cudaError_t err);
CUEMU_EXTERN_C const char *cudaGetErrorName(cudaError_t err);
CUEMU_EXTERN_C cudaError_t cudaGetDeviceCount(int *count);
CUEMU_EXTERN_C cudaError_t cudaGetDevice(int *device);
CUEMU_EXTERN_C cudaError_t cudaSetDevice(int device);
CUEMU_EXTERN_C cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
CUEMU_EXTERN_C cudaError_t cudaDriverGetVersion(int *version);
CUEMU_EXTERN_C cudaError_t cudaRuntimeGetVersion(int *version);
CUEMU_EXTERN_C cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
CUEMU_EXTERN_C cudaError_t cudaEventCreate(cudaEvent_t *event);
CUEMU_EXTERN_C cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaEventSynchronize(cudaEvent_t event);
CUEMU_EXTERN_C cudaError_t cudaEventQuery(cudaEvent_t event);
CUEMU_EXTERN_C cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
CUEMU_EXTERN_C cudaError_t cudaEventDestroy(cudaEvent_t event);
CUEMU_EXTERN_C cudaError_t cudaStreamCreate(cudaStream_t *stream);
CUEMU_EXTERN_C cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaStreamSynchronize(cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaStreamDestroy(cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaStreamQuery(cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
CUEMU_EXTERN_C cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags);
/* Managed memory hints, in CUDA 13's form (a location, not a device
 * number): code written for CUDA 12's form is refused here as CUDA 13's
 * nvcc refuses it.  On the emulator they change nothing. */
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
enum cudaMemoryAdvise {
    cudaMemAdviseSetReadMostly = 1,
    cudaMemAdviseUnsetReadMostly = 2,
    cudaMemAdviseSetPreferredLocation = 3,
    cudaMemAdviseUnsetPreferredLocation = 4,
    cudaMemAdviseSetAccessedBy = 5,
    cudaMemAdviseUnsetAccessedBy = 6
};
CUEMU_EXTERN_C cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count,
                                                struct cudaMemLocation location, unsigned int flags,
                                                cudaStream_t stream = 0);
CUEMU_EXTERN_C cudaError_t cudaMemAdvise(const void *ptr, size_t count, enum cudaMemoryAdvise advice,
                                         struct cudaMemLocation location);
CUEMU_EXTERN_C cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaHostUnregister(void *ptr);
CUEMU_EXTERN_C cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb,
                                                 void *user_data, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data);
CUEMU_EXTERN_C cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags,
                                                        int priority);
CUEMU_EXTERN_C cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
CUEMU_EXTERN_C cudaError_t cudaSetDeviceFlags(unsigned int flags);
CUEMU_EXTERN_C cudaError_t cudaGetDeviceFlags(unsigned int *flags);
CUEMU_EXTERN_C cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config);
CUEMU_EXTERN_C cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config);
CUEMU_EXTERN_C cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value);
CUEMU_EXTERN_C cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit);
CUEMU_EXTERN_C cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer);
CUEMU_EXTERN_C cudaError_t cudaThreadSynchronize(void);
CUEMU_EXTERN_C cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func);
CUEMU_EXTERN_C cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config);
CUEMU_EXTERN_C cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                                         int block_size,
                                                                         size_t dyn_smem);
CUEMU_EXTERN_C cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *blocks, const void *func, int block_size, size_t dyn_smem, unsigned int flags);
CUEMU_EXTERN_C cudaError_t cuemu_max_potential_block_size(int *min_grid, int *block_size,
                                                          size_t dyn_smem, int limit);
/* Internal helpers for the symbol and attribute templates below. */
CUEMU_EXTERN_C cudaError_t cuemu_memcpy_symbol(void *dst, const void *src, size_t count,
                                               int to_symbol);
CUEMU_EXTERN_C cudaError_t cuemu_register_symbol(void *addr, size_t size);
CUEMU_EXTERN_C cudaError_t cuemu_set_max_dynamic_shared(int bytes);

#ifdef __cplusplus
/* Default arguments as in the real header. */
static inline cudaError_t cudaEventRecord(cudaEvent_t e) { return cudaEventRecord(e, 0); }
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k)
{
    return cudaMemcpyAsync(d, s, n, k, 0);
}
static inline cudaError_t cudaMemsetAsync(void *p, int v, size_t n)
{
    return cudaMemsetAsync(p, v, n, 0);
}
template <class T> static inline cudaError_t cudaMalloc(T **ptr, size_t size)
{
    return cudaMalloc((void **)ptr, size);
}
template <class T>
static inline cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaStream_t stream)
{
    return cudaMallocAsync((void **)ptr, size, stream);
}
template <class T> static inline cudaError_t cudaMallocHost(T **ptr, size_t size)
{
    return cudaMallocHost((void **)ptr, size);
}
/* __constant__ and __device__ variables are ordinary globals here. */
template <class T>
static inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                             size_t offset = 0,
                                             cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    (void)kind;
    if (offset + count > sizeof(T))
        return cuemu_memcpy_symbol(0, 0, 0, 2);
    return cuemu_memcpy_symbol((char *)&symbol + offset, src, count, 1);
}
template <class T>
static inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                               size_t offset = 0,
                                               cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    (void)kind;
    if (offset + count > sizeof(T))
        return cuemu_memcpy_symbol(0, 0, 0, 2);
    return cuemu_memcpy_symbol(dst, (const char *)&symbol + offset, count, 0);
}
template <class T>
static inline cudaError_t cudaGetSymbolAddress(void **dev_ptr, const T &symbol)
{
    *dev_ptr = (void *)&symbol;
    return cuemu_register_symbol((void *)&symbol, sizeof(T));
}
template <class T>
static inline cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol)
{
    (void)symbol;
    *size = sizeof(T);
    return cudaSuccess;
}
template <class T>
static inline cudaError_t cudaMallocManaged(T **ptr, size_t size, unsigned int flags = cudaMemAttachGlobal)
{
    return cudaMallocManaged((void **)ptr, size, flags);
}
template <class T>
static inline cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags)
{
    return cudaHostAlloc((void **)ptr, size, flags);
}
template <class F> static inline cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, F *func)
{
    return cudaFuncGetAttributes(attr, (const void *)func);
}
template <class F> static inline cudaError_t cudaFuncSetCacheConfig(F *func, cudaFuncCache config)
{
    return cudaFuncSetCacheConfig((const void *)func, config);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F *func, int block_size,
                                                                        size_t dyn_smem)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, block_size, dyn_smem);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, F *func,
                                                                                 int block_size,
                                                                                 size_t dyn_smem,
                                                                                 unsigned int flags)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, (const void *)func, block_size,
                                                                  dyn_smem, flags);
}
/* The block size that fills an emulated SM best: 1024 threads (no
 * registers are modelled), or the limit given. */
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int *min_grid, int *block_size, F func,
                                                             size_t dyn_smem = 0, int limit = 0)
{
    (void)func;
    return cuemu_max_potential_block_size(min_grid, block_size, dyn_smem, limit);
}
template <class F>
static inline cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int *min_grid, int *block_size, F func,
                                                                         int (*smem_of)(int), int limit = 0)
{
    (void)func;
    return cuemu_max_potential_block_size(min_grid, block_size, smem_of ? (size_t)smem_of(1024) : 0, limit);
}
#ifndef CUEMU_SOURCE_PASS
/* In .cu files the source pass turns these calls into typed launches; a
 * host .cpp file has no kernels to launch. */
static inline cudaError_t cudaLaunchKernel(const void *, dim3, dim3, void **, size_t = 0, cudaStream_t = 0)
{
    fprintf(stderr, "cuemu: cudaLaunchKernel is supported in .cu files only\n");
    return cudaErrorNotSupported;
}
static inline cudaError_t cudaLaunchCooperativeKernel(const void *, dim3, dim3, void **, size_t = 0,
                                                      cudaStream_t = 0)
{
    fprintf(stderr, "cuemu: cudaLaunchCooperativeKernel is supported in .cu files only\n");
    return cudaErrorNotSupported;
}
#endif
template <class F>
static inline cudaError_t cudaFuncSetAttribute(F *func, cudaFuncAttribute attr, int value)
{
    (void)func;
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
        return cuemu_set_max_dynamic_shared(value);
    return cudaSuccess;
}
#endif

/* ---- device built-ins: threadIdx and friends, barriers, warp operations,
 * atomics, fences (cuemu_device.h) ---------------------------------------- */
#include "cuemu_device.h"

#endif /* CUEMU_CUDA_RUNTIME_H */
