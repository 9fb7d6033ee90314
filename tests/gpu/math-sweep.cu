/* math-sweep.cu - every device math function the emulator provides
 * (common/emu/include/cuemu_math.h), run over the same inputs on a GPU
 * (built by nvcc) and on the emulator (built by emu-nvcc): edge cases
 * (0, -0, subnormals, the smallest normal, extremes, infinities, NaN,
 * INT_MIN, powers of two) and pseudo-random bit patterns and ordinary
 * values.  One line per case on stdout:
 *     NAME <tab> result-type <tab> argument bits <tab> result bits
 * tests/gpu/device-math-sweep.sh builds it both ways and compares the two
 * outputs with tests/gpu/math_compare.py. */
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

typedef long long ll;
typedef unsigned long long ull;

/* Bits of a value, for printing: the type's letter and its bit pattern. */
static const char *letter(float) { return "f"; }
static const char *letter(double) { return "d"; }
static const char *letter(int) { return "i"; }
static const char *letter(unsigned) { return "u"; }
static const char *letter(ll) { return "l"; }
static const char *letter(ull) { return "m"; }
template <class T> static ull bits(T v)
{
    ull b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}

/* The inputs of each type: edge cases first, then pseudo-random ones. */
static ull lcg(ull &s) { return s = s * 6364136223846793005ull + 1442695040888963407ull; }
template <class T> static std::vector<T> edges();
template <> std::vector<float> edges<float>()
{
    return {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, 3.0f, 0.1f, 1.0f / 3, 3.14159265f, 1e10f, -1e-10f,
            100.5f, -7.25f, 1e30f, FLT_MAX, -FLT_MAX, FLT_MIN, -FLT_MIN, 1e-45f, -1e-45f, 1.1754942e-38f,
            INFINITY, -INFINITY, NAN, 16777216.0f, 2147483648.0f, -2147483648.0f, 0.75f, 2.5f, -2.5f,
            0.99999994f, 1.0000001f, 88.7f, -103.0f, 1e-20f, 1.9999999f};
}
template <> std::vector<double> edges<double>()
{
    return {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, 3.0, 0.1, 1.0 / 3, 3.141592653589793, 1e10, -1e-10,
            100.5, -7.25, 1e300, DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324, -4.9e-324,
            2.2250738585072009e-308, INFINITY, -INFINITY, NAN, 9007199254740992.0, 9.3e18, -9.3e18,
            0.75, 2.5, -2.5, 0.9999999999999999, 1.0000000000000002, 709.7, -745.0, 1e-200, 1e-20};
}
template <> std::vector<int> edges<int>()
{
    return {0, 1, -1, 2, -2, 3, INT_MIN, INT_MAX, INT_MIN + 1, 0x7fff, 0x8000, 0x12345678, 0x55555555,
            -0x55555555, 255, 256, 0xffffff, 0x1000000, -0x1000000, 31, 32, 33, 0x7f7f7f7f, -0x80808081};
}
template <> std::vector<unsigned> edges<unsigned>()
{
    std::vector<unsigned> v;
    for (int i : edges<int>())
        v.push_back((unsigned)i);
    return v;
}
template <> std::vector<ll> edges<ll>()
{
    return {0, 1, -1, 2, -2, LLONG_MIN, LLONG_MAX, LLONG_MIN + 1, 0x7fffffffLL, 0x80000000LL,
            0x123456789abcdefLL, 0x5555555555555555LL, -0x5555555555555555LL, 1LL << 53, (1LL << 53) + 1,
            (1LL << 24) + 1, 63, 64, -(1LL << 62), 0xffffffffLL};
}
template <> std::vector<ull> edges<ull>()
{
    std::vector<ull> v;
    for (ll i : edges<ll>())
        v.push_back((ull)i);
    v.push_back(~0ull);
    return v;
}
template <class T> static T random_value(ull &s, int k)
{
    ull r = lcg(s);
    if (k % 2 == 0) { /* any bit pattern */
        T v;
        memcpy(&v, &r, sizeof v);
        return v;
    }
    double moderate = (double)(r >> 11) / (double)(1ull << 53) * 40.0 - 20.0;
    return (T)moderate; /* ordinary values in [-20, 20] */
}

/* The cases of an operation of `arity` arguments of types A, B, C: every
 * combination of the first few edge cases, then random triples. */
