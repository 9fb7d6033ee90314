/*
 * coop.cpp - how many blocks fit on an SM of the emulated H100 (the
 * occupancy API, and the largest cooperative grid), and grid.sync() in a
 * cooperative grid, whose blocks all run at once: each on a worker of its
 * own (sched.cpp starts as many as the grid has blocks).
 */
#include "internal.h"
#include "fiber.h"
#include "device_model.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <sched.h>

namespace cuemu {
using namespace detail;

/* Resident blocks per SM of the emulated H100 (the occupancy API and the
 * limit of a cooperative launch): by threads (2048 per SM, at most 32
 * blocks) and by dynamic shared memory (228 KiB per SM, 1 KiB reserved
 * per block); registers are not modelled. */
int blocks_per_sm(int threads, size_t shmem)
{
    if (threads <= 0 || threads > h100::THREADS_PER_BLOCK)
        return 0;
    int warps = (threads + h100::WARP - 1) / h100::WARP;
    int n = std::min(h100::BLOCKS_PER_SM, h100::THREADS_PER_SM / h100::WARP / warps);
    if (shmem > 0)
        n = std::min<long long>(n, (long long)h100::SHARED_PER_SM /
                                       (long long)(shmem + h100::SHARED_RESERVED));
    return n;
}

bool grid_is_cooperative()
{
    Worker *w = tl_worker;
    return w && w->grid && w->grid->cooperative;
}

/* grid_group::sync(): the block meets at a barrier, then its thread 0
 * waits (holding the worker, as a resident block holds its SM) until every
 * block of the grid has arrived, spinning briefly, then asleep; a second
 * barrier releases the block. */
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
            {
                std::lock_guard<std::mutex> lk(g->sync_mu);
                g->sync_gen.fetch_add(1);
            }
            g->sync_cv.notify_all();
            g_progress.fetch_add(1, std::memory_order_relaxed);
        } else {
            for (int spins = 0; g->sync_gen.load() == gen; spins++) {
                if (g->done.load() > 0)
                    diag_exit("divergent grid sync: block (%u,%u,%u) waits at grid_group::sync() "
                              "(%s:%d), but %llu block(s) of the grid have exited without it",
                              w->block.x, w->block.y, w->block.z, file, line,
                              (unsigned long long)g->done.load());
                if (spins < GRID_SYNC_SPINS) {
                    sched_yield();
                    continue;
                }
                std::unique_lock<std::mutex> lk(g->sync_mu);
                g->sync_cv.wait_for(lk, std::chrono::milliseconds(GRID_SYNC_CHECK_MS), [&] {
                    return g->sync_gen.load() != gen || g->done.load() > 0;
                });
            }
        }
        thread_fence(FENCE_DEVICE);
    }
    block_sync(BAR_PLAIN, 0, file, line);
}

} // namespace cuemu
