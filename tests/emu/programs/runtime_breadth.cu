/* The runtime API that NVIDIA's samples (helper_cuda.h) and textbook host
 * code use, beyond runtime_api.cu: the include guards and version macros,
 * device attributes against the properties, compute modes, pinned, mapped
 * and managed memory, streams with callbacks and host functions, events,
 * symbols, occupancy and function attributes, error names.  It prints
 * only what a GPU prints too (no sizes or counts of the device). */
#include <cuda.h>
#include <cuda_runtime.h>

#include "check.h"

#if !defined(__CUDA_RUNTIME_H__) || !defined(__DRIVER_TYPES_H__)
#error "the include guards of cuda_runtime.h are missing"
#endif
#if !defined(CUDART_VERSION) || CUDART_VERSION < 11000 || !defined(CUDA_VERSION)
#error "the version macros are missing"
#endif

__constant__ int table[4];
__device__ int scratch[4];

__global__ void use_table(int *out)
{
    scratch[threadIdx.x] = table[threadIdx.x] * 2;
    out[threadIdx.x] = scratch[threadIdx.x] + 1;
}

__global__ void fill(int *p, int n, int v)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

static int order[4], ordered = 0;
static void CUDART_CB on_stream(cudaStream_t, cudaError_t status, void *tag)
{
    order[ordered++] = status == cudaSuccess ? (int)(size_t)tag : -1;
}
static void CUDART_CB host_fn(void *tag) { order[ordered++] = (int)(size_t)tag; }

static void attributes()
{
    cudaDeviceProp p;
    int dev = -1, major = 0, minor = 0, sms = 0, mode = -1, warp = 0, maxt = 0, coop = 0;
    CUDA_OK(cudaGetDevice(&dev));
    CUDA_OK(cudaGetDeviceProperties(&p, dev));
    CUDA_OK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CUDA_OK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, dev));
    CUDA_OK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev));
    CUDA_OK(cudaDeviceGetAttribute(&maxt, cudaDevAttrMaxThreadsPerBlock, dev));
    CUDA_OK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    EXPECT(major == p.major && minor == p.minor && sms == p.multiProcessorCount);
    EXPECT(warp == p.warpSize && maxt == p.maxThreadsPerBlock);
    printf("attributes agree with the properties: %s; warp %d, %d threads per block, "
           "compute mode %s, cooperative launch %d\n",
           major == p.major && sms == p.multiProcessorCount ? "yes" : "no", warp, maxt,
           mode == cudaComputeModeProhibited ? "prohibited" : "usable", coop);
    int runtime = 0, driver = 0;
    CUDA_OK(cudaRuntimeGetVersion(&runtime));
    CUDA_OK(cudaDriverGetVersion(&driver));
    printf("versions: runtime %s, driver %s\n", runtime >= 11000 ? ">= 11.0" : "old",
           driver >= runtime ? ">= runtime" : "older");
}

static void memories()
{
    enum { N = 1000 };
    int *pinned, *mapped, *managed, *dev, *dmapped;
    CUDA_OK(cudaMallocHost(&pinned, N * sizeof(int)));
    CUDA_OK(cudaHostAlloc(&mapped, N * sizeof(int), cudaHostAllocMapped));
    CUDA_OK(cudaHostGetDevicePointer((void **)&dmapped, mapped, 0));
    CUDA_OK(cudaMallocManaged(&managed, N * sizeof(int)));
    /* CUDA 13's managed-memory hints take a location (the CUDA 12 form,
     * a device number, is refused by nvcc 13 and by the emulator alike) */
    cudaMemLocation on_device = {cudaMemLocationTypeDevice, 0};
    CUDA_OK(cudaMemAdvise(managed, N * sizeof(int), cudaMemAdviseSetPreferredLocation, on_device));
    CUDA_OK(cudaMemPrefetchAsync(managed, N * sizeof(int), on_device, 0));
    CUDA_OK(cudaMalloc(&dev, N * sizeof(int)));
    fill<<<(N + 255) / 256, 256>>>(managed, N, 7);
    fill<<<(N + 255) / 256, 256>>>(dmapped, N, 3);
    fill<<<(N + 255) / 256, 256>>>(dev, N, 1);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(pinned, dev, N * sizeof(int), cudaMemcpyDeviceToHost));
    long long sum = 0;
    for (int i = 0; i < N; i++)
        sum += managed[i] + mapped[i] + pinned[i];
    EXPECT(sum == 3ll * N * (N - 1) / 2 + 11ll * N);
    printf("pinned, mapped and managed memory: sum %lld\n", sum);
    CUDA_OK(cudaFreeHost(pinned));
    CUDA_OK(cudaFreeHost(mapped));
    CUDA_OK(cudaFree(managed));
    CUDA_OK(cudaFree(dev));
}

