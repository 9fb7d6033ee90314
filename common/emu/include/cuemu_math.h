/*
 * cuemu_math.h - the device math of the emulator's CUDA: the integer and
 * bit intrinsics, min/max and their u/ll/ull forms, the float and double
 * intrinsics with a rounding mode (__fadd_rz, __fsqrt_ru, __double2float_rd
 * ...), the conversions, the fast-math intrinsics and rsqrtf, and the CUDA
 * Math API functions the C library lacks (rcbrtf, sinpif, norm3df, erfinvf
 * ...).  Included by cuemu_device.h; split from it because it is a table of
 * small functions, read and checked on its own.
 *
 * Each "@group" comment opens a group of the README's coverage table, which
 * common/emu/tools/math_table.py generates from this file: every function
 * defined below a group's comment is listed in that group, with the
 * comment's text after "|" as how the emulator computes it.  "@libm"
 * comments list the CUDA functions that come from the C library as they
 * are.  Edit here, then run `python3 common/emu/tools/math_table.py
 * --write` (tests/emu/math-table.sh fails while the README is stale).
 *
 * Rounding modes are exact.  Float operations and conversions do not
 * change the FPU's mode: the result rounded to nearest, r, is moved one
 * step (nextafter) toward the mode's direction when the exact value lies
 * on the other side of r, which an exact error term in a wider type tells
 * (see round_dir()).  Double operations set the FPU's rounding mode for
 * the one operation (in_mode()).
 */
#ifndef CUEMU_MATH_H
#define CUEMU_MATH_H
#include <cfenv>
#include <cfloat>
#include <climits>
#include <cmath>
#include <type_traits>

/* @group Integer and bit intrinsics | exact: the same bits as a GPU */
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
/* Funnel shifts: the 64-bit value hi:lo shifted, its upper (left) or
 * lower (right) 32 bits kept; shift amounts wrap (the plain forms) or
 * clamp at 32 (the c forms). */
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32 ? lo : (unsigned)(((((unsigned long long)hi << 32) | lo) << s) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32) | lo) >> (s & 31));
}
static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s)
{
    return s >= 32 ? hi : (unsigned)((((unsigned long long)hi << 32) | lo) >> s);
}
/* __fns(mask, base, offset): the lane of the offset-th set bit counting
 * from base (upward for offset > 0, downward for offset < 0), or ~0. */
static inline unsigned __fns(unsigned mask, unsigned base, int offset)
{
    if (offset == 0)
        return ~0u;
    int step = offset > 0 ? 1 : -1, need = offset > 0 ? offset : -offset;
    for (int l = (int)base; l >= 0 && l < 32; l += step)
        if ((mask >> l & 1) && --need == 0)
            return (unsigned)l;
    return ~0u;
}
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
static inline unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
static inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 4; i++)
        c += (int)(signed char)(a >> (8 * i)) * (int)(signed char)(b >> (8 * i));
    return c;
}
static inline unsigned __dp4a(unsigned a, unsigned b, unsigned c)
{
    for (int i = 0; i < 4; i++)
        c += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
    return c;
}
static inline int __mul24(int a, int b) { return (int)((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
static inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffff) * (b & 0xffffff); }
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
static inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? a - b : b - a); }
static inline unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }


/* IEEE 754-2019 minimumNumber and maximumNumber, which a GPU's FMNMX
 * computes: a NaN operand gives the other operand (NaN only when both
 * are), and -0 orders below +0, so fmin(+0, -0) is -0 and fmax(-0, +0)
 * is +0 in either argument order.  C leaves the zeros' order open, and
 * glibc's or g++'s inlined fminf answer by argument order (and by -O). */
namespace cuemu {
template <class F> static inline F minimum_number(F a, F b)
{
    if (a != a || b != b)
        return a != a ? b : a;
    if (a == b)
        return std::signbit(a) ? a : b;
    return a < b ? a : b;
}
template <class F> static inline F maximum_number(F a, F b)
{
    if (a != a || b != b)
        return a != a ? b : a;
    if (a == b)
        return std::signbit(a) ? b : a;
    return a > b ? a : b;
}
} // namespace cuemu

