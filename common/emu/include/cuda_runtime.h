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
#define __global__
#define __device__
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
CUEMU_EXTERN_C cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, int device,
                                                cudaStream_t stream);
CUEMU_EXTERN_C cudaError_t cudaMemAdvise(const void *ptr, size_t count, int advice, int device);
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

/* ---- device built-ins ------------------------------------------------- */
#ifdef __cplusplus
/* The index variables of the CUDA thread running on this OS thread; the
 * block scheduler sets them before each switch to a thread's fiber. */
extern __thread uint3 threadIdx;
extern __thread uint3 blockIdx;
extern __thread dim3 blockDim;
extern __thread dim3 gridDim;
static const int warpSize = 32;

namespace cuemu {
extern __thread char *dyn_smem_base;
static inline void *dyn_shared() { return dyn_smem_base; }
static inline char *&dyn_shared_ref() { return dyn_smem_base; }

/* Which barrier a thread waits at. */
enum BarrierKind { BAR_PLAIN, BAR_COUNT, BAR_AND, BAR_OR };
/* Which warp operation a lane waits in.  The four shuffles come first:
 * lanes in different shuffles of one warp still exchange (warp_op). */
enum WarpOp {
    WARP_SHFL_IDX, WARP_SHFL_UP, WARP_SHFL_DOWN, WARP_SHFL_XOR, /* shuffles */
    WARP_VOTE,       /* __ballot_sync, __any_sync, __all_sync */
    WARP_MATCH_ANY,  /* __match_any_sync: lanes holding the same value */
    WARP_MATCH_ALL,  /* __match_all_sync: mask if all hold one value (bit 32: pred) */
    WARP_REDUCE,     /* __reduce_*_sync: arg is a ReduceOp */
    WARP_SYNC,       /* __syncwarp */
    WARP_ACTIVEMASK, /* __activemask (active_mask, not warp_op) */
    WARP_OP_KINDS
};
static inline bool is_shuffle(int kind) { return kind <= WARP_SHFL_XOR; }
/* The operation of a WARP_REDUCE (__reduce_*_sync), on 32-bit values. */
enum ReduceOp { RED_ADD, RED_MIN_S, RED_MAX_S, RED_MIN_U, RED_MAX_U, RED_AND, RED_OR, RED_XOR };
/* Scope of a memory fence (src/memory.cpp). */
enum FenceScope { FENCE_BLOCK, FENCE_DEVICE };

/* Block barrier.  Returns the number of threads whose predicate was
 * non-zero. */
int block_sync(BarrierKind kind, int pred, const char *file, int line);
/* Warp exchange: every lane of mask contributes value and receives the
 * value of the lane its (kind, arg, width) names, or the ballot. */
unsigned long long warp_op(WarpOp kind, unsigned mask, unsigned long long value, int arg,
                           int width, const char *file, int line);
/* __threadfence*(): under CUEMU_MEMORY=weak it publishes held-back stores. */
void thread_fence(int scope);
unsigned active_mask(const char *file, int line);
void soft_yield();
[[noreturn]] void trap(const char *what, const char *file, int line);

struct LaunchConfig {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    bool cooperative = false; /* cudaLaunchCooperativeKernel: grid.sync() allowed */
    LaunchConfig(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = 0)
        : grid(g), block(b), shmem(s), stream(st) {}
};
/* Runs a grid: fn(ctx) once per CUDA thread, in fibers.  Returns
 * cudaSuccess or the launch-configuration error. */
cudaError_t launch_grid(const char *name, const char *file, int line, const LaunchConfig &cfg,
                        void (*fn)(void *), void *ctx);

template <class B> static void call_body(void *p) { (*(B *)p)(); }

/* k<<<cfg>>>(args) becomes launch_kernel(..., cfg, [&](auto&... a){ k(a...); }, args).
 * The arguments are evaluated once, on the host, and each CUDA thread
 * receives its own copy of the parameters, as on a GPU. */
template <class F, class... A>
void launch_kernel(const char *name, const char *file, int line, const LaunchConfig &cfg,
                   F &&kernel, A &&...args)
{
    std::tuple<std::decay_t<A>...> params(std::forward<A>(args)...);
    auto body = [&]() { std::apply(kernel, params); };
    launch_grid(name, file, line, cfg, &call_body<decltype(body)>, &body);
}

/* cudaLaunchKernel(k, grid, block, args, shmem, stream) and the cooperative
 * form: the source pass passes the kernel itself (its casts to void *
 * removed), so that the parameters can be read from args by their types. */
template <class... P, size_t... I>
static inline auto params_from(void **args, std::index_sequence<I...>)
{
    return std::tuple<std::decay_t<P>...>(*(std::decay_t<P> *)args[I]...);
}
template <class... P>
cudaError_t launch_by_args(bool cooperative, const char *name, const char *file, int line,
                           void (*kernel)(P...), dim3 grid, dim3 block, void **args,
                           size_t shmem = 0, cudaStream_t stream = 0)
{
    auto params = params_from<P...>(args, std::index_sequence_for<P...>());
    auto body = [&]() { std::apply(kernel, params); };
    LaunchConfig cfg(grid, block, shmem, stream);
    cfg.cooperative = cooperative;
    cudaError_t e = launch_grid(name, file, line, cfg, &call_body<decltype(body)>, &body);
    return e;
}
template <class K, class... R, class = std::enable_if_t<!std::is_function<K>::value>>
cudaError_t launch_by_args(bool, const char *, const char *, int, K *, R...)
{
    static_assert(sizeof(K) == 0, "cuemu: cudaLaunchKernel and cudaLaunchCooperativeKernel need the "
                                  "kernel itself as first argument (e.g. (void *)kernel), not a "
                                  "pointer held in a variable");
    return cudaErrorInvalidDeviceFunction;
}

template <class T> static inline unsigned long long to_bits(T v)
{
    static_assert(sizeof(T) <= 8, "cuemu: shuffles of types wider than 8 bytes");
    unsigned long long b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T> static inline T from_bits(unsigned long long b)
{
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}
} // namespace cuemu

/* Barriers and warp operations take the call site as hidden default
 * arguments so that diagnostics can say which barrier a thread waits at. */
static inline void __syncthreads(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    cuemu::block_sync(cuemu::BAR_PLAIN, 0, file, line);
}
static inline int __syncthreads_count(int pred, const char *file = __builtin_FILE(),
                                      int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_COUNT, pred, file, line);
}
static inline int __syncthreads_and(int pred, const char *file = __builtin_FILE(),
                                    int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_AND, pred, file, line);
}
static inline int __syncthreads_or(int pred, const char *file = __builtin_FILE(),
                                   int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_OR, pred, file, line);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, const char *file = __builtin_FILE(),
                              int line = __builtin_LINE())
{
    cuemu::warp_op(cuemu::WARP_SYNC, mask, 0, 0, 32, file, line);
}
template <class T>
static inline T __shfl_sync(unsigned mask, T var, int src, int width = 32,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(cuemu::warp_op(cuemu::WARP_SHFL_IDX, mask, cuemu::to_bits(var), src, width, file, line));
}
template <class T>
static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                               const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_UP, mask, cuemu::to_bits(var), (int)delta, width, file, line));
}
template <class T>
static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                                 const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_DOWN, mask, cuemu::to_bits(var), (int)delta, width, file, line));
}
template <class T>
static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                                const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_XOR, mask, cuemu::to_bits(var), lane_mask, width, file, line));
}
static inline unsigned __ballot_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                                     int line = __builtin_LINE())
{
    return (unsigned)cuemu::warp_op(cuemu::WARP_VOTE, mask, pred != 0, 0, 32, file, line);
}
static inline int __any_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return cuemu::warp_op(cuemu::WARP_VOTE, mask, pred != 0, 0, 32, file, line) != 0;
}
static inline int __all_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    /* all(pred) == !any(!pred) over the participating lanes */
    return cuemu::warp_op(cuemu::WARP_VOTE, mask, pred == 0, 0, 32, file, line) == 0;
}
/* __match_*_sync compare the bits of values of 4 or 8 bytes. */
template <class T>
static inline unsigned __match_any_sync(unsigned mask, T value, const char *file = __builtin_FILE(),
                                        int line = __builtin_LINE())
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes a 32- or 64-bit value");
    return (unsigned)cuemu::warp_op(cuemu::WARP_MATCH_ANY, mask, cuemu::to_bits(value), 0, 32, file, line);
}
template <class T>
static inline unsigned __match_all_sync(unsigned mask, T value, int *pred, const char *file = __builtin_FILE(),
                                        int line = __builtin_LINE())
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_all_sync takes a 32- or 64-bit value");
    unsigned long long r = cuemu::warp_op(cuemu::WARP_MATCH_ALL, mask, cuemu::to_bits(value), 0, 32, file, line);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
