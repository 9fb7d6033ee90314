/* The sm_90 warp, atomic and bit intrinsics beyond the labs' subset:
 * __match_any_sync / __match_all_sync, __reduce_*_sync, 64-bit and
 * bitwise atomics, funnel shifts and the bit-counting family, device
 * printf from one thread, assert, clock64 and __nanosleep.  Every line it
 * prints is the same on a GPU (tests/gpu/device-emu-compare.sh); the host
 * recomputes each result. */
#include <assert.h>

#include "check.h"

enum { THREADS = 64 };

struct Warp {
    unsigned match_any, match_all, match_all_pred, match_all_same, same_pred;
    unsigned radd, rmin, rmax, rand_, ror, rxor;
    int rmin_s, rmax_s;
};

__host__ __device__ static unsigned val(unsigned t) { return (t * 13 + 5) % 11; }

__global__ void warp_intrinsics(Warp *o)
{
    unsigned t = threadIdx.x, v = val(t);
    Warp r;
    int pred = -1;
    r.match_any = __match_any_sync(0xffffffff, v % 3);
    r.match_all = __match_all_sync(0xffffffff, v, &pred);
    r.match_all_pred = (unsigned)pred;
    r.match_all_same = __match_all_sync(0xffffffff, 7ull, &pred);
    r.same_pred = (unsigned)pred;
    r.radd = __reduce_add_sync(0xffffffff, v);
    r.rmin = __reduce_min_sync(0xffffffff, v + 3);
    r.rmax = __reduce_max_sync(0xffffffff, v);
    r.rand_ = __reduce_and_sync(0xffffffff, v | 8);
    r.ror = __reduce_or_sync(0xffffffff, v);
    r.rxor = __reduce_xor_sync(0xffffffff, v);
    r.rmin_s = __reduce_min_sync(0xffffffff, (int)v - 5);
    r.rmax_s = __reduce_max_sync(0xffffffff, (int)v - 5);
    o[t] = r;
}

struct Atom {
    unsigned long long add64, max64, min64, and64, or64, xor64, cas64;
    long long addll;
    unsigned inc, dec;
    float fadd;
    double dadd;
};

__global__ void atomics64(Atom *a)
{
    unsigned long long t = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&a->add64, (1ull << 33) + t);
    atomicMax(&a->max64, t * 1000000007ull);
    atomicMin(&a->min64, (t + 5) << 34);
    atomicAnd(&a->and64, ~(1ull << (t % 64)) | (1ull << 63));
    atomicOr(&a->or64, 1ull << (t % 64));
    atomicXor(&a->xor64, t << 20);
    atomicCAS(&a->cas64, 0ull, 42ull);
    atomicAdd((unsigned long long *)&a->addll, (unsigned long long)(long long)-3);
    atomicInc(&a->inc, 9u);
    atomicDec(&a->dec, 100u);
    atomicAdd(&a->fadd, 0.5f);
    atomicAdd(&a->dadd, 0.25);
}

struct Bits {
    int popc, clz, ffs, popcll, clzll, ffsll;
    unsigned brev, perm, fl, flc, fr, frc;
    unsigned long long brevll;
};

__global__ void bit_ops(Bits *b, unsigned x, unsigned long long y)
{
    Bits r;
    r.popc = __popc(x);
    r.clz = __clz((int)x);
    r.ffs = __ffs((int)x);
    r.popcll = __popcll(y);
    r.clzll = __clzll((long long)y);
    r.ffsll = __ffsll((long long)y);
    r.brev = __brev(x);
    r.brevll = __brevll(y);
    r.perm = __byte_perm(x, 0xa1b2c3d4u, 0x7351);
    r.fl = __funnelshift_l(x, 0x12345678u, 40);
    r.flc = __funnelshift_lc(x, 0x12345678u, 40);
    r.fr = __funnelshift_r(x, 0x12345678u, 12);
    r.frc = __funnelshift_rc(x, 0x12345678u, 36);
    *b = r;
}

/* Kernels gate features on __CUDA_ARCH__ (NVIDIA's samples do): the
 * emulated device is compute capability 9.0, and so is an H100/H200. */
__global__ void arch_gate(int *out)
{
#if __CUDA_ARCH__ >= 800
    *out = __reduce_add_sync(0xffffffff, 1);
#else
    *out = -1;
#endif
}

__global__ void printing_and_clocks(int *ok)
{
    long long c0 = clock64();
    __nanosleep(100);
    long long c1 = clock64();
    assert(c1 >= c0);
    ok[threadIdx.x] = c1 >= c0;
    if (threadIdx.x == 3)
        printf("device printf: thread %d of %d, %s, %.2f\n", threadIdx.x, blockDim.x, "ok", 1.25);
}

static void check_warp(const Warp *h)
{
    int bad = 0;
    for (unsigned t = 0; t < THREADS; t++) {
        unsigned base = t & ~31u, any = 0, add = 0, mn = ~0u, mx = 0, an = ~0u, orr = 0, xr = 0;
        int mns = 1 << 30, mxs = -(1 << 30);
        for (unsigned l = 0; l < 32; l++) {
            unsigned w = val(base + l);
            any |= (unsigned)(w % 3 == val(t) % 3) << l;
            add += w, mn = w + 3 < mn ? w + 3 : mn, mx = w > mx ? w : mx;
            an &= w | 8, orr |= w, xr ^= w;
            mns = (int)w - 5 < mns ? (int)w - 5 : mns;
            mxs = (int)w - 5 > mxs ? (int)w - 5 : mxs;
        }
        const Warp &r = h[t];
        bad += r.match_any != any || r.match_all != 0 || r.match_all_pred != 0 ||
               r.match_all_same != 0xffffffffu || r.same_pred != 1 || r.radd != add ||
               r.rmin != mn || r.rmax != mx || r.rand_ != an || r.ror != orr || r.rxor != xr ||
               r.rmin_s != mns || r.rmax_s != mxs;
    }
    EXPECT(bad == 0);
    printf("warp: match_any %08x, reduce add %u min %u max %u and %u or %u xor %u, signed %d..%d, "
           "%d lanes wrong\n", h[0].match_any, h[0].radd, h[0].rmin, h[0].rmax, h[0].rand_, h[0].ror,
           h[0].rxor, h[0].rmin_s, h[0].rmax_s, bad);
}

