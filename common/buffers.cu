/*
 * buffers.cu - a case's buffers on the device and their way back: the input
 * (made on the GPU from the seed, or copied from the host on the emulator;
 * encoded for a decode), the output poisoned, each fenced by a guard band
 * (buffers.h says why), and the copies that bring an output home.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "check.h"
#include "cuda_check.h"
#include "host_par.h"
#include "perturb.h"
#include "prng.h"
#include "reference.h"

/*
 * --exact: every buffer at its exact size, with no guard band and no
 * poison.  For compute-sanitizer runs: a read or write past n then leaves
 * the allocation, and memcheck names it, where a guard band would have
 * absorbed it; an output nobody wrote stays uninitialised, and initcheck
 * names a read of it.  The raw output file keeps its layout (the band is
 * filled in on the host), so the grader reads it as always.
 */
static int exact_buffers;

void buffers_exact(int on) { exact_buffers = on; }
int buffers_are_exact(void) { return exact_buffers; }
size_t device_guard(void) { return exact_buffers ? 0 : GUARD_ELEMS; }

void *host_alloc(size_t bytes)
{
    void *host = malloc(bytes ? bytes : 1);
    if (!host) {
        fprintf(stderr, "out of host memory (%zu bytes): the host failed, not the GPU\n", bytes);
        exit(EXIT_HOST_ERROR);
    }
    return host;
}

uint32_t *host_words(size_t words) { return (uint32_t *)host_alloc(words * 4); }

typedef struct {
    uint32_t *words;
    uint32_t w;
} fill_job;

static void fill_part(size_t from, size_t to, int slice, void *ctx)
{
    (void)slice;
    const fill_job *j = (const fill_job *)ctx;
    fill_words(j->words + from, to - from, j->w);
}

/* A fresh host buffer of `words` words, each w, filled a slice per core
 * (host_par.h), so that the first touch of its pages is shared out too: a
 * witnessed case's 2^26-word output took 0.23 s to come back into an
 * untouched buffer (H200), a tenth of what the link carries. */
static uint32_t *host_filled(size_t words, uint32_t w)
{
    fill_job j = {host_words(words), w};
    host_parallel(words, fill_part, &j);
    return j.words;
}

/* Allocate n + the guard band words on the device: `fill` (or `content`)
 * over the first n words (nothing with --exact and no content),
 * GUARD_WORD over the band.  Made on the host and copied over: the
 * emulator's way, and a witness run's on a GPU (no kernel of the
 * harness's own may run there: harness.cu's measure() says why). */
static void *device_fenced(size_t n, const void *content, uint32_t fill)
{
    size_t words = n + device_guard();
    void *dev;
#ifdef __CUEMU__
    /* The emulator's device memory is the host's: the whole buffer is made
     * on the host first, so that a host short of memory fails as the host
     * (EXIT_HOST_ERROR, tests/host-memory.sh), not as a CUDA error. */
    uint32_t *staged = host_words(words);
    if (content)
        memcpy(staged, content, n * 4);
    else
        fill_words(staged, n, fill);
    fill_words(staged + n, device_guard(), GUARD_WORD);
    CUDA_CHECK(cudaMalloc(&dev, words * 4));
    if (content || !exact_buffers)
        CUDA_CHECK(cudaMemcpy(dev, staged, words * 4, cudaMemcpyHostToDevice));
    free(staged);
#else
    CUDA_CHECK(cudaMalloc(&dev, words * 4));
    if (content) { /* copied from where it is: no second host copy of n words */
        CUDA_CHECK(cudaMemcpy(dev, content, n * 4, cudaMemcpyHostToDevice));
    } else if (!exact_buffers) {
        uint32_t *host = host_filled(n, fill);
        CUDA_CHECK(cudaMemcpy(dev, host, n * 4, cudaMemcpyHostToDevice));
        free(host);
    }
    if (device_guard()) {
        uint32_t band[GUARD_ELEMS];
        fill_words(band, GUARD_ELEMS, GUARD_WORD);
        CUDA_CHECK(cudaMemcpy((uint32_t *)dev + n, band, sizeof band, cudaMemcpyHostToDevice));
    }
#endif
    return dev;
}

#ifndef __CUEMU__
/* ---- input and fences made on the GPU ------------------------------------
 * A graded run at 2^28 elements spent seconds generating its input on the
 * host and copying it over, and as long filling the poisoned output.  On
 * the GPU the same words take milliseconds.  The generator is prng.c's,
 * term for term (integer hashing; the float conversions are exact), so the
 * grader regenerates the identical input on the host. */
__device__ static uint64_t dev_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

