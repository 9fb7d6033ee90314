/*
 * watch.cpp - who last wrote each byte of one watched range: a kernel, or
 * host code.  A lab's output must be stored by its kernels; on the emulator
 * device memory is host memory, so host code could compute the answer and
 * put it there (a cudaMemcpy or cudaMemset into it, or a plain store
 * through the device pointer), and the output alone would not tell.  The
 * grading harness arms the watch on the output before calling the lab's
 * run() and asks afterwards (include/cuemu_watch.h).
 *
 * How each byte's last writer is known:
 *   - every store and writing atomic of device or host code compiled by
 *     emu-nvcc calls an access hook (memory.cpp); a worker's (a CUDA
 *     thread's) marks the byte stored by this launch, the host thread's
 *     marks it host-written;
 *   - cudaMemcpy*, cudaMemset* into the range mark it host-written;
 *   - what no hook sees (libc's memcpy, code not built by emu-nvcc, a
 *     thread of the lab's own) shows as content: a shadow copy holds the
 *     range as last seen, and bytes that differ from it are host-written
 *     when found between launches (at a launch's start and at the query),
 *     kernel-written when found at a launch's end (the kernel's own
 *     uninstrumented copies; a host thread racing a kernel is out of
 *     scope: README.md, "Output watch").
 * Arming gives a serial number and the query names it, so that lab code
 * re-arming the watch (to clear what it wrote) is seen.
 */
#include "fiber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

namespace cuemu {

uintptr_t g_watch_lo;
size_t g_watch_len;

namespace {

/* A byte's last writer. */
enum : unsigned char { W_NONE, W_KERNEL, W_HOST, W_THIS_LAUNCH };

unsigned char *g_state;  /* one per byte of the range */
unsigned char *g_shadow; /* the range as last seen by the watch */
int g_serial;

void mark(unsigned char *s, size_t len, unsigned char who)
{
    for (size_t i = 0; i < len; i++)
        __atomic_store_n(&s[i], who, __ATOMIC_RELAXED);
}

/* Bytes that changed unseen since the shadow was taken become `who`'s;
 * the shadow catches up. */
void reconcile(unsigned char who)
{
    const unsigned char *now = (const unsigned char *)g_watch_lo;
    for (size_t i = 0; i < g_watch_len; i++)
        if (now[i] != g_shadow[i]) {
            if (g_state[i] != W_HOST || who != W_KERNEL)
                g_state[i] = who;
            g_shadow[i] = now[i];
        }
}

} // namespace

/* [a, a + size) was stored to by the running thread: the range's part of
 * it is this launch's (a worker) or the host's. */
void watch_store(uintptr_t a, size_t size)
{
    uintptr_t lo = a > g_watch_lo ? a : g_watch_lo;
    uintptr_t hi = a + size < g_watch_lo + g_watch_len ? a + size : g_watch_lo + g_watch_len;
    if (lo < hi)
        mark(g_state + (lo - g_watch_lo), hi - lo,
             detail::tl_worker ? W_THIS_LAUNCH : W_HOST);
}

/* A runtime copy or fill into [dst, dst + n): the host's.  Returns
 * cudaSuccess, so that the copy's last line can be `return` of this. */
cudaError_t watch_host_copy(const void *dst, size_t n)
{
    if (!g_watch_len || !n || !watched((uintptr_t)dst, n))
        return cudaSuccess;
    watch_store((uintptr_t)dst, n); /* on the host thread: W_HOST */
    uintptr_t lo = (uintptr_t)dst > g_watch_lo ? (uintptr_t)dst : g_watch_lo;
    uintptr_t hi = (uintptr_t)dst + n < g_watch_lo + g_watch_len ? (uintptr_t)dst + n
                                                                 : g_watch_lo + g_watch_len;
    memcpy(g_shadow + (lo - g_watch_lo), (const void *)lo, hi - lo);
    return cudaSuccess;
}

/* A launch starts: what changed since the last one, the host changed. */
void watch_launch_begin()
{
    if (g_watch_len)
        reconcile(W_HOST);
}

/* A launch ended: its stores are the kernel's, and so are changes no hook
 * saw while it ran (a kernel's own memcpy), unless host code stored there. */
void watch_launch_end()
{
    if (!g_watch_len)
        return;
    for (size_t i = 0; i < g_watch_len; i++)
        if (g_state[i] == W_THIS_LAUNCH)
            g_state[i] = W_KERNEL;
    reconcile(W_KERNEL);
}

} // namespace cuemu

using namespace cuemu;

extern "C" int cuemuWatchOutput(void *p, size_t bytes)
{
    free(g_state);
    free(g_shadow);
    g_state = g_shadow = nullptr;
    g_watch_len = 0;
    if (!p || !bytes) /* the watch ends: its range may be freed now */
        return ++g_serial;
    g_state = (unsigned char *)calloc(bytes ? bytes : 1, 1);
    g_shadow = (unsigned char *)malloc(bytes ? bytes : 1);
    if (!g_state || !g_shadow) {
        fprintf(stderr, "cuemu: out of host memory for the output watch (%zu bytes)\n", bytes);
        exit(EXIT_HOST_ERROR);
    }
    memcpy(g_shadow, p, bytes);
    g_watch_lo = (uintptr_t)p;
    g_watch_len = bytes;
    g_mem_hooks = true; /* every access hook now tests the range (memory.cpp) */
    return ++g_serial;
}

extern "C" long long cuemuWatchHostWritten(const void *p, size_t bytes, int serial)
{
    if (serial != g_serial || (uintptr_t)p != g_watch_lo || bytes != g_watch_len)
        return -2;
    reconcile(W_HOST);
    for (size_t i = 0; i < g_watch_len; i++)
        if (g_state[i] == W_HOST)
            return (long long)i;
    return -1;
}