static void streams_events_symbols()
{
    cudaStream_t s;
    cudaEvent_t a, b;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    CUDA_OK(cudaEventCreate(&a));
    CUDA_OK(cudaEventCreate(&b));
    int h[4] = {1, 2, 3, 4}, got[4], *out;
    CUDA_OK(cudaMalloc(&out, sizeof got));
    CUDA_OK(cudaMemcpyToSymbol(table, h, sizeof h));
    CUDA_OK(cudaEventRecord(a, s));
    CUDA_OK(cudaStreamAddCallback(s, on_stream, (void *)1, 0));
    use_table<<<1, 4, 0, s>>>(out);
    CUDA_OK(cudaLaunchHostFunc(s, host_fn, (void *)2));
    CUDA_OK(cudaMemcpyAsync(got, out, sizeof got, cudaMemcpyDeviceToHost, s));
    CUDA_OK(cudaStreamAddCallback(s, on_stream, (void *)3, 0));
    CUDA_OK(cudaEventRecord(b, s));
    CUDA_OK(cudaEventSynchronize(b));
    float ms = -1;
    CUDA_OK(cudaEventElapsedTime(&ms, a, b));
    int back[4];
    CUDA_OK(cudaMemcpyFromSymbol(back, scratch, sizeof back));
    EXPECT(got[3] == 9 && back[3] == 8 && ms >= 0 && ordered == 3);
    printf("symbols: %d %d %d %d / %d %d %d %d; callbacks ran in order %d %d %d; elapsed time %s\n",
           got[0], got[1], got[2], got[3], back[0], back[1], back[2], back[3], order[0], order[1],
           order[2], ms >= 0 ? "non-negative" : "negative");
    CUDA_OK(cudaStreamDestroy(s));
    CUDA_OK(cudaEventDestroy(a));
    CUDA_OK(cudaEventDestroy(b));
    CUDA_OK(cudaFree(out));
}

static void occupancy_and_errors()
{
    int blocks = 0, min_grid = 0, block = 0;
    CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 256, 0));
    CUDA_OK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, fill, 0, 0));
    cudaFuncAttributes fa;
    CUDA_OK(cudaFuncGetAttributes(&fa, fill));
    CUDA_OK(cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024));
    CUDA_OK(cudaFuncSetCacheConfig(fill, cudaFuncCachePreferL1));
    EXPECT(blocks >= 1 && block >= 32 && block <= 1024 && min_grid >= 1 && fa.maxThreadsPerBlock >= 256);
    printf("occupancy: %s; function attributes: %s\n",
           blocks >= 1 && block >= 32 && min_grid >= 1 ? "sensible" : "not sensible",
           fa.maxThreadsPerBlock >= 256 ? "sensible" : "not sensible");
    const cudaError_t codes[] = {cudaSuccess, cudaErrorInvalidValue, cudaErrorMemoryAllocation,
                                 cudaErrorInvalidConfiguration, cudaErrorInvalidDevice,
                                 cudaErrorCooperativeLaunchTooLarge};
    for (cudaError_t c : codes)
        printf("%d %s: %s\n", (int)c, cudaGetErrorName(c), cudaGetErrorString(c));
    int *p = 0;
    cudaError_t e = cudaSetDevice(99);
    printf("cudaSetDevice(99): %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorInvalidDevice);
    cudaGetLastError();
    e = cudaMalloc(&p, (size_t)1 << 62);
    printf("cudaMalloc(2^62): %s\n", cudaGetErrorName(e));
    EXPECT(e == cudaErrorMemoryAllocation);
    cudaGetLastError();
}

int main()
{
    attributes();
    memories();
    streams_events_symbols();
    occupancy_and_errors();
    return finish("runtime_breadth");
}
