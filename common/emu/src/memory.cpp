/*
 * memory.cpp - CUEMU_MEMORY=weak: a block's volatile stores become visible
 * to other blocks late and out of order, so that message passing without a
 * fence (value, then flag, with no __threadfence() between) fails here the
 * way it may fail on a GPU, instead of passing by luck.
 *
 * How stores are seen.  emu-nvcc compiles device code with GCC's
 * ThreadSanitizer instrumentation but without its run-time library: every
 * memory access calls one of the __tsan_* functions below first, and every
 * atomic operation is a call to one of them instead of an instruction.  No
 * data race detection takes place; the calls are only hooks.  A hook is
 * told the address of an access, not the value stored, and the store itself
 * follows it inline.  So a volatile store is delayed by undoing it: its hook
 * saves the bytes it overwrites, the store happens, and the next hook of the
 * same worker (any access, barrier, warp operation or fence: "settle") puts
 * the old bytes back and keeps the new ones in the worker's store buffer.
 * Buffered stores are written to memory
 *   - all of them, at __threadfence() / __threadfence_system(), at an atomic
 *     with release (or stronger) order, and at the end of the kernel;
 *   - the newest of them, at seeded pseudo-random moments (every
 *     WEAK_MEAN_GAP hooks on average; a worker with no more blocks of the
 *     grid has one every WEAK_DRAIN_US while other workers still run), so
 *     that every pair of stores without a fence between them is seen
 *     reversed; those left behind a visible newer store (or a relaxed
 *     atomic) are then held WEAK_HOLD_US of wall-clock time;
 *   - the oldest of them, when the buffer is full;
 *   - one of them, when its own block reads bytes it covers (a block sees
 *     its own stores), or any block of the worker writes them (the later
 *     value must win).  A later block on the same worker reads memory, the
 *     old value, as a block on another worker would.
 * Each buffered store is written as one indivisible access when it is of 1,
 * 2, 4 or 8 naturally aligned bytes: a packed 64-bit status-and-value word
 * is never seen half-written.  Plain (non-volatile) stores and atomics are
 * performed at once.  Every store made visible is told to visible.cpp,
 * which may serve a reader that did not fence the value from before it.
 * README.md, "Memory ordering", says what this catches and what it does not.
 */
#include "internal.h"

#include <string.h>
#include <time.h>

#include <atomic>

