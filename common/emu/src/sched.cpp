/*
 * sched.cpp - how the emulator runs a grid.
 *
 * Every CUDA thread is a fiber (a Boost.Context fcontext with its own small
 * stack).  A block's fibers all run on one OS worker thread, one fiber at a
 * time; a fiber runs until it reaches a barrier, a warp operation,
 * __nanosleep or its end, and then jumps back to the block scheduler below.
 * Workers take blocks from a shared counter, so blocks on different workers
 * run truly concurrently and a block may spin on a flag another block sets.
 *
 * Because a worker runs exactly one block at a time and all of that block's
 * fibers run on it, static __shared__ variables can be thread-local storage.
 */
#include "internal.h"

#if !defined(__x86_64__)
#include <boost/context/detail/fcontext.hpp>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <vector>

/* ---- context switch -------------------------------------------------------
 * On x86-64 a switch saves the six callee-saved registers on the old stack,
 * swaps stack pointers and pops them from the new one.  Boost.Context's
 * jump_fcontext does the same plus saving and restoring the x87 control
 * word and MXCSR (fnstcw/fldcw, stmxcsr/ldmxcsr); measured here those two
 * restores took three quarters of its time and made block-wide barriers
 * ~1.5x slower (docs/perf-emu.md).  Device code never changes the rounding
 * mode, so they are left out.  Other architectures use Boost.Context. */
#if defined(__x86_64__)
extern "C" void cuemu_switch(void **save_sp, void *new_sp);
extern "C" void cuemu_fiber_start();
asm(R"(
    .text
    .globl cuemu_switch
    .type cuemu_switch, @function
cuemu_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    popq %rcx
    jmp *%rcx
    .size cuemu_switch, .-cuemu_switch
    .globl cuemu_fiber_start
    .type cuemu_fiber_start, @function
cuemu_fiber_start:
    call cuemu_fiber_main
    ud2
    .size cuemu_fiber_start, .-cuemu_fiber_start
)");
typedef void *fcontext_t;
#else
using boost::context::detail::fcontext_t;
using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;
using boost::context::detail::transfer_t;
#endif

__thread uint3 threadIdx;
__thread uint3 blockIdx;
__thread dim3 blockDim;
__thread dim3 gridDim;

