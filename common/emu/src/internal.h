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

namespace cuemu {

/* Exit status of every diagnostic (out of bounds, divergent barrier,
 * deadlock, device assert): distinct from crashes and ordinary failures. */
enum { DIAG_EXIT = 86 };

enum ScheduleKind { SCHED_INORDER, SCHED_REVERSE, SCHED_RANDOM };
struct Settings {
    ScheduleKind schedule;
    unsigned long long seed;
    int threads;    /* worker OS threads */
    double timeout; /* seconds without progress before a deadlock report */
    size_t stack_bytes;
};
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
/* Describe an address for the fault handler: "4 bytes past the end of a
 * 64-byte device allocation at 0x...".  Returns false if it is not near
 * any device allocation.  Signal-safe (no locks, no allocation). */
bool describe_device_address(uintptr_t addr, char *buf, size_t len);

/* Scheduler hooks used by the fault handler (sched.cpp). */
bool describe_stack_address(uintptr_t addr, char *buf, size_t len);
bool describe_shared_address(uintptr_t addr, char *buf, size_t len);
void install_altstack();
size_t max_dynamic_shared();
void set_max_dynamic_shared(size_t bytes);
int worker_count();

void set_last_error(cudaError_t e);
void init_runtime();

} // namespace cuemu

#endif
