/*
 * warp.cpp - barriers and warp operations of the emulator: a fiber that
 * reaches __syncthreads(), a shuffle, a vote, a match, a reduction or
 * __activemask() records what it brings and yields to its block's
 * scheduler (sched.cpp); the last lane of a warp operation to arrive
 * computes every lane's result.  A mask that leaves out a lane executing
 * the operation is a diagnostic, as compute-sanitizer cannot report it.
 */
#include "internal.h"
#include "fiber.h"

#include <algorithm>
#include <sched.h>
#include <stdarg.h>
#include <string.h>

namespace cuemu {
namespace detail {

[[noreturn]] void fail_block(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fail_block(Worker *w, const char *fmt, ...)
{
    (void)w;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    tl_fiber = nullptr; /* the message names threads itself */
    diag_exit("%s", msg);
}

/* No fiber of the block can run: either every live thread waits at the same
 * barrier (release it), or the block is stuck, which is always a bug. */
void resolve_stall(Worker *w)
{
    Fiber *fs = w->fibers.data();
    if (w->nwarp > 0) {
        for (unsigned i = 0; i < w->n; i++) {
            Fiber &f = fs[i];
            if (f.state != AT_WARP)
                continue;
            unsigned base = i & ~31u;
            for (unsigned l = 0; l < 32 && base + l < w->n; l++) {
                Fiber &g = fs[base + l];
                if (!(f.mask & (1u << l)) ||
                    (g.state == AT_WARP && compatible(&g, (WarpOp)f.kind, f.mask, f.src)))
                    continue;
                if (g.state == EXITED)
                    fail_block(w, "divergent warp operation: in warp %u, thread (%u,%u,%u) "
                                  "waits at %s (%s:%d) with mask 0x%08x, but lane %u, thread "
                                  "(%u,%u,%u), named in the mask, has exited",
                               i >> 5, f.tid.x, f.tid.y, f.tid.z, op_name(true, f.kind), f.file,
                               f.line, f.mask, l, g.tid.x, g.tid.y, g.tid.z);
                fail_block(w, "divergent warp operation: in warp %u, thread (%u,%u,%u) waits at "
                              "%s (%s:%d) with mask 0x%08x, but lane %u, thread (%u,%u,%u), "
                              "named in the mask, waits at %s (%s:%d)",
                           i >> 5, f.tid.x, f.tid.y, f.tid.z, op_name(true, f.kind), f.file,
                           f.line, f.mask, l, g.tid.x, g.tid.y, g.tid.z,
                           op_name(g.state == AT_WARP || g.state == AT_ACTIVEMASK, g.kind), g.file, g.line);
            }
            fail_block(w, "warp operation never completed: thread (%u,%u,%u) at %s (%s:%d)",
                       f.tid.x, f.tid.y, f.tid.z, op_name(true, f.kind), f.file, f.line);
        }
    }
    Fiber *first = nullptr;
    for (unsigned i = 0; i < w->n; i++) {
        Fiber &f = fs[i];
        if (f.state != AT_BARRIER)
            continue;
        if (!first) {
            first = &f;
        } else if (f.file != first->file || f.line != first->line) {
            if (strcmp(f.file, first->file) || f.line != first->line)
                fail_block(w, "divergent barrier: thread (%u,%u,%u) waits at %s (%s:%d) while "
                              "thread (%u,%u,%u) waits at %s (%s:%d)",
                           first->tid.x, first->tid.y, first->tid.z,
                           op_name(false, first->kind), first->file, first->line, f.tid.x,
                           f.tid.y, f.tid.z, op_name(false, f.kind), f.file, f.line);
        }
    }
    if (w->nexited > 0) {
        Fiber *gone = nullptr;
        for (unsigned i = 0; i < w->n && !gone; i++)
            if (fs[i].state == EXITED)
                gone = &fs[i];
        fail_block(w, "divergent barrier: thread (%u,%u,%u) waits at %s (%s:%d), but thread "
                      "(%u,%u,%u) has already exited (%d of %u threads exited; every thread "
                      "of a block must reach each __syncthreads())",
                   first->tid.x, first->tid.y, first->tid.z, op_name(false, first->kind),
                   first->file, first->line, gone->tid.x, gone->tid.y, gone->tid.z, w->nexited,
                   w->n);
    }
    w->bar_result = w->bar_count;
    w->bar_count = 0;
    volatile_met(w, -1);
    for (unsigned i = 0; i < w->n; i++)
        fs[i].state = RUNNABLE;
    w->nrunnable = (int)w->n;
    w->nbarrier = 0;
    if (g_counting)
        count_barrier();
    if (g_tracing)
        trace_barrier();
    g_progress.fetch_add(1, std::memory_order_relaxed);
}

/* __activemask(): a lane waits until no lane of its warp can run any more;
 * then the lanes waiting at the same __activemask() call are the converged,
 * active group, and each of them receives that group as its mask.  Files are
 * compared as pointers first (one __FILE__ literal, as a rule): the strcmp
 * of 32 x 32 lane pairs was a sixth of a warp-aggregated atomics sample. */
void release_activemask(Worker *w)
{
    Fiber *fs = w->fibers.data();
    for (unsigned base = 0; base < w->n; base += 32) {
        unsigned end = std::min(w->n, base + 32);
        bool waiting = false, runnable = false;
        for (unsigned i = base; i < end; i++) {
            waiting |= fs[i].state == AT_ACTIVEMASK;
            runnable |= fs[i].state == RUNNABLE;
        }
        if (!waiting || runnable)
            continue;
        for (unsigned i = base; i < end; i++) {
            if (fs[i].state != AT_ACTIVEMASK)
                continue;
            unsigned m = 0;
            for (unsigned j = base; j < end; j++)
                if (fs[j].state == AT_ACTIVEMASK && fs[j].line == fs[i].line &&
                    (fs[j].file == fs[i].file || !strcmp(fs[j].file, fs[i].file)))
                    m |= 1u << (j - base);
            fs[i].result = m;
        }
        for (unsigned i = base; i < end; i++)
            if (fs[i].state == AT_ACTIVEMASK) {
                fs[i].state = RUNNABLE;
                w->nrunnable++;
                w->nactivemask--;
            }
    }
}

/* Does a lane of the warp [base, end) other than `self` still have to
 * reach its next stop?  A lane that only polls (its last stop was
 * __nanosleep) does not hold the others back: it may poll for ever. */
static bool lanes_on_their_way(const Fiber *fs, unsigned base, unsigned end, const Fiber *self)
{
    for (unsigned i = base; i < end; i++)
        if (&fs[i] != self && fs[i].state == RUNNABLE && !fs[i].soft)
            return true;
    return false;
}

/* The lanes of warp [base, end) waiting at a volatile access go on. */
static void release_volatile_warp(Worker *w, unsigned base, unsigned end)
{
    Fiber *fs = w->fibers.data();
    for (unsigned i = base; i < end; i++)
        if (fs[i].state == AT_VOLATILE) {
            fs[i].state = RUNNABLE;
            w->nrunnable++;
            w->nvolatile--;
        }
}

void release_volatile(Worker *w)
{
    Fiber *fs = w->fibers.data();
    for (unsigned base = 0; base < w->n && w->nvolatile > 0; base += 32) {
        unsigned end = std::min(w->n, base + 32);
        if (!lanes_on_their_way(fs, base, end, nullptr))
            release_volatile_warp(w, base, end);
    }
}

void volatile_met(Worker *w, int wi)
{
    unsigned first = wi < 0 ? 0 : (unsigned)wi, last = wi < 0 ? (w->n + 31) / 32 : first + 1;
    Fiber *fs = w->fibers.data();
    for (unsigned k = first; k < last; k++) {
        if (!w->warp_vol[k])
            continue;
        w->warp_vol[k] = 0;
        for (unsigned i = k * 32; i < std::min(w->n, k * 32 + 32); i++)
            fs[i].vol_stored = false;
    }
}

} // namespace detail
using namespace detail;

/* Could running this access of lane f without waiting for its warp be told
 * apart from running the warp in lockstep?  Not for a load while no lane
 * of the warp has stored since they last met (loads do not see each
 * other), nor for a lane's first store while no lane has loaded (stores
 * of one step go in any order on a GPU too).  Any other access may meet
 * an access another lane makes at an earlier step. */
static inline bool free_step(Worker *w, const Fiber *f, bool store)
{
    unsigned char done = w->warp_vol[f->linear >> 5];
    return store ? !(done & VOL_LOADED) && !f->vol_stored : !(done & VOL_STORED);
}

/*
 * A volatile access of device memory (global or shared; not the thread's
 * own stack) is a step the lanes of a warp take together: a lane waits
 * here until every other lane of its warp has stopped (at its own next
 * volatile access, a barrier, a warp operation, or its end), so no lane
 * makes access k+1 before all have made access k.  That is how a warp
 * runs on a GPU, and what the warp-synchronous idiom of textbooks needs
 * (`vsmem[tid] += vsmem[tid + 16]; ...` on volatile shared memory without
 * __syncwarp(): every lane reads before any lane writes).  The last lane
 * to arrive releases the others and goes on at once.  An access that no
 * lane could tell from lockstep (free_step) goes on at once: so volatile
 * code between barriers (NVIDIA's scan sample) costs no extra switches.
 */
void volatile_step(uintptr_t addr, bool store)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!f)
        return;
    unsigned wi = f->linear >> 5;
    if (!free_step(w, f, store) && !on_fiber_stack(addr)) {
        unsigned base = wi * 32, end = std::min(w->n, base + 32);
        Fiber *fs = w->fibers.data();
        if (lanes_on_their_way(fs, base, end, f)) {
            mem_settle();
            f->state = AT_VOLATILE;
            w->nrunnable--;
            w->nvolatile++;
            yield_fiber();
        } else if (w->nvolatile > 0) {
            release_volatile_warp(w, base, end);
        }
    }
    w->warp_vol[wi] |= store ? VOL_STORED : VOL_LOADED;
    f->vol_stored |= store;
}