namespace cuemu {

__thread char *dyn_smem_base;
void fiber_main_entry();

namespace {

enum FiberState : unsigned char { RUNNABLE, AT_BARRIER, AT_WARP, AT_ACTIVEMASK, EXITED };

struct Fiber {
    fcontext_t ctx;
    uint3 tid;
    unsigned linear;
    FiberState state;
    bool soft; /* last yield came from __nanosleep */
    int kind;  /* barrier kind or warp-op kind it waits in */
    const char *file;
    int line;
    unsigned mask;              /* warp op: the mask it passed */
    int src;                    /* warp op: lane it reads from */
    unsigned long long value;   /* warp op: what it contributes */
    unsigned long long result;  /* warp op: what it receives */
};

struct Grid {
    const char *name, *file;
    int line;
    dim3 grid, block;
    size_t shmem;
    void (*fn)(void *);
    void *ctx;
    unsigned long long total;
    std::vector<unsigned> order; /* random dispatch order (small grids) */
    unsigned long long mul, add; /* random dispatch order (huge grids) */
    std::atomic<unsigned long long> next{0};
    std::atomic<unsigned long long> done{0};
    bool cooperative = false;                     /* cudaLaunchCooperativeKernel */
    std::atomic<unsigned long long> sync_count{0}; /* blocks waiting at grid.sync() */
    std::atomic<unsigned long long> sync_gen{0};   /* grid.sync() openings so far */
};

struct Worker {
    int id = 0;
    fcontext_t sched = nullptr;
    std::vector<Fiber> fibers;
    std::vector<char *> stacks; /* base (guard page) of each stack */
    std::vector<unsigned> perm;
    unsigned warp_arrived[32] = {};
    bool warp_mixed[32] = {}; /* waiting lanes of the warp are in different operations */
    char *smem_region = nullptr; /* dynamic shared memory + guard page */
    size_t smem_cap = 0;
    Grid *grid = nullptr;
    unsigned n = 0; /* threads in the current block */
    int nrunnable = 0, nexited = 0, nbarrier = 0, nwarp = 0, nactivemask = 0;
    int bar_count = 0, bar_result = 0;
    std::atomic<bool> busy{false};
    uint3 block{0, 0, 0};
    unsigned long long pass = 0;
    unsigned k = 0;           /* position in the current pass */
    unsigned warp_first = 0;  /* warp-serial: position where the current warp's lanes start */
    bool warp_moved = false;  /* warp-serial: a lane of it got further in this sweep */
    int ran = 0, ran_soft = 0; /* fibers run in this pass, and how many only slept */
    Fiber *volatile cur = nullptr;
};

__thread Worker *tl_worker;
__thread Fiber *tl_fiber;

Settings g_settings;
char g_settings_text[160];
std::once_flag g_settings_once;

/* Never destroyed: workers still wait on them while the process exits. */
std::mutex &g_mu = *new std::mutex;
std::condition_variable &g_cv_work = *new std::condition_variable;
std::condition_variable &g_cv_host = *new std::condition_variable;
std::vector<Worker *> g_workers;
Grid *g_grid = nullptr;
unsigned long long g_gen = 0;
int g_active = 0;
std::atomic<unsigned long long> g_progress{0};
size_t g_max_dyn_smem = 48 * 1024;
const size_t SMEM_REGION = 228 * 1024; /* the most a Hopper block may opt in to */

size_t page_size()
{
    static const size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

/* CUEMU_MEMORY=strong (default) | weak | weak:SEED (memory.cpp).  Without a
 * seed one is picked and printed with any diagnostic, as for the schedule. */
void load_memory_setting(Settings &s)
{
    s.weak_memory = false;
    s.memory_seed = 0;
    const char *e = getenv("CUEMU_MEMORY");
    if (!e || !*e || !strcmp(e, "strong"))
        return;
    if (strncmp(e, "weak", 4) || (e[4] != 0 && e[4] != ':')) {
        fprintf(stderr, "cuemu: CUEMU_MEMORY='%s' not understood (strong | weak | weak:SEED); "
                        "using strong\n", e);
        return;
    }
    s.weak_memory = true;
    if (e[4] == ':')
        s.memory_seed = strtoull(e + 5, nullptr, 0);
    else
        s.memory_seed = (unsigned long long)std::chrono::steady_clock::now()
                            .time_since_epoch().count() ^ ((unsigned long long)getpid() << 20);
    g_weak_memory = true;
}

void load_settings()
{
    Settings &s = g_settings;
    s.schedule = SCHED_INORDER;
    s.warp_serial = false;
    s.seed = 0;
    const char *e = getenv("CUEMU_SCHEDULE");
    const char *sched_name = "inorder";
    if (e && *e) {
        if (!strcmp(e, "inorder")) {
        } else if (!strcmp(e, "reverse")) {
            s.schedule = SCHED_REVERSE;
            sched_name = "reverse";
        } else if (!strcmp(e, "warps")) {
            s.warp_serial = true;
            sched_name = "warps";
        } else if (!strcmp(e, "warps-reverse")) {
            s.schedule = SCHED_REVERSE;
            s.warp_serial = true;
            sched_name = "warps-reverse";
        } else if (!strncmp(e, "random", 6) && (e[6] == 0 || e[6] == ':')) {
            s.schedule = SCHED_RANDOM;
            sched_name = "random";
            if (e[6] == ':')
                s.seed = strtoull(e + 7, nullptr, 0);
            else
                s.seed = (unsigned long long)std::chrono::steady_clock::now()
                             .time_since_epoch().count() ^ ((unsigned long long)getpid() << 32);
        } else {
            fprintf(stderr, "cuemu: CUEMU_SCHEDULE='%s' not understood "
                            "(inorder | reverse | random[:SEED] | warps | warps-reverse); "
                            "using inorder\n", e);
        }
    }
    s.threads = 0;
    if ((e = getenv("CUEMU_THREADS")) && *e)
        s.threads = atoi(e);
    if (s.threads <= 0) {
        cpu_set_t set;
        s.threads = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
        if (s.threads <= 0)
            s.threads = 1;
    }
    if (s.threads > 256)
        s.threads = 256;
    s.timeout = 30;
    if ((e = getenv("CUEMU_TIMEOUT")) && *e && atof(e) > 0)
        s.timeout = atof(e);
    size_t kib = 64;
    if ((e = getenv("CUEMU_STACK_KB")) && *e && atoi(e) >= 16)
        kib = (size_t)atoi(e);
    s.stack_bytes = kib * 1024;
    load_memory_setting(s);
    int len;
    if (s.schedule == SCHED_RANDOM)
        len = snprintf(g_settings_text, sizeof g_settings_text,
                       "CUEMU_SCHEDULE=random:%llu CUEMU_THREADS=%d", s.seed, s.threads);
    else
        len = snprintf(g_settings_text, sizeof g_settings_text,
                       "CUEMU_SCHEDULE=%s CUEMU_THREADS=%d", sched_name, s.threads);
    if (s.weak_memory)
        snprintf(g_settings_text + len, sizeof g_settings_text - len, " CUEMU_MEMORY=weak:%llu",
                 s.memory_seed);
}

unsigned long long mix(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The CUDA name of a barrier (BarrierKind) or warp operation (WarpOp). */
const char *kind_name(bool warp, int kind)
{
    static const char *const bar[] = {"__syncthreads()", "__syncthreads_count()",
                                      "__syncthreads_and()", "__syncthreads_or()"};
    static const char *const wop[WARP_OP_KINDS] = {
        "__shfl_sync()", "__shfl_up_sync()", "__shfl_down_sync()", "__shfl_xor_sync()",
        "__ballot/any/all_sync()", "__match_any_sync()", "__match_all_sync()",
        "__reduce_*_sync()", "__syncwarp()", "__activemask()"};
    return warp ? wop[kind] : bar[kind];
}

/* Can a lane waiting in o meet a lane arriving with (kind, mask, arg)?
 * Shuffles of any direction exchange with each other, as on a GPU. */
inline bool compatible(const Fiber *o, WarpOp kind, unsigned mask, int arg)
{
    return o->mask == mask && ((is_shuffle(o->kind) && is_shuffle(kind)) ||
                               (o->kind == kind && (kind != WARP_REDUCE || o->src == arg)));
}

/* ---- fibers ------------------------------------------------------------ */

/* Save the running context in *save and continue in target. */
inline void switch_to(fcontext_t *save, fcontext_t target)
{
#if defined(__x86_64__)
    cuemu_switch(save, target);
#else
    transfer_t t = jump_fcontext(target, save);
    *(fcontext_t *)t.data = t.fctx; /* the context we came from, saved for later */
#endif
}

/* The fiber at position k of the current pass. */
inline unsigned pass_index(Worker *w, unsigned k)
{
    ScheduleKind kind = g_settings.schedule;
    return kind == SCHED_INORDER ? k : kind == SCHED_REVERSE ? w->n - 1 - k : w->perm[k];
}

/*
 * Warp-serial schedules: has the pass reached the end of the current
 * warp's lanes?  Then, while a lane of that warp got further in the sweep
 * just ended, sweep the same warp again; only a warp in which no lane can
 * go on (all wait at a block barrier, have exited or only poll) hands over
 * to the next.  So warp 0 runs a whole phase before warp 1 starts it, as
 * independently scheduled warps may on a GPU, and a missing
 * __syncthreads() between one warp's write and another's read shows up
 * even where every warp meets its lanes at a shuffle first.
 */
inline bool warp_sweep_over(Worker *w)
{
    if (w->k < w->n && pass_index(w, w->k) / 32 == pass_index(w, w->warp_first) / 32)
        return false;
    if (w->warp_moved)
        w->k = w->warp_first; /* the same warp again */
    else
        w->warp_first = w->k; /* the next warp */
    w->warp_moved = false;
    return true;
}

/* The next runnable fiber of the current pass over the block, if any. */
inline Fiber *next_in_pass(Worker *w)
{
    Fiber *fs = w->fibers.data();
    unsigned n = w->n;
    const bool serial = g_settings.warp_serial;
    while (w->k < n || (serial && w->warp_moved)) {
        if (serial && warp_sweep_over(w))
            continue;
        unsigned k = w->k++;
        unsigned i = pass_index(w, k);
        if (fs[i].state == RUNNABLE) {
            /* Switches are bound by cache misses on the next stacks: fetch
             * the saved contexts of the fibers two ahead, and the Fiber
             * records four ahead, before they are needed. */
            if (k + 2 < n) {
                const char *sp = (const char *)fs[pass_index(w, k + 2)].ctx;
                __builtin_prefetch(sp);
                __builtin_prefetch(sp + 64);
                __builtin_prefetch(sp + 128);
            }
            if (k + 4 < n)
                __builtin_prefetch(&fs[pass_index(w, k + 4)]);
            return &fs[i];
        }
    }
    return nullptr;
}

inline void enter(Worker *w, Fiber *f)
{
    f->soft = false;
    tl_fiber = f;
    w->cur = f;
    threadIdx = f->tid;
}

/* The running fiber stops (barrier, warp operation, __nanosleep or its end).
 * Switch straight to the next fiber of the pass - one switch instead of two
 * through the scheduler - or back to the block scheduler when the pass is
 * over. */
inline void yield_to_block_scheduler()
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    w->ran++;
    if (f->soft && f->state == RUNNABLE)
        w->ran_soft++;
    else
        w->warp_moved = true;
    Fiber *next = next_in_pass(w);
    if (next) {
        enter(w, next);
        switch_to(&f->ctx, next->ctx);
    } else {
        switch_to(&f->ctx, w->sched);
    }
}

void fiber_body()
{
    Worker *w = tl_worker;
    try {
        w->grid->fn(w->grid->ctx);
    } catch (...) {
        diag_exit("a C++ exception escaped from device code");
    }
    Fiber *f = tl_fiber;
    mem_settle();
    f->state = EXITED;
    w->nrunnable--;
    w->nexited++;
    yield_to_block_scheduler();
    abort(); /* a finished fiber is never resumed */
}

#if defined(__x86_64__)
/* A fresh stack: six zero registers for cuemu_switch to pop, then the
 * address it "returns" to, laid out so that the stack is 16-byte aligned
 * at the call in cuemu_fiber_start. */
fcontext_t new_context(char *top)
{
    uintptr_t t = (uintptr_t)top & ~(uintptr_t)15;
    void **sp = (void **)(t - 72);
    for (int k = 0; k < 6; k++)
        sp[k] = nullptr;
    sp[6] = (void *)cuemu_fiber_start;
    return (fcontext_t)sp;
}
#else
void fiber_entry(transfer_t t)
{
    *(fcontext_t *)t.data = t.fctx;
    fiber_body();
}
fcontext_t new_context(char *top)
{
    return make_fcontext(top, g_settings.stack_bytes - 4096, fiber_entry);
}
#endif

char *stack_for(Worker *w, unsigned i)
{
    while (w->stacks.size() <= i) {
        size_t len = g_settings.stack_bytes + page_size();
        void *p = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            diag_exit("cannot allocate a fiber stack (%zu bytes)", len);
        mprotect(p, page_size(), PROT_NONE); /* guard page: stack overflow faults */
        w->stacks.push_back((char *)p);
    }
    return w->stacks[i];
}

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
                               i >> 5, f.tid.x, f.tid.y, f.tid.z, kind_name(true, f.kind), f.file,
                               f.line, f.mask, l, g.tid.x, g.tid.y, g.tid.z);
                fail_block(w, "divergent warp operation: in warp %u, thread (%u,%u,%u) waits at "
                              "%s (%s:%d) with mask 0x%08x, but lane %u, thread (%u,%u,%u), "
                              "named in the mask, waits at %s (%s:%d)",
                           i >> 5, f.tid.x, f.tid.y, f.tid.z, kind_name(true, f.kind), f.file,
                           f.line, f.mask, l, g.tid.x, g.tid.y, g.tid.z,
                           kind_name(g.state == AT_WARP || g.state == AT_ACTIVEMASK, g.kind), g.file, g.line);
            }
            fail_block(w, "warp operation never completed: thread (%u,%u,%u) at %s (%s:%d)",
                       f.tid.x, f.tid.y, f.tid.z, kind_name(true, f.kind), f.file, f.line);
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
                           kind_name(false, first->kind), first->file, first->line, f.tid.x,
                           f.tid.y, f.tid.z, kind_name(false, f.kind), f.file, f.line);
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
                   first->tid.x, first->tid.y, first->tid.z, kind_name(false, first->kind),
                   first->file, first->line, gone->tid.x, gone->tid.y, gone->tid.z, w->nexited,
                   w->n);
    }
    w->bar_result = w->bar_count;
    w->bar_count = 0;
    for (unsigned i = 0; i < w->n; i++)
        fs[i].state = RUNNABLE;
    w->nrunnable = (int)w->n;
    w->nbarrier = 0;
    g_progress.fetch_add(1, std::memory_order_relaxed);
}

