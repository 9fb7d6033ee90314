/*
 * trace.cpp - the recorder (CUEMU_TRACE=path, or cuemuTraceStart): every
 * load, store and atomic of every device thread, and every barrier, written
 * as JSON lines, so that a small run can be drawn (common/tools/draw.py:
 * one row per phase between barriers, an arrow from each element a thread
 * read to the element it wrote) and its memory traffic read off.
 *
 * How it is seen.  The access hooks (memory.cpp) tell trace_access before
 * the access happens, so a load's value is the one in memory then; a
 * store's (and an atomic's) value is read at the worker's next hook, which
 * on one worker always comes after the store: the fibers of a block take
 * turns on one OS thread.  A store by another worker in between (blocks
 * racing on one word) may be recorded with that worker's value.
 *
 * Where an access falls: in a device allocation ("g", by its number in
 * order of first use, and its byte offset), in the block's dynamic shared
 * memory ("d"), or in a static __shared__ array ("s", by its number; only
 * counted builds register those, emu-nvcc --count, which make draw uses).
 * Anything else (a thread's own stack, host memory) is not recorded.
 *
 * Off (the default), it costs nothing: g_mem_hooks stays false, and the
 * scheduler tests g_tracing where it already tests g_counting.
 *
 * Beside it, cuemuTrafficStart / cuemuTrafficRead count only the bytes
 * device threads moved through global memory (the harness's --traffic,
 * which the grader uses on the emulator for its speed line).
 * The format is documented in common/emu/README.md ("Recorder").
 */
#include "fiber.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace cuemu {

bool g_tracing;
bool g_traffic;

