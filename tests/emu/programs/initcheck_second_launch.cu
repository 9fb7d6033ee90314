/* second_launch.cu - a first launch writes the even elements of a buffer,
 * a second sums all of them: the odd ones were never written.  A GPU
 * gives 0 for them in practice (sum 2 * (0 + 1 + ... + 511) = 261632);
 * the emulator warns at the second kernel's read, naming the offset. */
#include <cstdio>

__global__ void write_even(float *v, int n)
{
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        v[i] = (float)i;
}

__global__ void sum_all(const float *v, int n, float *out)
{
    if (threadIdx.x == 0 && blockIdx.x == 0) {
        float s = 0;
        for (int i = 0; i < n; i++)
            s += v[i];
        *out = s;
    }
}

int main(void)
{
    const int n = 1024;
    float *v, *out, h = -1;
    cudaMalloc(&v, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    write_even<<<2, 256>>>(v, n);
    sum_all<<<1, 32>>>(v, n, out);
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("sum = %.0f\n", h);
    cudaFree(v);
    cudaFree(out);
    return 0;
}
