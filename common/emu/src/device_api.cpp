/*
 * device_api.cpp - the runtime API that asks about the emulated device or
 * merely configures it: device attributes, occupancy, function attributes,
 * flags and limits, managed and registered host memory, host callbacks.
 * Launches are synchronous (README, "Semantics"), so a callback or host
 * function enqueued on a stream runs at once: everything before it in the
 * stream has finished.
 */
#include "internal.h"
#include "device_model.h"

namespace {
size_t g_limits[7] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};
unsigned g_device_flags = 0;
}

/* Attributes answered from cudaGetDeviceProperties, so the two agree. */
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device)
{
    cudaDeviceProp p;
    if (!value)
        return cudaErrorInvalidValue;
    cudaError_t e = cudaGetDeviceProperties(&p, device);
    if (e != cudaSuccess)
        return e;
    int v = 0;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: v = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: v = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: v = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: v = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: v = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: v = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: v = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: v = p.warpSize; break;
    case cudaDevAttrMaxPitch: v = (int)std::min<size_t>(p.memPitch, 0x7fffffff); break;
    case cudaDevAttrMaxRegistersPerBlock: v = p.regsPerBlock; break;
    case cudaDevAttrClockRate: v = p.clockRate; break;
    case cudaDevAttrTextureAlignment: v = (int)p.textureAlignment; break;
    case cudaDevAttrGpuOverlap: v = p.deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: v = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: v = p.kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: v = p.integrated; break;
    case cudaDevAttrCanMapHostMemory: v = p.canMapHostMemory; break;
    case cudaDevAttrComputeMode: v = p.computeMode; break;
    case cudaDevAttrConcurrentKernels: v = p.concurrentKernels; break;
    case cudaDevAttrEccEnabled: v = p.ECCEnabled; break;
    case cudaDevAttrPciBusId: v = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: v = p.pciDeviceID; break;
    case cudaDevAttrMemoryClockRate: v = p.memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: v = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: v = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: v = p.unifiedAddressing; break;
    case cudaDevAttrComputeCapabilityMajor: v = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: v = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: v = p.managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: v = p.isMultiGpuBoard; break;
    case cudaDevAttrCooperativeLaunch: v = p.cooperativeLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: v = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: v = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: v = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrTexturePitchAlignment: v = (int)p.texturePitchAlignment; break;
    case cudaDevAttrConcurrentManagedAccess: v = 1; break;
    case cudaDevAttrPageableMemoryAccess: v = 1; break;
    default: v = 0; /* a feature the emulated device does not have */
    }
    *value = v;
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
                                                          size_t dyn_smem)
{
    if (!blocks || !func || block_size <= 0)
        return cudaErrorInvalidValue;
    *blocks = cuemu::blocks_per_sm(block_size, dyn_smem);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *func,
                                                                   int block_size, size_t dyn_smem,
                                                                   unsigned int flags)
{
    (void)flags;
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, func, block_size, dyn_smem);
}

/* 1024 threads fill an emulated SM as well as any smaller block (no
 * registers are modelled); the grid that fills every SM of the emulated
 * H100 goes with it. */
cudaError_t cuemu_max_potential_block_size(int *min_grid, int *block_size, size_t dyn_smem, int limit)
{
    if (!min_grid || !block_size)
        return cudaErrorInvalidValue;
    int bs = limit > 0 && limit < 1024 ? limit : 1024;
    *block_size = bs;
    *min_grid = cuemu::blocks_per_sm(bs, dyn_smem) * cuemu::h100::SMS;
    return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *func)
{
    if (!a || !func)
        return cudaErrorInvalidDeviceFunction;
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = 1024;
    a->numRegs = 32; /* not modelled; a plausible figure */
    a->ptxVersion = 90;
    a->binaryVersion = 90;
    a->maxDynamicSharedSizeBytes = (int)cuemu::max_dynamic_shared();
    a->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache config)
{
    (void)config;
    return func ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) { (void)config; return cudaSuccess; }
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) { (void)config; return cudaSuccess; }
cudaError_t cudaSetDeviceFlags(unsigned int flags) { g_device_flags = flags; return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
    if (!flags)
        return cudaErrorInvalidValue;
    *flags = g_device_flags;
    return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value)
{
    if ((unsigned)limit >= sizeof g_limits / sizeof *g_limits)
        return cudaErrorInvalidValue;
    g_limits[limit] = value;
    return cudaSuccess;
}
cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit)
{
    if (!value || (unsigned)limit >= sizeof g_limits / sizeof *g_limits)
        return cudaErrorInvalidValue;
    *value = g_limits[limit];
    return cudaSuccess;
}
cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (!can || device != 0 || peer != 0)
        return cudaErrorInvalidDevice;
    *can = 0;
    return cudaSuccess;
}
cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }

/* Stream-ordered allocation: every stream is synchronous here. */
cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaStream_t stream)
{
    (void)stream;
    return cuemu::alloc_device(ptr, size, (uintptr_t)__builtin_return_address(0), false);
}
cudaError_t cudaFreeAsync(void *ptr, cudaStream_t stream)
{
    (void)stream;
    return cudaFree(ptr);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    (void)stream;
    (void)flags;
    if (event)
        return cudaSuccess;
    cuemu::set_last_error(cudaErrorInvalidResourceHandle);
    return cudaErrorInvalidResourceHandle;
}

/* Managed memory is a device allocation: host and device share memory here. */
cudaError_t cudaMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost)
        return cudaErrorInvalidValue;
    return cuemu::alloc_device(ptr, size, (uintptr_t)__builtin_return_address(0), true);
}
/* A location the one emulated device can name: the device 0, or the host. */
static bool location_ok(cudaMemLocation l)
{
    return (l.type == cudaMemLocationTypeDevice && l.id == 0) || l.type == cudaMemLocationTypeHost ||
           l.type == cudaMemLocationTypeHostNuma || l.type == cudaMemLocationTypeHostNumaCurrent;
}
cudaError_t cudaMemPrefetchAsync(const void *ptr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream)
{
    (void)ptr, (void)count, (void)stream;
    if (!location_ok(location) || flags != 0)
        return cuemu::set_last_error(cudaErrorInvalidValue), cudaErrorInvalidValue;
    return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void *ptr, size_t count, cudaMemoryAdvise advice,
                          cudaMemLocation location)
{
    (void)ptr, (void)count;
    if (advice < cudaMemAdviseSetReadMostly || advice > cudaMemAdviseUnsetAccessedBy ||
        ((advice == cudaMemAdviseSetPreferredLocation || advice == cudaMemAdviseSetAccessedBy) &&
         !location_ok(location)))
        return cuemu::set_last_error(cudaErrorInvalidValue), cudaErrorInvalidValue;
    return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned int flags)
{
    if (!dev || !host || flags != 0)
        return cudaErrorInvalidValue;
    *dev = host;
    return cudaSuccess;
}
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return ptr && size ? cudaSuccess : cudaErrorInvalidValue;
}
cudaError_t cudaHostUnregister(void *ptr) { return ptr ? cudaSuccess : cudaErrorInvalidValue; }

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t cb, void *user_data,
                                  unsigned int flags)
{
    if (!cb || flags != 0)
        return cudaErrorInvalidValue;
    cb(stream, cudaSuccess, user_data);
    return cudaSuccess;
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *user_data)
{
    (void)stream;
    if (!fn)
        return cudaErrorInvalidValue;
    fn(user_data);
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream, unsigned int flags, int priority)
{
    (void)priority;
    return cudaStreamCreateWithFlags(stream, flags);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}