__global__ static void gen_input_kernel(uint32_t *out, size_t n, int dtype, int dist, uint64_t seed)
{
    uint64_t *out64 = (uint64_t *)out; /* int64: all 64 bits of r when wide */
    const uint64_t golden = 0x9e3779b97f4a7c15ULL, base = dev_mix64(seed + golden);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        uint64_t r = dev_mix64(base + i * golden);
        float f;
        int32_t v;
        if (dist == DIST_ONES) {
            v = 1;
            f = 1.0f;
        } else if (dist == DIST_SMALL) {
            v = (int32_t)(-8 + (int64_t)(((r >> 32) * 17) >> 32));
            f = (float)v;
        } else {
            v = (int32_t)(uint32_t)(r >> 32);
            f = (float)((double)(r >> 40) * 0x1p-24 * 1.25 - 0.25);
        }
        if (dtype == DT_INT64)
            out64[i] = dist == DIST_WIDE ? r : (uint64_t)(int64_t)v;
        else
            out[i] = dtype == DT_INT32 ? (uint32_t)v : __float_as_uint(f);
    }
}

__global__ static void fill_kernel(uint32_t *out, size_t n, uint32_t word)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        out[i] = word;
}

/* n + the guard band words on the device: the input of o (n / words per
 * element of its elements) or `fill` over the first n (nothing with
 * --exact), GUARD_WORD over the band. */
static void *device_made(size_t n, const cli_opts *o, uint32_t fill)
{
    uint32_t *dev;
    CUDA_CHECK(cudaMalloc(&dev, (n + device_guard()) * 4));
    if (n && o)
        gen_input_kernel<<<1024, 256>>>(dev, n / (dtype_size(o->dtype) / 4), o->dtype, o->dist,
                                        o->seed);
    else if (n && !exact_buffers)
        fill_kernel<<<1024, 256>>>(dev, n, fill);
    if (device_guard())
        fill_kernel<<<1, 256>>>(dev + n, device_guard(), GUARD_WORD);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    return dev;
}
#endif

/* ---- a delta code's encoder (kinds.h: INPUT_DELTA_CODE) ----------------------------
 * Order-k delta encoding with stride d in one embarrassingly parallel pass:
 * k differences in turn are e[i] = sum_j (-1)^j C(k, j) x[i - j d] (terms
 * before the array are 0), computed in the unsigned type of the element's
 * width so that it wraps.  reference.c encodes the other way (k passes), so
 * the two check each other. */
template <typename U>
__global__ static void encode_kernel(const U *x, U *e, size_t n, int order, int tuple)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        U acc = 0, binom = 1; /* C(order, j) */
        for (int j = 0; j <= order && (size_t)j * tuple <= i; j++) {
            U term = binom * x[i - (size_t)j * tuple];
            acc = (j & 1) ? acc - term : acc + term;
            binom = binom * (U)(order - j) / (U)(j + 1); /* exact: C(k, j+1) */
        }
        e[i] = acc;
    }
}

/* Replace the device input x (n elements) by its encoding: the input a
 * decode variant is given.  The buffer of x is freed. */
static void *encode_on_device(void *x, const cli_opts *o, const kind_params *k, size_t words)
{
    void *e;
#ifdef __CUEMU__
    e = device_fenced(words, NULL, 0);
#else
    e = device_made(words, NULL, 0);
#endif
    if (o->n && o->dtype == DT_INT64)
        encode_kernel<uint64_t><<<1024, 256>>>((const uint64_t *)x, (uint64_t *)e, o->n, k->order,
                                               k->tuple);
    else if (o->n)
        encode_kernel<uint32_t><<<1024, 256>>>((const uint32_t *)x, (uint32_t *)e, o->n, k->order,
                                               k->tuple);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaFree(x));
    return e;
}

void buffers_make(const cli_opts *o, kind_t kind, const kind_params *k, size_t out_words,
                  const void *in_host, void **in_dev, void **out_dev)
{
    const int encoded_input = kind_get(kind)->input == INPUT_DELTA_CODE;
    size_t in_words = o->n * (dtype_size(o->dtype) / 4);
#ifdef __CUEMU__
    const int from_host = 1;
#else
    const int from_host = o->witness;
#endif
    if (!from_host) {
#ifndef __CUEMU__
        void *in = device_made(in_words, o, 0);
        *out_dev = device_made(out_words, NULL, POISON_WORD);
        *in_dev = encoded_input ? encode_on_device(in, o, k, in_words) : in;
#endif
        return;
    }
    void *encoded = NULL;
    if (encoded_input && o->witness) { /* encoded here (on every core: reference.c), no encode_kernel */
        encoded = host_words(in_words + 1);
        memcpy(encoded, in_host, in_words * 4);
        kind_encode(kind, encoded, o->n, o->dtype, k);
    }
    void *in = device_fenced(in_words, encoded ? encoded : in_host, 0);
    free(encoded);
    *out_dev = device_fenced(out_words, NULL, POISON_WORD);
    *in_dev = encoded_input && !o->witness ? encode_on_device(in, o, k, in_words) : in;
}

/* A device buffer of n elements and its guard band, on the host: always
 * n + GUARD_ELEMS words; with --exact the band is not on the device and is
 * filled in here. */
void *copy_back(const void *dev, size_t n)
{
    uint32_t *host = host_filled(n + GUARD_ELEMS, 0); /* pages touched before the copy */
    CUDA_CHECK(cudaMemcpy(host, dev, (n + device_guard()) * 4, cudaMemcpyDeviceToHost));
    if (!device_guard())
        fill_words(host + n, GUARD_ELEMS, GUARD_WORD);
    return host;
}