/* @group Float min and max | exact: IEEE 754-2019 minimumNumber/maximumNumber as a GPU computes them (a NaN operand gives the other, -0 below +0) */
/* The C library declares these (C linkage); device code gets the GPU's
 * order of signed zeros, as does host code compiled by emu-nvcc, where
 * C allows either zero.  std::fmin(float, float) is the compiler's
 * builtin, which may bypass them at -O3. */
extern "C" {
inline float fminf(float a, float b) noexcept { return cuemu::minimum_number(a, b); }
inline float fmaxf(float a, float b) noexcept { return cuemu::maximum_number(a, b); }
inline double fmin(double a, double b) noexcept { return cuemu::minimum_number(a, b); }
inline double fmax(double a, double b) noexcept { return cuemu::maximum_number(a, b); }
}
static inline float min(float a, float b) { return cuemu::minimum_number(a, b); }
static inline float max(float a, float b) { return cuemu::maximum_number(a, b); }
static inline double min(double a, double b) { return cuemu::minimum_number(a, b); }
static inline double max(double a, double b) { return cuemu::maximum_number(a, b); }

/* @group Integer min and max | exact */
static inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* min and max as CUDA declares them: exact overloads, plus a fallback for
 * mixed argument types that uses the usual arithmetic conversions (a
 * floating common type compares as the float overloads above do). */
#define CUEMU_MINMAX(T)                                                                    \
    static inline T min(T a, T b) { return a < b ? a : b; }                                \
    static inline T max(T a, T b) { return a > b ? a : b; }
CUEMU_MINMAX(int)
CUEMU_MINMAX(unsigned int)
CUEMU_MINMAX(long)
CUEMU_MINMAX(unsigned long)
CUEMU_MINMAX(long long)
CUEMU_MINMAX(unsigned long long)
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
static inline std::common_type_t<A, B> min(A a, B b)
{
    typedef std::common_type_t<A, B> C;
    if constexpr (std::is_floating_point<C>::value)
        return cuemu::minimum_number((C)a, (C)b);
    else
        return (C)a < (C)b ? (C)a : (C)b;
}
template <class A, class B, class = std::enable_if_t<std::is_arithmetic<A>::value && std::is_arithmetic<B>::value>>
static inline std::common_type_t<A, B> max(A a, B b)
{
    typedef std::common_type_t<A, B> C;
    if constexpr (std::is_floating_point<C>::value)
        return cuemu::maximum_number((C)a, (C)b);
    else
        return (C)a > (C)b ? (C)a : (C)b;
}

/* @group Reinterpretation | exact */
static inline int __float_as_int(float f) { int i; memcpy(&i, &f, 4); return i; }
static inline unsigned __float_as_uint(float f) { unsigned i; memcpy(&i, &f, 4); return i; }
static inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
static inline float __uint_as_float(unsigned i) { float f; memcpy(&f, &i, 4); return f; }
static inline long long __double_as_longlong(double d) { long long i; memcpy(&i, &d, 8); return i; }
static inline double __longlong_as_double(long long i) { double d; memcpy(&d, &i, 8); return d; }
static inline int __double2hiint(double d) { return (int)(__double_as_longlong(d) >> 32); }
static inline int __double2loint(double d) { return (int)__double_as_longlong(d); }
static inline double __hiloint2double(int hi, int lo)
{
    return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}

/* No contraction in the regions between "push_options" and "pop_options"
 * below and in cuemu_round.h: emu-nvcc marks device code for -ffp-contract=fast (nvcc's
 * --fmad=true, cuda_runtime.h), and the exact rounding steps there
 * (TwoSum, error terms, the wider type's single rounding) and the _rn
 * arithmetic intrinsics, which CUDA never merges into an FMA, must each
 * round on their own.  GCC does not inline a function compiled with other
 * options into a contracted caller, so the caller's contraction cannot
 * reach them (the cost: a call).  Functions outside the regions have no
 * a*b+c in float or double and stay inlinable.  (clang ignores the pragma:
 * emu-nvcc contracts nothing with clang.) */
#include "cuemu_round.h" /* the rounding helpers, in mode m */

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