namespace detail {
namespace {

/* Process-wide: the file, the allocations numbered, the event clock. */
struct TraceFile {
    std::mutex mu;
    FILE *f = nullptr;
    std::map<uintptr_t, int> allocs; /* base -> number */
    std::map<const Grid *, unsigned long long> launches;
    unsigned long long next_launch = 0;
    std::atomic<unsigned long long> seq{0};
    bool cut = false;
};
TraceFile &tf()
{
    static TraceFile *t = new TraceFile; /* never destroyed: atexit order */
    return *t;
}

/* A store whose value is read at the worker's next hook. */
struct Pending {
    bool on = false;
    uintptr_t addr;
    unsigned size;
    std::string head; /* the record up to its value */
};

/* The block a worker runs. */
struct BlockTrace {
    bool active = false;
    unsigned long long launch = 0, block = 0;
    unsigned phase = 0;
    uintptr_t dyn_lo = 0, dyn_hi = 0;
    std::vector<unsigned> wsync; /* per thread: warp operations it has met in */
    Pending pending;
    std::string out; /* records of this block, written at its end */
};
thread_local BlockTrace tl_bt;

/* Bits of the size bytes at a (a little-endian integer). */
unsigned long long bits_at(uintptr_t a, unsigned size)
{
    unsigned long long v = 0;
    memcpy(&v, (const void *)a, size < 8 ? size : 8);
    if (size < 8)
        v &= (1ull << (8 * size)) - 1;
    return v;
}

/* alloc_number's slow path: the process-wide table, under its lock. */
int alloc_number_locked(uintptr_t base, size_t bytes)
{
    TraceFile &t = tf();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.allocs.find(base);
    if (it != t.allocs.end())
        return it->second;
    int id = (int)t.allocs.size();
    t.allocs[base] = id;
    if (t.f)
        fprintf(t.f, "{\"t\":\"alloc\",\"a\":%d,\"bytes\":%zu}\n", id, bytes);
    return id;
}

/* The allocation number of base (numbered in order of first use); a new
 * one is announced with its size.  The last answer is kept per worker: a
 * lock per access would make the workers take turns, and a drawn run of
 * lab 6 would show tiles that never overlap. */
int alloc_number(uintptr_t base, size_t bytes)
{
    static thread_local uintptr_t last_base = 0;
    static thread_local int last_id = -1;
    if (last_id >= 0 && base == last_base)
        return last_id;
    int id = alloc_number_locked(base, bytes);
    last_base = base, last_id = id;
    return id;
}

/* Where a falls: space letter, array number and byte offset; false when
 * it is nothing the recorder draws. */
bool place(const BlockTrace &b, uintptr_t a, char *space, int *arr, size_t *off)
{
    uintptr_t lo;
    size_t bytes;
    int idx;
    if (a >= b.dyn_lo && a < b.dyn_hi) {
        *space = 'd', *arr = 0, *off = a - b.dyn_lo;
        return true;
    }
    if (static_shared_of(a, &lo, &idx)) {
        *space = 's', *arr = idx, *off = a - lo;
        return true;
    }
    if (device_region_of(a, &lo, &bytes)) {
        *space = 'g', *arr = alloc_number(lo, bytes), *off = a - lo;
        return true;
    }
    return false;
}

/* The pending store has happened: its value completes its record. */
void settle(BlockTrace &b)
{
    if (!b.pending.on)
        return;
    b.pending.on = false;
    char v[40];
    snprintf(v, sizeof v, ",\"v\":%llu}\n", bits_at(b.pending.addr, b.pending.size));
    b.out += b.pending.head;
    b.out += v;
}

/* One more event, unless the trace is full (said once, loudly). */
bool take_event(unsigned long long *q)
{
    TraceFile &t = tf();
    *q = t.seq.fetch_add(1, std::memory_order_relaxed);
    if (*q < TRACE_MAX_EVENTS)
        return true;
    std::lock_guard<std::mutex> lk(t.mu);
    if (!t.cut && t.f) {
        t.cut = true;
        fprintf(t.f, "{\"t\":\"cut\",\"events\":%d}\n", (int)TRACE_MAX_EVENTS);
        fprintf(stderr, "cuemu: the trace is full (%d events): later accesses are not "
                        "recorded; trace a smaller run\n", (int)TRACE_MAX_EVENTS);
    }
    return false;
}

/* The block's records, to the file. */
void write_out(BlockTrace &b)
{
    TraceFile &t = tf();
    std::lock_guard<std::mutex> lk(t.mu);
    if (t.f)
        fputs(b.out.c_str(), t.f);
    b.out.clear();
}

} // namespace

/* A launch begins: numbered, described once. */
void trace_launch_begin(Grid *g)
{
    TraceFile &t = tf();
    std::lock_guard<std::mutex> lk(t.mu);
    unsigned long long id = ++t.next_launch;
    t.launches[g] = id;
    if (!t.f)
        return;
    std::string name;
    for (const char *c = g->name; *c; c++)
        if (*c != '"' && *c != '\\' && (unsigned char)*c >= 0x20)
            name += *c;
    fprintf(t.f, "{\"t\":\"launch\",\"l\":%llu,\"kernel\":\"%s\",\"at\":\"%s:%d\","
                 "\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shmem\":%zu}\n",
            id, name.c_str(), g->file, g->line, g->grid.x, g->grid.y, g->grid.z, g->block.x,
            g->block.y, g->block.z, g->shmem);
}

void trace_launch_end(Grid *g)
{
    TraceFile &t = tf();
    std::lock_guard<std::mutex> lk(t.mu);
    auto it = t.launches.find(g);
    if (it == t.launches.end())
        return;
    if (t.f) {
        fprintf(t.f, "{\"t\":\"end\",\"l\":%llu}\n", it->second);
        fflush(t.f);
    }
    t.launches.erase(it);
}

void trace_block_begin(Grid *g, unsigned long long b, const char *base, size_t bytes)
{
    BlockTrace &bt = tl_bt;
    {
        TraceFile &t = tf();
        std::lock_guard<std::mutex> lk(t.mu);
        bt.launch = t.launches[g];
    }
    bt.active = true;
    bt.block = b;
    bt.phase = 0;
    bt.dyn_lo = (uintptr_t)base;
    bt.dyn_hi = (uintptr_t)base + bytes;
    bt.pending.on = false;
    bt.wsync.assign((size_t)g->block.x * g->block.y * g->block.z, 0);
}

void trace_warp_sync(unsigned base, unsigned mask)
{
    BlockTrace &b = tl_bt;
    for (unsigned l = 0; l < 32; l++)
        if ((mask >> l & 1) && base + l < b.wsync.size())
            b.wsync[base + l]++;
}

/* A barrier of the block opened: the next phase begins. */
void trace_barrier()
{
    BlockTrace &b = tl_bt;
    if (!b.active)
        return;
    settle(b);
    unsigned long long q;
    b.phase++;
    if (!take_event(&q))
        return;
    char line[128];
    snprintf(line, sizeof line, "{\"t\":\"bar\",\"l\":%llu,\"b\":%llu,\"p\":%u,\"q\":%llu}\n",
             b.launch, b.block, b.phase, q);
    b.out += line;
}

void trace_block_end()
{
    BlockTrace &b = tl_bt;
    settle(b);
    b.active = false;
    write_out(b);
}

} // namespace detail

using detail::tl_bt;

