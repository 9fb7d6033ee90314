/*
 * cuemu_device.h - the device side of the emulator's CUDA: the built-in
 * index variables, barriers, warp operations (shuffles, votes, matches,
 * reductions), atomics, fences and the launch machinery that .cu files
 * reach through emu-nvcc's source pass.  Included by cuda_runtime.h only,
 * after the runtime API it builds on; split from it to keep each header
 * readable on its own.
 */
#ifndef CUEMU_DEVICE_H
#define CUEMU_DEVICE_H

/* ---- device built-ins ------------------------------------------------- */
#ifdef __cplusplus
/* The index variables of the CUDA thread running on this OS thread; the
 * block scheduler sets them before each switch to a thread's fiber.  For
 * device code they are const, as in CUDA's device_launch_parameters.h:
 * within one fiber they never change (a fiber keeps its worker, and the
 * scheduler restores them before it resumes), and GCC's ThreadSanitizer
 * pass leaves reads of a const plain struct alone (threadIdx, blockIdx;
 * dim3 has constructors, so blockDim and gridDim are still hooked), where
 * it called the access hook for each read of threadIdx.x (README, "The
 * corpus of 43", Barriers).
 * sched.cpp, which sets them, defines CUEMU_SETS_INDEX_VARIABLES. */
#ifdef CUEMU_SETS_INDEX_VARIABLES
#define CUEMU_INDEX_CONST
#else
#define CUEMU_INDEX_CONST const
#endif
extern __thread CUEMU_INDEX_CONST uint3 threadIdx;
extern __thread CUEMU_INDEX_CONST uint3 blockIdx;
extern __thread CUEMU_INDEX_CONST dim3 blockDim;
extern __thread CUEMU_INDEX_CONST dim3 gridDim;
#undef CUEMU_INDEX_CONST
static const int warpSize = 32;

