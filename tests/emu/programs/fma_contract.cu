/* fma_contract.cu - floating-point contraction in device code.  nvcc fuses
 * a*b+c into one fused multiply-add (one rounding) by default
 * (--fmad=true), and so does emu-nvcc on a machine with FMA; the _rn
 * intrinsics are never fused.  With a = 1 + 2^-12 and c = 1 + 2^-11,
 * a*a = 1 + 2^-11 + 2^-24 exactly: fused, a*a - c is 2^-24; rounded first
 * (a tie, to even), a*a is c and the difference 0.  The double case takes
 * a = 1 + 2^-27, c = 1 + 2^-26 (2^-54).  Host code is not contracted
 * (nvcc's host compiler does not fuse, and neither does emu-nvcc): there
 * the float difference is 0.  Prints the differences and "contracted" or
 * "separate"; every line is the GPU's under nvcc's
 * defaults (tests/gpu/device-emu-compare.sh), and a build with
 * -fmad=false prints "separate" (tests/emu/test_emu.c). */
#include <cstdio>

#include "check.h"

struct Diffs {
    float f, f_rn;
    double d, d_rn;
};

/* The operands come as arguments, so neither compiler can fold the
 * arithmetic at compile time (constant folding rounds each step). */
__global__ void differences(float a, float c, double da, double dc, Diffs *o)
{
    o->f = a * a - c;
    o->f_rn = __fmul_rn(a, a) - c;
    o->d = da * da - dc;
    o->d_rn = __dmul_rn(da, da) - dc;
}

int main()
{
    Diffs *o;
    CUDA_OK(cudaMallocManaged(&o, sizeof *o));
    float a = 1.0f + 0x1p-12f, c = 1.0f + 0x1p-11f;
    double da = 1.0 + 0x1p-27, dc = 1.0 + 0x1p-26;
    differences<<<1, 1>>>(a, c, da, dc, o);
    CUDA_OK(cudaDeviceSynchronize());
    printf("float  a*a - c = %.9g, __fmul_rn(a, a) - c = %.9g\n", o->f, o->f_rn);
    printf("double a*a - c = %.17g, __dmul_rn(a, a) - c = %.17g\n", o->d, o->d_rn);
    volatile float ha = a, hc = c; /* read at run time: no folding */
    float host = ha * ha - hc;
    printf("host   a*a - c = %.9g\n", host);
    EXPECT(host == 0.0f);
    bool fused = o->f == 0x1p-24f && o->d == 0x1p-54;
    bool separate = o->f == 0.0f && o->d == 0.0;
    EXPECT(fused || separate);
    EXPECT(o->f_rn == 0.0f && o->d_rn == 0.0); /* _rn products are never fused */
    printf("%s\n", fused ? "contracted" : separate ? "separate" : "mixed");
    CUDA_OK(cudaFree(o));
    return finish("fma_contract");
}
