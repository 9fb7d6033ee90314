/*
 * where.cpp - where the running CUDA thread is, for the emulator's
 * diagnostics: its kernel, block and thread (where_now), and what an
 * address that faulted belongs to (a fiber's stack or guard page, a block's
 * dynamic shared memory), so that a report names the thread and the buffer
 * instead of a raw address.
 */
#include "internal.h"
#include "fiber.h"

#include <stdio.h>

namespace cuemu {
using namespace detail;

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

} // namespace cuemu