namespace cuemu {
extern __thread char *dyn_smem_base;
static inline void *dyn_shared() { return dyn_smem_base; }
static inline char *&dyn_shared_ref() { return dyn_smem_base; }

/* Which barrier a thread waits at. */
enum BarrierKind { BAR_PLAIN, BAR_COUNT, BAR_AND, BAR_OR };
/* Which warp operation a lane waits in.  The four shuffles come first:
 * lanes in different shuffles of one warp still exchange (warp_op). */
enum WarpOp {
    WARP_SHFL_IDX, WARP_SHFL_UP, WARP_SHFL_DOWN, WARP_SHFL_XOR, /* shuffles */
    WARP_VOTE,       /* __ballot_sync, __any_sync, __all_sync */
    WARP_MATCH_ANY,  /* __match_any_sync: lanes holding the same value */
    WARP_MATCH_ALL,  /* __match_all_sync: mask if all hold one value (bit 32: pred) */
    WARP_REDUCE,     /* __reduce_*_sync: arg is a ReduceOp */
    WARP_SYNC,       /* __syncwarp */
    WARP_ACTIVEMASK, /* __activemask (active_mask, not warp_op) */
    WARP_OP_KINDS
};
static inline bool is_shuffle(int kind) { return kind <= WARP_SHFL_XOR; }
/* The operation of a WARP_REDUCE (__reduce_*_sync), on 32-bit values. */
enum ReduceOp { RED_ADD, RED_MIN_S, RED_MAX_S, RED_MIN_U, RED_MAX_U, RED_AND, RED_OR, RED_XOR };
/* Scope of a memory fence (src/memory.cpp). */
enum FenceScope { FENCE_BLOCK, FENCE_DEVICE };

/* Block barrier.  Returns the number of threads whose predicate was
 * non-zero. */
int block_sync(BarrierKind kind, int pred, const char *file, int line);
/* Warp exchange: every lane of mask contributes value and receives the
 * value of the lane its (kind, arg, width) names, or the ballot. */
unsigned long long warp_op(WarpOp kind, unsigned mask, unsigned long long value, int arg,
                           int width, const char *file, int line);
/* __threadfence*(): under CUEMU_MEMORY=weak it publishes held-back stores. */
void thread_fence(int scope);
unsigned active_mask(const char *file, int line);
void soft_yield();
[[noreturn]] void trap(const char *what, const char *file, int line);

/* Counted builds (emu-nvcc --count, src/count.cpp).  The source pass wraps
 * each if / while / for condition as branch(cond, site): the runtime
 * records, per device thread, the n-th execution of each site and which
 * way it went (in constant evaluation it is the condition itself).  It
 * registers each static __shared__ array with count_shared as a thread
 * declares it, and turns the counters on with count_enable. */
bool branch_slow(bool c, unsigned long long site, const char *file, int line);
constexpr inline bool branch(bool c, unsigned long long site, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return __builtin_is_constant_evaluated() ? c : branch_slow(c, site, file, line);
}
void count_shared(const volatile void *p, size_t bytes);
bool count_not_counted(const char *what);
bool count_enable();

struct LaunchConfig {
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    bool cooperative = false; /* cudaLaunchCooperativeKernel: grid.sync() allowed */
    LaunchConfig(dim3 g, dim3 b, size_t s = 0, cudaStream_t st = 0)
        : grid(g), block(b), shmem(s), stream(st) {}
};
/* Runs a grid: fn(ctx) once per CUDA thread, in fibers.  Returns
 * cudaSuccess or the launch-configuration error. */
cudaError_t launch_grid(const char *name, const char *file, int line, const LaunchConfig &cfg,
                        void (*fn)(void *), void *ctx);

template <class B> static void call_body(void *p) { (*(B *)p)(); }

/* ---- kernel arguments, as bytes ------------------------------------------
 * nvcc's host stub takes the arguments by value (one copy on the host,
 * destroyed after the launch) and hands their bytes to the device: no
 * device thread runs a copy constructor or a destructor (CUDA by Example's
 * Lock frees its mutex in its destructor).  A parameter of a class with a
 * non-trivial copy or move constructor or destructor is passed, in the
 * Itanium C++ ABI, as the address of a temporary that the caller makes and
 * destroys; so each thread calls the kernel through a pointer whose such
 * parameters are references to its own byte copy, which nobody destroys.
 * Every other parameter is passed as a call passes it. */
template <class T>
constexpr bool by_address_v = std::is_class<T>::value &&
                              !(std::is_trivially_copy_constructible<T>::value &&
                                std::is_trivially_move_constructible<T>::value &&
                                std::is_trivially_destructible<T>::value);
template <class T> using abi_param_t = std::conditional_t<by_address_v<T>, T &, T>;
template <class... P> constexpr bool plain_args_v = !(by_address_v<std::decay_t<P>> || ...);

/* One thread's copy of a parameter passed by address: the bytes of src. */
template <class Q> struct ParamBytes {
    alignas(Q) unsigned char b[sizeof(Q)];
    explicit ParamBytes(const void *src) { std::memcpy(b, src, sizeof(Q)); }
    Q &get() { return *reinterpret_cast<Q *>(b); }
};
/* One thread's copy of any other parameter, converted as a call would. */
template <class Q, class P> struct ParamValue {
    Q v;
    explicit ParamValue(P &p) : v(p) {}
    Q &get() { return v; }
};
template <class Q, class P>
using param_copy_t = std::conditional_t<by_address_v<Q>, ParamBytes<Q>, ParamValue<Q, P>>;
template <class Q, class P> static inline param_copy_t<Q, P> param_copy(P &p)
{
    if constexpr (by_address_v<Q>)
        return ParamBytes<Q>(&p);
    else
        return ParamValue<Q, P>(p);
}

template <class... Q, class... P, size_t... I>
static inline void call_with_copies(void (*fp)(Q...), std::index_sequence<I...>, P &...p)
{
    std::tuple<param_copy_t<Q, P>...> mine{param_copy<Q>(p)...};
    reinterpret_cast<void (*)(abi_param_t<Q>...)>(fp)(std::get<I>(mine).get()...);
}

/* The launch's arguments p (the host's copies) given to the kernel fp as
 * bytes, where every parameter passed by address has the argument's own
 * type; otherwise (default arguments, conversions to such a class) as an
 * ordinary call, which copies and destroys per thread. */
template <class... Q, class... P>
static inline void call_kernel_as_bytes(void (*fp)(Q...), P &...p)
{
    if constexpr (sizeof...(Q) == sizeof...(P) &&
                  ((!by_address_v<Q> || std::is_same<Q, std::decay_t<P>>::value) && ...))
        call_with_copies(fp, std::index_sequence_for<Q...>(), p...);
    else
        fp(p...);
}
/* The kernel as the launch names it: a function (or pointer) whose
 * parameter types can be read off, or else a function template whose
 * arguments the launch deduces: its specialisation for the argument types. */
template <int N> struct Priority : Priority<N - 1> {};
template <> struct Priority<0> {};
template <class... Q, class... P>
static inline void call_kernel(Priority<1>, void (*fp)(Q...), P &...p)
{
    call_kernel_as_bytes(fp, p...);
}
template <class... P>
static inline void call_kernel(Priority<0>, void (*fp)(std::decay_t<P>...), P &...p)
{
    call_kernel_as_bytes(fp, p...);
}

/* k<<<cfg>>>(args) becomes launch_kernel(..., cfg, body, args), where body
 * is [&](auto&... a){ k(a...); } for arguments of trivially copyable
 * types and call_kernel(Priority<1>(), k, a...) for the others (emu-nvcc).
 * The arguments are evaluated once, on the host, into the host's copies
 * (destroyed when the launch returns, as nvcc's stub destroys its); each
 * CUDA thread receives its own copy of the parameters, as on a GPU. */
template <class F, class... A>
void launch_kernel(const char *name, const char *file, int line, const LaunchConfig &cfg,
                   F &&kernel, A &&...args)
{
    std::tuple<std::decay_t<A>...> params(std::forward<A>(args)...);
    auto body = [&]() { std::apply(kernel, params); };
    launch_grid(name, file, line, cfg, &call_body<decltype(body)>, &body);
}

/* cudaLaunchKernel(k, grid, block, args, shmem, stream) and the cooperative
 * form: the source pass passes the kernel itself (its casts to void *
 * removed), so that the parameters can be read from args by their types:
 * each thread copies their bytes, as the GPU's launch does (no copy
 * constructor, no destructor, not even on the host). */
template <class... P, size_t... I>
static inline void call_from_args(void (*kernel)(P...), void **args, std::index_sequence<I...>)
{
    std::tuple<ParamBytes<P>...> mine{ParamBytes<P>(args[I])...};
    reinterpret_cast<void (*)(abi_param_t<P>...)>(kernel)(std::get<I>(mine).get()...);
}
template <class... P>
cudaError_t launch_by_args(bool cooperative, const char *name, const char *file, int line,
                           void (*kernel)(P...), dim3 grid, dim3 block, void **args,
                           size_t shmem = 0, cudaStream_t stream = 0)
{
    auto body = [&]() { call_from_args(kernel, args, std::index_sequence_for<P...>()); };
    LaunchConfig cfg(grid, block, shmem, stream);
    cfg.cooperative = cooperative;
    cudaError_t e = launch_grid(name, file, line, cfg, &call_body<decltype(body)>, &body);
    return e;
}
template <class K, class... R, class = std::enable_if_t<!std::is_function<K>::value>>
cudaError_t launch_by_args(bool, const char *, const char *, int, K *, R...)
{
    static_assert(sizeof(K) == 0, "cuemu: cudaLaunchKernel and cudaLaunchCooperativeKernel need the "
                                  "kernel itself as first argument (e.g. (void *)kernel), not a "
                                  "pointer held in a variable");
    return cudaErrorInvalidDeviceFunction;
}

template <class T> static inline unsigned long long to_bits(T v)
{
    static_assert(sizeof(T) <= 8, "cuemu: shuffles of types wider than 8 bytes");
    unsigned long long b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <class T> static inline T from_bits(unsigned long long b)
{
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}
} // namespace cuemu

/* Barriers and warp operations take the call site as hidden default
 * arguments so that diagnostics can say which barrier a thread waits at. */
static inline void __syncthreads(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    cuemu::block_sync(cuemu::BAR_PLAIN, 0, file, line);
}
static inline int __syncthreads_count(int pred, const char *file = __builtin_FILE(),
                                      int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_COUNT, pred, file, line);
}
static inline int __syncthreads_and(int pred, const char *file = __builtin_FILE(),
                                    int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_AND, pred, file, line);
}
static inline int __syncthreads_or(int pred, const char *file = __builtin_FILE(),
                                   int line = __builtin_LINE())
{
    return cuemu::block_sync(cuemu::BAR_OR, pred, file, line);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu, const char *file = __builtin_FILE(),
                              int line = __builtin_LINE())
{
    cuemu::warp_op(cuemu::WARP_SYNC, mask, 0, 0, 32, file, line);
}
template <class T>
static inline T __shfl_sync(unsigned mask, T var, int src, int width = 32,
                            const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(cuemu::warp_op(cuemu::WARP_SHFL_IDX, mask, cuemu::to_bits(var), src, width, file, line));
}
template <class T>
static inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32,
                               const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_UP, mask, cuemu::to_bits(var), (int)delta, width, file, line));
}
template <class T>
static inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32,
                                 const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_DOWN, mask, cuemu::to_bits(var), (int)delta, width, file, line));
}
template <class T>
static inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32,
                                const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::from_bits<T>(
        cuemu::warp_op(cuemu::WARP_SHFL_XOR, mask, cuemu::to_bits(var), lane_mask, width, file, line));
}
static inline unsigned __ballot_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                                     int line = __builtin_LINE())
{
    return (unsigned)cuemu::warp_op(cuemu::WARP_VOTE, mask, pred != 0, 0, 32, file, line);
}
static inline int __any_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    return cuemu::warp_op(cuemu::WARP_VOTE, mask, pred != 0, 0, 32, file, line) != 0;
}
static inline int __all_sync(unsigned mask, int pred, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    /* all(pred) == !any(!pred) over the participating lanes */
    return cuemu::warp_op(cuemu::WARP_VOTE, mask, pred == 0, 0, 32, file, line) == 0;
}
/* __match_*_sync compare the bits of values of 4 or 8 bytes. */
template <class T>
static inline unsigned __match_any_sync(unsigned mask, T value, const char *file = __builtin_FILE(),
                                        int line = __builtin_LINE())
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_any_sync takes a 32- or 64-bit value");
    return (unsigned)cuemu::warp_op(cuemu::WARP_MATCH_ANY, mask, cuemu::to_bits(value), 0, 32, file, line);
}
template <class T>
static inline unsigned __match_all_sync(unsigned mask, T value, int *pred, const char *file = __builtin_FILE(),
                                        int line = __builtin_LINE())
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "__match_all_sync takes a 32- or 64-bit value");
    unsigned long long r = cuemu::warp_op(cuemu::WARP_MATCH_ALL, mask, cuemu::to_bits(value), 0, 32, file, line);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
