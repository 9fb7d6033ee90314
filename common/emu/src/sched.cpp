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
#define CUEMU_SETS_INDEX_VARIABLES /* threadIdx and friends, const elsewhere */
#include "internal.h"
#include "fiber.h"
#include "device_model.h"

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
 * mode, so they are left out.  It ends with `ret`, not `pop; jmp` as
 * Boost's does: the `call` into it pushed a return-stack-buffer entry that
 * only a `ret` takes off again, and every fiber stops and resumes at the
 * same call sites, so the `ret` and the returns after it (to block_sync,
 * to the kernel) are predicted; with the `jmp` each switch left an entry
 * behind and the returns after it were mispredicted (a loop of bare
 * __syncthreads(): 15 ns a thread per barrier before, 8 after; README,
 * "The corpus of 43", Barriers).  Other architectures use Boost.Context. */
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
    ret
    .size cuemu_switch, .-cuemu_switch
    .globl cuemu_fiber_start
    .type cuemu_fiber_start, @function
cuemu_fiber_start:
    call cuemu_fiber_main
    ud2
    .size cuemu_fiber_start, .-cuemu_fiber_start
)");
#else
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

namespace detail {
__thread Worker *tl_worker;
__thread Fiber *tl_fiber;
std::atomic<unsigned long long> g_progress{0};

size_t page_size()
{
    static const size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}
} // namespace detail
using namespace detail;

namespace {



/* Never destroyed: workers still wait on them while the process exits. */
std::mutex &g_mu = *new std::mutex;
std::condition_variable &g_cv_work = *new std::condition_variable;
std::condition_variable &g_cv_host = *new std::condition_variable;
std::vector<Worker *> g_workers;
Grid *g_grid = nullptr;
unsigned long long g_gen = 0;
int g_active = 0;
size_t g_max_dyn_smem = h100::SHARED_PER_BLOCK;
const size_t SMEM_REGION = h100::SHARED_PER_SM; /* more than a block may opt in to */

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
    check_stack(w, f->linear);
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
        f.vol_stored = false;
        f.file = "";
        f.line = 0;
    }
    memset(w->warp_arrived, 0, sizeof w->warp_arrived);
    memset(w->warp_mixed, 0, sizeof w->warp_mixed);
    memset(w->warp_vol, 0, sizeof w->warp_vol);
    w->nrunnable = (int)n;
    w->nexited = w->nbarrier = w->nwarp = w->nactivemask = w->nvolatile = 0;
    w->bar_count = w->bar_result = 0;
    mem_block_begin(b);
    size_t dyn = (g->shmem + 15) & ~(size_t)15;
    if (dyn > w->smem_filled) { /* uninitialised shared memory reads as NaN / -1 */
        memset(w->smem_region + w->smem_cap - dyn, 0xff, dyn - w->smem_filled);
        w->smem_filled = dyn;
    }
    dyn_smem_base = w->smem_region + w->smem_cap - dyn;
    if (g_counting)
        count_block_begin(g, dyn_smem_base, g->shmem, n);
    if (g_tracing)
        trace_block_begin(g, b, dyn_smem_base, g->shmem);

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
        if (w->nvolatile > 0)
            release_volatile(w);
        if (w->nexited == (int)n)
            break;
        if (w->nrunnable == 0)
            resolve_stall(w);
        else if (ran > 0 && ran == ran_soft)
            sched_yield(); /* everyone is polling: let other blocks run */
    }
    if (g_counting)
        count_block_end();
    if (g_tracing)
        trace_block_end();
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
    w->smem_filled = 0; /* filled with 0xff as blocks need it (run_block) */
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
            bool last = g->done.fetch_add(1) + 1 == g->total;
            if (g->cooperative) { /* blocks asleep at grid.sync() check for a divergence */
                std::lock_guard<std::mutex> lk(g->sync_mu);
                g->sync_cv.notify_all();
            }
            if (last) {
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
            case AT_VOLATILE: run++; if (!first_run) first_run = &f; break;
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

/* The host thread waits for launch g (g_mu held in lk), waking every
 * 100 ms: no block finished and no barrier opened for CUEMU_TIMEOUT seconds
 * is a deadlock; a launch that has run CUEMU_SLOW_NOTE seconds says how far
 * it is, and so do shorter launches that have in all (progress.cpp).
 * Neither costs the blocks anything. */
void wait_for_grid(Grid &g, std::unique_lock<std::mutex> &lk)
{
    auto last_change = std::chrono::steady_clock::now();
    unsigned long long last_progress = g_progress.load();
    auto seconds = [](std::chrono::steady_clock::time_point t) {
        return std::chrono::duration<double>(t.time_since_epoch()).count();
    };
    LaunchProgress slow{seconds(last_change), 0, false};
    while (g.done.load() < g.total) {
        g_cv_host.wait_for(lk, std::chrono::milliseconds(100));
        unsigned long long p = g_progress.load();
        auto now = std::chrono::steady_clock::now();
        slow_note_check(g, slow, seconds(now));
        if (p != last_progress) {
            last_progress = p;
            last_change = now;
        } else if (std::chrono::duration<double>(now - last_change).count() > g_settings.timeout) {
            report_deadlock(&g);
        }
    }
    slow_note_launch_end(g, slow, seconds(std::chrono::steady_clock::now()));
}

} // namespace

namespace detail {
void yield_fiber() { yield_to_block_scheduler(); }
const char *op_name(bool warp, int kind) { return kind_name(warp, kind); }
} // namespace detail

/* ---- interface to the rest of the emulator ------------------------------ */

int worker_count() { return settings().threads; }
size_t max_dynamic_shared() { return g_max_dyn_smem; }
void set_max_dynamic_shared(size_t bytes) { g_max_dyn_smem = bytes; }

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
    /* CUDA 13 on an H200 answers every bad launch configuration (a zero or
     * too large dimension, more threads than a block may have) with
     * cudaErrorInvalidValue, where CUDA 12 said cudaErrorInvalidConfiguration
     * (tests/emu/programs/launch_errors.cu, compared with the GPU by
     * tests/gpu/device-emu-compare.sh). */
    if (bd.x == 0 || bd.y == 0 || bd.z == 0 || bd.z > 64 || nthreads > 1024 || gd.x == 0 ||
        gd.y == 0 || gd.z == 0 || gd.x > 0x7fffffffu || gd.y > 65535 || gd.z > 65535) {
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
        g.total > (unsigned long long)blocks_per_sm((int)nthreads, cfg.shmem) * h100::SMS) {
        set_last_error(cudaErrorCooperativeLaunchTooLarge);
        return cudaErrorCooperativeLaunchTooLarge;
    }

    watch_launch_begin();
    if (g_tracing)
        trace_launch_begin(&g);
    ic_launch_begin();
    std::unique_lock<std::mutex> lk(g_mu);
    start_workers();
    if (cfg.cooperative)
        ensure_workers((int)g.total);
    g_grid = &g;
    g_gen++;
    g_cv_work.notify_all();
    wait_for_grid(g, lk);
    g_grid = nullptr;
    g_cv_host.wait(lk, [] { return g_active == 0; });
    watch_launch_end();
    ic_launch_end();
    if (g_counting)
        count_launch_end(&g);
    if (g_tracing)
        trace_launch_end(&g);
    return cudaSuccess;
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
