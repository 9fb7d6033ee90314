/*
 * fiber.h - the scheduler's state shared by sched.cpp (fibers, workers,
 * grids) and warp.cpp (barriers and warp operations): a CUDA thread is a
 * Fiber, a block's fibers run on one Worker, a launch is a Grid.  Private to
 * common/emu/src.
 */
#ifndef CUEMU_FIBER_H
#define CUEMU_FIBER_H

#include "internal.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

/* A fiber's saved context: its stack pointer (sched.cpp's own switch on
 * x86-64), or Boost.Context's handle elsewhere. */
#if defined(__x86_64__)
typedef void *fcontext_t;
#else
#include <boost/context/detail/fcontext.hpp>
using boost::context::detail::fcontext_t;
#endif

namespace cuemu {
namespace detail {

/* AT_VOLATILE: at a volatile access, waiting for the other lanes of its
 * warp to reach theirs (warp.cpp, volatile_step). */
enum FiberState : unsigned char { RUNNABLE, AT_BARRIER, AT_WARP, AT_ACTIVEMASK, AT_VOLATILE, EXITED };

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
    bool vol_stored;            /* made a volatile store since its warp last met */
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
    std::mutex sync_mu;              /* blocks asleep at grid.sync() wait on sync_cv */
    std::condition_variable sync_cv;
};

struct Worker {
    int id = 0;
    fcontext_t sched = nullptr;
    std::vector<Fiber> fibers;
    std::vector<char *> stacks; /* base (guard page) of each stack */
    std::vector<bool> canaries; /* stack i has a canary instead of a guard page */
    std::vector<unsigned> perm;
    unsigned warp_arrived[32] = {};
    bool warp_mixed[32] = {}; /* waiting lanes of the warp are in different operations */
    unsigned char warp_vol[32] = {}; /* VOL_LOADED | VOL_STORED since the warp last met */
    char *smem_region = nullptr; /* dynamic shared memory + guard page */
    size_t smem_cap = 0;
    size_t smem_filled = 0; /* bytes at the region's end filled with 0xff so far */
    Grid *grid = nullptr;
    unsigned n = 0; /* threads in the current block */
    int nrunnable = 0, nexited = 0, nbarrier = 0, nwarp = 0, nactivemask = 0, nvolatile = 0;
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

/* The settings (settings.cpp), read directly on the scheduler's hot paths
 * once settings() has loaded them. */
extern Settings g_settings;

extern __thread Worker *tl_worker;
extern __thread Fiber *tl_fiber;

/* Blocks finished or barriers opened so far: the deadlock watchdog's sign
 * of progress. */
extern std::atomic<unsigned long long> g_progress;
/* The machine's page size (fiber stacks have a guard page each). */
size_t page_size();

/* When no fiber of a block can run (warp.cpp): open the barrier every live
 * thread waits at, or end the run with a deadlock or divergence report. */
void resolve_stall(Worker *w);
/* __activemask(): give each lane waiting at it its converged group. */
void release_activemask(Worker *w);
/* After a pass: lanes waiting at a volatile access go on in every warp
 * whose other lanes have all stopped (warp.cpp). */
void release_volatile(Worker *w);
/* What the lanes of a warp did with volatile memory since they last met
 * (block start, a barrier, a warp operation of all its lanes): volatile
 * accesses that nobody could tell apart from lockstep need no turns. */
enum { VOL_LOADED = 1, VOL_STORED = 2 };
/* The lanes of warp wi (all of them, or the whole block: wi < 0) have met:
 * what they did with volatile memory before no longer matters. */
void volatile_met(Worker *w, int wi);
/* End the run with a diagnostic about a block (printf-style). */
[[noreturn]] void fail_block(Worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Counted builds (count.cpp; each call only where g_counting): a block of
 * n threads starts, with dynamic shared memory [base, base + bytes); one of
 * its barriers opens; it ends; its grid has finished. */
void count_block_begin(Grid *g, const char *base, size_t bytes, unsigned n);
void count_barrier();
void count_block_end();
void count_launch_end(Grid *g);

/* The recorder (trace.cpp; each call only where g_tracing): a launch
 * begins and ends, a worker starts and ends a block, a barrier opens. */
void trace_launch_begin(Grid *g);
void trace_launch_end(Grid *g);
void trace_block_begin(Grid *g, unsigned long long b, const char *base, size_t bytes);
void trace_barrier();
void trace_block_end();
/* The lanes of mask (of the warp whose lane 0 is thread base) met in a
 * warp operation: what each stored before is ordered before what the
 * others load after (no race between them, though no barrier opened). */
void trace_warp_sync(unsigned base, unsigned mask);
/* Counted builds register static __shared__ arrays (count.cpp): the one
 * of this worker holding a, its start and its number in declaration
 * order, for the recorder. */
bool static_shared_of(uintptr_t a, uintptr_t *lo, int *index);

/* The base of fiber i's stack (its guard page, or the page below its
 * canary), allocated on first use (stacks.cpp). */
char *stack_for(Worker *w, unsigned i);
/* Fiber i has ended: a stack without a guard page must still have its
 * canary, or the run ends with a stack overflow report. */
void check_stack(Worker *w, unsigned i);

/* The running fiber stops here until its scheduler runs it again
 * (sched.cpp): at a barrier, in a warp operation, or to let others run. */
void yield_fiber();
/* The CUDA name of a barrier (BarrierKind) or warp operation (WarpOp). */
const char *op_name(bool warp, int kind);

/* Can a lane waiting in o meet a lane arriving with (kind, mask, arg)?
 * Shuffles of any direction exchange with each other, as on a GPU. */
inline bool compatible(const Fiber *o, WarpOp kind, unsigned mask, int arg)
{
    return o->mask == mask && ((is_shuffle(o->kind) && is_shuffle(kind)) ||
                               (o->kind == kind && (kind != WARP_REDUCE || o->src == arg)));
}

} // namespace detail
} // namespace cuemu

#endif /* CUEMU_FIBER_H */