/* __reduce_*_sync (sm_80): every lane of the mask receives the result. */
#define CUEMU_WARP_REDUCE(name, T, op)                                                     \
    static inline T name(unsigned mask, T value, const char *file = __builtin_FILE(),       \
                         int line = __builtin_LINE())                                       \
    {                                                                                      \
        return (T)(unsigned)cuemu::warp_op(cuemu::WARP_REDUCE, mask, (unsigned)value, cuemu::op, 32, file, line); \
    }
CUEMU_WARP_REDUCE(__reduce_add_sync, unsigned, RED_ADD)
CUEMU_WARP_REDUCE(__reduce_add_sync, int, RED_ADD)
CUEMU_WARP_REDUCE(__reduce_min_sync, unsigned, RED_MIN_U)
CUEMU_WARP_REDUCE(__reduce_min_sync, int, RED_MIN_S)
CUEMU_WARP_REDUCE(__reduce_max_sync, unsigned, RED_MAX_U)
CUEMU_WARP_REDUCE(__reduce_max_sync, int, RED_MAX_S)
CUEMU_WARP_REDUCE(__reduce_and_sync, unsigned, RED_AND)
CUEMU_WARP_REDUCE(__reduce_or_sync, unsigned, RED_OR)
CUEMU_WARP_REDUCE(__reduce_xor_sync, unsigned, RED_XOR)
static inline unsigned __activemask(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::active_mask(file, line);
}

