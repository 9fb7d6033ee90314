/*
 * cuemu_round.h - the device math's rounding helpers (not CUDA names),
 * part of cuemu_math.h and included by it alone, at this point of it: a
 * result rounded in a chosen mode (round to nearest, toward zero, up,
 * down) from a wider type with an exact error term, and conversions to
 * integers as a GPU's cvt does.  The exact steps are kept out of nvcc-like
 * contraction (cuemu_math.h says why).
 */
#ifndef CUEMU_ROUND_H
#define CUEMU_ROUND_H

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

/* ---- rounding helpers (not CUDA names) ---------------------------------- */
namespace cuemu {
enum Round { RN, RZ, RU, RD };

/* r is the exact value v rounded to nearest; above is the sign of r - v
 * (0 when r is exact).  Returns v rounded in mode m: one step away from r
 * when r lies on the wrong side of v for the mode. */
template <class F> static inline F round_dir(F r, int above, Round m)
{
    if (above == 0 || r != r || m == RN)
        return r;
    const F inf = (F)INFINITY;
    bool positive = r != 0 ? r > 0 : above < 0; /* the sign of v */
    bool step = (m == RU && above < 0) || (m == RD && above > 0) ||
                (m == RZ && (positive ? above > 0 : above < 0));
    if (!step)
        return r;
    bool up = m == RU || (m == RZ && !positive);
    return std::nextafter(r, up ? inf : -inf);
}

/* IEEE 754's sign of a sum r = a + b that is exactly zero, in mode m: -0
 * when rounding down, unless both addends are +0 (then +0); in the other
 * modes as the sum in round-to-nearest gives it. */
template <class F> static inline F zero_sum_sign(F r, F a, F b, Round m)
{
    if (m != RD)
        return r;
    return (a == 0 && b == 0 && !std::signbit(a) && !std::signbit(b)) ? r : -(F)0;
}

/* Sign of x as -1, 0, 1. */
template <class T> static inline int sgn(T x) { return (x > 0) - (x < 0); }

/* A double d rounded to float in mode m, lo being the sign of the error
 * d left out (v = d + tiny, sgn(tiny) = lo): exact for every double. */
static inline float to_float(double d, int lo, Round m)
{
    float r = (float)d;
    int above = (double)r != d ? sgn((double)r - d) : -lo;
    return round_dir(r, above, m);
}

/* a + b, exactly, as s + e (Knuth's TwoSum; e = 0 when s is not finite). */
template <class F> static inline F two_sum(F a, F b, F *e)
{
    F s = a + b;
    if (!std::isfinite(s)) {
        *e = 0;
        return s;
    }
    F bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* Float operations in mode m: done in double, whose exact error term
 * gives the direction (a product of floats is exact in double). */
static inline float fadd(float a, float b, Round m)
{
    double e, s = two_sum((double)a, (double)b, &e);
    return s == 0 ? zero_sum_sign((float)s, a, b, m) : to_float(s, sgn(e), m);
}
static inline float fmul(float a, float b, Round m) { return to_float((double)a * b, 0, m); }
static inline float fdiv(float a, float b, Round m)
{
    double q = (double)a / b;
    double rem = std::fma(-q, (double)b, (double)a);
    return to_float(q, std::isfinite(q) ? sgn(rem) * sgn((double)b) : 0, m);
}
static inline float fsqrt(float a, Round m)
{
    double s = std::sqrt((double)a);
    return to_float(s, std::isfinite(s) ? sgn(std::fma(-s, s, (double)a)) : 0, m);
}
static inline float ffma(float a, float b, float c, Round m)
{
    double p = (double)a * b, e, s = two_sum(p, (double)c, &e);
    return s == 0 ? (float)zero_sum_sign(s, p, (double)c, m) : to_float(s, sgn(e), m);
}

/* op() computed with the FPU rounding in mode m, then the mode restored.
 * The operands are read through volatile copies inside op and the result
 * stored to a volatile, so the compiler keeps the arithmetic between the
 * two mode changes; no fiber switch can happen in between. */
template <class F, class Op> static inline F in_mode(Round m, Op op)
{
    static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
    int saved = std::fegetround();
    std::fesetround(modes[m]);
    volatile F r = op();
    std::fesetround(saved);
    return r;
}

/* Double operations in mode m: the hardware's own directed rounding
 * (exact by IEEE 754, subnormal results and signed zeros included);
 * double has no wider type to compute an error term in cheaply. */
static inline double dadd(double a, double b, Round m)
{
    return in_mode<double>(m, [&] { volatile double x = a, y = b; return x + y; });
}
static inline double dmul(double a, double b, Round m)
{
    return in_mode<double>(m, [&] { volatile double x = a, y = b; return x * y; });
}
static inline double ddiv(double a, double b, Round m)
{
    return in_mode<double>(m, [&] { volatile double x = a, y = b; return x / y; });
}
static inline double dsqrt(double a, Round m)
{
    return in_mode<double>(m, [&] { volatile double x = a; return std::sqrt((double)x); });
}
static inline double dfma(double a, double b, double c, Round m)
{
    return in_mode<double>(m, [&] { volatile double x = a, y = b, z = c; return std::fma((double)x, (double)y, (double)z); });
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* An integer x (exact in long double, as every 64-bit one is on x86-64)
 * rounded to F in mode m. */
template <class F, class I> static inline F int_to(I x, Round m)
{
    F r = (F)x;
    long double d = (long double)r - (long double)x;
    return round_dir(r, sgn(d), m);
}

/* What a GPU's conversion of a NaN to the integer type I gives: 0 from
 * a float to a 32-bit integer; from a double, or to a 64-bit integer,
 * the integer whose only set bit is the top one (INT_MIN's bits, also
 * for the unsigned types), as an H200 gives it (the device math sweep,
 * common/emu/README.md). */
template <class I, class F> static inline I nan_to_int()
{
    if (sizeof(F) == 4 && sizeof(I) == 4)
        return 0;
    typedef typename std::make_unsigned<I>::type U;
    return (I)((U)1 << (8 * sizeof(I) - 1));
}

/* A float or double rounded to an integer in mode m, saturating at I's
 * limits, NaN as nan_to_int says: PTX's cvt.rni/rzi/rpi/rmi on a GPU. */
template <class I, class F> static inline I to_int(F x, Round m)
{
    if (x != x)
        return nan_to_int<I, F>();
    F r = m == RN ? std::nearbyint(x) : m == RZ ? std::trunc(x) : m == RU ? std::ceil(x) : std::floor(x);
    if (r <= (F)std::numeric_limits<I>::min())
        return std::numeric_limits<I>::min();
    if (r >= (F)std::numeric_limits<I>::max())
        return std::numeric_limits<I>::max();
    return (I)r;
}
} // namespace cuemu

#endif /* CUEMU_ROUND_H */
