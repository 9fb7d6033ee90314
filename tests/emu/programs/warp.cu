/* Warp shuffles (all four, with width), votes, __activemask and the bit
 * intrinsics. */
#include "check.h"

struct Out {
    int idx, up, down, xr, idx8, up8, down8, xr8;
    float fdown;
    double dxor;
    unsigned ballot, active;
    int any, all;
};

__global__ void shuffles(Out *o)
{
    int lane = threadIdx.x % 32;
    int v = 100 + threadIdx.x;
    Out r;
    r.idx = __shfl_sync(0xffffffff, v, 5);
    r.up = __shfl_up_sync(0xffffffff, v, 3);
    r.down = __shfl_down_sync(0xffffffff, v, 4);
    r.xr = __shfl_xor_sync(0xffffffff, v, 1);
    r.idx8 = __shfl_sync(0xffffffff, v, 2, 8);
    r.up8 = __shfl_up_sync(0xffffffff, v, 2, 8);
    r.down8 = __shfl_down_sync(0xffffffff, v, 2, 8);
    r.xr8 = __shfl_xor_sync(0xffffffff, v, 4, 8);
    r.fdown = __shfl_down_sync(0xffffffff, (float)v * 0.5f, 1);
    r.dxor = __shfl_xor_sync(0xffffffff, (double)v * 0.25, 16);
    r.ballot = __ballot_sync(0xffffffff, lane % 3 == 0);
    r.any = __any_sync(0xffffffff, lane == 7);
    r.all = __all_sync(0xffffffff, lane < 31);
    r.active = __activemask();
    o[threadIdx.x] = r;
}

/* A partial warp: blockDim 48 leaves lanes 16..31 of warp 1 absent. */
__global__ void partial(unsigned *o)
{
    unsigned m = __activemask();
    unsigned b = __ballot_sync(m, 1);
    int s = __shfl_down_sync(m, (int)threadIdx.x, 1);
    o[threadIdx.x] = threadIdx.x < 32 ? b : (b << 8) | (unsigned)(s & 0xff);
}

__global__ void bits(int *o)
{
    o[0] = __popc(0xf0f0u);
    o[1] = __popcll(0xffffffffffull);
    o[2] = __clz(1);
    o[3] = __clz(0);
    o[4] = __clzll(1);
    o[5] = __ffs(0);
    o[6] = __ffs(8);
    o[7] = (int)__brev(1u);
    o[8] = __ffsll(1ll << 40);
    o[9] = (int)(__brevll(1ull) >> 32);
}

int main()
{
    Out *d, h[64];
    CUDA_OK(cudaMalloc(&d, sizeof h));
    shuffles<<<1, 64>>>(d);
    CUDA_OK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int lane = t % 32, w = t - lane, v = 100 + t;
        Out r = h[t];
        EXPECT(r.idx == 100 + w + 5);
        EXPECT(r.up == (lane >= 3 ? v - 3 : v));
        EXPECT(r.down == (lane + 4 < 32 ? v + 4 : v));
        EXPECT(r.xr == 100 + w + (lane ^ 1));
        EXPECT(r.idx8 == 100 + w + (lane & ~7) + 2);
        EXPECT(r.up8 == (lane % 8 >= 2 ? v - 2 : v));
        EXPECT(r.down8 == (lane % 8 + 2 < 8 ? v + 2 : v));
        EXPECT(r.xr8 == 100 + w + (lane ^ 4));
        EXPECT(r.fdown == (lane < 31 ? (v + 1) * 0.5f : v * 0.5f));
        EXPECT(r.dxor == (100 + w + (lane ^ 16)) * 0.25);
        EXPECT(r.ballot == 0x49249249u);
        EXPECT(r.any == 1);
        EXPECT(r.all == 0);
        EXPECT(r.active == 0xffffffffu);
    }
    unsigned *dp, hp[48];
    CUDA_OK(cudaMalloc(&dp, sizeof hp));
    partial<<<1, 48>>>(dp);
    CUDA_OK(cudaMemcpy(hp, dp, sizeof hp, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        EXPECT(hp[t] == 0xffffffffu);
    for (int t = 32; t < 48; t++)
        EXPECT(hp[t] == ((0xffffu << 8) | (unsigned)(t < 47 ? t + 1 : t)));
    int *db, hb[10];
    CUDA_OK(cudaMalloc(&db, sizeof hb));
    bits<<<1, 1>>>(db);
    CUDA_OK(cudaMemcpy(hb, db, sizeof hb, cudaMemcpyDeviceToHost));
    EXPECT(hb[0] == 8);
    EXPECT(hb[1] == 40);
    EXPECT(hb[2] == 31);
    EXPECT(hb[3] == 32);
    EXPECT(hb[4] == 63);
    EXPECT(hb[5] == 0);
    EXPECT(hb[6] == 4);
    EXPECT(hb[7] == (int)0x80000000u);
    EXPECT(hb[8] == 41);
    EXPECT(hb[9] == (int)0x80000000u);
    return finish("warp");
}