/* @group Float arithmetic with a rounding mode | exact, every mode: computed in double with an exact error term */
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fadd_rz(float a, float b) { return cuemu::fadd(a, b, cuemu::RZ); }
static inline float __fadd_ru(float a, float b) { return cuemu::fadd(a, b, cuemu::RU); }
static inline float __fadd_rd(float a, float b) { return cuemu::fadd(a, b, cuemu::RD); }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fsub_rz(float a, float b) { return cuemu::fadd(a, -b, cuemu::RZ); }
static inline float __fsub_ru(float a, float b) { return cuemu::fadd(a, -b, cuemu::RU); }
static inline float __fsub_rd(float a, float b) { return cuemu::fadd(a, -b, cuemu::RD); }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fmul_rz(float a, float b) { return cuemu::fmul(a, b, cuemu::RZ); }
static inline float __fmul_ru(float a, float b) { return cuemu::fmul(a, b, cuemu::RU); }
static inline float __fmul_rd(float a, float b) { return cuemu::fmul(a, b, cuemu::RD); }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fdiv_rz(float a, float b) { return cuemu::fdiv(a, b, cuemu::RZ); }
static inline float __fdiv_ru(float a, float b) { return cuemu::fdiv(a, b, cuemu::RU); }
static inline float __fdiv_rd(float a, float b) { return cuemu::fdiv(a, b, cuemu::RD); }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __frcp_rz(float a) { return cuemu::fdiv(1.0f, a, cuemu::RZ); }
static inline float __frcp_ru(float a) { return cuemu::fdiv(1.0f, a, cuemu::RU); }
static inline float __frcp_rd(float a) { return cuemu::fdiv(1.0f, a, cuemu::RD); }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline float __fsqrt_rz(float a) { return cuemu::fsqrt(a, cuemu::RZ); }
static inline float __fsqrt_ru(float a) { return cuemu::fsqrt(a, cuemu::RU); }
static inline float __fsqrt_rd(float a) { return cuemu::fsqrt(a, cuemu::RD); }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmaf_rz(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RZ); }
static inline float __fmaf_ru(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RU); }
static inline float __fmaf_rd(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RD); }
static inline float __fmaf_ieee_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fmaf_ieee_rz(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RZ); }
static inline float __fmaf_ieee_ru(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RU); }
static inline float __fmaf_ieee_rd(float a, float b, float c) { return cuemu::ffma(a, b, c, cuemu::RD); }
/* x clamped to [+0, 1]: -0 and NaN give +0, as on a GPU. */
static inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }

/* @group Double arithmetic with a rounding mode | exact: the host FPU in that rounding mode for the one operation */
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dadd_rz(double a, double b) { return cuemu::dadd(a, b, cuemu::RZ); }
static inline double __dadd_ru(double a, double b) { return cuemu::dadd(a, b, cuemu::RU); }
static inline double __dadd_rd(double a, double b) { return cuemu::dadd(a, b, cuemu::RD); }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dsub_rz(double a, double b) { return cuemu::dadd(a, -b, cuemu::RZ); }
static inline double __dsub_ru(double a, double b) { return cuemu::dadd(a, -b, cuemu::RU); }
static inline double __dsub_rd(double a, double b) { return cuemu::dadd(a, -b, cuemu::RD); }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dmul_rz(double a, double b) { return cuemu::dmul(a, b, cuemu::RZ); }
static inline double __dmul_ru(double a, double b) { return cuemu::dmul(a, b, cuemu::RU); }
static inline double __dmul_rd(double a, double b) { return cuemu::dmul(a, b, cuemu::RD); }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __ddiv_rz(double a, double b) { return cuemu::ddiv(a, b, cuemu::RZ); }
static inline double __ddiv_ru(double a, double b) { return cuemu::ddiv(a, b, cuemu::RU); }
static inline double __ddiv_rd(double a, double b) { return cuemu::ddiv(a, b, cuemu::RD); }
static inline double __drcp_rn(double a) { return 1.0 / a; }
static inline double __drcp_rz(double a) { return cuemu::ddiv(1.0, a, cuemu::RZ); }
static inline double __drcp_ru(double a) { return cuemu::ddiv(1.0, a, cuemu::RU); }
static inline double __drcp_rd(double a) { return cuemu::ddiv(1.0, a, cuemu::RD); }
static inline double __dsqrt_rn(double a) { return sqrt(a); }
static inline double __dsqrt_rz(double a) { return cuemu::dsqrt(a, cuemu::RZ); }
static inline double __dsqrt_ru(double a) { return cuemu::dsqrt(a, cuemu::RU); }
static inline double __dsqrt_rd(double a) { return cuemu::dsqrt(a, cuemu::RD); }
static inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }
static inline double __fma_rz(double a, double b, double c) { return cuemu::dfma(a, b, c, cuemu::RZ); }
static inline double __fma_ru(double a, double b, double c) { return cuemu::dfma(a, b, c, cuemu::RU); }
static inline double __fma_rd(double a, double b, double c) { return cuemu::dfma(a, b, c, cuemu::RD); }

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* @group Conversions | exact, every mode; float to integer saturates; NaN gives 0 from a float to a 32-bit integer, else the top bit alone (0x80000000, 0x8000000000000000), as a GPU's cvt does */
#define CUEMU_TO_INT(F, fname, I, iname)                                                    \
    static inline I __##fname##2##iname##_rn(F x) { return cuemu::to_int<I>(x, cuemu::RN); } \
    static inline I __##fname##2##iname##_rz(F x) { return cuemu::to_int<I>(x, cuemu::RZ); } \
    static inline I __##fname##2##iname##_ru(F x) { return cuemu::to_int<I>(x, cuemu::RU); } \
    static inline I __##fname##2##iname##_rd(F x) { return cuemu::to_int<I>(x, cuemu::RD); }