__global__ static void differ_kernel(const uint32_t *a, const uint32_t *b, size_t words,
                                     unsigned *differs)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < words;
         i += (size_t)gridDim.x * blockDim.x)
        if (a[i] != b[i]) {
            *differs = 1;
            return;
        }
}

/* Do two device buffers of `words` words hold the same words?  Compared
 * where they are: a graded case at 2^26 elements spent 0.2 s of its 0.9 s
 * copying a second, identical output back to the host (H200, KIT_TRACE). */
int device_same(const void *a, const void *b, size_t words)
{
    unsigned *flag, differs = 0;
    CUDA_CHECK(cudaMalloc(&flag, sizeof *flag));
    CUDA_CHECK(cudaMemset(flag, 0, sizeof *flag));
    if (words)
        differ_kernel<<<1024, 256>>>((const uint32_t *)a, (const uint32_t *)b, words, flag);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&differs, flag, sizeof differs, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(flag));
    return differs == 0;
}

/*
 * The output of one launch, as copy_back gives it.  With --exact, a
 * compaction's out[count..n) is rightly never written, and copying it
 * makes compute-sanitizer's initcheck report the copy (cudaMemcpy reading
 * uninitialized memory: every correct compaction lost points under
 * --sanitize on an H100).  So there only the count and the kept elements
 * come back, the rest reads as the poison of a run without --exact.
 */
void *copy_back_output(kind_t kind, const void *out, size_t n, dtype_t dtype, size_t words)
{
    if (!exact_buffers || kind_get(kind)->layout != LAYOUT_COUNTED)
        return copy_back(out, words);
    const size_t es = dtype_size(dtype);
    uint32_t *host = host_words(words + GUARD_ELEMS);
    fill_words(host, words, POISON_WORD);
    fill_words(host + words, GUARD_ELEMS, GUARD_WORD);
    unsigned long long count = 0; /* little-endian: an int32 count fills the low half */
    const char *dev = (const char *)out;
    CUDA_CHECK(cudaMemcpy(&count, dev + n * es, es, cudaMemcpyDeviceToHost));
    const size_t kept = count < n ? (size_t)count : n;
    if (kept)
        CUDA_CHECK(cudaMemcpy(host, dev, kept * es, cudaMemcpyDeviceToHost));
    memcpy((char *)host + n * es, &count, es);
    return host;
}

/* Is the device input (copied back to `after`, guard band included) what
 * the kernel was given: the data, or for a decode the data encoded? */
int input_unchanged(kind_t kind, const kind_params *k, const cli_opts *o, const void *data,
                    const void *after, size_t words)
{
    const void *given = data;
    void *encoded = NULL;
    if (kind_get(kind)->input != INPUT_DATA) {
        encoded = host_words(words + 1);
        memcpy(encoded, data, words * 4);
        kind_encode(kind, encoded, o->n, o->dtype, k);
        given = encoded;
    }
    int same = memcmp(after, given, words * 4) == 0 &&
               first_changed_word((const uint32_t *)after + words, GUARD_ELEMS, GUARD_WORD) < 0;
    free(encoded);
    return same;
}

/* What the previous call's changes replaced, to be put back first. */
static struct {
    const void *in;
    int count;
    char *at[PERTURB_ELEMS];
    unsigned char old[PERTURB_ELEMS][8];
} undo;

/* The changes of timed call `call` of `calls` (perturb.h) written into the
 * device input: the previous call's undone (in reverse, so that two
 * changes of one element come back right), then this call's set, one
 * small copy each.  No kernel of the harness's own (a witness run's
 * kernels must all be the lab's), and the lab's work of the call before is
 * finished first (a lab on a stream of its own included). */
void buffers_perturb(void *in_dev, const cli_opts *o, int keep, int call, int calls)
{
    size_t es = dtype_size(o->dtype);
    perturb_input p = {o->n, o->dtype, o->dist, o->seed, keep};
    if (o->n == 0)
        return;
    CUDA_CHECK(cudaDeviceSynchronize());
    if (call == 1 || undo.in != in_dev)
        undo.count = 0;
    for (int k = undo.count - 1; k >= 0; k--)
        CUDA_CHECK(cudaMemcpy(undo.at[k], undo.old[k], es, cudaMemcpyHostToDevice));
    undo.in = in_dev;
    undo.count = 0;
    int set = perturb_set(call, calls);
    for (int j = 0; j < PERTURB_ELEMS; j++) {
        unsigned char value[8], current[8] = {0};
        char *at = (char *)in_dev + perturb_where(&p, set, j) * es;
        CUDA_CHECK(cudaMemcpy(current, at, es, cudaMemcpyDeviceToHost));
        if (perturb_value(&p, set, j, current, value)) {
            undo.at[undo.count] = at;
            memcpy(undo.old[undo.count++], current, es);
            CUDA_CHECK(cudaMemcpy(at, value, es, cudaMemcpyHostToDevice));
        }
    }
}