/* Memory fences: blocks on different OS threads really run concurrently;
 * under CUEMU_MEMORY=weak a device or system fence also publishes the
 * stores the block's worker holds back, a block fence does not. */
static inline void __threadfence() { cuemu::thread_fence(cuemu::FENCE_DEVICE); }
static inline void __threadfence_block() { cuemu::thread_fence(cuemu::FENCE_BLOCK); }
static inline void __threadfence_system() { cuemu::thread_fence(cuemu::FENCE_DEVICE); }
/* A sleeping thread lets the other threads of its block run (see README). */
static inline void __nanosleep(unsigned ns) { (void)ns; cuemu::soft_yield(); }
static inline long long clock64()
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (long long)(((unsigned long long)hi << 32) | lo);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
#endif
}
static inline void __trap(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    cuemu::trap("__trap()", file, line);
}
static inline void __brkpt() {}

template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *(const volatile T *)p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

/* ---- integer and bit intrinsics -------------------------------------- */
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
/* Funnel shifts: the 64-bit value hi:lo shifted, its upper (left) or
 * lower (right) 32 bits kept; shift amounts wrap (the plain forms) or
 * clamp at 32 (the c forms). */
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32 ? lo : (unsigned)(((((unsigned long long)hi << 32) | lo) << s) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32) | lo) >> (s & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32 ? hi : (unsigned)((((unsigned long long)hi << 32) | lo) >> s);
}
/* __fns(mask, base, offset): the lane of the offset-th set bit counting
 * from base (upward for offset > 0, downward for offset < 0), or ~0. */
static inline unsigned __fns(unsigned mask, unsigned base, int offset)
{
    if (offset == 0)
        return ~0u;
    int step = offset > 0 ? 1 : -1, need = offset > 0 ? offset : -offset;
    for (int l = (int)base; l >= 0 && l < 32; l += step)
        if ((mask >> l & 1) && --need == 0)
            return (unsigned)l;
    return ~0u;
}
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
static inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 4; i++)
        c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
    return c;
}
static inline unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    for (int i = 0; i < 4; i++)
        c += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
    return c;
}
static inline int __mul24(int a, int b) { return (int)((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? a - b : b - a); }
static inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }

/* ---- float reinterpretation and fast math ---------------------------- */
static inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
static inline long long __double_as_longlong(double d) { long long i; memcpy(&i, &d, 8); return i; }
static inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, 8); return d; }
static inline int __double2hiint(double d) { return (int)(__double_as_longlong(d) >> 32); }
static inline int __double2loint(double d) { return (int)__double_as_longlong(d); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
/* __expf, __logf, __sinf, __cosf, __powf ... come from glibc (same names). */
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
static inline int __float2int_rn(float x) { return (int)nearbyintf(x); }
static inline int __float2int_rz(float x) { return (int)x; }
static inline int __float2int_rd(float x) { return (int)floorf(x); }
static inline int __float2int_ru(float x) { return (int)ceilf(x); }
static inline unsigned __float2uint_rn(float x) { return (unsigned)nearbyintf(x); }
static inline float __int2float_rn(int x) { return (float)x; }
static inline float __uint2float_rn(unsigned x) { return (float)x; }
static inline float __ll2float_rn(long long x) { return (float)x; }
static inline double __int2double_rn(int x) { return (double)x; }

/* min and max as CUDA declares them: exact overloads, plus a fallback for
 * mixed argument types that uses the usual arithmetic conversions. */
#define CUEMU_MINMAX(T)                                                                    \
    static inline T min(T a, T b) { return a < b ? a : b; }                                \
    static inline T max(T a, T b) { return a > b ? a : b; }
CUEMU_MINMAX(int)
CUEMU_MINMAX(unsigned int)
CUEMU_MINMAX(long)
CUEMU_MINMAX(unsigned long)
CUEMU_MINMAX(long long)
CUEMU_MINMAX(unsigned long long)
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
static inline std::common_type_t<A, B> min(A a, B b)
{
    typedef std::common_type_t<A, B> C;
    return (C)a < (C)b ? (C)a : (C)b;
}
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
static inline std::common_type_t<A, B> max(A a, B b)
{
    typedef std::common_type_t<A, B> C;
    return (C)a > (C)b ? (C)a : (C)b;
}

/* ---- atomics -----------------------------------------------------------
 * Blocks run concurrently on OS threads, so these are real CPU atomics.
 * They are relaxed, as CUDA's are: on x86-64 the instruction is the same,
 * but under CUEMU_MEMORY=weak a relaxed atomic does not publish the
 * block's earlier stores (only a fence does; src/memory.cpp). */
#define CUEMU_ATOMIC_INT(T)                                                                \
    static inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicSub(T *a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicExch(T *a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicOr(T *a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }  \
    static inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicCAS(T *a, T cmp, T v)                                            \
    {                                                                                      \
        __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);  \
        return cmp;                                                                        \
    }                                                                                      \
    static inline T atomicMin(T *a, T v)                                                   \
    {                                                                                      \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                      \
        while (v < old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED,   \
                                                       __ATOMIC_RELAXED)) {}               \
        return old;                                                                        \
    }                                                                                      \
    static inline T atomicMax(T *a, T v)                                                   \
    {                                                                                      \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                      \
        while (v > old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED,   \
                                                       __ATOMIC_RELAXED)) {}               \
        return old;                                                                        \
    }