int block_sync(BarrierKind kind, int pred, const char *file, int line)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f)
        trap("__syncthreads() outside a kernel", file, line);
    mem_settle();
    f->state = AT_BARRIER;
    f->kind = kind;
    f->file = file;
    f->line = line;
    w->bar_count += pred != 0;
    w->nrunnable--;
    w->nbarrier++;
    yield_fiber();
    int c = w->bar_result;
    int live = (int)w->n; /* a barrier only opens when no thread has exited */
    return kind == BAR_AND ? c == live : kind == BAR_OR ? c > 0 : c;
}

/* The lane a shuffle of this kind reads from (itself when the source is
 * outside its segment of `width` lanes, as on a GPU). */
static int shuffle_source(WarpOp kind, unsigned lane, int arg, int width)
{
    unsigned seg = lane & ~(unsigned)(width - 1);
    int src = (int)lane;
    switch (kind) {
    case WARP_SHFL_IDX: src = (int)(seg + ((unsigned)arg & (unsigned)(width - 1))); break;
    case WARP_SHFL_UP: src = (lane - seg) >= (unsigned)arg ? (int)lane - arg : (int)lane; break;
    case WARP_SHFL_DOWN:
        src = (lane - seg) + (unsigned)arg < (unsigned)width ? (int)lane + arg : (int)lane;
        break;
    case WARP_SHFL_XOR:
        src = (int)(lane ^ (unsigned)arg);
        if (src >= (int)(seg + width))
            src = (int)lane;
        break;
    default: break;
    }
    return src;
}