/* __reduce_*_sync (sm_80): every lane of the mask receives the result. */
#define CUEMU_WARP_REDUCE(name, T, op)                                                     \
    static inline T name(unsigned mask, T value, const char *file = __builtin_FILE(),       \
                         int line = __builtin_LINE())                                       \
    {                                                                                      \
        return (T)(unsigned)cuemu::warp_op(cuemu::WARP_REDUCE, mask, (unsigned)value, cuemu::op, 32, file, line); \
    }
CUEMU_WARP_REDUCE(__reduce_add_sync, unsigned, RED_ADD)
CUEMU_WARP_REDUCE(__reduce_add_sync, int, RED_ADD)
CUEMU_WARP_REDUCE(__reduce_min_sync, unsigned, RED_MIN_U)
CUEMU_WARP_REDUCE(__reduce_min_sync, int, RED_MIN_S)
CUEMU_WARP_REDUCE(__reduce_max_sync, unsigned, RED_MAX_U)
CUEMU_WARP_REDUCE(__reduce_max_sync, int, RED_MAX_S)
CUEMU_WARP_REDUCE(__reduce_and_sync, unsigned, RED_AND)
CUEMU_WARP_REDUCE(__reduce_or_sync, unsigned, RED_OR)
CUEMU_WARP_REDUCE(__reduce_xor_sync, unsigned, RED_XOR)
static inline unsigned __activemask(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    return cuemu::active_mask(file, line);
}

