/*
 * copy_count.cu - the counting side of copy_count.h, linked only into a
 * graded GPU binary.  The submission's objects have their references to
 * the copy and fill calls renamed to kit_counted_* (copy_count.syms, used
 * by the Makefile's bin target with objcopy --redefine-syms), so only the
 * lab's own calls come here; the harness's and cudart's own calls are
 * untouched.  (A -Wl,--wrap link would do the same for the harness too, and
 * would give the lab __real_cudaMemcpy, an uncounted way round: a renamed
 * reference has no such second name.)  Copies whose ends cannot be
 * checked cheaply (3D, arrays, batches) are refused: a lab needs none.
 */
#include <pthread.h>
#include <cuda_runtime.h>

#include "copy_count.h"

static const char *in_lo, *in_hi, *out_lo, *out_hi; /* the watched regions */
static pthread_t watcher;
static volatile int watching, in_run;
static long long to_out, fills, from_in; /* this call of run() */

extern "C" void copy_count_watch(const void *in, size_t in_bytes, const void *out,
                                 size_t out_bytes)
{
    in_lo = (const char *)in, in_hi = in_lo + in_bytes;
    out_lo = (const char *)out, out_hi = out_lo + out_bytes;
    watcher = pthread_self();
    watching = in != NULL;
}

extern "C" void copy_count_begin(void)
{
    to_out = fills = from_in = 0;
    in_run = 1;
}

extern "C" int copy_count_end(copy_counts *most)
{
    in_run = 0;
    most->to_out = to_out > most->to_out ? to_out : most->to_out;
    most->fills = fills > most->fills ? fills : most->fills;
    most->from_in = from_in > most->from_in ? from_in : most->from_in;
    return 0;
}

/* Counted: inside run(), or on a thread of the lab's while a case runs
 * (one that races the harness after run() returned). */
static int counting(void)
{
    return watching && (in_run || !pthread_equal(pthread_self(), watcher));
}

/* Bytes of [p, p + len) inside [lo, hi). */
static long long overlap(const void *p, size_t len, const char *lo, const char *hi)
{
    const char *a = (const char *)p, *b = a + len;
    a = a > lo ? a : lo;
    b = b < hi ? b : hi;
    return b > a ? (long long)(b - a) : 0;
}

/* Memory the host can write or read: not device memory alone.  The kind
 * argument is not trusted; the pointer's own attributes are. */
static int host_side(const void *p)
{
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError(); /* (an unknown pointer: plain host memory) */
        return 1;
    }
    return a.type != cudaMemoryTypeDevice;
}

/* A copy of `span` bytes from src (at most `len` of them data) to dst. */
static void count_copy(void *dst, const void *src, size_t span, size_t len)
{
    if (!counting())
        return;
    long long o = overlap(dst, span, out_lo, out_hi), i = overlap(src, span, in_lo, in_hi);
    if (o > 0 && host_side(src))
        __atomic_fetch_add(&to_out, o < (long long)len ? o : (long long)len, __ATOMIC_RELAXED);
    if (i > 0 && host_side(dst))
        __atomic_fetch_add(&from_in, i < (long long)len ? i : (long long)len, __ATOMIC_RELAXED);
}

static void count_fill(void *dst, size_t span)
{
    if (counting() && overlap(dst, span, out_lo, out_hi) > 0)
        __atomic_fetch_add(&fills, 1, __ATOMIC_RELAXED);
}

/* The extent of a pitched region: its first byte to its last. */
static size_t pitched(size_t pitch, size_t width, size_t height)
{
    return height ? pitch * (height - 1) + width : 0;
}

#define COPY(name, real)                                                                       \
    extern "C" cudaError_t real(void *, const void *, size_t, cudaMemcpyKind);        \
    extern "C" cudaError_t kit_counted_##name(void *d, const void *s, size_t n,                \
                                              cudaMemcpyKind k)                                \
    { count_copy(d, s, n, n); return real(d, s, n, k); }
#define COPY_ASYNC(name, real)                                                                 \
    extern "C" cudaError_t real(void *, const void *, size_t, cudaMemcpyKind, cudaStream_t); \
    extern "C" cudaError_t kit_counted_##name(void *d, const void *s, size_t n,                \
                                              cudaMemcpyKind k, cudaStream_t st)               \
    { count_copy(d, s, n, n); return real(d, s, n, k, st); }
#define COPY_2D(name, real)                                                                    \
    extern "C" cudaError_t real(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind); \
    extern "C" cudaError_t kit_counted_##name(void *d, size_t dp, const void *s, size_t sp,    \
                                              size_t w, size_t h, cudaMemcpyKind k)            \
    { count_copy(d, s, pitched(dp > sp ? dp : sp, w, h), w * h);                               \
      return real(d, dp, s, sp, w, h, k); }
#define COPY_2D_ASYNC(name, real)                                                              \
    extern "C" cudaError_t real(void *, size_t, const void *, size_t, size_t, size_t, cudaMemcpyKind, cudaStream_t); \
    extern "C" cudaError_t kit_counted_##name(void *d, size_t dp, const void *s, size_t sp,    \
                                              size_t w, size_t h, cudaMemcpyKind k,            \
                                              cudaStream_t st)                                 \
    { count_copy(d, s, pitched(dp > sp ? dp : sp, w, h), w * h);                               \
      return real(d, dp, s, sp, w, h, k, st); }