/* The result of a __reduce_*_sync over the values of the lanes in `lanes`. */
static unsigned long long reduce_lanes(const Fiber *fs, unsigned lanes, int op)
{
    unsigned r = op == RED_AND ? ~0u : op == RED_MIN_U ? ~0u : op == RED_MIN_S ? 0x7fffffffu
               : op == RED_MAX_S ? 0x80000000u : 0u;
    for (unsigned l = 0; l < 32; l++) {
        if (!(lanes >> l & 1))
            continue;
        unsigned v = (unsigned)fs[l].value;
        switch (op) {
        case RED_ADD: r += v; break;
        case RED_MIN_S: r = (int)v < (int)r ? v : r; break;
        case RED_MAX_S: r = (int)v > (int)r ? v : r; break;
        case RED_MIN_U: r = v < r ? v : r; break;
        case RED_MAX_U: r = v > r ? v : r; break;
        case RED_AND: r &= v; break;
        case RED_OR: r |= v; break;
        default: r ^= v; break;
        }
    }
    return r;
}

/* Lane g's result once every lane of `lanes` has arrived at a warp
 * operation of this kind (ballot: the lanes whose predicate holds). */
static unsigned long long lane_result(const Fiber *fs, const Fiber &g, WarpOp kind,
                                      unsigned lanes, unsigned long long ballot)
{
    if (is_shuffle(kind)) {
        int s = g.src;
        return (s >= 0 && s < 32 && (lanes >> s & 1)) ? fs[s].value : g.value;
    }
    unsigned m = 0;
    switch (kind) {
    case WARP_MATCH_ANY:
        for (unsigned l = 0; l < 32; l++)
            if ((lanes >> l & 1) && fs[l].value == g.value)
                m |= 1u << l;
        return m;
    case WARP_MATCH_ALL:
        for (unsigned l = 0; l < 32; l++)
            if ((lanes >> l & 1) && fs[l].value != g.value)
                return 0;
        return lanes | (1ull << 32);
    case WARP_REDUCE: return reduce_lanes(fs, lanes, g.src);
    default: return ballot;
    }
}

/* A lane arrives while lanes of its warp wait in operations that differ
 * from its own (tiles of a partition, or lanes of a group still in an
 * earlier operation).  Two lanes that name each other in their masks but
 * wait in different operations can never both go on: an error.  Returns
 * the waiting lanes it meets. */
