/* The emulated device describes itself as an H100 SXM does (issue 12):
 * programs size their grids from these figures (SMs x blocks per SM), so
 * a figure that differs from the GPU's changes what a program prints.  It
 * prints every property and attribute a program may size work from, and
 * what the occupancy API answers for a few block shapes; the same lines
 * on an H100 (built with nvcc) and on the emulator under any CUEMU_THREADS
 * (the worker count is not the SM count).  The device's name and memory
 * size are left out: the emulator's are its own. */
#include <cuda_runtime.h>

#include "check.h"

__global__ void small_kernel(int *out) { out[threadIdx.x] = 1; }

/* One line per property that describes the chip. */
static void properties(const cudaDeviceProp &p)
{
    printf("compute capability %d.%d, %d SMs, warp %d\n", p.major, p.minor,
           p.multiProcessorCount, p.warpSize);
    printf("threads: %d per block (%d x %d x %d), %d per SM, %d blocks per SM\n",
           p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
           p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("grid: %d x %d x %d\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
    printf("shared memory: %zu per block, %zu opt-in, %zu per SM, %zu reserved per block\n",
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor,
           p.reservedSharedMemPerBlock);
    printf("registers: %d per block, %d per SM\n", p.regsPerBlock, p.regsPerMultiprocessor);
    printf("constant memory %zu, L2 %d, persisting L2 %d, access window %d\n", p.totalConstMem,
           p.l2CacheSize, p.persistingL2CacheMaxSize, p.accessPolicyMaxWindowSize);
    printf("memory bus %d bits, texture alignment %zu, pitch %zu\n", p.memoryBusWidth,
           p.textureAlignment, p.memPitch);
    printf("cooperative launch %d, managed memory %d, unified addressing %d, "
           "concurrent kernels %d, copy engines %d\n",
           p.cooperativeLaunch, p.managedMemory, p.unifiedAddressing, p.concurrentKernels,
           p.asyncEngineCount);
}

/* The attributes that have a property agree with it. */
static void attributes(const cudaDeviceProp &p)
{
    static const struct {
        cudaDeviceAttr attr;
        const char *name;
    } list[] = {
        {cudaDevAttrMultiProcessorCount, "SMs"},
        {cudaDevAttrMaxThreadsPerMultiProcessor, "threads per SM"},
        {cudaDevAttrMaxBlocksPerMultiprocessor, "blocks per SM"},
        {cudaDevAttrMaxSharedMemoryPerBlock, "shared per block"},
        {cudaDevAttrMaxSharedMemoryPerBlockOptin, "shared opt-in"},
        {cudaDevAttrMaxSharedMemoryPerMultiprocessor, "shared per SM"},
        {cudaDevAttrMaxRegistersPerBlock, "registers per block"},
        {cudaDevAttrMaxRegistersPerMultiprocessor, "registers per SM"},
        {cudaDevAttrL2CacheSize, "L2"},
        {cudaDevAttrGlobalMemoryBusWidth, "memory bus"},
        {cudaDevAttrWarpSize, "warp"},
        {cudaDevAttrComputeCapabilityMajor, "major"},
    };
    for (size_t i = 0; i < sizeof list / sizeof *list; i++) {
        int v = -1;
        CUDA_OK(cudaDeviceGetAttribute(&v, list[i].attr, 0));
        printf("attribute %s: %d\n", list[i].name, v);
    }
    int sms = 0;
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(sms == p.multiProcessorCount);
}

/* Blocks per SM for a few shapes: by threads, and by shared memory. */
static void occupancy()
{
    static const struct {
        int threads;
        size_t shmem;
    } shapes[] = {{32, 0}, {128, 0}, {256, 0}, {1024, 0}, {1024, 8192}, {256, 48 * 1024}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        int n = -1;
        CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, small_kernel, shapes[i].threads,
                                                              shapes[i].shmem));
        printf("occupancy: %d threads, %zu bytes of shared memory: %d blocks per SM\n",
               shapes[i].threads, shapes[i].shmem, n);
    }
}

int main()
{
    cudaDeviceProp p;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    properties(p);
    attributes(p);
    occupancy();
    return finish("device_h100");
}