/* __activemask(): a lane waits until no lane of its warp can run any more;
 * then the lanes waiting at the same __activemask() call are the converged,
 * active group, and each of them receives that group as its mask. */
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
                    !strcmp(fs[j].file, fs[i].file))
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

void run_block(Worker *w, Grid *g, unsigned long long b)
{
    const Settings &s = g_settings;
    dim3 gd = g->grid, bd = g->block;
    blockIdx.x = (unsigned)(b % gd.x);
    blockIdx.y = (unsigned)(b / gd.x % gd.y);
    blockIdx.z = (unsigned)(b / gd.x / gd.y);
    w->block = blockIdx;
    unsigned n = bd.x * bd.y * bd.z;
    w->n = n;
    if (w->fibers.size() < n)
        w->fibers.resize(n);
    Fiber *fs = w->fibers.data();
    for (unsigned i = 0; i < n; i++) {
        Fiber &f = fs[i];
        char *stack = stack_for(w, i);
        /* Stagger the stack tops over the cache sets: otherwise the saved
         * contexts of all fibers (stacks a multiple of 4 KiB apart) compete
         * for the same few L1 sets and every switch misses. */
        size_t color = (i % 64) * 64 + (i / 64 % 4) * 4096;
        f.ctx = new_context(stack + page_size() + s.stack_bytes - color);
        f.tid.x = i % bd.x;
        f.tid.y = i / bd.x % bd.y;
        f.tid.z = i / bd.x / bd.y;
        f.linear = i;
        f.state = RUNNABLE;
        f.soft = false;
        f.file = "";
        f.line = 0;
    }
    memset(w->warp_arrived, 0, sizeof w->warp_arrived);
    memset(w->warp_mixed, 0, sizeof w->warp_mixed);
    w->nrunnable = (int)n;
    w->nexited = w->nbarrier = w->nwarp = w->nactivemask = 0;
    w->bar_count = w->bar_result = 0;
    mem_block_begin(b);
    dyn_smem_base = w->smem_region + w->smem_cap - ((g->shmem + 15) & ~(size_t)15);

    if (w->perm.size() < n)
        w->perm.resize(n);
    unsigned *order = w->perm.data();
    for (w->pass = 0;; w->pass++) {
        if (s.schedule == SCHED_RANDOM) {
            for (unsigned i = 0; i < n; i++)
                order[i] = i;
            unsigned long long r = mix(s.seed ^ mix(b * 0x100000001b3ull + w->pass));
            for (unsigned i = n - 1; i > 0; i--) {
                r = mix(r);
                unsigned j = (unsigned)(r % (i + 1));
                std::swap(order[i], order[j]);
            }
        }
        /* One pass: every runnable fiber runs once, in schedule order, each
         * switching to the next when it stops (yield_to_block_scheduler). */
        w->k = w->warp_first = 0;
        w->warp_moved = false;
        w->ran = w->ran_soft = 0;
        if (Fiber *first = next_in_pass(w)) {
            enter(w, first);
            switch_to(&w->sched, first->ctx);
        }
        int ran = w->ran, ran_soft = w->ran_soft;
        tl_fiber = nullptr;
        w->cur = nullptr;
        if (w->nactivemask > 0)
            release_activemask(w);
        if (w->nexited == (int)n)
            break;
        if (w->nrunnable == 0)
            resolve_stall(w);
        else if (ran > 0 && ran == ran_soft)
            sched_yield(); /* everyone is polling: let other blocks run */
    }
}

