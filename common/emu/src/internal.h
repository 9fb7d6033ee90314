/*
 * internal.h - what the emulator's two halves share: the scheduler
 * (sched.cpp: fibers, blocks, worker threads) and the runtime API
 * (runtime.cpp: memory, events, errors, signal handling).
 */
#ifndef CUEMU_INTERNAL_H
#define CUEMU_INTERNAL_H

#include "cuda_runtime.h"

#include <stddef.h>
#include <stdint.h>

#include "../../cuda_exit.h"

namespace cuemu {

/* Exit status of every diagnostic (out of bounds, divergent barrier,
 * deadlock, device assert): distinct from crashes and ordinary failures;
 * the kit's exit codes are all in common/cuda_exit.h. */
enum { DIAG_EXIT = EMU_DIAGNOSTIC_EXIT };

enum ScheduleKind { SCHED_INORDER, SCHED_REVERSE, SCHED_RANDOM };
struct Settings {
    ScheduleKind schedule;
    bool warp_serial; /* CUEMU_SCHEDULE=warps[-reverse]: a block's warps one at a time */
    unsigned long long seed;
    int threads;    /* worker OS threads */
    double timeout; /* seconds without progress before a deadlock report */
    size_t stack_bytes;
    bool weak_memory;              /* CUEMU_MEMORY=weak (memory.cpp) */
    unsigned long long memory_seed;
    int initcheck;                 /* CUEMU_INITCHECK (initcheck.cpp): INITCHECK_* */
    bool fresh_zero;               /* CUEMU_FRESH=zero: never-written bytes read as 0 */
    double slow_note;              /* CUEMU_SLOW_NOTE (progress.cpp): seconds; 0: off */
    int fastmath;                  /* CUEMU_FASTMATH (fastmath.cpp): FASTMATH_* */
};
enum { INITCHECK_OFF, INITCHECK_WARN, INITCHECK_STOP };
enum { FASTMATH_OFF, FASTMATH_NOTE, FASTMATH_STOP };
/* Exit status of a setting whose value the emulator cannot read (any
 * CUEMU_* of settings.cpp): the run would not be the one asked for, so it
 * stops before the program runs on. */
enum { SETTING_EXIT = EXIT_USAGE };
const Settings &settings();
/* "CUEMU_SCHEDULE=random:42 CUEMU_THREADS=2" - printed with diagnostics so
 * that a failure can be reproduced. */
const char *settings_text();

/* What a diagnostic needs to name the culprit.  Filled by the scheduler
 * for the calling OS thread; has_thread is false on the host thread. */
struct Where {
    bool in_kernel;
    const char *kernel;
    const char *file;
    int line;
    uint3 block, thread;
};
Where where_now();

/* Print "cuemu: error: ..." plus the kernel/block/thread context to stderr
 * and exit with DIAG_EXIT.  Not async-signal-safe; see diag_write(). */
[[noreturn]] void diag_exit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Async-signal-safe variant for the fault handler: message already built. */
[[noreturn]] void diag_exit_raw(const char *msg);

/* Device allocations (runtime.cpp). */
bool is_device_range(const void *p, size_t n);
/* The live device allocation (or registered symbol) holding address a:
 * its start and size.  Cheap on repeated calls (counters, recorder). */
bool device_region_of(uintptr_t a, uintptr_t *base, size_t *size);
/* Describe an address for the fault handler: "4 bytes past the end of a
 * 64-byte device allocation at 0x...".  Returns false if it is not near
 * any device allocation.  Signal-safe (no locks, no allocation). */
bool describe_device_address(uintptr_t addr, char *buf, size_t len);

/* Scheduler hooks used by the fault handler (sched.cpp). */
bool describe_stack_address(uintptr_t addr, char *buf, size_t len);
bool describe_shared_address(uintptr_t addr, char *buf, size_t len);
/* Is addr on the running CUDA thread's own stack?  (memory.cpp never holds
 * back a store there: the frame may be gone, and the stack reused by
 * pushes and spills it cannot see, before the store would be written.) */
bool on_fiber_stack(uintptr_t addr);
/* A CUDA thread is about to make a volatile access of addr: the lanes of
 * its warp take the step together (warp.cpp). */
void volatile_step(uintptr_t addr, bool store);
void install_altstack();
size_t max_dynamic_shared();
void set_max_dynamic_shared(size_t bytes);
/* Resident blocks per emulated SM for a block size and dynamic shared
 * memory (occupancy API, cooperative launches). */
int blocks_per_sm(int threads, size_t shmem);
int worker_count();

/* ---- the scheduler (sched.cpp, warp.cpp) ----------------------------------
 * Tunables, each with its reason:
 *   GUARDED_STACKS_PERCENT: the share of the process's memory mappings
 *     (vm.max_map_count) that fiber stacks with a guard page of their own
 *     may take, two mappings each; device allocations and the C library
 *     need the rest.  16 workers of 1024 threads take 32768 of the default
 *     65530; a cooperative grid that fills the emulated H100 needs far more.
 *   STACKS_PER_ARENA: stacks without a guard page are mapped this many at a
 *     time (one mapping each time).
 *   STACK_CANARY: what the lowest word of a stack without a guard page
 *     holds until an overflow overwrites it.
 *   GRID_SYNC_SPINS: yields a block's thread 0 makes at grid.sync() before
 *     it sleeps on the grid's condition variable: the last blocks arrive
 *     within microseconds, but a cooperative grid may have thousands of
 *     blocks, each holding an OS thread, and sleeping ones cost nothing.
 *   GRID_SYNC_CHECK_MS: a block asleep at grid.sync() is woken when the
 *     grid opens, or when a block of the grid exits (a divergence); it
 *     also wakes this often, in case a wake-up is missed.  Thousands of
 *     sleeping blocks waking often would take the CPU from the others. */
enum { GUARDED_STACKS_PERCENT = 50, STACKS_PER_ARENA = 64, GRID_SYNC_SPINS = 64,
       GRID_SYNC_CHECK_MS = 1000 };
constexpr unsigned long long STACK_CANARY = 0x5afe57acc0ffee11ull;

/* ---- CUEMU_MEMORY=weak (memory.cpp) ------------------------------------
 * Tunables, each with its reason:
 *   WEAK_BUFFER: stores a worker may hold back at once.  Message passing
 *     needs two (value, flag); a few more let unrelated stores interleave,
 *     and a small buffer keeps the overlap search of every access short.
 *   WEAK_MEAN_GAP: accesses between two random moments, on average; at
 *     each, one held store becomes visible.  Short: stores that nothing
 *     orders should not wait long (a chain of 512 lab 6 tiles waits for
 *     each flag in turn).
 *   WEAK_HOLD_US: once a store is visible while older ones of the same
 *     worker are still held (the reordering that breaks message passing
 *     without a fence), the older ones stay held this long (unless a fence,
 *     a full buffer or the kernel's end comes first).  It must exceed how
 *     much later than its predecessor a block of lab 6 reaches its poll
 *     (workers drift apart by up to a few hundred microseconds), or a
 *     missing fence goes unseen; it costs only code that has the bug.
 *   WEAK_POLL_TICKS: a poll (__nanosleep) counts as this many accesses, so
 *     a worker whose block only polls still publishes what it holds.
 *   WEAK_DRAIN_US: a worker out of blocks, while others still run, has a
 *     random moment this often.
 *   VIS_SLOTS: the history of stores made visible (visible.cpp) keeps the
 *     latest one per address in this many slots (a power of two).  A flag
 *     and its value must both still be there when the reader comes, a few
 *     tiles later: lab 6's chain publishes two words per tile; collisions
 *     only make a stale read less likely, never wrong.
 *   VIS_OBSERVED: how many new stores of other blocks a worker remembers
 *     having read since its last fence (the flags it may rely on); lab 7's
 *     look-back reads one status at a time, a few suffice.
 *   VIS_WARNINGS: ordering warnings printed per process, at most (each
 *     pair of lines once): the first tells the story, more are noise. */
enum { WEAK_BUFFER = 8, WEAK_MEAN_GAP = 512, WEAK_HOLD_US = 10000, WEAK_POLL_TICKS = 64,
       WEAK_DRAIN_US = 50, VIS_SLOTS = 4096, VIS_OBSERVED = 8, VIS_WARNINGS = 4 };
extern bool g_weak_memory; /* settings().weak_memory, read on every access */
/* Counted builds (count.cpp): the counters are on.  g_mem_hooks is
 * g_weak_memory || g_counting, the one test every access hook makes. */
extern bool g_counting;
extern bool g_mem_hooks;
/* The output watch (watch.cpp, include/cuemu_watch.h): the range armed
 * (g_watch_len 0: none), a store into it, runtime copies and fills into
 * it, and the launch boundaries at which unseen changes are assigned. */
extern uintptr_t g_watch_lo;
extern size_t g_watch_len;
inline bool watched(uintptr_t a, size_t size)
{
    return a < g_watch_lo + g_watch_len && g_watch_lo < a + size;
}
void watch_store(uintptr_t a, size_t size);
cudaError_t watch_host_copy(const void *dst, size_t n); /* returns cudaSuccess */
void watch_launch_begin();
void watch_launch_end();
/* Reads of never-written device memory (initcheck.cpp).  Tunable, with its
 * reason: INITCHECK_SITES, the lines warned about per process at most
 * (each once; the count of all such reads comes at exit): the first few
 * tell the story, more are noise. */
enum { INITCHECK_SITES = 8 };
/* A long launch says how far it is (progress.cpp, CUEMU_SLOW_NOTE).
 * Tunables, each with its reason:
 *   SLOW_NOTE_DEFAULT_S: seconds a launch runs before its first note.  A
 *     lab's launch or a test program's takes well under a second; a
 *     GPU-sized workload (an 8192^2 matmul) takes minutes to hours, and the
 *     user should learn that before a timeout kills it.
 *   SLOW_NOTE_GROWTH: each later note comes this many times later than the
 *     one before (10 s, 60 s, 6 min, 36 min by default): a few lines even
 *     for a launch of hours, each with a fresher estimate. */
constexpr double SLOW_NOTE_DEFAULT_S = 10, SLOW_NOTE_GROWTH = 6;
/* The host thread waits for launch g, started at start (steady clock
 * seconds), now is now: print the progress note when it is due.  next:
 * when the next one is due (0 before the first); noted: one was printed.
 * At the launch's end, slow_note_launch_end adds a launch without a note
 * to the total of such launches, and notes that total when it is due. */
struct LaunchProgress {
    double start, next;
    bool noted;
};
namespace detail { struct Grid; }
void slow_note_check(const detail::Grid &g, LaunchProgress &p, double now);
void slow_note_launch_end(const detail::Grid &g, const LaunchProgress &p, double now);
extern bool g_initcheck_on; /* a launch with tracked allocations runs: hooks check */
/* While initcheck alone turned the hooks on (no weak memory, counters,
 * recorder, traffic or watch), an access starting outside [g_ic_lo,
 * g_ic_hi) needs no hook (memory.cpp's hook skips it; ic_access would
 * ignore it): otherwise g_ic_lo = 0 and g_ic_hi = UINTPTR_MAX. */
extern uintptr_t g_ic_lo, g_ic_hi;
void ic_alloc(uintptr_t user, size_t size, uintptr_t site, bool managed); /* fills it */
void ic_free(uintptr_t user);
void ic_written(const void *dst, size_t n);               /* cudaMemset, cudaMemcpy */
void ic_copied_from(void *dst, const void *src, size_t n); /* CUEMU_FRESH=zero: 0s out */
void ic_reset();                                          /* cudaDeviceReset */
void ic_launch_begin();
void ic_launch_end();
void ic_access(uintptr_t a, unsigned size, bool read, bool write, uintptr_t pc);
/* cudaMalloc and cudaMallocManaged: site is the caller's return address. */
cudaError_t alloc_device(void **ptr, size_t size, uintptr_t site, bool managed);
/* An access hook's kind, for the counters. */
enum AccessKind { ACC_LOAD, ACC_STORE, ACC_ATOMIC, ACC_RANGE };
/* A device thread's access of [a, a + size) at pc (counted builds). */
void count_access(uintptr_t a, unsigned size, AccessKind kind, uintptr_t pc);
/* The recorder (trace.cpp, CUEMU_TRACE or cuemuTraceStart): on, and a
 * device thread's access (kind ACC_LOAD / ACC_STORE / ACC_ATOMIC: an
 * atomic that writes; an atomic load is ACC_LOAD).
 * Tunables, each with its reason:
 *   TRACE_MAX_EVENTS: events one process records at most; past it the
 *     trace says it was cut short and records nothing more.  A drawn run is
 *     small (N = 16 to 256: a few thousand events); a trace left on for a
 *     large run must not fill the disk.
 *   TRACE_LINE: the longest record line (a kernel's name may be long).
 *   TRACE_DUMP_BYTES: bytes of a named allocation (the input) written with
 *     its name: a drawn run's input is at most a few KiB. */
enum { TRACE_MAX_EVENTS = 2000000, TRACE_LINE = 1024, TRACE_DUMP_BYTES = 65536 };
extern bool g_tracing;
void trace_access(uintptr_t a, unsigned size, AccessKind kind);
/* Global traffic counted (cuemuTrafficStart, trace.cpp): on, and an access. */
extern bool g_traffic;
void traffic_access(uintptr_t a, unsigned size, AccessKind kind);
/* Start recording into path (CUEMU_TRACE at start-up, or the harness). */
bool trace_start(const char *path);
/* A worker starts block b (seeds the flush moments from the memory seed). */
void mem_block_begin(unsigned long long b);
/* A worker stops a fiber (barrier, warp operation, exit): a volatile store
 * just made is taken back into the buffer before another fiber runs. */
void mem_settle_slow();
inline void mem_settle()
{
    if (g_weak_memory)
        mem_settle_slow();
}
/* A fiber polls (__nanosleep): time passes, maybe publish a store. */
void mem_poll();
/* Does this worker hold back stores?  (Settles a pending one first.) */
bool mem_held();
/* The worker has no more blocks of this grid, others still run: maybe
 * publish one held store (as at a random moment). */
void mem_drain_moment();
/* The grid is over (or the worker gives up waiting): publish everything. */
void mem_grid_end();

/* ---- CUEMU_MEMORY=weak, the reader's side (visible.cpp) -------------------
 * Who made a store, for the ordering rules and the warnings: the block run
 * (unique in the process), how many device fences its worker had made when
 * it stored (two stores of one block with the same count have no fence
 * between them), and where. */
struct StoreOrigin {
    unsigned long long block_id;
    unsigned long long epoch;
    unsigned long long order; /* the block's stores and atomic writes, counted */
    uintptr_t pc; /* return address of the access hook, in the storing code */
    const char *kernel;
    uint3 block;
};
/* A store becomes visible to other blocks (memory.cpp: a held volatile
 * store written back, or an atomic that writes).  old: the bytes it
 * replaces (nullptr for an atomic: never served stale).  ahead_pc: an
 * older store of the same block with no fence between is still held (this
 * one overtook it), else 0. */
void vis_publish(uintptr_t addr, unsigned size, const void *old, const StoreOrigin &o,
                 uintptr_t ahead_pc);
/* The worker starts a block; the block's loads are ordered after
 * everything visible now. */
void vis_block_begin(const StoreOrigin &me);
/* A device fence or an atomic of this worker: later loads see everything
 * visible now (the view advances). */
void vis_acquire();
/* A volatile load of [addr, addr + size) is about to happen at pc: maybe
 * serve it an older value (a stale read), and warn about unordered pairs. */
void vis_load(uintptr_t addr, unsigned size, uintptr_t pc);
/* A stale value served by vis_load goes back at the worker's next hook. */
extern __thread bool tl_vis_pending;
void vis_restore();
/* "file.cu:42" for a code address, via addr2line (pcline.cpp). */
void pc_line(uintptr_t pc, char *buf, size_t len);
/* path relative to the working directory when it lies under it
 * ("labs/x/scan.cu"), else path itself, as diagnostics name files. */
const char *relative_path(const char *path);
/* The special-function unit's tables are mapped (mufu.cpp): the
 * exponential and logarithm intrinsics then give a GPU's bits. */
bool mufu_available();

void set_last_error(cudaError_t e);
void init_runtime();

} // namespace cuemu

#endif