template <class A, class B, class C> struct Cases {
    std::vector<A> a;
    std::vector<B> b;
    std::vector<C> c;
};
template <class T> static std::vector<T> head(size_t n)
{
    std::vector<T> e = edges<T>();
    if (e.size() > n)
        e.resize(n);
    return e;
}
template <class A, class B, class C> static Cases<A, B, C> cases(int arity)
{
    Cases<A, B, C> k;
    size_t n = arity == 1 ? 1000 : arity == 2 ? 30 : 10;
    std::vector<A> ea = head<A>(n);
    std::vector<B> eb = head<B>(arity >= 2 ? n : 1);
    std::vector<C> ec = head<C>(arity >= 3 ? n : 1);
    for (A x : ea)
        for (B y : eb)
            for (C z : ec) {
                k.a.push_back(x);
                k.b.push_back(y);
                k.c.push_back(z);
            }
    ull s = 12345;
    int extra = arity == 1 ? 120 : 150;
    for (int i = 0; i < extra; i++) {
        k.a.push_back(random_value<A>(s, i));
        k.b.push_back(arity >= 2 ? random_value<B>(s, i / 2) : eb[0]);
        k.c.push_back(arity >= 3 ? random_value<C>(s, i / 3) : ec[0]);
    }
    return k;
}

template <class Op, class R, class A, class B, class C>
__global__ void apply(Op op, const A *a, const B *b, const C *c, R *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = op(a[i], b[i], c[i]);
}

/* Runs one operation over its cases on the device and prints them. */
template <class Op> static void sweep(const char *name)
{
    typedef typename Op::R R;
    typedef typename Op::A A;
    typedef typename Op::B B;
    typedef typename Op::C C;
    Cases<A, B, C> k = cases<A, B, C>(Op::arity);
    int n = (int)k.a.size();
    A *da;
    B *db;
    C *dc;
    R *dr;
    cudaMalloc(&da, n * sizeof(A));
    cudaMalloc(&db, n * sizeof(B));
    cudaMalloc(&dc, n * sizeof(C));
    cudaMalloc(&dr, n * sizeof(R));
    cudaMemcpy(da, k.a.data(), n * sizeof(A), cudaMemcpyHostToDevice);
    cudaMemcpy(db, k.b.data(), n * sizeof(B), cudaMemcpyHostToDevice);
    cudaMemcpy(dc, k.c.data(), n * sizeof(C), cudaMemcpyHostToDevice);
    apply<<<(n + 127) / 128, 128>>>(Op(), da, db, dc, dr, n);
    std::vector<R> r(n);
    cudaError_t e = cudaMemcpy(r.data(), dr, n * sizeof(R), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        fprintf(stderr, "math-sweep: %s: %s\n", name, cudaGetErrorString(e));
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        printf("%s\t%s\t%llx", name, letter(R()), bits(k.a[i]));
        if (Op::arity >= 2)
            printf(" %llx", bits(k.b[i]));
        if (Op::arity >= 3)
            printf(" %llx", bits(k.c[i]));
        printf("\t%llx\n", bits(r[i]));
    }
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dr);
}

/* OP(name, result, A, B, C, arity, expression of x, y, z): one operation. */
#define OP(NAME, RT, AT, BT, CT, N, ...)                                                       \
    struct op_##NAME {                                                                       \
        typedef RT R;                                                                        \
        typedef AT A;                                                                        \
        typedef BT B;                                                                        \
        typedef CT C;                                                                        \
        enum { arity = N };                                                                  \
        __device__ RT operator()(AT x, BT y, CT z) const { (void)x; (void)y; (void)z; return __VA_ARGS__; } \
    };
#define F1(f) OP(f, float, float, int, int, 1, f(x))
#define F2(f) OP(f, float, float, float, int, 2, f(x, y))
#define F3(f) OP(f, float, float, float, float, 3, f(x, y, z))
#define D1(f) OP(f, double, double, int, int, 1, f(x))
#define D2(f) OP(f, double, double, double, int, 2, f(x, y))
#define D3(f) OP(f, double, double, double, double, 3, f(x, y, z))
#define ROUNDED(M, f) M(f##_rn) M(f##_rz) M(f##_ru) M(f##_rd)
#define CONV(F, I, f) OP(f##_rn, I, F, int, int, 1, f##_rn(x)) OP(f##_rz, I, F, int, int, 1, f##_rz(x)) \
    OP(f##_ru, I, F, int, int, 1, f##_ru(x)) OP(f##_rd, I, F, int, int, 1, f##_rd(x))
#include "math-sweep-ops.h"
#undef OP
#define OP(NAME, RT, AT, BT, CT, N, ...) sweep<op_##NAME>(#NAME);

int main(void)
{
#include "math-sweep-ops.h"
    return 0;
}
