/*
 * stacks.cpp - the fiber stacks of a worker: each CUDA thread has its own
 * (CUEMU_STACK_KB), with a guard page below it so that an overflow faults
 * at once, as long as the process's memory mappings allow; beyond that
 * (a cooperative grid that fills the emulated H100 keeps 270336 threads
 * alive at once) with a canary checked when the thread ends.
 */
#include "internal.h"
#include "fiber.h"

#include <atomic>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

namespace cuemu {
namespace detail {

namespace {

/* How many fiber stacks may have a guard page of their own: each takes two
 * of the process's memory mappings, and the kernel allows vm.max_map_count
 * of them (65530 by default) for everything, device allocations included. */
size_t guarded_stack_budget()
{
    const long linux_default = 65530;
    static const size_t budget = [] {
        long limit = linux_default;
        if (FILE *f = fopen("/proc/sys/vm/max_map_count", "r")) {
            if (fscanf(f, "%ld", &limit) != 1)
                limit = linux_default;
            fclose(f);
        }
        return (size_t)(limit / 2 * GUARDED_STACKS_PERCENT / 100);
    }();
    return budget;
}
std::atomic<size_t> g_guarded_stacks{0};

} // namespace

/* Stacks of fiber i and above, as far as needed.  A stack has a guard page
 * below it, so that an overflow faults at once, while the mappings allow
 * (a cooperative grid of 264 blocks of 1024 threads needs 270336 stacks at
 * once); past that, stacks come STACKS_PER_ARENA at a time from one
 * mapping, and a canary at the bottom of each catches an overflow when its
 * fiber ends (check_stack). */
char *stack_for(Worker *w, unsigned i)
{
    size_t len = g_settings.stack_bytes + page_size();
    while (w->stacks.size() <= i) {
        bool guarded = g_guarded_stacks.fetch_add(1) < guarded_stack_budget();
        size_t count = guarded ? 1 : STACKS_PER_ARENA;
        void *p = mmap(nullptr, len * count, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            diag_exit("cannot allocate a fiber stack (%zu bytes)", len * count);
        if (guarded) {
            mprotect(p, page_size(), PROT_NONE); /* guard page: stack overflow faults */
            w->stacks.push_back((char *)p);
            w->canaries.push_back(false);
            continue;
        }
        g_guarded_stacks.fetch_sub(1);
        for (size_t k = 0; k < count; k++) {
            char *base = (char *)p + k * len;
            memcpy(base + page_size(), &STACK_CANARY, sizeof STACK_CANARY);
            w->stacks.push_back(base);
            w->canaries.push_back(true);
        }
    }
    return w->stacks[i];
}

/* A fiber without a guard page has ended: its canary must be intact. */
void check_stack(Worker *w, unsigned i)
{
    if (!w->canaries[i])
        return;
    if (memcmp(w->stacks[i] + page_size(), &STACK_CANARY, sizeof STACK_CANARY))
        diag_exit("stack overflow of a device thread (each CUDA thread has a %zu KiB stack "
                  "here; deep recursion or a large local array?  CUEMU_STACK_KB raises it)",
                  g_settings.stack_bytes / 1024);
}

} // namespace detail
} // namespace cuemu
