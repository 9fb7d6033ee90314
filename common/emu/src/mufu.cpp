/*
 * mufu.cpp - the fast-math intrinsics with a GPU's bits: mufu.h's model
 * of the special-function unit over its seven tables, measured on an H200
 * (common/emu/mufu/, unpacked by emu-nvcc --build-runtime into
 * CUEMU_MUFU_DIR).  The tables are mapped on the first call, read-only and
 * shared by every thread; a page is read from disk when first touched.
 * Without them (a runtime moved away from its build folder, a file cut
 * short) each intrinsic falls back to the C library's full-precision
 * function and its call sites say so (fastmath.cpp).
 */
#include "internal.h"
#include "mufu.h"

#include <fcntl.h>
#include <math.h>
#include <mutex>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef CUEMU_MUFU_DIR
#define CUEMU_MUFU_DIR "" /* a runtime built by hand: no tables */
#endif

namespace cuemu {

namespace {
std::once_flag g_mufu_once;
mufu::Tables g_mufu;
bool g_mufu_ok;

/* One table, mapped whole: NULL unless it is exactly 2^23 words. */
const uint32_t *map_table(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.bin", CUEMU_MUFU_DIR, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return nullptr;
    struct stat st;
    const size_t bytes = (size_t)mufu::TABLE * 4;
    void *p = fstat(fd, &st) == 0 && (size_t)st.st_size == bytes
                  ? mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    return p == MAP_FAILED ? nullptr : (const uint32_t *)p;
}

/* Every table, once: the intrinsics use the unit only when all are there,
 * so that none of them mixes a GPU's bits with the C library's. */
void load_tables()
{
    g_mufu.rcp = map_table("rcp");
    g_mufu.ex2_pos = map_table("ex2_pos");
    g_mufu.ex2_neg = map_table("ex2_neg");
    g_mufu.lg2 = map_table("lg2");
    g_mufu.lg2_half = map_table("lg2_half");
    g_mufu.rsq_even = map_table("rsq_even");
    g_mufu.rsq_odd = map_table("rsq_odd");
    g_mufu_ok = g_mufu.rcp && g_mufu.ex2_pos && g_mufu.ex2_neg && g_mufu.lg2 && g_mufu.lg2_half &&
                g_mufu.rsq_even && g_mufu.rsq_odd;
}

/* The tables, mapped on the first call by whichever thread makes it; NULL
 * when any is missing. */
const mufu::Tables *mufu_tables()
{
    std::call_once(g_mufu_once, load_tables);
    return g_mufu_ok ? &g_mufu : nullptr;
}
} // namespace

bool mufu_available() { return mufu_tables() != nullptr; }

/* Each intrinsic: the GPU's bits when the tables are there, else the full-
 * precision function (rsqrtf: 1 / sqrt(x) rounded once from double). */
float fast_expf(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::expf_(t, x) : expf(x); }
float fast_exp10f(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::exp10f_(t, x) : exp10f(x); }
float fast_logf(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::logf_(t, x) : logf(x); }
float fast_log2f(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::log2f_(t, x) : log2f(x); }
float fast_log10f(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::log10f_(t, x) : log10f(x); }
float fast_powf(float x, float y) { const mufu::Tables *t = mufu_tables(); return t ? mufu::powf_(t, x, y) : powf(x, y); }
float fast_fdividef(float a, float b) { const mufu::Tables *t = mufu_tables(); return t ? mufu::fdividef_(t, a, b) : a / b; }
float fast_rsqrtf(float x) { const mufu::Tables *t = mufu_tables(); return t ? mufu::rsqrtf_(t, x) : (float)(1.0 / sqrt((double)x)); }

} // namespace cuemu
