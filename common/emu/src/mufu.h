/*
 * mufu.h - a GPU's special-function unit (MUFU) for the approximations
 * behind CUDA's fast-math intrinsics, rebuilt from tables measured on an
 * H200 (sm_90; tests/gpu/mufu-capture.cu captures and checks them, README
 * "Fast-math intrinsics").  NVIDIA publishes error bounds for these, not
 * bits; what a unit returns turned out to be a function of one binade
 * (of two for rsqrt), so seven tables of 2^23 entries give every input's
 * bits:
 *
 *   rcp.approx.ftz  1.m 2^E  ->  rcp[m] 2^-E
 *   ex2.approx.ftz  |x| cut to fixed point 7.23 (toward zero): k its
 *                   integer part, q its fraction; x >= 0: ex2_pos[q] 2^k,
 *                   x < 0: ex2_neg[q] 2^-k (the unit works in sign and
 *                   magnitude: one table for each sign)
 *   lg2.approx.ftz  1.m 2^E  ->  E + f, rounded toward zero, where f is
 *                   lg2[m] for E >= 0 and 1 + lg2_half[m] (the unit's
 *                   result at 1.m / 2) for E < 0: the two tables hold the
 *                   unit's inner value cut toward zero from either side
 *   rsqrt.approx.ftz  1.m 2^E  ->  rsq_even[m] 2^(-E/2) for even E,
 *                   rsq_odd[m] 2^(-(E-1)/2) for odd E (the unit at 2 (1.m)):
 *                   1/sqrt repeats every two binades, not every one
 *
 * Results below 2^-126 are flushed to zero, subnormal inputs read as zero
 * (.ftz), NaN is 0x7fffffff.  The intrinsics are the PTX nvcc writes for
 * them (nvcc -ptx) with the instructions ptxas puts around each MUFU when
 * .ftz is not asked for (cuobjdump -sass, sm_90): inputs scaled into the
 * normal range and the result scaled back.
 *
 * Plain C++ that nvcc also compiles for a GPU (MUFU_FN), so that the
 * capture program checks these very functions against the unit.
 */
#ifndef CUEMU_MUFU_H
#define CUEMU_MUFU_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define MUFU_FN __host__ __device__ inline
#else
#define MUFU_FN inline
#endif