#define FILL(name, real)                                                                       \
    extern "C" cudaError_t real(void *, int, size_t);                                 \
    extern "C" cudaError_t kit_counted_##name(void *d, int v, size_t n)                        \
    { count_fill(d, n); return real(d, v, n); }
#define FILL_ASYNC(name, real)                                                                 \
    extern "C" cudaError_t real(void *, int, size_t, cudaStream_t);                   \
    extern "C" cudaError_t kit_counted_##name(void *d, int v, size_t n, cudaStream_t st)       \
    { count_fill(d, n); return real(d, v, n, st); }
#define FILL_2D(name, real)                                                                    \
    extern "C" cudaError_t real(void *, size_t, int, size_t, size_t);                 \
    extern "C" cudaError_t kit_counted_##name(void *d, size_t p, int v, size_t w, size_t h)    \
    { count_fill(d, pitched(p, w, h)); return real(d, p, v, w, h); }
#define FILL_2D_ASYNC(name, real)                                                              \
    extern "C" cudaError_t real(void *, size_t, int, size_t, size_t, cudaStream_t);   \
    extern "C" cudaError_t kit_counted_##name(void *d, size_t p, int v, size_t w, size_t h,    \
                                              cudaStream_t st)                                 \
    { count_fill(d, pitched(p, w, h)); return real(d, p, v, w, h, st); }
/* Refused: the arguments are not read (extern "C": the caller's are ignored). */
#define REFUSED(name)                                                                          \
    extern "C" cudaError_t kit_counted_##name(void) { return cudaErrorNotSupported; }

/* The _ptds / _ptsz names are what a lab that defines
 * CUDA_API_PER_THREAD_DEFAULT_STREAM calls: counted the same way. */
COPY(cudaMemcpy, cudaMemcpy)
COPY(cudaMemcpy_ptds, cudaMemcpy_ptds)
COPY_ASYNC(cudaMemcpyAsync, cudaMemcpyAsync)
COPY_ASYNC(cudaMemcpyAsync_ptsz, cudaMemcpyAsync_ptsz)
COPY_2D(cudaMemcpy2D, cudaMemcpy2D)
COPY_2D(cudaMemcpy2D_ptds, cudaMemcpy2D_ptds)
COPY_2D_ASYNC(cudaMemcpy2DAsync, cudaMemcpy2DAsync)
COPY_2D_ASYNC(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync_ptsz)
FILL(cudaMemset, cudaMemset)
FILL(cudaMemset_ptds, cudaMemset_ptds)
FILL_ASYNC(cudaMemsetAsync, cudaMemsetAsync)
FILL_ASYNC(cudaMemsetAsync_ptsz, cudaMemsetAsync_ptsz)
FILL_2D(cudaMemset2D, cudaMemset2D)
FILL_2D(cudaMemset2D_ptds, cudaMemset2D_ptds)
FILL_2D_ASYNC(cudaMemset2DAsync, cudaMemset2DAsync)
FILL_2D_ASYNC(cudaMemset2DAsync_ptsz, cudaMemset2DAsync_ptsz)
REFUSED(cudaMemcpy3D)
REFUSED(cudaMemcpy3D_ptds)
REFUSED(cudaMemcpy3DAsync)
REFUSED(cudaMemcpy3DAsync_ptsz)
REFUSED(cudaMemcpy3DPeer)
REFUSED(cudaMemcpy3DPeer_ptds)
REFUSED(cudaMemcpy3DPeerAsync)
REFUSED(cudaMemcpy3DPeerAsync_ptsz)
REFUSED(cudaMemcpyBatchAsync)
REFUSED(cudaMemcpyBatchAsync_ptsz)
REFUSED(cudaMemcpy3DBatchAsync)
REFUSED(cudaMemcpy3DBatchAsync_ptsz)
REFUSED(cudaMemcpyToArray)
REFUSED(cudaMemcpyToArray_ptds)
REFUSED(cudaMemcpyToArrayAsync)
REFUSED(cudaMemcpyToArrayAsync_ptsz)
REFUSED(cudaMemcpyFromArray)
REFUSED(cudaMemcpyFromArray_ptds)
REFUSED(cudaMemcpyFromArrayAsync)
REFUSED(cudaMemcpyFromArrayAsync_ptsz)
REFUSED(cudaMemcpy2DToArray)
REFUSED(cudaMemcpy2DToArray_ptds)
REFUSED(cudaMemcpy2DToArrayAsync)
REFUSED(cudaMemcpy2DToArrayAsync_ptsz)
REFUSED(cudaMemcpy2DFromArray)
REFUSED(cudaMemcpy2DFromArray_ptds)
REFUSED(cudaMemcpy2DFromArrayAsync)
REFUSED(cudaMemcpy2DFromArrayAsync_ptsz)
REFUSED(cudaMemset3D)
REFUSED(cudaMemset3D_ptds)
REFUSED(cudaMemset3DAsync)
REFUSED(cudaMemset3DAsync_ptsz)
