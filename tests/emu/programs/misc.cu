/* volatile, vector types and make_*, __ldg, min/max, float reinterpretation,
 * device printf. */
#include "check.h"

__global__ void vectors(const float4 *in, float4 *out, int2 *pairs, double2 *dd)
{
    float4 v = __ldg(&in[threadIdx.x]);
    out[threadIdx.x] = make_float4(v.w, v.z, v.y, v.x);
    pairs[threadIdx.x] = make_int2(min((int)threadIdx.x, 3), max((int)threadIdx.x, 3));
    dd[threadIdx.x] = make_double2(fmin(1.0, (double)threadIdx.x), max(2.5f, (float)threadIdx.x));
}

__global__ void reinterpret(int *o)
{
    o[0] = __float_as_int(1.0f);
    o[1] = __float_as_uint(-2.0f) == 0xc0000000u;
    o[2] = __int_as_float(0x3f800000) == 1.0f;
    o[3] = __uint_as_float(0x40000000u) == 2.0f;
    o[4] = min(3u, 5u) + max(-1, -7) + (int)min(2.5f, 1.5f) + (int)max(1.0, 4.0);
    o[5] = min(2, 7u); /* mixed signedness follows the usual conversions */
}

__global__ void poll_volatile(volatile int *flag, int *out)
{
    /* The only thread writes the flag, then reads it back through volatile. */
    *flag = 5;
    __threadfence();
    out[0] = *flag;
}

__global__ void hello(int x)
{
    if (threadIdx.x == 0 && blockIdx.x == 0)
        printf("hello from the device: %d %.2f\n", x, 0.5);
}

int main()
{
    float4 hin[8], hout[8];
    for (int i = 0; i < 8; i++)
        hin[i] = make_float4(i, i + 0.5f, i + 0.25f, i + 0.125f);
    float4 *din, *dout;
    int2 *dp, hp[8];
    double2 *dd, hd[8];
    EXPECT(sizeof(float4) == 16 && alignof(float4) == 16 && sizeof(int2) == 8 && alignof(double2) == 16);
    CUDA_OK(cudaMalloc(&din, sizeof hin));
    CUDA_OK(cudaMalloc(&dout, sizeof hout));
    CUDA_OK(cudaMalloc(&dp, sizeof hp));
    CUDA_OK(cudaMalloc(&dd, sizeof hd));
    CUDA_OK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    vectors<<<1, 8>>>(din, dout, dp, dd);
    CUDA_OK(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++) {
        EXPECT(hout[i].x == hin[i].w && hout[i].y == hin[i].z && hout[i].z == hin[i].y && hout[i].w == hin[i].x);
        EXPECT(hp[i].x == (i < 3 ? i : 3) && hp[i].y == (i > 3 ? i : 3));
        EXPECT(hd[i].x == (i < 1 ? i : 1) && hd[i].y == (i > 2.5 ? i : 2.5));
    }
    int *di, hi[6];
    CUDA_OK(cudaMalloc(&di, sizeof hi));
    reinterpret<<<1, 1>>>(di);
    CUDA_OK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    EXPECT(hi[0] == 0x3f800000);
    EXPECT(hi[1] == 1 && hi[2] == 1 && hi[3] == 1);
    EXPECT(hi[4] == 3 + -1 + 1 + 4);
    EXPECT(hi[5] == 2);
    poll_volatile<<<1, 1>>>(di + 1, di);
    CUDA_OK(cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost));
    EXPECT(hi[0] == 5);
    hello<<<2, 4>>>(42);
    CUDA_OK(cudaDeviceSynchronize());
    return finish("misc");
}