/* @names __float2int_rn __float2int_rz __float2int_ru __float2int_rd */
CUEMU_TO_INT(float, float, int, int)
/* @names __float2uint_rn __float2uint_rz __float2uint_ru __float2uint_rd */
CUEMU_TO_INT(float, float, unsigned, uint)
/* @names __float2ll_rn __float2ll_rz __float2ll_ru __float2ll_rd */
CUEMU_TO_INT(float, float, long long, ll)
/* @names __float2ull_rn __float2ull_rz __float2ull_ru __float2ull_rd */
CUEMU_TO_INT(float, float, unsigned long long, ull)
/* @names __double2int_rn __double2int_rz __double2int_ru __double2int_rd */
CUEMU_TO_INT(double, double, int, int)
/* @names __double2uint_rn __double2uint_rz __double2uint_ru __double2uint_rd */
CUEMU_TO_INT(double, double, unsigned, uint)
/* @names __double2ll_rn __double2ll_rz __double2ll_ru __double2ll_rd */
CUEMU_TO_INT(double, double, long long, ll)
/* @names __double2ull_rn __double2ull_rz __double2ull_ru __double2ull_rd */
CUEMU_TO_INT(double, double, unsigned long long, ull)
#define CUEMU_INT_TO(I, iname, F, fname)                                                    \
    static inline F __##iname##2##fname##_rn(I x) { return (F)x; }                          \
    static inline F __##iname##2##fname##_rz(I x) { return cuemu::int_to<F>(x, cuemu::RZ); } \
    static inline F __##iname##2##fname##_ru(I x) { return cuemu::int_to<F>(x, cuemu::RU); } \
    static inline F __##iname##2##fname##_rd(I x) { return cuemu::int_to<F>(x, cuemu::RD); }
/* @names __int2float_rn __int2float_rz __int2float_ru __int2float_rd */
CUEMU_INT_TO(int, int, float, float)
/* @names __uint2float_rn __uint2float_rz __uint2float_ru __uint2float_rd */
CUEMU_INT_TO(unsigned, uint, float, float)
/* @names __ll2float_rn __ll2float_rz __ll2float_ru __ll2float_rd */
CUEMU_INT_TO(long long, ll, float, float)
/* @names __ull2float_rn __ull2float_rz __ull2float_ru __ull2float_rd */
CUEMU_INT_TO(unsigned long long, ull, float, float)
/* @names __ll2double_rn __ll2double_rz __ll2double_ru __ll2double_rd */
CUEMU_INT_TO(long long, ll, double, double)
/* @names __ull2double_rn __ull2double_rz __ull2double_ru __ull2double_rd */
CUEMU_INT_TO(unsigned long long, ull, double, double)
static inline double __int2double_rn(int x) { return (double)x; }
static inline double __uint2double_rn(unsigned x) { return (double)x; }
static inline float __double2float_rn(double x) { return (float)x; }
static inline float __double2float_rz(double x) { return cuemu::to_float(x, 0, cuemu::RZ); }
static inline float __double2float_ru(double x) { return cuemu::to_float(x, 0, cuemu::RU); }
static inline float __double2float_rd(double x) { return cuemu::to_float(x, 0, cuemu::RD); }