unsigned long long block_at(Grid *g, unsigned long long k)
{
    switch (g_settings.schedule) {
    case SCHED_INORDER: return k;
    case SCHED_REVERSE: return g->total - 1 - k;
    default: return g->order.empty() ? (k * g->mul + g->add) % g->total : g->order[k];
    }
}

/* CUEMU_MEMORY=weak: this worker has run its share of grid g.  While other
 * workers still run blocks, its held-back stores become visible one at a
 * time at random moments (with the holds of memory.cpp), so that a block
 * on another worker that reaches its poll late still sees them out of
 * order.  At the kernel boundary all of them are visible. */
void drain_stores(Grid *g)
{
    while (mem_held() && g->done.load() < g->total) {
        mem_drain_moment();
        std::this_thread::sleep_for(std::chrono::microseconds(WEAK_DRAIN_US));
    }
    mem_grid_end();
}

void worker_main(Worker *w)
{
    tl_worker = w;
    install_altstack();
    /* Dynamic shared memory of the block this worker runs, flush against a
     * guard page so that reading past the launch's size faults. */
    size_t ps = page_size();
    w->smem_cap = SMEM_REGION;
    void *p = mmap(nullptr, w->smem_cap + ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        diag_exit("cannot allocate shared memory for a worker");
    w->smem_region = (char *)p;
    memset(p, 0xff, w->smem_cap); /* uninitialised shared memory reads as NaN / -1 */
    mprotect(w->smem_region + w->smem_cap, ps, PROT_NONE);

    unsigned long long seen = 0;
    for (;;) {
        Grid *g;
        {
            std::unique_lock<std::mutex> lk(g_mu);
            g_cv_work.wait(lk, [&] { return g_grid && g_gen != seen; });
            seen = g_gen;
            /* Workers beyond CUEMU_THREADS exist for cooperative grids only. */
            if (w->id >= g_settings.threads && !g_grid->cooperative)
                continue;
            g = g_grid;
            g_active++;
        }
        w->grid = g;
        blockDim = g->block;
        gridDim = g->grid;
        unsigned long long k;
        while ((k = g->next.fetch_add(1)) < g->total) {
            w->busy = true;
            run_block(w, g, block_at(g, k));
            w->busy = false;
            g_progress.fetch_add(1, std::memory_order_relaxed);
            if (g->done.fetch_add(1) + 1 == g->total) {
                std::lock_guard<std::mutex> lk(g_mu);
                g_cv_host.notify_all();
            }
        }
        drain_stores(g);
        std::lock_guard<std::mutex> lk(g_mu);
        w->grid = nullptr;
        g_active--;
        g_cv_host.notify_all();
    }
}

/* At least n workers (a cooperative grid needs one per block, all
 * resident at once, as on a GPU).  Called with g_mu held. */
void ensure_workers(int n)
{
    for (int i = (int)g_workers.size(); i < n; i++) {
        Worker *w = new Worker;
        w->id = i;
        g_workers.push_back(w);
        std::thread(worker_main, w).detach();
    }
}

void start_workers()
{
    if (!g_workers.empty())
        return;
    for (int i = 0; i < g_settings.threads; i++) {
        Worker *w = new Worker;
        w->id = i;
        g_workers.push_back(w);
        std::thread(worker_main, w).detach();
    }
}

/* No block finished and no barrier opened for CUEMU_TIMEOUT seconds. */
[[noreturn]] void report_deadlock(Grid *g)
{
    fflush(stdout);
    fprintf(stderr,
            "cuemu: error: deadlock: no progress for %g s in kernel '%s' (launched at %s:%d); "
            "%llu of %llu blocks finished, %llu not started\n",
            g_settings.timeout, g->name, g->file, g->line, (unsigned long long)g->done.load(),
            g->total,
            g->total - std::min<unsigned long long>(g->total, g->next.load()));
    for (Worker *w : g_workers) {
        if (!w->busy || w->grid != g)
            continue;
        Fiber *cur = w->cur;
        int run = 0, bar = 0, warp = 0, exited = 0;
        Fiber *first_bar = nullptr, *first_warp = nullptr, *first_run = nullptr;
        for (unsigned i = 0; i < w->n; i++) {
            Fiber &f = w->fibers[i];
            switch (f.state) {
            case RUNNABLE: run++; if (!first_run) first_run = &f; break;
            case AT_BARRIER: bar++; if (!first_bar) first_bar = &f; break;
            case AT_WARP: case AT_ACTIVEMASK: warp++; if (!first_warp) first_warp = &f; break;
            default: exited++;
            }
        }
        Fiber *spin = cur ? cur : first_run;
        fprintf(stderr, "cuemu:   block (%u,%u,%u) on worker %d:", w->block.x, w->block.y,
                w->block.z, w->id);
        if (spin)
            fprintf(stderr, " thread (%u,%u,%u) is running (spinning, waiting for something "
                            "that never happens?);",
                    spin->tid.x, spin->tid.y, spin->tid.z);
        fprintf(stderr, " %d runnable", run);
        if (bar)
            fprintf(stderr, ", %d at %s (%s:%d)", bar, kind_name(false, first_bar->kind),
                    first_bar->file, first_bar->line);
        if (warp)
            fprintf(stderr, ", %d at %s (%s:%d)", warp, kind_name(true, first_warp->kind),
                    first_warp->file, first_warp->line);
        if (exited)
            fprintf(stderr, ", %d exited", exited);
        fprintf(stderr, "\n");
    }
    fprintf(stderr,
            "cuemu:   hint: blocks run in dispatch order (%s) on %d worker thread(s); code "
            "that waits for a block with a lower blockIdx may wait for a block that has "
            "not started.  Set CUEMU_TIMEOUT to change the limit.\n",
            settings_text(), g_settings.threads);
    fflush(stderr);
    _exit(DIAG_EXIT);
}

} // namespace

