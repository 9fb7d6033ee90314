// mufu-capture.cu - what a GPU's special-function unit (MUFU) returns for
// the approximations behind CUDA's fast-math intrinsics, and whether the
// emulator's model of it (common/emu/src/mufu.h) gives the same bits.
// NVIDIA publishes error bounds for __expf, __logf, __fdividef and the
// rest, not bits; mufu.h rebuilds the unit from seven tables of one binade
// each, which this program captures from the GPU it runs on:
//   rcp.bin       rcp.approx.ftz at 1 + i 2^-23
//   ex2_pos.bin   ex2.approx.ftz at i 2^-23
//   ex2_neg.bin   ex2.approx.ftz at -i 2^-23
//   lg2.bin       lg2.approx.ftz at 1 + i 2^-23
//   lg2_half.bin  lg2.approx.ftz at (1 + i 2^-23) / 2
//   rsq_even.bin  rsqrt.approx.ftz at 1 + i 2^-23
//   rsq_odd.bin   rsqrt.approx.ftz at 2 (1 + i 2^-23)
// (raw little-endian uint32, 2^23 entries each, into the folder argv[1]).
// Then, with mufu.h's functions compiled for the GPU and reading these
// tables, it counts the inputs where model and GPU differ:
//   the four units (.ftz PTX), every one of the 2^32 inputs;
//   __expf, __exp10f, __logf, __log2f, __log10f, rsqrtf, every input;
//   __fdividef(a, b), every b, each with an a of random bits; __powf(x,
//   y), every x, each with a y of random sign and fraction in [2^-7, 8).
// argv[2] (STRIDE) checks every STRIDE-th input only.  (Without a GPU,
// tests/emu/math-sweep-stored.sh checks the emulator's intrinsics against
// an H200's results on the math sweep's inputs.)
//
// Built with -DMUFU_SELFTEST on the CPU emulator (tests/mufu-selftest.sh)
// the "units" are stand-ins: an exact reciprocal, an ex2 that follows the
// model's cut exactly and an exactly rounded 1/sqrt must show no mismatch,
// an exactly rounded log2 must show some; the intrinsics are not checked
// there.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#include "../../common/emu/src/mufu.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "mufu-capture: %s: %s\n", #call, cudaGetErrorString(e_)); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

enum { TAB = mufu::TABLE, KEEP = 6 };
enum { RCP, EX2, LG2, RSQ, EXPF, EXP10F, LOGF, LOG2F, LOG10F, RSQRTF, FDIVIDEF, POWF, CHECKS };
static const char *check_name[CHECKS] = {"rcp.approx.ftz", "ex2.approx.ftz", "lg2.approx.ftz",
                                         "rsqrt.approx.ftz", "__expf", "__exp10f", "__logf",
                                         "__log2f", "__log10f", "rsqrtf", "__fdividef", "__powf"};

struct Tally {
    unsigned long long miss[CHECKS], tried[CHECKS];
    unsigned int kept[CHECKS];
    uint32_t a[CHECKS][KEEP], b[CHECKS][KEEP], hw[CHECKS][KEEP], model[CHECKS][KEEP];
};