/* @group Fast-math intrinsics and rsqrtf | __expf, __exp10f, __logf, __log2f, __log10f, __powf, __fdividef and rsqrtf: the bits of an H200's special-function unit, from tables of it (src/mufu.h; the same on every input checked on the GPU); __sinf, __cosf, __tanf, __sincosf: the C library's full-precision function, and each call site says so once on stderr (CUEMU_FASTMATH); fdividef: IEEE division, as on a GPU without --use_fast_math */
namespace cuemu { /* src/mufu.cpp: a GPU's bits, or the C library's without the tables */
float fast_expf(float x);
float fast_exp10f(float x);
float fast_logf(float x);
float fast_log2f(float x);
float fast_log10f(float x);
float fast_powf(float x, float y);
float fast_fdividef(float a, float b);
float fast_rsqrtf(float x);
} // namespace cuemu
/* glibc declares these names but does not export them: defined here, with
 * its declarations' C linkage. */
extern "C" {
inline float __expf(float x) noexcept { return cuemu::fast_expf(x); }
inline float __exp10f(float x) noexcept { return cuemu::fast_exp10f(x); }
inline float __logf(float x) noexcept { return cuemu::fast_logf(x); }
inline float __log2f(float x) noexcept { return cuemu::fast_log2f(x); }
inline float __log10f(float x) noexcept { return cuemu::fast_log10f(x); }
inline float __sinf(float x) noexcept { return sinf(x); }
inline float __cosf(float x) noexcept { return cosf(x); }
inline float __tanf(float x) noexcept { return tanf(x); }
inline void __sincosf(float x, float *s, float *c) noexcept { sincosf(x, s, c); }
inline float __powf(float x, float y) noexcept { return cuemu::fast_powf(x, y); }
}
static inline float __fdividef(float a, float b) { return cuemu::fast_fdividef(a, b); }
static inline float fdividef(float a, float b) { return a / b; } /* IEEE division on a GPU too */
/* rsqrtf is not a fast-math intrinsic by name, but a GPU computes it as
 * rsqrt.approx.f32, on the same unit (MUFU.RSQ). */
static inline float rsqrtf(float x) { return cuemu::fast_rsqrtf(x); }

/* A GPU computes each fast-math intrinsic, and rsqrtf, with its
 * special-function unit's approximation (MUFU).  The emulator has the
 * unit's bits for the exponentials, logarithms, __powf, __fdividef and
 * rsqrtf (src/mufu.h), not for sine, cosine and tangent: a call site of
 * those (or of any of them when the tables are missing) says once, on
 * stderr, with its file and line, that its last digits may differ from a
 * GPU's (src/fastmath.cpp; CUEMU_FASTMATH=note | off | stop).  The macros
 * give each site its own flag (after the first call a site costs one
 * relaxed load and a branch) and say whether src/mufu.h has the
 * intrinsic's bits (has_bits).
 * A call through a function pointer (no macro) is not noted. */
namespace cuemu {
void fastmath_first(int *seen, const char *name, const char *full, bool has_bits,
                    const char *file, int line);
}
#define CUEMU_FASTMATH_SITE(name, full, has_bits)                                         \
    ({                                                                                    \
        static int cuemu_fastmath_seen_;                                                  \
        if (__builtin_expect(!__atomic_load_n(&cuemu_fastmath_seen_, __ATOMIC_RELAXED), 0)) \
            cuemu::fastmath_first(&cuemu_fastmath_seen_, name, full, has_bits, __FILE__,   \
                                  __LINE__);                                              \
    })
