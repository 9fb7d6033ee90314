/*
 * initcheck.cpp - reads of device memory that nothing wrote, reported as
 * compute-sanitizer's initcheck reports them (kernel, block, thread, the
 * line, the allocation and the offset), and what such a read returns:
 * CUEMU_FRESH=zero (the default) gives 0, as a fresh allocation on a GPU
 * does in practice, so that a program that works on a GPU by that luck
 * prints the same here, with a warning naming the line; CUEMU_FRESH=poison
 * gives the 0xcd bytes every fresh allocation held before (the kit's
 * grading sets it: grader/judge.c).  CUEMU_INITCHECK=warn (default) | stop
 * (the first such read is a diagnostic, exit 86) | off (no tracking).
 *
 * How "written" is known.  Each allocation (cudaMalloc, cudaMallocManaged)
 * with a byte never written is tracked, with one bit per byte.  It is
 * filled with 0xcd, the marker.  Written are:
 *   - ranges cudaMemset and cudaMemcpy (and their Async forms) write: the
 *     bits are set, and an allocation written whole is dropped at once (the
 *     kit's harness fills every buffer so: no launch of it is slowed);
 *   - bytes stored by device code during a launch, seen by the access
 *     hooks (memory.cpp), which are on only during a launch that has a
 *     tracked allocation;
 *   - bytes whose content changed without a hook seeing it (host code
 *     storing through a managed pointer, libc's memset, a kernel's own
 *     memcpy), judged by 4-byte chunk: at a launch's start, the
 *     never-written bytes of a chunk that no longer all hold the marker
 *     were written by the host; at its end, those that no longer hold
 *     what the launch began with were written by the launch.  A chunk
 *     stored this way whose never-written bytes get the marker's own
 *     value (0xcd) back, or under CUEMU_FRESH=zero a kernel's own memset
 *     of 0, goes unseen.
 * Under CUEMU_FRESH=zero the never-written bytes hold 0 during a launch
 * (and copies out of them give 0), the marker between launches: a host
 * read through a managed pointer of bytes nothing wrote sees 0xcd.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

namespace cuemu {

bool g_initcheck_on;
uintptr_t g_ic_lo = 0, g_ic_hi = UINTPTR_MAX;

namespace {

const unsigned char MARKER = 0xcd;

struct Tracked {
    uintptr_t lo;
    size_t size;
    uint64_t *bits;  /* bit i: byte lo + i was written */
    uintptr_t site;  /* return address of the allocating call */
    bool managed;
};

std::mutex g_mu;
std::map<uintptr_t, Tracked> g_tracked;   /* allocations with a byte never written */
std::vector<Tracked> g_snap;               /* during a launch: g_tracked, read without locks */
uintptr_t g_snap_lo, g_snap_hi;            /* the span of g_snap */
bool g_hooks_before;                       /* g_mem_hooks before the launch */
unsigned long long g_reads;                /* reads reported, all sites */
uintptr_t g_sites[INITCHECK_SITES];        /* the sites warned about */
int g_nsites;

bool is_set(const uint64_t *bits, size_t i) { return bits[i / 64] >> (i % 64) & 1; }

/* Set bits [from, to) of an allocation's bitmap (host side, under g_mu). */
void set_range(Tracked &t, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        t.bits[i / 64] |= 1ull << (i % 64);
}

/* Whether every byte of t was written. */
bool complete(const Tracked &t)
{
    size_t full = t.size / 64;
    for (size_t w = 0; w < full; w++)
        if (t.bits[w] != ~0ull)
            return false;
    for (size_t i = full * 64; i < t.size; i++)
        if (!is_set(t.bits, i))
            return false;
    return true;
}

/* The tracked allocation holding a (under g_mu), or end(). */
std::map<uintptr_t, Tracked>::iterator holding(uintptr_t a)
{
    auto it = g_tracked.upper_bound(a);
    if (it == g_tracked.begin())
        return g_tracked.end();
    --it;
    return a < it->first + it->second.size ? it : g_tracked.end();
}

void drop(std::map<uintptr_t, Tracked>::iterator it)
{
    free(it->second.bits);
    g_tracked.erase(it);
}

unsigned char fresh_value() { return settings().fresh_zero ? 0 : MARKER; }

/* Calls f(from, to) for each 4-byte chunk of t (offsets from its start)
 * that holds a byte never written: content is judged by chunk, so that a
 * stored int or float that happens to hold the marker in one byte (205,
 * 461 ...) still counts as written; a whole chunk of 0xcd bytes does not. */