/* A device thread's access (memory.cpp's hooks, when g_tracing). */
void trace_access(uintptr_t a, unsigned size, AccessKind kind)
{
    detail::BlockTrace &b = tl_bt;
    detail::Fiber *f = detail::tl_fiber;
    if (!b.active)
        return;
    detail::settle(b); /* any earlier store of this worker has happened */
    char space;
    int arr;
    size_t off;
    unsigned long long q;
    if (!f || kind == ACC_RANGE || !detail::place(b, a, &space, &arr, &off) ||
        !detail::take_event(&q))
        return;
    static const char *names[] = {"ld", "st", "atom"};
    char line[TRACE_LINE];
    int len = snprintf(line, sizeof line,
                       "{\"t\":\"%s\",\"l\":%llu,\"b\":%llu,\"th\":%u,\"p\":%u,\"w\":%u,"
                       "\"sp\":\"%c\",\"a\":%d,\"o\":%zu,\"z\":%u,\"q\":%llu",
                       names[kind], b.launch, b.block, f->linear, b.phase,
                       f->linear < b.wsync.size() ? b.wsync[f->linear] : 0u, space, arr, off, size, q);
    if (kind == ACC_LOAD) {
        snprintf(line + len, sizeof line - (size_t)len, ",\"v\":%llu}\n",
                 detail::bits_at(a, size));
        b.out += line;
        return;
    }
    b.pending.on = true;
    b.pending.addr = a;
    b.pending.size = size;
    b.pending.head.assign(line, (size_t)len);
}

bool trace_start(const char *path)
{
    detail::TraceFile &t = detail::tf();
    std::lock_guard<std::mutex> lk(t.mu);
    if (t.f)
        return true;
    t.f = fopen(path, "w");
    if (!t.f) {
        fprintf(stderr, "cuemu: cannot write the trace to %s\n", path);
        return false;
    }
    fprintf(t.f, "{\"t\":\"trace\",\"version\":1}\n");
    g_tracing = true;
    g_mem_hooks = true;
    return true;
}

/* ---- global traffic (cuemuTrafficStart): the bytes device threads moved -- */

std::atomic<unsigned long long> g_moved[3]; /* bytes loaded, bytes stored, atomics */

/* A device thread's access while traffic is counted (memory.cpp): device
 * allocations only (not shared memory, not a thread's stack). */
void traffic_access(uintptr_t a, unsigned size, AccessKind kind)
{
    uintptr_t base;
    size_t bytes;
    if (!detail::tl_fiber || kind == ACC_RANGE || !device_region_of(a, &base, &bytes))
        return;
    if (kind == ACC_ATOMIC)
        g_moved[2].fetch_add(1, std::memory_order_relaxed);
    else
        g_moved[kind == ACC_STORE].fetch_add(size, std::memory_order_relaxed);
}

} // namespace cuemu

/* The harness's --traffic: count from the lab's first run on. */
extern "C" void cuemuTrafficStart(void)
{
    cuemu::settings();
    for (auto &m : cuemu::g_moved)
        m.store(0);
    cuemu::g_traffic = true;
    cuemu::g_mem_hooks = true;
}

/* After it: what it moved. */
extern "C" void cuemuTrafficRead(unsigned long long moved[3])
{
    cuemu::g_traffic = false;
    for (int i = 0; i < 3; i++)
        moved[i] = cuemu::g_moved[i].load();
}

/* ---- include/cuemu_trace.h ----------------------------------------------- */

extern "C" int cuemuTraceStart(const char *path)
{
    cuemu::settings();
    return cuemu::trace_start(path) ? 0 : -1;
}

/* The allocation holding p is called name in the trace (draw.py finds the
 * lab's input and output by it), with its bytes from p as they are now (at
 * most TRACE_DUMP_BYTES): the input a kernel that never loads it was given. */
extern "C" void cuemuTraceName(const void *p, const char *name)
{
    uintptr_t base;
    size_t bytes;
    if (!cuemu::g_tracing || !cuemu::device_region_of((uintptr_t)p, &base, &bytes))
        return;
    int id = cuemu::detail::alloc_number(base, bytes);
    cuemu::detail::TraceFile &t = cuemu::detail::tf();
    std::lock_guard<std::mutex> lk(t.mu);
    if (!t.f)
        return;
    size_t start = (size_t)((uintptr_t)p - base);
    size_t most = (size_t)cuemu::TRACE_DUMP_BYTES;
    size_t shown = bytes - start < most ? bytes - start : most;
    fprintf(t.f, "{\"t\":\"name\",\"a\":%d,\"name\":\"%s\",\"start\":%zu,\"hex\":\"", id, name,
            start);
    for (size_t i = 0; i < shown; i++)
        fprintf(t.f, "%02x", ((const unsigned char *)p)[i]);
    fprintf(t.f, "\"}\n");
}

/* A line of JSON fields the program adds to the trace (the case drawn). */
extern "C" void cuemuTraceNote(const char *fields)
{
    cuemu::detail::TraceFile &t = cuemu::detail::tf();
    std::lock_guard<std::mutex> lk(t.mu);
    if (t.f && cuemu::g_tracing)
        fprintf(t.f, "{\"t\":\"note\",%s}\n", fields);
}

/* Recording stops (later launches are not recorded); the file is closed. */
extern "C" void cuemuTraceStop(void)
{
    cuemu::detail::TraceFile &t = cuemu::detail::tf();
    std::lock_guard<std::mutex> lk(t.mu);
    cuemu::g_tracing = false;
    if (t.f)
        fclose(t.f);
    t.f = nullptr;
}