#define __expf(x) (CUEMU_FASTMATH_SITE("__expf", "expf", true), __expf(x))
#define __exp10f(x) (CUEMU_FASTMATH_SITE("__exp10f", "exp10f", true), __exp10f(x))
#define __logf(x) (CUEMU_FASTMATH_SITE("__logf", "logf", true), __logf(x))
#define __log2f(x) (CUEMU_FASTMATH_SITE("__log2f", "log2f", true), __log2f(x))
#define __log10f(x) (CUEMU_FASTMATH_SITE("__log10f", "log10f", true), __log10f(x))
#define __sinf(x) (CUEMU_FASTMATH_SITE("__sinf", "sinf", false), __sinf(x))
#define __cosf(x) (CUEMU_FASTMATH_SITE("__cosf", "cosf", false), __cosf(x))
#define __tanf(x) (CUEMU_FASTMATH_SITE("__tanf", "tanf", false), __tanf(x))
#define __sincosf(x, s, c) (CUEMU_FASTMATH_SITE("__sincosf", "sincosf", false), __sincosf(x, s, c))
#define __powf(x, y) (CUEMU_FASTMATH_SITE("__powf", "powf", true), __powf(x, y))
#define __fdividef(a, b) (CUEMU_FASTMATH_SITE("__fdividef", "/", true), __fdividef(a, b))
#define rsqrtf(x) (CUEMU_FASTMATH_SITE("rsqrtf", "1/sqrt", true), rsqrtf(x))

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

