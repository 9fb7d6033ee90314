/*
 * fastmath_note.cu - approximations whose bits the emulator does not have,
 * at two call sites: __sinf in a loop run by every thread (line 17) and
 * __sincosf in a device function (line 25).  The emulator notes each site
 * once, naming its line (CUEMU_FASTMATH); the one __sinf call, at line 17,
 * is run 4096 times.  __logf (line 18), rsqrtf (line 33) and __fdividef
 * (line 34) have a GPU's bits (src/mufu.h): never noted.  stdout is the
 * same under every setting but stop.
 */
#include <cstdio>

__global__ void logs(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 1; k <= 4; k++)
        acc += __sinf(in[i] * k) +
               __logf(in[i] * k);
    out[i] = acc;
}

__device__ float sin_plus_cos(float x)
{
    float s, c;
    __sincosf(x, &s, &c);
    return s + c;
}

__global__ void trig(float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] += sin_plus_cos(out[i]);
    out[i] = rsqrtf(fabsf(out[i]) + 1.0f) +
             __fdividef(out[i], 3.0f);
}

int main()
{
    const int n = 1024;
    float h[n], *in, *out;
    for (int i = 0; i < n; i++)
        h[i] = 1.0f + i / 64.0f;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    logs<<<n / 256, 256>>>(in, out);
    trig<<<n / 256, 256>>>(out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("sum = %.2f\nfastmath_note: ok\n", sum);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