/* ---- interface to the rest of the emulator ------------------------------ */

const Settings &settings()
{
    std::call_once(g_settings_once, load_settings);
    return g_settings;
}
const char *settings_text()
{
    settings();
    return g_settings_text;
}
int worker_count() { return settings().threads; }
size_t max_dynamic_shared() { return g_max_dyn_smem; }
void set_max_dynamic_shared(size_t bytes) { g_max_dyn_smem = bytes; }

Where where_now()
{
    Where r{};
    Worker *w = tl_worker;
    if (w && w->grid) {
        r.in_kernel = true;
        r.kernel = w->grid->name;
        r.file = w->grid->file;
        r.line = w->grid->line;
        r.block = w->block;
        if (tl_fiber)
            r.thread = tl_fiber->tid;
        else
            r.thread = uint3{~0u, ~0u, ~0u};
    }
    return r;
}

bool describe_stack_address(uintptr_t addr, char *buf, size_t len)
{
    Worker *w = tl_worker;
    if (!w)
        return false;
    for (char *s : w->stacks)
        if (addr >= (uintptr_t)s && addr < (uintptr_t)s + page_size()) {
            snprintf(buf, len, "stack overflow of a device thread (each CUDA thread has a "
                               "%zu KiB stack here; deep recursion or a large local array? "
                               "CUEMU_STACK_KB raises it)",
                     g_settings.stack_bytes / 1024);
            return true;
        }
    return false;
}

