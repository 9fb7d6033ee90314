/*
 * ops.cuh - the associative operators the labs are generic over.  Each is
 * a functor with an identity (the value that changes nothing: padding for
 * threads past the end of the input) and a combine, usable on host and
 * device.  atomic_combine() folds a value into global memory atomically.
 */
#ifndef OPS_CUH
#define OPS_CUH

#include <math.h>
#include <stdint.h>

#include "lab.h"

template <typename T> struct Sum {
    static __host__ __device__ T identity() { return T(0); }
    __host__ __device__ T operator()(T a, T b) const { return a + b; }
};
/* int32 sums wrap modulo 2^32 on the GPU; say so in C++ terms (signed
 * overflow is undefined in C++, unsigned wraps). */
template <> struct Sum<int> {
    static __host__ __device__ int identity() { return 0; }
    __host__ __device__ int operator()(int a, int b) const
    {
        return (int)((unsigned)a + (unsigned)b);
    }
};

template <typename T> struct Min;
template <> struct Min<int> {
    static __host__ __device__ int identity() { return INT32_MAX; }
    __host__ __device__ int operator()(int a, int b) const { return a < b ? a : b; }
};
template <> struct Min<float> {
    static __host__ __device__ float identity() { return INFINITY; }
    __host__ __device__ float operator()(float a, float b) const { return a < b ? a : b; }
};

template <typename T> struct Max;
template <> struct Max<int> {
    static __host__ __device__ int identity() { return INT32_MIN; }
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
template <> struct Max<float> {
    static __host__ __device__ float identity() { return -INFINITY; }
    __host__ __device__ float operator()(float a, float b) const { return a > b ? a : b; }
};

/* Hardware atomics where CUDA has one... */
__device__ inline void atomic_combine(Sum<int>, int *addr, int v) { atomicAdd(addr, v); }
__device__ inline void atomic_combine(Sum<float>, float *addr, float v) { atomicAdd(addr, v); }
__device__ inline void atomic_combine(Min<int>, int *addr, int v) { atomicMin(addr, v); }
__device__ inline void atomic_combine(Max<int>, int *addr, int v) { atomicMax(addr, v); }

/* ...and a compare-and-swap loop for the rest (float min and max): read,
 * combine, and publish only if nobody changed the word in between. */
template <typename Op> __device__ void atomic_combine(Op op, float *addr, float v)
{
    int *word = (int *)addr;
    int seen = *(volatile int *)word, assumed;
    do {
        assumed = seen;
        float next = op(__int_as_float(assumed), v);
        if (__float_as_int(next) == assumed)
            return; /* nothing to change */
        seen = atomicCAS(word, assumed, __float_as_int(next));
    } while (seen != assumed);
}

/*
 * Call fn<T, Op>(p) for the problem's element type and operator, so a lab
 * writes its host code once as a template.
 */
#define KIT_DISPATCH(fn, p)                                                              \
    ((p)->dtype == DT_INT32                                                              \
         ? ((p)->op == OP_SUM   ? fn<int, Sum<int> >(p)                                  \
            : (p)->op == OP_MIN ? fn<int, Min<int> >(p)                                  \
                                : fn<int, Max<int> >(p))                                 \
         : ((p)->op == OP_SUM   ? fn<float, Sum<float> >(p)                              \
            : (p)->op == OP_MIN ? fn<float, Min<float> >(p)                              \
                                : fn<float, Max<float> >(p)))

#endif /* OPS_CUH */
