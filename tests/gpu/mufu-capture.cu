// mufu-capture.cu - what a GPU's special-function unit (MUFU) returns for
// the three approximations behind CUDA's fast-math intrinsics: __expf is
// ex2.approx of x * log2(e), __logf is lg2.approx(x) * ln(2), __fdividef is
// div.approx, a * rcp.approx(b) (nvcc -ptx shows each).  NVIDIA publishes
// their error bounds, not their bits, so the emulator (common/emu/src/
// fastmath.cpp) returns full-precision results and names the line instead;
// three programs of the corpus differ from a GPU only there (issue 39).
//
// This program answers, on the GPU it runs on, whether each approximation is
// a function of one binade, so that a table of 2^23 entries reproduces it
// for every input:
//   rcp:  rcp(1.m * 2^E) = rcp(1.m) * 2^-E            (table over m)
//   ex2:  the input made fixed point with 23 fraction bits, k its integer
//         part and q its fraction, ex2 = ex2(q * 2^-23) * 2^k (table over
//         q); the rounding of that conversion is unknown, so three are
//         tried: toward minus infinity, toward zero, to nearest
//   lg2:  lg2(1.m * 2^E) = E + lg2(1.m), the sum rounded to nearest or
//         toward zero (table over m; a second table at E = -1 shows how
//         the unit handles inputs below 1)
// It captures the tables (the .ftz forms: the forms without .ftz add
// instructions around the same MUFU, which `cuobjdump -sass` shows), then
// runs every one of the 2^32 inputs through the unit and through each model
// built from the tables, counting mismatches per model and keeping the
// first few of each.  Output: one line per model on stdout, the tables as
// raw little-endian uint32 files in the folder given as argv[1]; argv[2]
// (STRIDE) checks every STRIDE-th input only.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t e_ = (call);                                                       \
        if (e_ != cudaSuccess) {                                                       \
            fprintf(stderr, "mufu-capture: %s: %s\n", #call, cudaGetErrorString(e_)); \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

enum { TAB = 1 << 23, KEEP = 8 };
enum { RCP, EX2_FLOOR, EX2_ZERO, EX2_NEAR, LG2_NEAR, LG2_ZERO, MODELS };
static const char *model_name[MODELS] = {"rcp: table over m, scaled by 2^-E",
                                         "ex2: fixed point 7.23, rounded toward -inf",
                                         "ex2: fixed point 7.23, rounded toward zero",
                                         "ex2: fixed point 7.23, rounded to nearest",
                                         "lg2: E + table over m, rounded to nearest",
                                         "lg2: E + table over m, rounded toward zero"};

struct Tally {
    unsigned long long miss[MODELS], tried[MODELS];
    unsigned int kept[MODELS];
    uint32_t in[MODELS][KEEP], hw[MODELS][KEEP], model[MODELS][KEEP];
};

#ifndef MUFU_SELFTEST
// The unit itself, through the PTX instruction that maps to one MUFU.
__device__ float rcp_hw(float x) { float r; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float ex2_hw(float x) { float r; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
__device__ float lg2_hw(float x) { float r; asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
#else
// A check of this program itself (tests/mufu-selftest.sh, on the CPU
// emulator): stand-ins that follow the rcp and round-toward-minus-infinity
// ex2 models exactly, so those two must report no mismatch and the others
// some, whatever the tables' values.
__device__ float rcp_hw(float x)
{
    return fabsf(x) < 0x1p-126f ? copysignf(INFINITY, x) : (float)(1.0 / (double)x);
}
__device__ float ex2_hw(float x)
{
    long long f = (long long)floor((double)x * 0x1p23), k = f >> 23;
    if (k >= 128) return INFINITY;
    if (k < -126) return 0.0f;
    return (float)exp2((double)(f & ((1 << 23) - 1)) * 0x1p-23) * ldexpf(1.0f, (int)k);
}
__device__ float lg2_hw(float x) { return (float)log2((double)x); }
#endif

// The tables: entry i is the unit's result at 1 + i 2^-23 (rcp, lg2), at
// (1 + i 2^-23) / 2 (lg2, E = -1), at i 2^-23 (ex2).
__global__ void capture(uint32_t *rcp, uint32_t *ex2, uint32_t *lg2, uint32_t *lg2m1)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < TAB; i += gridDim.x * blockDim.x) {
        float one_m = __uint_as_float(0x3f800000u | i);
        rcp[i] = __float_as_uint(rcp_hw(one_m));
        lg2[i] = __float_as_uint(lg2_hw(one_m));
        lg2m1[i] = __float_as_uint(lg2_hw(one_m * 0.5f));
        ex2[i] = __float_as_uint(ex2_hw((float)i * 0x1p-23f));
    }
}

// A mismatch of model m on input `in`: counted, and kept if among the first.
__device__ void miss(Tally *t, int m, uint32_t in, float hw, float model)
{
    atomicAdd(&t->miss[m], 1ull);
    unsigned k = atomicAdd(&t->kept[m], 1u);
    if (k < KEEP)
        t->in[m][k] = in, t->hw[m][k] = __float_as_uint(hw), t->model[m][k] = __float_as_uint(model);
}

// A normal float's fields: x = s 1.m 2^E.
__device__ void fields(float x, int *E, uint32_t *m) { uint32_t b = __float_as_uint(x); *E = (int)((b >> 23) & 255) - 127; *m = b & (TAB - 1); }

// ex2 from the table for fixed-point input f = round(x 2^23) (a 64-bit
// integer): 2^(f >> 23) times the table's entry for the low 23 bits; the
// result flushed to zero below the normal range (.ftz) and infinite above.
__device__ float ex2_model(long long f, const uint32_t *ex2)
{
    long long k = f >> 23; // floor
    uint32_t q = (uint32_t)(f & (TAB - 1));
    if (k >= 128) return __uint_as_float(0x7f800000u);
    if (k < -126) return 0.0f; // every result below 2^-126 is subnormal: flushed
    return __uint_as_float(ex2[q]) * __uint_as_float((uint32_t)(k + 127) << 23);
}

// Input b through the unit and through every model that covers it; the
// inputs each model covered are counted a warp at a time (one atomic per
// warp and model: one per input would queue 2^32 atomics on one address).
__global__ void check_all(uint32_t start, uint32_t stride, const uint32_t *rcp,
                          const uint32_t *ex2, const uint32_t *lg2, Tally *t)
{
    uint32_t b = (start + blockIdx.x * blockDim.x + threadIdx.x) * stride;
    float x = __uint_as_float(b), hw[MODELS], model[MODELS];
    bool tried[MODELS] = {false};
    int E;
    uint32_t m;
    fields(x, &E, &m);
    bool normal = E > -127 && E < 128;
    if (normal && E > -126 && E < 126) { // 1/x normal and finite
        float r = __uint_as_float(rcp[m]) * __uint_as_float((uint32_t)(127 - E) << 23);
        tried[RCP] = true, hw[RCP] = rcp_hw(x), model[RCP] = (b >> 31) ? -r : r;
    }
    if (normal && fabsf(x) < 200.0f) {
        double s = (double)x * 0x1p23; // exact
        hw[EX2_FLOOR] = hw[EX2_ZERO] = hw[EX2_NEAR] = ex2_hw(x);
        model[EX2_FLOOR] = ex2_model((long long)floor(s), ex2);
        model[EX2_ZERO] = ex2_model((long long)trunc(s), ex2);
        model[EX2_NEAR] = ex2_model(__double2ll_rn(s), ex2);
        tried[EX2_FLOOR] = tried[EX2_ZERO] = tried[EX2_NEAR] = true;
    }
    if (normal && !(b >> 31)) { // positive normal
        double v = (double)E + (double)__uint_as_float(lg2[m]);
        hw[LG2_NEAR] = hw[LG2_ZERO] = lg2_hw(x);
        model[LG2_NEAR] = __double2float_rn(v);
        model[LG2_ZERO] = __double2float_rz(v);
        tried[LG2_NEAR] = tried[LG2_ZERO] = true;
    }
    for (int k = 0; k < MODELS; k++) {
        unsigned warp = __ballot_sync(0xffffffffu, tried[k]);
        if ((threadIdx.x & 31) == 0 && warp)
            atomicAdd(&t->tried[k], (unsigned long long)__popc(warp));
        if (tried[k] && __float_as_uint(hw[k]) != __float_as_uint(model[k]) &&
            !(hw[k] != hw[k] && model[k] != model[k]))
            miss(t, k, b, hw[k], model[k]);
    }
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
    uint32_t *rcp, *ex2, *lg2, *lg2m1;
    Tally *t, h;
    CHECK(cudaMalloc(&rcp, TAB * 4)); CHECK(cudaMalloc(&ex2, TAB * 4));
    CHECK(cudaMalloc(&lg2, TAB * 4)); CHECK(cudaMalloc(&lg2m1, TAB * 4));
    CHECK(cudaMalloc(&t, sizeof *t)); CHECK(cudaMemset(t, 0, sizeof *t));
    capture<<<1024, 256>>>(rcp, ex2, lg2, lg2m1);
    CHECK(cudaGetLastError());
    const uint64_t inputs = (1ull << 32) / stride, chunk = 1u << 30; // 2^32: four launches
    for (uint64_t s = 0; s < inputs; s += chunk) {
        uint64_t count = inputs - s < chunk ? inputs - s : chunk;
        check_all<<<(unsigned)(count / 256), 256>>>((uint32_t)s, (uint32_t)stride, rcp, ex2, lg2, t);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h, t, sizeof h, cudaMemcpyDeviceToHost));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("mufu-capture: %s (sm_%d%d)\n", p.name, p.major, p.minor);
    for (int m = 0; m < MODELS; m++) {
        printf("%-45s %llu of %llu inputs differ\n", model_name[m], h.miss[m], h.tried[m]);
        for (unsigned k = 0; k < h.kept[m] && k < KEEP; k++)
            printf("    x=0x%08x (%.9g): unit 0x%08x (%.9g), model 0x%08x (%.9g)\n", h.in[m][k],
                   as_float(h.in[m][k]), h.hw[m][k], as_float(h.hw[m][k]), h.model[m][k],
                   as_float(h.model[m][k]));
    }
    return save(argv[1], "rcp.bin", rcp) | save(argv[1], "ex2.bin", ex2) |
           save(argv[1], "lg2.bin", lg2) | save(argv[1], "lg2m1.bin", lg2m1);
}
