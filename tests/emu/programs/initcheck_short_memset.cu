/* short_memset.cu - clears a histogram with a cudaMemset of 64 bytes
 * where it has 256 bins of 4 bytes (a count of elements, not bytes), then
 * counts 4096 values into it.  On a GPU the bins past the cleared ones
 * hold 0 in practice and every bin counts 16; the emulator warns at the
 * atomicAdd that reads a bin past the cleared bytes. */
#include <cstdio>

__global__ void histogram(const unsigned char *v, int n, unsigned *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[v[i]], 1u);
}

int main(void)
{
    const int n = 4096, nbins = 256;
    unsigned char h[n];
    for (int i = 0; i < n; i++)
        h[i] = (unsigned char)i;
    unsigned char *v;
    unsigned *bins, out[nbins];
    cudaMalloc(&v, n);
    cudaMalloc(&bins, nbins * sizeof(unsigned));
    cudaMemcpy(v, h, n, cudaMemcpyHostToDevice);
    cudaMemset(bins, 0, 64); /* the bug: 64 bytes, not 64 bins */
    histogram<<<n / 256, 256>>>(v, n, bins);
    cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost);
    int uniform = 1;
    for (int b = 0; b < nbins; b++)
        uniform &= out[b] == n / nbins;
    printf("bins[0] = %u, bins[255] = %u, all %s\n", out[0], out[255], uniform ? "16" : "NOT 16");
    cudaFree(v);
    cudaFree(bins);
    return 0;
}