template <class F> void each_open_chunk(Tracked &t, F f)
{
    for (size_t i = 0; i < t.size; i += 4) {
        if (t.bits[i / 64] == ~0ull) { /* 64 written bytes: skip them */
            i = (i | 63) - 3;
            continue;
        }
        size_t end = std::min(t.size, i + 4);
        for (size_t k = i; k < end; k++)
            if (!is_set(t.bits, k)) {
                f(i, end);
                break;
            }
    }
}

/* In chunk [from, to), whether a never-written byte no longer holds v
 * (something unseen stored there): then all of them count as written;
 * else they are set to `fill`. */
void judge_chunk(Tracked &t, size_t from, size_t to, unsigned char v, unsigned char fill)
{
    unsigned char *p = (unsigned char *)t.lo;
    bool changed = false;
    for (size_t k = from; k < to; k++)
        changed |= !is_set(t.bits, k) && p[k] != v;
    for (size_t k = from; k < to; k++)
        if (!is_set(t.bits, k)) {
            if (changed)
                t.bits[k / 64] |= 1ull << (k % 64);
            else
                p[k] = fill;
        }
}

/* A launch begins: host stores unseen by hooks are found by content (a
 * chunk whose never-written bytes no longer hold the marker), and under
 * CUEMU_FRESH=zero the never-written bytes become 0 for the launch. */
void prepare(Tracked &t)
{
    unsigned char fresh = fresh_value();
    each_open_chunk(t, [&](size_t from, size_t to) { judge_chunk(t, from, to, MARKER, fresh); });
}

/* A launch ended: chunks changed unseen (a kernel's own memcpy) are
 * written; the never-written bytes hold the marker again. */
void settle(Tracked &t)
{
    unsigned char fresh = fresh_value();
    each_open_chunk(t, [&](size_t from, size_t to) { judge_chunk(t, from, to, fresh, MARKER); });
}

const Tracked *find_snap(uintptr_t a)
{
    if (a < g_snap_lo || a >= g_snap_hi)
        return nullptr;
    auto it = std::upper_bound(g_snap.begin(), g_snap.end(), a,
                               [](uintptr_t x, const Tracked &t) { return x < t.lo; });
    if (it == g_snap.begin())
        return nullptr;
    --it;
    return a < it->lo + it->size ? &*it : nullptr;
}

/* A device thread read `size` bytes at t's offset `off`, some never written.
 * The site is looked up first: naming a line runs addr2line (pcline.cpp),
 * tens of milliseconds, and a kernel that reads a never-written buffer
 * does so in every thread (run for each, lab 7's skeleton made the
 * emulator see no progress for 3 s and report a deadlock). */
void report(const Tracked &t, size_t off, size_t first, unsigned size, uintptr_t pc)
{
    const bool stop = settings().initcheck == INITCHECK_STOP;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        g_reads++;
        for (int i = 0; i < g_nsites && !stop; i++)
            if (g_sites[i] == pc)
                return;
        if (g_nsites == INITCHECK_SITES && !stop)
            return;
        if (!stop)
            g_sites[g_nsites++] = pc;
    }
    char line[512], site[512], first_text[64] = "";
    pc_line(pc, line, sizeof line);
    pc_line(t.site, site, sizeof site);
    if (first != off)
        snprintf(first_text, sizeof first_text, " (never written from offset %zu)", first);
    const char *how = t.managed ? "cudaMallocManaged" : "cudaMalloc";
    if (stop)
        diag_exit("read of device memory never written, at %s: %u byte(s) at byte offset %zu%s "
                  "of a %zu-byte allocation (%s at %s); a GPU reads whatever the memory holds "
                  "(CUEMU_INITCHECK=warn reports and goes on)",
                  line, size, off, first_text, t.size, how, site);
    std::lock_guard<std::mutex> lk(g_mu);
    Where w = where_now();
    fflush(stdout);
    fprintf(stderr,
            "cuemu: warning: in kernel '%s' (launched at %s:%d), block (%u,%u,%u), thread (%u,%u,%u):\n"
            "  read of device memory never written, at %s: %u byte(s) at byte offset %zu%s of a "
            "%zu-byte allocation (%s at %s); the read gives %s\n",
            w.kernel, w.file, w.line, w.block.x, w.block.y, w.block.z, w.thread.x, w.thread.y,
            w.thread.z, line, size, off, first_text, t.size, how, site,
            settings().fresh_zero ? "0, as a fresh allocation on a GPU usually does (CUEMU_FRESH=zero; "
                                    "CUEMU_INITCHECK=stop stops here)"
                                  : "0xcd bytes (CUEMU_FRESH=poison; CUEMU_INITCHECK=stop stops here)");
}

