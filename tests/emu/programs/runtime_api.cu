/* The runtime API calls of the subset, including the errors CUDA returns. */
#include "check.h"

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

int main()
{
    int count = -1;
    CUDA_OK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    CUDA_OK(cudaSetDevice(0));
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaSuccess);
    cudaDeviceProp p;
    CUDA_OK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.sharedMemPerBlock == 48 * 1024);
    EXPECT(p.multiProcessorCount >= 1 && p.l2CacheSize > 0 && p.totalGlobalMem > 0);
    EXPECT(p.major >= 7 && strlen(p.name) > 0);
    printf("device: %s, %d SMs, cc %d.%d\n", p.name, p.multiProcessorCount, p.major, p.minor);

    const int n = 1000;
    int *a, *b, *host;
    CUDA_OK(cudaMalloc(&a, n * sizeof(int)));
    CUDA_OK(cudaMalloc((void **)&b, n * sizeof(int)));
    CUDA_OK(cudaMallocHost(&host, n * sizeof(int)));
    CUDA_OK(cudaMemset(a, 0, n * sizeof(int)));
    CUDA_OK(cudaMemcpy(host, a, n * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(host[0] == 0 && host[n - 1] == 0);

    cudaEvent_t start, stop;
    CUDA_OK(cudaEventCreate(&start));
    CUDA_OK(cudaEventCreate(&stop));
    CUDA_OK(cudaEventRecord(start, 0));
    fill<<<(n + 127) / 128, 128>>>(a, 10, n);
    CUDA_OK(cudaEventRecord(stop, 0));
    EXPECT(cudaEventQuery(stop) == cudaSuccess); /* work before the event is done */
    CUDA_OK(cudaEventSynchronize(stop));
    float ms = -1;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    EXPECT(ms >= 0);
    CUDA_OK(cudaEventDestroy(start));
    CUDA_OK(cudaEventDestroy(stop));

    CUDA_OK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CUDA_OK(cudaMemcpyAsync(host, b, n * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CUDA_OK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(host[i] == 10 + i);
    CUDA_OK(cudaMemsetAsync(b, 0xff, n * sizeof(int), 0));
    CUDA_OK(cudaMemcpy(host, b, sizeof(int), cudaMemcpyDefault));
    EXPECT(host[0] == -1);

    /* Errors CUDA reports for bad copies. */
    EXPECT(cudaMemcpy(host, a, (n + 1) * sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(a, host, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    EXPECT(cudaMemset(a + 1, 0, n * sizeof(int)) == cudaErrorInvalidValue);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaFree(a + 1) == cudaErrorInvalidValue);
    cudaGetLastError();
    EXPECT(strcmp(cudaGetErrorString(cudaErrorInvalidValue), "invalid argument") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorInvalidConfiguration), "cudaErrorInvalidConfiguration") == 0);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);

    CUDA_OK(cudaFree(a));
    CUDA_OK(cudaFree(b));
    CUDA_OK(cudaFree(NULL));
    CUDA_OK(cudaFreeHost(host));
    CUDA_OK(cudaDeviceReset());
    return finish("runtime_api");
}