namespace cuemu {

bool g_weak_memory;

namespace {

struct Entry {
    uintptr_t addr;
    unsigned size;
    StoreOrigin origin; /* which block stored it, at which epoch, where */
    unsigned char bytes[16];
};

/* One per OS thread; only a worker's is active, the host thread's hooks
 * return at once (host code runs in program order). */
struct StoreBuffer {
    bool active;
    bool pending;            /* a volatile store whose hook ran, not yet undone */
    unsigned pending_size;
    uintptr_t pending_addr;
    uintptr_t pending_pc;
    unsigned char old[16];   /* what the pending store overwrote */
    int n;
    Entry e[WEAK_BUFFER];    /* oldest first */
    StoreOrigin me;          /* the running block; epoch: its device fences */
    unsigned long long rng;
    long countdown;          /* hooks until the next flush of one store */
    long long hold_until;    /* monotonic ns: no random moment before (0: none) */
};

__thread StoreBuffer tl_sb;

unsigned long long next_random(StoreBuffer &b)
{
    b.rng += 0x9e3779b97f4a7c15ull;
    unsigned long long x = b.rng;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

long next_gap(StoreBuffer &b) { return 1 + (long)(next_random(b) % (2 * WEAK_MEAN_GAP)); }

/* One load and one store of a T: a single access on x86-64. */
template <class T> inline void copy_one(void *dst, const void *src)
{
    __atomic_store_n((T *)dst, __atomic_load_n((const T *)src, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
}

/* Copy size bytes as one access where the hardware makes it one (1, 2, 4, 8
 * naturally aligned bytes), so that no reader sees a word half-written. */
void copy_indivisible(void *dst, const void *src, unsigned size)
{
    uintptr_t a = (uintptr_t)dst | (uintptr_t)src;
    if (size == 1)
        copy_one<uint8_t>(dst, src);
    else if (size == 2 && a % 2 == 0)
        copy_one<uint16_t>(dst, src);
    else if (size == 4 && a % 4 == 0)
        copy_one<uint32_t>(dst, src);
    else if (size == 8 && a % 8 == 0)
        copy_one<uint64_t>(dst, src);
    else
        memcpy(dst, src, size);
}

long long now_ns()
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* Tell visible.cpp (with the bytes it replaces, and ahead_pc: an older
 * store it overtakes), then write entry e to memory: in this order, a
 * reader that sees the new bytes finds the record too. */
void publish(const Entry &e, uintptr_t ahead_pc)
{
    unsigned char old[16];
    copy_indivisible(old, (const void *)e.addr, e.size);
    vis_publish(e.addr, e.size, old, e.origin, ahead_pc);
    copy_indivisible((void *)e.addr, e.bytes, e.size);
}

/* Make buffered store i visible and drop it.  An older store of the same
 * block and epoch still held is overtaken: no fence orders the two. */
void flush_entry(StoreBuffer &b, int i)
{
    Entry &e = b.e[i];
    uintptr_t ahead_pc = 0;
    for (int j = 0; j < i; j++)
        if (b.e[j].origin.block_id == e.origin.block_id && b.e[j].origin.epoch == e.origin.epoch)
            ahead_pc = b.e[j].origin.pc;
    publish(e, ahead_pc);
    memmove(&b.e[i], &b.e[i + 1], (size_t)(b.n - i - 1) * sizeof(Entry));
    b.n--;
}

/* A fence or the kernel's end: every held store, oldest first. */
void flush_all(StoreBuffer &b)
{
    for (int i = 0; i < b.n; i++)
        publish(b.e[i], 0);
    b.n = 0;
    b.hold_until = 0;
}

/* A seeded random moment: the newest held store becomes visible, unless a
 * hold lasts.  Newest first is the order most hostile to message passing:
 * every pair of stores without a fence between them is seen reversed.  The
 * older ones left behind stay held for WEAK_HOLD_US of wall-clock time
 * (unless the buffer fills up, a fence or the kernel's end comes first): a
 * block on another worker that reaches its poll a little late must still
 * see the newer store without the older one, whatever the two workers'
 * relative speed. */
void moment(StoreBuffer &b)
{
    b.countdown = next_gap(b);
    if (b.hold_until && now_ns() < b.hold_until)
        return;
    flush_entry(b, b.n - 1);
    b.hold_until = b.n ? now_ns() + WEAK_HOLD_US * 1000ll : 0;
}

/* The pending volatile store has happened: take it back into the buffer. */
void settle(StoreBuffer &b)
{
    b.pending = false;
    if (b.n == WEAK_BUFFER)
        flush_entry(b, 0); /* the oldest: no store is held for ever */
    Entry &e = b.e[b.n++];
    e.addr = b.pending_addr;
    e.size = b.pending_size;
    e.origin = b.me;
    e.origin.order = ++b.me.order;
    e.origin.pc = b.pending_pc;
    copy_indivisible(e.bytes, (const void *)e.addr, e.size);
    copy_indivisible((void *)e.addr, b.old, e.size);
}

/* This worker touches [a, a + size).  A held store there of the running
 * block becomes visible first (a block reads its own writes); one of an
 * earlier block of the worker only if this is a write (whose value must
 * win): a read by another block sees memory, the old value, as it would
 * on another worker.  Then maybe a random moment. */
void touch(StoreBuffer &b, uintptr_t a, unsigned size, bool write)
{
    for (int i = b.n - 1; i >= 0; i--)
        if (b.e[i].addr < a + size && a < b.e[i].addr + b.e[i].size &&
            (write || b.e[i].origin.block_id == b.me.block_id))
            flush_entry(b, i);
    if (b.n && --b.countdown <= 0)
        moment(b);
}

/* The hot path of every access hook: nothing to do in the default mode
 * (one test: no weak memory, counters, watch or recorder), on the host thread, or with
 * an empty buffer.  A counted build tells the counters first (count.cpp). */
__attribute__((noinline)) StoreBuffer *hook_on(uintptr_t a, unsigned size, bool write,
                                                uintptr_t pc, AccessKind kind)
{
    if (write && kind != ACC_ATOMIC && g_watch_len && watched(a, size))
        watch_store(a, size);
    if (g_initcheck_on && kind != ACC_ATOMIC) /* atomics: atomic_hook */
        ic_access(a, size, !write, write, pc);
    if (g_counting)
        count_access(a, size, kind == ACC_LOAD && write ? ACC_STORE : kind, pc);
    if (g_tracing && kind != ACC_ATOMIC) /* atomics: atomic_hook tells it */
        trace_access(a, size, kind == ACC_LOAD && write ? ACC_STORE : kind);
    if (g_traffic)
        traffic_access(a, size, kind == ACC_LOAD && write ? ACC_STORE : kind);
    if (!g_weak_memory)
        return nullptr;
    StoreBuffer &b = tl_sb;
    if (!b.active)
        return nullptr;
    if (b.pending)
        settle(b);
    if (tl_vis_pending)
        vis_restore();
    if (b.n)
        touch(b, a, size, write);
    return &b;
}
/* Out of line, so that the default mode's hook is a test and a return
 * (no registers saved first).  An access outside [g_ic_lo, g_ic_hi), a span
 * set only while initcheck alone needs hooks, is skipped here: hook_on
 * would do nothing for it (find_snap ignores it; everything else is off),
 * and its call was 29 % of NVIDIA's scan sample, whose shared memory and
 * complete buffers are never tracked (16.8 against 11.9 CPU-s a cycle
 * with CUEMU_INITCHECK=off, 2026-11-28). */
inline StoreBuffer *hook(uintptr_t a, unsigned size, bool write, uintptr_t pc = 0,
                         AccessKind kind = ACC_LOAD)
{
    if (__builtin_expect(!g_mem_hooks, 1) || a < g_ic_lo || a >= g_ic_hi)
        return nullptr;
    return hook_on(a, size, write, pc, kind);
}

/* A volatile store to [a, a + size) is about to happen: keep what it
 * overwrites, to take the store back at the next hook (settle).  Not for a
 * volatile local of the thread: its frame may be reused unseen (a push, a
 * spill) before the store would be written back. */
inline void volatile_store_hook(uintptr_t a, unsigned size, uintptr_t pc)
{
    StoreBuffer *b = hook(a, size, true, pc);
    if (!b || on_fiber_stack(a))
        return;
    b->pending = true;
    b->pending_addr = a;
    b->pending_size = size;
    b->pending_pc = pc;
    copy_indivisible(b->old, (const void *)a, size);
}

/* A volatile load of [a, a + size) at pc: visible.cpp may serve it an
 * older value (a load that nothing orders after the flag it follows). */
inline void volatile_load_hook(uintptr_t a, unsigned size, uintptr_t pc)
{
    if (hook(a, size, false, pc))
        vis_load(a, size, pc);
}

/* The newest held store of the running block with the current epoch (no
 * fence since), which a relaxed atomic write overtakes; 0 if none. */
uintptr_t overtaken(const StoreBuffer &b)
{
    for (int i = b.n - 1; i >= 0; i--)
        if (b.e[i].origin.block_id == b.me.block_id && b.e[i].origin.epoch == b.me.epoch)
            return b.e[i].origin.pc;
    return 0;
}

/* An atomic on [a, a + size) at pc with memory order mo (GCC's
 * __ATOMIC_*), which writes memory unless it is a load.  Release or
 * stronger: held stores first, and a new epoch.  A relaxed write is
 * visible at once, ahead of the stores still held: they are held
 * WEAK_HOLD_US (see moment).  Every atomic orders this worker's later
 * loads (visible.cpp's view; looser than CUDA, README.md says why). */
inline void atomic_hook(const volatile void *a, unsigned size, int mo, bool writes, uintptr_t pc,
                        bool reads = true)
{
    if (g_initcheck_on)
        ic_access((uintptr_t)a, size, reads, writes, pc);
    if (writes && g_watch_len && watched((uintptr_t)a, size))
        watch_store((uintptr_t)a, size);
    if (g_tracing)
        trace_access((uintptr_t)a, size, writes ? ACC_ATOMIC : ACC_LOAD);
    StoreBuffer *b = hook((uintptr_t)a, size, true, pc, ACC_ATOMIC);
    if (!b)
        return;
    uintptr_t ahead_pc = 0;
    if ((mo & 0xffff) >= __ATOMIC_RELEASE) {
        flush_all(*b);
        b->me.epoch++;
    } else if (writes && b->n) {
        b->hold_until = now_ns() + WEAK_HOLD_US * 1000ll;
        ahead_pc = overtaken(*b);
    }
    if (writes) {
        StoreOrigin o = b->me;
        o.order = ++b->me.order;
        o.pc = pc;
        vis_publish((uintptr_t)a, size, nullptr, o, ahead_pc);
    }
    vis_acquire();
}

} // namespace

/* ---- interface to the scheduler (internal.h) ----------------------------- */

void mem_block_begin(unsigned long long block)
{
    if (!g_weak_memory)
        return;
    static std::atomic<unsigned long long> ids{0};
    StoreBuffer &b = tl_sb;
    b.active = true;
    if (tl_vis_pending)
        vis_restore();
    Where w = where_now();
    b.me = StoreOrigin{++ids, 0, 0, 0, w.kernel, w.block};
    vis_block_begin(b.me);
    b.rng = settings().memory_seed ^ (block * 0x100000001b3ull);
    b.countdown = next_gap(b); /* a hold, like the buffer, outlives the block */
}

void mem_settle_slow()
{
    StoreBuffer &b = tl_sb;
    if (b.active && b.pending)
        settle(b);
    if (tl_vis_pending)
        vis_restore();
}

void mem_poll()
{
    StoreBuffer &b = tl_sb;
    if (!b.active)
        return;
    if (b.pending)
        settle(b);
    if (tl_vis_pending)
        vis_restore();
    if (b.n && (b.countdown -= WEAK_POLL_TICKS) <= 0)
        moment(b);
}

bool mem_held()
{
    if (!g_weak_memory)
        return false;
    StoreBuffer &b = tl_sb;
    if (b.pending)
        settle(b);
    return b.n > 0;
}

void mem_drain_moment()
{
    StoreBuffer &b = tl_sb;
    if (b.n)
        moment(b);
}

void mem_grid_end()
{
    if (!g_weak_memory)
        return;
    StoreBuffer &b = tl_sb;
    if (b.pending)
        settle(b);
    if (tl_vis_pending)
        vis_restore();
    flush_all(b);
}

void thread_fence(int scope)
{
    if (!g_weak_memory) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        return;
    }
    StoreBuffer &b = tl_sb;
    if (b.active && b.pending)
        settle(b);
    if (tl_vis_pending)
        vis_restore();
    if (b.active && scope != FENCE_BLOCK) { /* the block sees its own stores anyway */
        vis_acquire(); /* before its own stores go: what others stored after them is new */
        flush_all(b);
        b.me.epoch++;
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

} // namespace cuemu

/* ---- the instrumentation's entry points ---------------------------------- */

using cuemu::atomic_hook;
using cuemu::hook;
using cuemu::volatile_load_hook;
using cuemu::volatile_store_hook;
#define CUEMU_PC ((uintptr_t)__builtin_return_address(0))

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}
void __tsan_read_range(void *a, unsigned long size)
{
    hook((uintptr_t)a, (unsigned)size, false, CUEMU_PC, cuemu::ACC_RANGE);
}
void __tsan_write_range(void *a, unsigned long size)
{
    hook((uintptr_t)a, (unsigned)size, true, CUEMU_PC, cuemu::ACC_RANGE);
}

/* A volatile access is a step the lanes of a warp take together
 * (volatile_step), then what CUEMU_MEMORY=weak does with it. */
#define CUEMU_ACCESS(N)                                                                    \
    void __tsan_read##N(void *a) { hook((uintptr_t)a, N, false, CUEMU_PC); }               \
    void __tsan_write##N(void *a) { hook((uintptr_t)a, N, true, CUEMU_PC); }               \
    void __tsan_volatile_read##N(void *a)                                                  \
    {                                                                                      \
        cuemu::volatile_step((uintptr_t)a, false);                                                \
        volatile_load_hook((uintptr_t)a, N, CUEMU_PC);                                     \
    }                                                                                      \
    void __tsan_volatile_write##N(void *a)                                                 \
    {                                                                                      \
        cuemu::volatile_step((uintptr_t)a, true);                                                \
        volatile_store_hook((uintptr_t)a, N, CUEMU_PC);                                    \
    }
CUEMU_ACCESS(1)
CUEMU_ACCESS(2)
CUEMU_ACCESS(4)
CUEMU_ACCESS(8)
CUEMU_ACCESS(16)
#define CUEMU_UNALIGNED(N)                                                                 \
    void __tsan_unaligned_read##N(void *a) { hook((uintptr_t)a, N, false, CUEMU_PC); }     \
    void __tsan_unaligned_write##N(void *a) { hook((uintptr_t)a, N, true, CUEMU_PC); }     \
    void __tsan_unaligned_volatile_read##N(void *a)                                        \
    {                                                                                      \
        cuemu::volatile_step((uintptr_t)a, false);                                                \
        volatile_load_hook((uintptr_t)a, N, CUEMU_PC);                                     \
    }                                                                                      \
    void __tsan_unaligned_volatile_write##N(void *a)                                       \
    {                                                                                      \
        cuemu::volatile_step((uintptr_t)a, true);                                                \
        volatile_store_hook((uintptr_t)a, N, CUEMU_PC);                                    \
    }
CUEMU_UNALIGNED(2)
CUEMU_UNALIGNED(4)
CUEMU_UNALIGNED(8)
CUEMU_UNALIGNED(16)

/* Atomics: performed at once, always sequentially consistent on the CPU;
 * the order the program asked for only decides whether buffered stores are
 * written first (release, acq_rel, seq_cst). */
#define CUEMU_ATOMICS(B, T)                                                                \
    T __tsan_atomic##B##_load(const volatile T *a, int mo)                                 \
    { atomic_hook(a, sizeof(T), mo, false, CUEMU_PC); return __atomic_load_n(a, __ATOMIC_SEQ_CST); }        \
    void __tsan_atomic##B##_store(volatile T *a, T v, int mo)                              \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC, false); __atomic_store_n(a, v, __ATOMIC_SEQ_CST); }           \
    T __tsan_atomic##B##_exchange(volatile T *a, T v, int mo)                              \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); } \
    T __tsan_atomic##B##_fetch_add(volatile T *a, T v, int mo)                             \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }  \
    T __tsan_atomic##B##_fetch_sub(volatile T *a, T v, int mo)                             \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }  \
    T __tsan_atomic##B##_fetch_and(volatile T *a, T v, int mo)                             \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }  \
    T __tsan_atomic##B##_fetch_or(volatile T *a, T v, int mo)                              \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }   \
    T __tsan_atomic##B##_fetch_xor(volatile T *a, T v, int mo)                             \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }  \
    T __tsan_atomic##B##_fetch_nand(volatile T *a, T v, int mo)                            \
    { atomic_hook(a, sizeof(T), mo, true, CUEMU_PC); return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); } \
    int __tsan_atomic##B##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int f) \
    {                                                                                      \
        (void)f;                                                                           \
        atomic_hook(a, sizeof(T), mo, true, CUEMU_PC);                                                     \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    }                                                                                      \
    int __tsan_atomic##B##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int f)  \
    {                                                                                      \
        return __tsan_atomic##B##_compare_exchange_strong(a, c, v, mo, f);                 \
    }                                                                                      \
    T __tsan_atomic##B##_compare_exchange_val(volatile T *a, T c, T v, int mo, int f)      \
    {                                                                                      \
        __tsan_atomic##B##_compare_exchange_strong(a, &c, v, mo, f);                       \
        return c;                                                                          \
    }
CUEMU_ATOMICS(8, unsigned char)
CUEMU_ATOMICS(16, unsigned short)
CUEMU_ATOMICS(32, unsigned int)
CUEMU_ATOMICS(64, unsigned long long)

void __tsan_atomic_thread_fence(int mo)
{
    cuemu::thread_fence(mo >= __ATOMIC_RELEASE ? cuemu::FENCE_DEVICE : cuemu::FENCE_BLOCK);
}
void __tsan_atomic_signal_fence(int) {}
}