static unsigned meet_mixed(const Fiber *fs, unsigned arrived, WarpOp kind, unsigned mask, int arg,
                           unsigned lane, const char *file, int line)
{
    unsigned mates = 0;
    for (unsigned m = arrived & mask; m; m &= m - 1) {
        unsigned l = __builtin_ctz(m);
        const Fiber *o = &fs[l];
        if (compatible(o, kind, mask, arg))
            mates |= 1u << l;
        else if (o->mask >> lane & 1)
            diag_exit("divergent warp operation: lane %u calls %s (%s:%d) with mask 0x%08x "
                      "while lane %u waits in %s (%s:%d) with mask 0x%08x",
                      lane, op_name(true, kind), file, line, mask, l,
                      op_name(true, o->kind), o->file, o->line, o->mask);
    }
    return mates;
}

unsigned long long warp_op(WarpOp kind, unsigned mask, unsigned long long value, int arg,
                           int width, const char *file, int line)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f)
        trap("warp operation outside a kernel", file, line);
    mem_settle();
    unsigned lane = f->linear & 31, base = f->linear & ~31u;
    unsigned wi = f->linear >> 5;
    unsigned exist = w->n - base >= 32 ? 0xffffffffu : (1u << (w->n - base)) - 1;
    /* Issue 16: compute-sanitizer's synccheck is silent about a mask that
     * leaves out a lane executing the operation (e.g. 0x0000ffff run by all
     * 32 lanes); the result is undefined on a GPU, so it is an error here. */
    if (!(mask & (1u << lane)))
        diag_exit("warp operation with a mask that leaves out a lane executing it: lane %u of "
                  "warp %u executes %s at %s:%d with mask 0x%08x (every lane that executes a "
                  "warp operation must be in its mask)",
                  lane, wi, op_name(true, kind), file, line, mask);
    if (width <= 0 || width > 32 || (width & (width - 1)))
        diag_exit("%s (%s:%d): width %d is not a power of two between 1 and 32",
                  op_name(true, kind), file, line, width);
    unsigned expected = mask & exist;
    Fiber *fs = w->fibers.data() + base;
    unsigned &arrived = w->warp_arrived[wi];
    /* Fast path: every waiting lane of the warp is in one operation (the
     * first one's), and this lane joins it. */
    unsigned mates = 0;
    if (arrived) {
        if (!w->warp_mixed[wi] && compatible(&fs[__builtin_ctz(arrived)], kind, mask, arg)) {
            mates = arrived;
        } else {
            w->warp_mixed[wi] = true;
            mates = meet_mixed(fs, arrived, kind, mask, arg, lane, file, line);
        }
    } else {
        w->warp_mixed[wi] = false;
    }
    f->kind = kind;
    f->mask = mask;
    f->file = file;
    f->line = line;
    f->value = value;
    f->src = is_shuffle(kind) ? shuffle_source(kind, lane, arg, width) : arg;
    arrived |= 1u << lane;
    mates |= 1u << lane;
    if ((mates & expected) != expected) {
        f->state = AT_WARP;
        w->nrunnable--;
        w->nwarp++;
        yield_fiber();
        return f->result;
    }
    /* Last lane of the group to arrive: compute every lane's result and
     * wake them. */
    unsigned long long ballot = 0;
    if (kind == WARP_VOTE)
        for (unsigned l = 0; l < 32; l++)
            if ((expected >> l & 1) && fs[l].value)
                ballot |= 1ull << l;
    for (unsigned l = 0; l < 32; l++) {
        if (!(expected >> l & 1))
            continue;
        Fiber &g = fs[l];
        g.result = lane_result(fs, g, kind, expected, ballot);
        if (&g != f) {
            g.state = RUNNABLE;
            w->nrunnable++;
            w->nwarp--;
        }
    }
    arrived &= ~expected;
    if (expected == exist)
        volatile_met(w, (int)wi);
    if (g_tracing)
        trace_warp_sync(wi * 32, expected);
    return f->result;
}

unsigned active_mask(const char *file, int line)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f)
        return 1;
    mem_settle();
    f->state = AT_ACTIVEMASK;
    f->kind = WARP_ACTIVEMASK;
    f->file = file;
    f->line = line;
    w->nrunnable--;
    w->nactivemask++;
    yield_fiber();
    return (unsigned)f->result;
}

void soft_yield()
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f) {
        sched_yield();
        return;
    }
    f->soft = true;
    if (g_weak_memory)
        mem_poll();
    yield_fiber();
}

} // namespace cuemu