void summary()
{
    if (g_reads > (unsigned long long)g_nsites)
        fprintf(stderr, "cuemu: warning: %llu read(s) of device memory never written in all, at "
                        "the %d line(s) named above%s\n",
                g_reads, g_nsites, g_nsites == INITCHECK_SITES ? " and maybe more" : "");
}

} // namespace

void ic_alloc(uintptr_t user, size_t size, uintptr_t site, bool managed)
{
    const Settings &s = settings();
    if (s.initcheck == INITCHECK_OFF || size == 0) {
        memset((void *)user, s.fresh_zero ? 0 : MARKER, size);
        return;
    }
    memset((void *)user, MARKER, size);
    uint64_t *bits = (uint64_t *)calloc((size + 63) / 64, sizeof(uint64_t));
    if (!bits)
        diag_exit("out of host memory for the initcheck bitmap of a %zu-byte allocation "
                  "(CUEMU_INITCHECK=off needs none)", size);
    std::lock_guard<std::mutex> lk(g_mu);
    g_tracked[user] = Tracked{user, size, bits, site, managed};
}

void ic_free(uintptr_t user)
{
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_tracked.find(user);
    if (it != g_tracked.end())
        drop(it);
}

void ic_written(const void *dst, size_t n)
{
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = holding((uintptr_t)dst);
    if (it == g_tracked.end())
        return;
    Tracked &t = it->second;
    size_t from = (uintptr_t)dst - t.lo, to = std::min(t.size, from + n);
    if (from == 0 && to == t.size) {
        drop(it);
        return;
    }
    set_range(t, from, to);
    if (complete(t))
        drop(it);
}

void ic_copied_from(void *dst, const void *src, size_t n)
{
    if (!settings().fresh_zero)
        return;
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = holding((uintptr_t)src);
    if (it == g_tracked.end())
        return;
    const Tracked &t = it->second;
    size_t from = (uintptr_t)src - t.lo;
    for (size_t i = 0; i < n && from + i < t.size; i++)
        if (!is_set(t.bits, from + i))
            ((unsigned char *)dst)[i] = 0;
}

void ic_reset()
{
    std::lock_guard<std::mutex> lk(g_mu);
    for (auto &kv : g_tracked)
        free(kv.second.bits);
    g_tracked.clear();
}

void ic_launch_begin()
{
    std::lock_guard<std::mutex> lk(g_mu);
    if (g_tracked.empty())
        return;
    g_snap.clear();
    for (auto it = g_tracked.begin(); it != g_tracked.end();) {
        prepare(it->second);
        if (complete(it->second)) {
            drop(it++);
            continue;
        }
        g_snap.push_back(it->second);
        ++it;
    }
    if (g_snap.empty())
        return;
    g_snap_lo = g_snap.front().lo;
    g_snap_hi = g_snap.back().lo + g_snap.back().size;
    g_hooks_before = g_mem_hooks;
    if (!g_hooks_before) { /* initcheck's alone: accesses outside g_snap need no hook */
        g_ic_lo = g_snap_lo;
        g_ic_hi = g_snap_hi;
    }
    g_initcheck_on = true;
    g_mem_hooks = true;
}

void ic_launch_end()
{
    if (!g_initcheck_on)
        return;
    g_initcheck_on = false;
    g_mem_hooks = g_hooks_before;
    g_ic_lo = 0;
    g_ic_hi = UINTPTR_MAX;
    std::lock_guard<std::mutex> lk(g_mu);
    static bool summary_armed;
    if (g_reads && !summary_armed) {
        summary_armed = true;
        atexit(summary);
    }
    for (auto it = g_tracked.begin(); it != g_tracked.end();) {
        settle(it->second);
        if (complete(it->second))
            drop(it++);
        else
            ++it;
    }
    g_snap.clear();
}

/* An access hook during a launch with tracked allocations (memory.cpp):
 * a read checks the bytes, a write marks them. */
void ic_access(uintptr_t a, unsigned size, bool read, bool write, uintptr_t pc)
{
    const Tracked *t = find_snap(a);
    if (!t)
        return;
    size_t off = a - t->lo, end = std::min(t->size, off + size);
    if (read)
        for (size_t i = off; i < end; i++)
            if (!is_set(t->bits, i)) {
                report(*t, off, i, size, pc);
                break;
            }
    if (write)
        for (size_t i = off; i < end; i++)
            if (!is_set(t->bits, i))
                __atomic_fetch_or(&t->bits[i / 64], 1ull << (i % 64), __ATOMIC_RELAXED);
}

} // namespace cuemu