/* ---- the CUDA Math API beyond C: helpers (not CUDA names) ---------------- */
namespace cuemu {
/* sin(pi x) or cos(pi x) (cos_ true) in the wider type W: x is reduced
 * exactly to a quarter turn n and a remainder |t| <= 1/4, so pi t keeps
 * its relative precision near the zeros. */
template <class W> static inline W sincospi(W x, bool cos_)
{
    if (!std::isfinite(x))
        return (W)NAN;
    const W pi = 3.14159265358979323846264338327950288L;
    W r = std::fmod(x, (W)2);
    W n = std::nearbyint(2 * r);
    W t = r - n / 2;
    int q = (((int)n % 4) + 4 + (cos_ ? 1 : 0)) % 4;
    W s = std::sin(pi * t), c = std::cos(pi * t);
    W v = q == 0 ? s : q == 1 ? c : q == 2 ? -s : -c;
    if (v == 0)
        return cos_ ? (W)0 : std::copysign((W)0, x);
    return v;
}

/* The x with f(x) = y for f increasing on [lo, hi], by bisection in W to
 * the last bit: erfinv and erfcinv (teaching code calls them rarely, so
 * exactness beats speed). */
template <class W, class Fn> static inline W solve_increasing(Fn f, W y, W lo, W hi)
{
    for (int i = 0; i < 400; i++) {
        W mid = lo + (hi - lo) / 2;
        if (mid == lo || mid == hi)
            break;
        (f(mid) < y ? lo : hi) = mid;
    }
    return lo + (hi - lo) / 2;
}
template <class W> static inline W erfcinv(W y);
/* erfinv(y) = x with erf(x) = y.  Below 2^-40 in magnitude, x = y sqrt(pi)/2
 * (the next term of the series, pi y^3 / 12 relative, lies below W's last
 * bit), which keeps subnormal y exact where a bisection from [0, 7] would
 * stop short; up to 1/2, bisection on erf, accurate relative to x; above,
 * erfcinv(1 - |y|), 1 - |y| being exact there, since erf near 1 cannot
 * tell 1 - 2^-53 from its neighbours in W. */
template <class W> static inline W erfinv(W y)
{
    if (y != y || y < -1 || y > 1)
        return (W)NAN;
    if (y == 0 || std::fabs(y) == 1)
        return y == 0 ? y : std::copysign((W)INFINITY, y);
    const W half_sqrt_pi = (W)0.886226925452758013649083741671e0L;
    if (std::fabs(y) < (W)0x1p-40)
        return y * half_sqrt_pi;
    if (std::fabs(y) > (W)0.5)
        return std::copysign(erfcinv(1 - std::fabs(y)), y);
    W x = solve_increasing([](W v) { return std::erf(v); }, std::fabs(y), (W)0, (W)7);
    return std::copysign(x, y);
}
/* erfcinv(y) = x with erfc(x) = y.  Near 1 (y in [1/2, 1]) it is
 * erfinv(1 - y), 1 - y being exact there, so erfcinv(1) is 0 and
 * erfcinv(1 - 2^-53) keeps its precision (erfc near 1 cannot tell such
 * x apart); below 1/2, bisection on erfc, accurate in its tail; above 1,
 * -erfcinv(2 - y), 2 - y exact too.  (erfinv and erfcinv call each other
 * only across 1/2: at most once each way.) */
template <class W> static inline W erfcinv(W y)
{
    if (y != y || y < 0 || y > 2)
        return (W)NAN;
    if (y == 0 || y == 2)
        return y == 0 ? (W)INFINITY : -(W)INFINITY;
    if (y > 1)
        return -erfcinv(2 - y);
    if (y >= (W)0.5)
        return erfinv(1 - y);
    return solve_increasing([](W v) { return -std::erfc(v); }, -y, (W)0, (W)28);
}
/* exp(x^2) erfc(x): directly in W below 50, by its asymptotic series
 * (six terms: below 1e-18 relative there) above. */
template <class W> static inline W erfcx(W x)
{
    if (x != x)
        return x;
    if (x < 50)
        return std::exp(x * x) * std::erfc(x);
    W u = 1 / (2 * x * x), term = 1, sum = 1;
    for (int n = 1; n <= 6; n++) {
        term *= -(2 * n - 1) * u;
        sum += term;
    }
    return sum / (x * (W)1.77245385090551602729816748334114518L);
}
/* Modified Bessel functions of the first kind, orders 0 and 1, by their
 * power series in W (all terms positive: no cancellation). */
template <class W> static inline W bessel_i(W x, int order)
{
    if (x != x || std::isinf(x))
        return order == 0 ? std::fabs(x) : x;
    W q = x * x / 4, term = order == 0 ? (W)1 : x / 2, sum = term;
    for (int k = 1; k < 4000 && std::isfinite(sum); k++) {
        term *= q / ((W)k * (k + order));
        sum += term;
        if (term <= sum * (W)1e-21 && term >= -sum * (W)1e-21)
            break;
    }
    return sum;
}
/* sqrt of the sum of squares of n values, in W. */
template <class W, class F> static inline W norm_n(int n, const F *p)
{
    W s = 0;
    for (int i = 0; i < n; i++)
        s += (W)p[i] * p[i];
    return std::sqrt(s);
}
} // namespace cuemu

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* @group CUDA Math API functions the C library lacks | computed in a wider type (double for float, long double for double), then rounded once */
static inline double rsqrt(double x) { return (double)(1.0L / std::sqrt((long double)x)); }
static inline float __frsqrt_rn(float x) { return (float)(1.0 / std::sqrt((double)x)); }
static inline float rcbrtf(float x) { return (float)(1.0 / std::cbrt((double)x)); }
static inline double rcbrt(double x) { return (double)(1.0L / std::cbrt((long double)x)); }
#if !(defined(__GLIBC__) && __GLIBC_PREREQ(2, 41)) /* newer glibc has C23's sinpi family */
static inline float sinpif(float x) { return (float)cuemu::sincospi((double)x, false); }
static inline float cospif(float x) { return (float)cuemu::sincospi((double)x, true); }
static inline double sinpi(double x) { return (double)cuemu::sincospi((long double)x, false); }
static inline double cospi(double x) { return (double)cuemu::sincospi((long double)x, true); }
#endif
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
static inline void sincospi(double x, double *s, double *c) { *s = sinpi(x); *c = cospi(x); }
static inline float rhypotf(float a, float b) { return (float)(1.0 / std::hypot((double)a, (double)b)); }
static inline double rhypot(double a, double b) { return (double)(1.0L / std::hypot((long double)a, (long double)b)); }
static inline float norm3df(float a, float b, float c)
{
    float p[3] = {a, b, c};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) ? INFINITY : (float)cuemu::norm_n<double>(3, p);
}
static inline double norm3d(double a, double b, double c)
{
    double p[3] = {a, b, c};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) ? INFINITY : (double)cuemu::norm_n<long double>(3, p);
}
static inline float rnorm3df(float a, float b, float c)
{
    float p[3] = {a, b, c};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) ? 0.0f : (float)(1.0 / cuemu::norm_n<double>(3, p));
}
static inline double rnorm3d(double a, double b, double c)
{
    return std::isinf(a) || std::isinf(b) || std::isinf(c) ? 0.0 : (double)(1.0L / std::sqrt((long double)a * a + (long double)b * b + (long double)c * c));
}
static inline float norm4df(float a, float b, float c, float d)
{
    float p[4] = {a, b, c, d};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) || std::isinf(d) ? INFINITY : (float)cuemu::norm_n<double>(4, p);
}
static inline double norm4d(double a, double b, double c, double d)
{
    double p[4] = {a, b, c, d};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) || std::isinf(d) ? INFINITY : (double)cuemu::norm_n<long double>(4, p);
}
static inline float rnorm4df(float a, float b, float c, float d)
{
    float p[4] = {a, b, c, d};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) || std::isinf(d) ? 0.0f : (float)(1.0 / cuemu::norm_n<double>(4, p));
}
static inline double rnorm4d(double a, double b, double c, double d)
{
    double p[4] = {a, b, c, d};
    return std::isinf(a) || std::isinf(b) || std::isinf(c) || std::isinf(d) ? 0.0 : (double)(1.0L / cuemu::norm_n<long double>(4, p));
}
static inline float normf(int dim, const float *p) { return (float)cuemu::norm_n<double>(dim, p); }
static inline double norm(int dim, const double *p) { return (double)cuemu::norm_n<long double>(dim, p); }
static inline float rnormf(int dim, const float *p) { return (float)(1.0 / cuemu::norm_n<double>(dim, p)); }
static inline double rnorm(int dim, const double *p) { return (double)(1.0L / cuemu::norm_n<long double>(dim, p)); }
static inline float erfinvf(float y) { return (float)cuemu::erfinv((double)y); }
static inline double erfinv(double y) { return (double)cuemu::erfinv((long double)y); }
static inline float erfcinvf(float y) { return (float)cuemu::erfcinv((double)y); }
static inline double erfcinv(double y) { return (double)cuemu::erfcinv((long double)y); }
static inline float erfcxf(float x) { return (float)cuemu::erfcx((double)x); }
static inline double erfcx(double x) { return (double)cuemu::erfcx((long double)x); }
static inline float normcdff(float x) { return (float)(0.5 * std::erfc(-(double)x * 0.70710678118654752440)); }
static inline double normcdf(double x) { return (double)(0.5L * std::erfc(-(long double)x * 0.707106781186547524400844362104849039L)); }
static inline float normcdfinvf(float p) { return (float)(-1.41421356237309504880 * cuemu::erfcinv(2.0 * p)) + 0.0f; }
static inline double normcdfinv(double p) { return (double)(-1.41421356237309504880168872420969808L * cuemu::erfcinv(2.0L * p) + 0.0L); }
static inline float cyl_bessel_i0f(float x) { return (float)cuemu::bessel_i((double)x, 0); }
static inline double cyl_bessel_i0(double x) { return (double)cuemu::bessel_i((long double)x, 0); }
static inline float cyl_bessel_i1f(float x) { return (float)cuemu::bessel_i((double)x, 1); }
static inline double cyl_bessel_i1(double x) { return (double)cuemu::bessel_i((long double)x, 1); }