bool on_fiber_stack(uintptr_t addr)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f || f->linear >= w->stacks.size())
        return false;
    return addr - (uintptr_t)w->stacks[f->linear] < page_size() + g_settings.stack_bytes;
}

bool describe_shared_address(uintptr_t addr, char *buf, size_t len)
{
    Worker *w = tl_worker;
    if (!w || !w->grid || !w->smem_region)
        return false;
    uintptr_t end = (uintptr_t)w->smem_region + w->smem_cap;
    if (addr >= end && addr < end + page_size()) {
        snprintf(buf, len, "out-of-bounds access to dynamic shared memory: %zu bytes past the "
                           "end of the %zu bytes given at launch (extern __shared__ array)",
                 (size_t)(addr - end) + ((w->grid->shmem + 15) & ~(size_t)15) - w->grid->shmem,
                 w->grid->shmem);
        return true;
    }
    return false;
}

cudaError_t launch_grid(const char *name, const char *file, int line, const LaunchConfig &cfg,
                        void (*fn)(void *), void *ctx)
{
    init_runtime();
    const Settings &s = settings();
    if (tl_worker)
        diag_exit("kernel '%s' launched from device code (dynamic parallelism is not "
                  "supported by the emulator)", name);
    dim3 gd = cfg.grid, bd = cfg.block;
    unsigned long long nthreads = (unsigned long long)bd.x * bd.y * bd.z;
    /* The errors CUDA 13 gives on an H200 (tests/emu/programs/launch_errors.cu,
     * compared by tests/gpu/device-emu-compare.sh): more threads than a
     * block may have is an invalid value, a dimension out of range an
     * invalid configuration. */
    if (bd.x == 0 || bd.y == 0 || bd.z == 0 || bd.z > 64 || gd.x == 0 || gd.y == 0 ||
        gd.z == 0 || gd.x > 0x7fffffffu || gd.y > 65535 || gd.z > 65535) {
        set_last_error(cudaErrorInvalidConfiguration);
        return cudaErrorInvalidConfiguration;
    }
    if (nthreads > 1024) {
        set_last_error(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    if (cfg.shmem > g_max_dyn_smem) {
        set_last_error(cudaErrorInvalidValue);
        return cudaErrorInvalidValue;
    }
    Grid g;
    g.name = name;
    g.file = file;
    g.line = line;
    g.grid = gd;
    g.block = bd;
    g.shmem = cfg.shmem;
    g.fn = fn;
    g.ctx = ctx;
    g.total = (unsigned long long)gd.x * gd.y * gd.z;
    if (s.schedule == SCHED_RANDOM) {
        unsigned long long r = mix(s.seed ^ 0x5eedull);
        if (g.total <= (1ull << 24)) {
            g.order.resize(g.total);
            for (unsigned long long i = 0; i < g.total; i++)
                g.order[i] = (unsigned)i;
            for (unsigned long long i = g.total - 1; i > 0; i--) {
                r = mix(r);
                std::swap(g.order[i], g.order[r % (i + 1)]);
            }
        } else {
            do {
                r = mix(r);
                g.mul = r % g.total;
            } while (std::__gcd(g.mul, g.total) != 1);
            g.add = mix(r) % g.total;
        }
    }

    g.cooperative = cfg.cooperative;
    if (cfg.cooperative &&
        g.total > (unsigned long long)blocks_per_sm((int)nthreads, cfg.shmem) * s.threads) {
        set_last_error(cudaErrorCooperativeLaunchTooLarge);
        return cudaErrorCooperativeLaunchTooLarge;
    }

    std::unique_lock<std::mutex> lk(g_mu);
    start_workers();
    if (cfg.cooperative)
        ensure_workers((int)g.total);
    g_grid = &g;
    g_gen++;
    g_cv_work.notify_all();
    auto last_change = std::chrono::steady_clock::now();
    unsigned long long last_progress = g_progress.load();
    while (g.done.load() < g.total) {
        g_cv_host.wait_for(lk, std::chrono::milliseconds(100));
        unsigned long long p = g_progress.load();
        auto now = std::chrono::steady_clock::now();
        if (p != last_progress) {
            last_progress = p;
            last_change = now;
        } else if (std::chrono::duration<double>(now - last_change).count() > s.timeout) {
            report_deadlock(&g);
        }
    }
    g_grid = nullptr;
    g_cv_host.wait(lk, [] { return g_active == 0; });
    return cudaSuccess;
}

/* Resident blocks per emulated SM (the occupancy API and the limit of a
 * cooperative launch): by threads (2048 per SM, at most 32 blocks) and by
 * dynamic shared memory (228 KiB per SM, 1 KiB reserved per block);
 * registers are not modelled. */
int blocks_per_sm(int threads, size_t shmem)
{
    if (threads <= 0 || threads > 1024)
        return 0;
    int warps = (threads + 31) / 32;
    int n = std::min(32, 64 / warps);
    if (shmem > 0)
        n = std::min<long long>(n, (long long)(228 * 1024) / (long long)(shmem + 1024));
    return n;
}

bool grid_is_cooperative()
{
    Worker *w = tl_worker;
    return w && w->grid && w->grid->cooperative;
}

/* grid_group::sync(): the block meets at a barrier, then its thread 0
 * waits (holding the worker, as a resident block holds its SM) until every
 * block of the grid has arrived; a second barrier releases the block. */
void grid_sync(const char *file, int line)
{
    Worker *w = tl_worker;
    Fiber *f = tl_fiber;
    if (!w || !f)
        trap("grid_group::sync() outside a kernel", file, line);
    Grid *g = w->grid;
    if (!g->cooperative)
        diag_exit("grid_group::sync() at %s:%d in a kernel not launched with "
                  "cudaLaunchCooperativeKernel (a GPU does not synchronise the grid either)",
                  file, line);
    block_sync(BAR_PLAIN, 0, file, line);
    if (f->linear == 0) {
        thread_fence(FENCE_DEVICE);
        unsigned long long gen = g->sync_gen.load();
        if (g->sync_count.fetch_add(1) + 1 == g->total) {
            g->sync_count.store(0);
            g->sync_gen.fetch_add(1);
            g_progress.fetch_add(1, std::memory_order_relaxed);
        } else {
            for (int spins = 0; g->sync_gen.load() == gen; spins++) {
                if (g->done.load() > 0)
                    diag_exit("divergent grid sync: block (%u,%u,%u) waits at grid_group::sync() "
                              "(%s:%d), but %llu block(s) of the grid have exited without it",
                              w->block.x, w->block.y, w->block.z, file, line,
                              (unsigned long long)g->done.load());
                if (spins < 64)
                    sched_yield();
                else
                    std::this_thread::sleep_for(std::chrono::microseconds(20));
            }
        }
        thread_fence(FENCE_DEVICE);
    }
    block_sync(BAR_PLAIN, 0, file, line);
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
    yield_to_block_scheduler();
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
                      lane, kind_name(true, kind), file, line, mask, l,
                      kind_name(true, o->kind), o->file, o->line, o->mask);
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
                  lane, wi, kind_name(true, kind), file, line, mask);
    if (width <= 0 || width > 32 || (width & (width - 1)))
        diag_exit("%s (%s:%d): width %d is not a power of two between 1 and 32",
                  kind_name(true, kind), file, line, width);
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
        yield_to_block_scheduler();
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
    yield_to_block_scheduler();
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
    yield_to_block_scheduler();
}

void trap(const char *what, const char *file, int line)
{
    diag_exit("%s at %s:%d", what, file, line);
}

} // namespace cuemu

#if defined(__x86_64__)
extern "C" void cuemu_fiber_main() { cuemu::fiber_main_entry(); }
#endif
namespace cuemu {
void fiber_main_entry() { fiber_body(); }
}