namespace mufu {

enum { TABLE = 1 << 23 }; /* entries per table: one per 23-bit fraction */

struct Tables {
    const uint32_t *rcp, *ex2_pos, *ex2_neg, *lg2, *lg2_half, *rsq_even, *rsq_odd;
};

MUFU_FN uint32_t bits(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }
MUFU_FN float value(uint32_t b) { float x; memcpy(&x, &b, 4); return x; }
MUFU_FN float nan_out() { return value(0x7fffffffu); }

/* .ftz on the way out: a result below 2^-126 becomes a zero of its sign. */
MUFU_FN float flush(float r) { return fabsf(r) < 0x1p-126f ? value(bits(r) & 0x80000000u) : r; }

/* d rounded toward zero to float (d's magnitude within float's range);
 * cuemu::to_float does this in the emulator, but this header is also
 * compiled for a GPU. */
MUFU_FN float toward_zero(double d)
{
    float f = (float)d;
    return fabs((double)f) > fabs(d) ? nextafterf(f, 0.0f) : f;
}

/* The units, .ftz forms. */
MUFU_FN float rcp(const Tables *t, float x)
{
    uint32_t b = bits(x), sign = b & 0x80000000u, e = (b >> 23) & 255;
    if (e == 255)
        return (b & (TABLE - 1)) ? nan_out() : value(sign); /* 1/inf = 0 */
    if (e == 0)
        return value(sign | 0x7f800000u); /* 0 and subnormals: infinity */
    return flush(ldexpf(value(sign | t->rcp[b & (TABLE - 1)]), 127 - (int)e));
}

MUFU_FN float ex2(const Tables *t, float x)
{
    uint32_t b = bits(x), e = (b >> 23) & 255;
    if (e == 255 && (b & (TABLE - 1)))
        return nan_out();
    if (e == 0)
        return 1.0f;
    if (!(b >> 31) && x >= 128.0f)
        return value(0x7f800000u);
    if ((b >> 31) && x <= -127.0f)
        return 0.0f;
    long long f = (long long)(fabs((double)x) * 0x1p23); /* exact, then cut */
    int k = (int)(f >> 23);
    uint32_t q = (uint32_t)(f & (TABLE - 1));
    return (b >> 31) ? flush(ldexpf(value(t->ex2_neg[q]), -k)) : ldexpf(value(t->ex2_pos[q]), k);
}

MUFU_FN float lg2(const Tables *t, float x)
{
    uint32_t b = bits(x), e = (b >> 23) & 255, m = b & (TABLE - 1);
    if (e == 255 && m)
        return nan_out();
    if (e == 0)
        return value(0xff800000u); /* 0, -0 and subnormals: -infinity */
    if (b >> 31)
        return nan_out();
    if (e == 255)
        return x;
    int E = (int)e - 127;
    double f = E >= 0 ? (double)value(t->lg2[m]) : 1.0 + (double)value(t->lg2_half[m]);
    return toward_zero((double)E + f);
}

/* 1/sqrt of 1.m 2^E is 1/sqrt(1.m) 2^(-E/2) for even E and 1/sqrt(2 (1.m))
 * 2^(-(E-1)/2) for odd E: one table for each parity of the exponent. */
MUFU_FN float rsq(const Tables *t, float x)
{
    uint32_t b = bits(x), e = (b >> 23) & 255, m = b & (TABLE - 1);
    if (e == 255 && m)
        return nan_out();
    if (e == 0)
        return value((b & 0x80000000u) | 0x7f800000u); /* 0 and subnormals: infinity */
    if (b >> 31)
        return nan_out();
    if (e == 255)
        return 0.0f;
    int E = (int)e - 127, odd = E & 1;
    return ldexpf(value((odd ? t->rsq_odd : t->rsq_even)[m]), -(E - odd) / 2);
}

/* The PTX instructions without .ftz, as ptxas writes them for sm_90. */
MUFU_FN float ex2_approx(const Tables *t, float x)
{
    if (x < -126.0f) { /* halved into the unit's range, the result squared */
        float h = ex2(t, x * 0.5f);
        return h * h;
    }
    return ex2(t, x);
}

MUFU_FN float lg2_approx(const Tables *t, float x)
{
    if (fabsf(x) < 0x1p-126f) /* a subnormal made normal, its exponent taken back */
        return lg2(t, x * 16777216.0f) + -24.0f;
    return lg2(t, x);
}

MUFU_FN float div_approx(const Tables *t, float a, float b)
{
    if (fabsf(b) < 0x1p-126f) {
        a *= 16777216.0f;
        b *= 16777216.0f;
    }
    float r = rcp(t, b) * a;
    return r != r ? nan_out() : r; /* inf * 0: a GPU's NaN, not the host's */
}

/* Below 2^-126 ptxas scales the input by 2^24 into the unit's range and the
 * result back by 2^12 (the square root of 2^24). */
MUFU_FN float rsqrt_approx(const Tables *t, float x)
{
    if (fabsf(x) < 0x1p-126f)
        return rsq(t, x * 16777216.0f) * 4096.0f;
    return rsq(t, x);
}

/* The intrinsics (nvcc -ptx: each is one of the above and a multiply);
 * rsqrtf is rsqrt.approx.f32 itself. */
MUFU_FN float expf_(const Tables *t, float x) { return ex2_approx(t, x * 1.44269502162933349609375f); }
MUFU_FN float exp10f_(const Tables *t, float x) { return ex2_approx(t, x * 3.3219280242919921875f); }
MUFU_FN float logf_(const Tables *t, float x) { return lg2_approx(t, x) * 0.693147182464599609375f; }
MUFU_FN float log2f_(const Tables *t, float x) { return lg2_approx(t, x); }
MUFU_FN float log10f_(const Tables *t, float x) { return lg2_approx(t, x) * 0.3010300099849700927734375f; }
MUFU_FN float powf_(const Tables *t, float x, float y) { return ex2_approx(t, y * lg2_approx(t, x)); }
MUFU_FN float fdividef_(const Tables *t, float a, float b) { return div_approx(t, a, b); }
MUFU_FN float rsqrtf_(const Tables *t, float x) { return rsqrt_approx(t, x); }

} // namespace mufu

#endif /* CUEMU_MUFU_H */