/* @group C library functions | the host C library's (glibc) result: correctly rounded or within its documented ulp, not always the bits of CUDA's own (its bounds: the sweep) */
/* @libm sqrtf cbrtf hypotf expf exp2f exp10f expm1f logf log2f log10f log1pf sinf cosf tanf sincosf */
/* @libm asinf acosf atanf atan2f sinhf coshf tanhf asinhf acoshf atanhf powf erff erfcf lgammaf */
/* @libm tgammaf fmaf fabsf fdimf fmodf remainderf remquof frexpf ldexpf scalbnf */
/* @libm scalblnf ilogbf logbf modff nextafterf copysignf ceilf floorf truncf roundf rintf */
/* @libm nearbyintf lrintf llrintf lroundf llroundf nanf j0f j1f jnf y0f y1f ynf */
/* @libm sqrt cbrt hypot exp exp2 exp10 expm1 log log2 log10 log1p sin cos tan sincos asin acos */
/* @libm atan atan2 sinh cosh tanh asinh acosh atanh pow erf erfc lgamma tgamma fma */
/* @libm fabs fdim fmod remainder remquo frexp ldexp scalbn scalbln ilogb logb modf nextafter */
/* @libm copysign ceil floor trunc round rint nearbyint lrint llrint lround llround nan j0 j1 jn */
/* @libm y0 y1 yn signbit isnan isinf isfinite abs labs llabs */

#endif /* CUEMU_MATH_H */