CUEMU_ATOMIC_INT(int)
CUEMU_ATOMIC_INT(unsigned int)
CUEMU_ATOMIC_INT(unsigned long long)
CUEMU_ATOMIC_INT(long long)

/* Floating-point atomics: a compare-and-swap loop on the bit pattern. */
#define CUEMU_ATOMIC_FP(T, I)                                                              \
    template <class F> static inline T cuemu_atomic_fp_##T(T *a, F f)                      \
    {                                                                                      \
        I *w = (I *)a;                                                                     \
        I old = __atomic_load_n(w, __ATOMIC_RELAXED), next;                                \
        do {                                                                               \
            T o, n;                                                                        \
            memcpy(&o, &old, sizeof o);                                                    \
            n = f(o);                                                                      \
            memcpy(&next, &n, sizeof n);                                                   \
        } while (!__atomic_compare_exchange_n(w, &old, next, true, __ATOMIC_RELAXED,         \
                                              __ATOMIC_RELAXED));                          \
        T r;                                                                               \
        memcpy(&r, &old, sizeof r);                                                        \
        return r;                                                                          \
    }                                                                                      \
    static inline T atomicAdd(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return o + v; }); } \
    static inline T atomicSub(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return o - v; }); } \
    static inline T atomicMin(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return v < o ? v : o; }); } \
    static inline T atomicMax(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return v > o ? v : o; }); } \
    static inline T atomicExch(T *a, T v)                                                  \
    {                                                                                      \
        I b, r;                                                                            \
        memcpy(&b, &v, sizeof b);                                                          \
        r = __atomic_exchange_n((I *)a, b, __ATOMIC_RELAXED);                              \
        T o;                                                                               \
        memcpy(&o, &r, sizeof o);                                                          \
        return o;                                                                          \
    }
CUEMU_ATOMIC_FP(float, unsigned int)
CUEMU_ATOMIC_FP(double, unsigned long long)

static inline unsigned atomicInc(unsigned *a, unsigned limit)
{
    unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, old >= limit ? 0u : old + 1u, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline unsigned atomicDec(unsigned *a, unsigned limit)
{
    unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, (old == 0 || old > limit) ? limit : old - 1u,
                                        true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline unsigned short atomicCAS(unsigned short *a, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}
/* Scoped variants: every scope is the whole machine here. */
#define CUEMU_SCOPED(name)                                                                 \
    template <class... A> static inline auto name##_block(A... a) { return name(a...); }   \
    template <class... A> static inline auto name##_system(A... a) { return name(a...); }
CUEMU_SCOPED(atomicAdd)
CUEMU_SCOPED(atomicSub)
CUEMU_SCOPED(atomicExch)
CUEMU_SCOPED(atomicMin)
CUEMU_SCOPED(atomicMax)
CUEMU_SCOPED(atomicCAS)
CUEMU_SCOPED(atomicAnd)
CUEMU_SCOPED(atomicOr)
CUEMU_SCOPED(atomicXor)
CUEMU_SCOPED(atomicInc)
CUEMU_SCOPED(atomicDec)
#endif /* __cplusplus */

#endif /* CUEMU_CUDA_RUNTIME_H */