/* Memory fences: blocks on different OS threads really run concurrently;
 * under CUEMU_MEMORY=weak a device or system fence also publishes the
 * stores the block's worker holds back, a block fence does not. */
static inline void __threadfence() { cuemu::thread_fence(cuemu::FENCE_DEVICE); }
static inline void __threadfence_block() { cuemu::thread_fence(cuemu::FENCE_BLOCK); }
static inline void __threadfence_system() { cuemu::thread_fence(cuemu::FENCE_DEVICE); }
/* A sleeping thread lets the other threads of its block run (see README). */
static inline void __nanosleep(unsigned ns) { (void)ns; cuemu::soft_yield(); }
static inline long long clock64()
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (long long)(((unsigned long long)hi << 32) | lo);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
#endif
}
static inline void __trap(const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    cuemu::trap("__trap()", file, line);
}
static inline void __brkpt() {}

template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *(const volatile T *)p; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

/* ---- integer, bit and float intrinsics, min/max, the CUDA Math API ---- */
#include "cuemu_math.h"

/* ---- atomics -----------------------------------------------------------
 * Blocks run concurrently on OS threads, so these are real CPU atomics.
 * They are relaxed, as CUDA's are: on x86-64 the instruction is the same,
 * but under CUEMU_MEMORY=weak a relaxed atomic does not publish the
 * block's earlier stores (only a fence does; src/memory.cpp). */