static void check_atomics(const Atom &a, unsigned n)
{
    unsigned long long add = 0, mx = 0, an = ~0ull, orr = 0, xr = 0;
    for (unsigned long long t = 0; t < n; t++) {
        add += (1ull << 33) + t;
        mx = t * 1000000007ull > mx ? t * 1000000007ull : mx;
        an &= ~(1ull << (t % 64)) | (1ull << 63);
        orr |= 1ull << (t % 64);
        xr ^= t << 20;
    }
    EXPECT(a.add64 == add && a.max64 == mx && a.min64 == 5ull << 34 && a.and64 == an);
    EXPECT(a.or64 == orr && a.xor64 == xr && a.cas64 == 42 && a.addll == -3ll * n);
    EXPECT(a.inc == n % 10 && a.dec == (101 - n % 101) % 101 && a.fadd == 0.5f * n && a.dadd == 0.25 * n);
    printf("atomics: add64 %llu max64 %llu min64 %llu and64 %016llx or64 %016llx xor64 %llx cas64 "
           "%llu addll %lld inc %u dec %u fadd %.1f dadd %.2f\n", a.add64, a.max64, a.min64, a.and64,
           a.or64, a.xor64, a.cas64, a.addll, a.inc, a.dec, a.fadd, a.dadd);
}

int main()
{
    Warp *dw, hw[THREADS];
    CUDA_OK(cudaMalloc(&dw, sizeof hw));
    warp_intrinsics<<<1, THREADS>>>(dw);
    CUDA_OK(cudaMemcpy(hw, dw, sizeof hw, cudaMemcpyDeviceToHost));
    check_warp(hw);

    Atom *da, ha;
    memset(&ha, 0, sizeof ha);
    ha.min64 = ~0ull;
    ha.and64 = ~0ull;
    ha.dec = 0;
    CUDA_OK(cudaMalloc(&da, sizeof ha));
    CUDA_OK(cudaMemcpy(da, &ha, sizeof ha, cudaMemcpyHostToDevice));
    atomics64<<<4, 50>>>(da);
    CUDA_OK(cudaMemcpy(&ha, da, sizeof ha, cudaMemcpyDeviceToHost));
    check_atomics(ha, 200);

    Bits *db, hb;
    CUDA_OK(cudaMalloc(&db, sizeof hb));
    bit_ops<<<1, 1>>>(db, 0x00f0a5c0u, 0x0000300000000000ull);
    CUDA_OK(cudaMemcpy(&hb, db, sizeof hb, cudaMemcpyDeviceToHost));
    EXPECT(hb.popc == 10 && hb.clz == 8 && hb.ffs == 7 && hb.popcll == 2 && hb.clzll == 18 && hb.ffsll == 45);
    EXPECT(hb.brev == 0x03a50f00u && hb.brevll == 0x00000000000c0000ull && hb.perm == 0xa100c3a5u);
    EXPECT(hb.fl == 0x34567800u && hb.flc == 0x00f0a5c0u && hb.fr == 0x67800f0au && hb.frc == 0x12345678u);
    printf("bits: popc %d clz %d ffs %d popcll %d clzll %d ffsll %d brev %08x brevll %016llx perm %08x "
           "funnel %08x %08x %08x %08x\n", hb.popc, hb.clz, hb.ffs, hb.popcll, hb.clzll, hb.ffsll, hb.brev,
           hb.brevll, hb.perm, hb.fl, hb.flc, hb.fr, hb.frc);

    int *dok, hok[32];
    CUDA_OK(cudaMalloc(&dok, sizeof hok));
    printing_and_clocks<<<1, 32>>>(dok);
    CUDA_OK(cudaDeviceSynchronize());
    CUDA_OK(cudaMemcpy(hok, dok, sizeof hok, cudaMemcpyDeviceToHost));
    int ticks = 0;
    for (int i = 0; i < 32; i++)
        ticks += hok[i];
    EXPECT(ticks == 32);
    printf("clock64 never runs backwards: %d of 32 threads\n", ticks);
    int *darch, harch = 0;
    CUDA_OK(cudaMalloc(&darch, sizeof harch));
    arch_gate<<<1, 32>>>(darch);
    CUDA_OK(cudaMemcpy(&harch, darch, sizeof harch, cudaMemcpyDeviceToHost));
    EXPECT(harch == 32);
    printf("kernel sections for __CUDA_ARCH__ >= 800 compiled: %s\n", harch == 32 ? "yes" : "no");
    CUDA_OK(cudaFree(darch));
    CUDA_OK(cudaFree(dw));
    CUDA_OK(cudaFree(da));
    CUDA_OK(cudaFree(db));
    CUDA_OK(cudaFree(dok));
    return finish("intrinsics");
}