#ifndef MUFU_SELFTEST
// The unit itself, through the PTX instruction that maps to one MUFU.
__device__ float rcp_hw(float x) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float ex2_hw(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2_hw(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float rsq_hw(float x) { float r; asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
#else
__device__ float rcp_hw(float x)
{
    if (x != x) return mufu::nan_out();
    return fabsf(x) < 0x1p-126f ? copysignf(INFINITY, x) : mufu::flush((float)(1.0 / (double)x));
}
__device__ float ex2_hw(float x) // the model's cut of |x|, then exp2 rounded to nearest
{
    if (x != x) return mufu::nan_out();
    if (fabsf(x) < 0x1p-126f) return 1.0f;
    if (x >= 128.0f) return INFINITY;
    if (x <= -127.0f) return 0.0f;
    double q = trunc(fabs((double)x) * 0x1p23) * 0x1p-23;
    return mufu::flush((float)exp2(x < 0 ? -q : q));
}
__device__ float lg2_hw(float x)
{
    if (x != x || x < 0) return mufu::nan_out();
    return x < 0x1p-126f ? -INFINITY : (float)log2((double)x);
}
__device__ float rsq_hw(float x) // exact: follows the two-binade model
{
    if (x != x || x <= -0x1p-126f) return mufu::nan_out();
    return fabsf(x) < 0x1p-126f ? copysignf(INFINITY, x) : (float)(1.0 / sqrt((double)x));
}
#endif

__global__ void capture(uint32_t *rcp, uint32_t *ex2p, uint32_t *ex2n, uint32_t *lg2, uint32_t *lg2h,
                        uint32_t *rsqe, uint32_t *rsqo)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < TAB; i += gridDim.x * blockDim.x) {
        float one_m = __uint_as_float(0x3f800000u | i), q = (float)i * 0x1p-23f;
        rcp[i] = __float_as_uint(rcp_hw(one_m));
        ex2p[i] = __float_as_uint(ex2_hw(q));
        ex2n[i] = __float_as_uint(ex2_hw(-q));
        lg2[i] = __float_as_uint(lg2_hw(one_m));
        lg2h[i] = __float_as_uint(lg2_hw(one_m * 0.5f));
        rsqe[i] = __float_as_uint(rsq_hw(one_m));
        rsqo[i] = __float_as_uint(rsq_hw(one_m * 2.0f));
    }
}

// A mismatch of check k on input (a, b): counted, and kept if among the first.
__device__ void miss(Tally *t, int k, uint32_t a, uint32_t b, float hw, float model)
{
    atomicAdd(&t->miss[k], 1ull);
    unsigned n = atomicAdd(&t->kept[k], 1u);
    if (n < KEEP)
        t->a[k][n] = a, t->b[k][n] = b, t->hw[k][n] = __float_as_uint(hw), t->model[k][n] = __float_as_uint(model);
}

__device__ void compare(Tally *t, int k, uint32_t a, uint32_t b, float hw, float model)
{
    if (__float_as_uint(hw) != __float_as_uint(model))
        miss(t, k, a, b, hw, model);
}

// Random bits for the second operand of input i (a 32-bit mix).
__host__ __device__ uint32_t mix(uint32_t i)
{
    i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16;
    return i;
}
// A y for __powf: random sign and fraction, magnitude in [2^-7, 8).
__host__ __device__ float pow_y(uint32_t i)
{
    uint32_t r = mix(i ^ 0x9e3779b9u);
    return mufu::value((r & 0x807fffffu) | ((120u + (r >> 23) % 10u) << 23));
}

__global__ void check_all(uint32_t start, uint32_t stride, mufu::Tables tabs, Tally *t)
{
    uint32_t b = (start + blockIdx.x * blockDim.x + threadIdx.x) * stride;
    float x = __uint_as_float(b);
    const mufu::Tables *m = &tabs;
    compare(t, RCP, b, 0, rcp_hw(x), mufu::rcp(m, x));
    compare(t, EX2, b, 0, ex2_hw(x), mufu::ex2(m, x));
    compare(t, LG2, b, 0, lg2_hw(x), mufu::lg2(m, x));
    compare(t, RSQ, b, 0, rsq_hw(x), mufu::rsq(m, x));
#ifndef MUFU_SELFTEST
    compare(t, EXPF, b, 0, __expf(x), mufu::expf_(m, x));
    compare(t, EXP10F, b, 0, __exp10f(x), mufu::exp10f_(m, x));
    compare(t, LOGF, b, 0, __logf(x), mufu::logf_(m, x));
    compare(t, LOG2F, b, 0, __log2f(x), mufu::log2f_(m, x));
    compare(t, LOG10F, b, 0, __log10f(x), mufu::log10f_(m, x));
    compare(t, RSQRTF, b, 0, rsqrtf(x), mufu::rsqrtf_(m, x));
    float a = __uint_as_float(mix(b)), y = pow_y(b);
    compare(t, FDIVIDEF, mix(b), b, __fdividef(a, x), mufu::fdividef_(m, a, x));
    compare(t, POWF, b, __float_as_uint(y), __powf(x, y), mufu::powf_(m, x, y));
#endif
    if ((threadIdx.x & 31) == 0)
        for (int k = 0; k < CHECKS; k++)
            atomicAdd(&t->tried[k], 32ull);
}

static double as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

// Copy a table back and write it as DIR/NAME (raw little-endian uint32).
static int save(const char *dir, const char *name, const uint32_t *d_tab)
{
    static uint32_t h[TAB];
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (cudaMemcpy(h, d_tab, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(h, sizeof h, 1, f) != 1 || fclose(f) != 0) {
        fprintf(stderr, "mufu-capture: cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    unsigned long stride = argc == 3 ? strtoul(argv[2], NULL, 10) : 1;
    if (argc < 2 || argc > 3 || stride < 1 || stride > 65536) {
        fprintf(stderr, "usage: mufu-capture DIR [STRIDE]   (the tables are written into DIR;\n"
                        "       every STRIDE-th input is checked, default 1: all 2^32)\n");
        return 2;
    }
    uint32_t *tab[7];
    for (int k = 0; k < 7; k++)
        CHECK(cudaMalloc(&tab[k], TAB * 4));
    Tally *t, h;
    CHECK(cudaMalloc(&t, sizeof *t)); CHECK(cudaMemset(t, 0, sizeof *t));
    capture<<<1024, 256>>>(tab[0], tab[1], tab[2], tab[3], tab[4], tab[5], tab[6]);
    CHECK(cudaGetLastError());
    mufu::Tables tabs = {tab[0], tab[1], tab[2], tab[3], tab[4], tab[5], tab[6]};
    const uint64_t inputs = (1ull << 32) / stride, chunk = 1u << 30; // 2^32: four launches
    for (uint64_t s = 0; s < inputs; s += chunk) {
        uint64_t count = inputs - s < chunk ? inputs - s : chunk;
        check_all<<<(unsigned)(count / 256), 256>>>((uint32_t)s, (uint32_t)stride, tabs, t);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("mufu-capture: %s (sm_%d%d)\n", p.name, p.major, p.minor);
#ifdef MUFU_SELFTEST
    const int checks = EXPF; /* the units only */
#else
    const int checks = CHECKS;
#endif
    for (int k = 0; k < checks; k++) {
        printf("%-16s %llu of %llu inputs differ from the model\n", check_name[k], h.miss[k], h.tried[k]);
        for (unsigned n = 0; n < h.kept[k] && n < KEEP; n++)
            printf("    x=0x%08x (%.9g) y=0x%08x: unit 0x%08x (%.9g), model 0x%08x (%.9g)\n", h.a[k][n],
                   as_float(h.a[k][n]), h.b[k][n], h.hw[k][n], as_float(h.hw[k][n]), h.model[k][n],
                   as_float(h.model[k][n]));
    }
    static const char *file[7] = {"rcp.bin", "ex2_pos.bin", "ex2_neg.bin", "lg2.bin", "lg2_half.bin",
                                  "rsq_even.bin", "rsq_odd.bin"};
    int bad = 0;
    for (int k = 0; k < 7; k++)
        bad |= save(argv[1], file[k], tab[k]);
    return bad;
}