#define CUEMU_ATOMIC_INT(T)                                                                \
    static inline T atomicAdd(T *a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicSub(T *a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicExch(T *a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicAnd(T *a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicOr(T *a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }  \
    static inline T atomicXor(T *a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); } \
    static inline T atomicCAS(T *a, T cmp, T v)                                            \
    {                                                                                      \
        __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);  \
        return cmp;                                                                        \
    }                                                                                      \
    static inline T atomicMin(T *a, T v)                                                   \
    {                                                                                      \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                      \
        while (v < old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED,   \
                                                       __ATOMIC_RELAXED)) {}               \
        return old;                                                                        \
    }                                                                                      \
    static inline T atomicMax(T *a, T v)                                                   \
    {                                                                                      \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                      \
        while (v > old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED,   \
                                                       __ATOMIC_RELAXED)) {}               \
        return old;                                                                        \
    }
CUEMU_ATOMIC_INT(int)
CUEMU_ATOMIC_INT(unsigned int)
CUEMU_ATOMIC_INT(unsigned long long)
CUEMU_ATOMIC_INT(long long)

/* Floating-point atomics: a compare-and-swap loop on the bit pattern. */
#define CUEMU_ATOMIC_FP(T, I)                                                              \
    template <class F> static inline T cuemu_atomic_fp_##T(T *a, F f)                      \
    {                                                                                      \
        I *w = (I *)a;                                                                     \
        I old = __atomic_load_n(w, __ATOMIC_RELAXED), next;                                \
        do {                                                                               \
            T o, n;                                                                        \
            memcpy(&o, &old, sizeof o);                                                    \
            n = f(o);                                                                      \
            memcpy(&next, &n, sizeof n);                                                   \
        } while (!__atomic_compare_exchange_n(w, &old, next, true, __ATOMIC_RELAXED,         \
                                              __ATOMIC_RELAXED));                          \
        T r;                                                                               \
        memcpy(&r, &old, sizeof r);                                                        \
        return r;                                                                          \
    }                                                                                      \
    static inline T atomicAdd(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return o + v; }); } \
    static inline T atomicSub(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return o - v; }); } \
    static inline T atomicMin(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return v < o ? v : o; }); } \
    static inline T atomicMax(T *a, T v) { return cuemu_atomic_fp_##T(a, [v](T o) { return v > o ? v : o; }); } \
    static inline T atomicExch(T *a, T v)                                                  \
    {                                                                                      \
        I b, r;                                                                            \
        memcpy(&b, &v, sizeof b);                                                          \
        r = __atomic_exchange_n((I *)a, b, __ATOMIC_RELAXED);                              \
        T o;                                                                               \
        memcpy(&o, &r, sizeof o);                                                          \
        return o;                                                                          \
    }
CUEMU_ATOMIC_FP(float, unsigned int)
CUEMU_ATOMIC_FP(double, unsigned long long)

static inline unsigned atomicInc(unsigned *a, unsigned limit)
{
    unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, old >= limit ? 0u : old + 1u, true,
                                        __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline unsigned atomicDec(unsigned *a, unsigned limit)
{
    unsigned old = __atomic_load_n(a, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(a, &old, (old == 0 || old > limit) ? limit : old - 1u,
                                        true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline unsigned short atomicCAS(unsigned short *a, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(a, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return cmp;
}
/* Scoped variants: every scope is the whole machine here. */
#define CUEMU_SCOPED(name)                                                                 \
    template <class... A> static inline auto name##_block(A... a) { return name(a...); }   \
    template <class... A> static inline auto name##_system(A... a) { return name(a...); }
CUEMU_SCOPED(atomicAdd)
CUEMU_SCOPED(atomicSub)
CUEMU_SCOPED(atomicExch)
CUEMU_SCOPED(atomicMin)
CUEMU_SCOPED(atomicMax)
CUEMU_SCOPED(atomicCAS)
CUEMU_SCOPED(atomicAnd)
CUEMU_SCOPED(atomicOr)
CUEMU_SCOPED(atomicXor)
CUEMU_SCOPED(atomicInc)
CUEMU_SCOPED(atomicDec)
#endif /* __cplusplus */

#endif /* CUEMU_DEVICE_H */
