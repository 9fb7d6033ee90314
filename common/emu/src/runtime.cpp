/*
 * runtime.cpp - the CUDA runtime API on the CPU: device memory with guard
 * pages, memcpy/memset with the checks CUDA makes, events, errors, device
 * properties, and the fault handler that turns a stray access into a
 * diagnostic naming the kernel, block and thread.
 */
#include "internal.h"
#include "device_model.h"

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <signal.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>

namespace cuemu {
namespace {

/* ---- device allocations ------------------------------------------------
 * Each cudaMalloc gets its own mapping: a guard page, the data placed so
 * that its end touches a second guard page, and nothing else.  A read or
 * write just past the end (the usual off-by-one) faults at once. */
struct Region {
    uintptr_t map;     /* start of the mapping (front guard page) */
    size_t map_len;    /* length of the mapping */
    uintptr_t user;    /* what cudaMalloc returned */
    size_t size;       /* what was asked for */
    int state;         /* 0 free slot, 1 live, 2 freed (kept as PROT_NONE), 3 symbol */
};
const int MAX_REGIONS = 1 << 16;
Region g_regions[MAX_REGIONS]; /* read without locks by the fault handler */
int g_nregions = 0;
std::mutex g_mem_mu;
std::map<uintptr_t, int> g_live; /* user address -> region index */
std::atomic<unsigned> g_region_gen{0}; /* changes with every allocation and free */
int g_freed_kept = 0;
const int MAX_FREED_KEPT = 4096;

thread_local cudaError_t g_last_error = cudaSuccess;

size_t page() { return (size_t)sysconf(_SC_PAGESIZE); }

/* Alignment of the data: the largest power of two dividing the size, at most
 * 256 (CUDA's guarantee), so that the end sits flush against the guard page
 * for every element type the size is a multiple of. */
size_t alignment_for(size_t size)
{
    size_t a = 256;
    while (a > 1 && size % a)
        a >>= 1;
    return a;
}

int new_region_slot()
{
    for (int i = 0; i < g_nregions; i++)
        if (g_regions[i].state == 0)
            return i;
    if (g_nregions == MAX_REGIONS)
        return -1;
    return g_nregions++;
}

int find_live(const void *p)
{
    uintptr_t a = (uintptr_t)p;
    auto it = g_live.upper_bound(a);
    if (it == g_live.begin())
        return -1;
    --it;
    Region &r = g_regions[it->second];
    if (a >= r.user && a < r.user + (r.size ? r.size : 1))
        return it->second;
    return -1;
}

struct CUevent_impl {
    long long ns;
    bool recorded;
};

long long now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

/* ---- faults ------------------------------------------------------------- */

void append(char *buf, size_t len, const char *s)
{
    size_t n = strlen(buf);
    while (*s && n + 1 < len)
        buf[n++] = *s++;
    buf[n] = 0;
}

void fault_handler(int sig, siginfo_t *si, void *uctx)
{
    (void)uctx;
    uintptr_t addr = (uintptr_t)si->si_addr;
    Where w = where_now();
    char what[512] = "";
    bool known = describe_device_address(addr, what, sizeof what) ||
                 describe_shared_address(addr, what, sizeof what) ||
                 describe_stack_address(addr, what, sizeof what);
    if (!w.in_kernel && !known) {
        /* An ordinary host-code crash: let it happen as it would without us. */
        signal(sig, SIG_DFL);
        return;
    }
    char msg[1024];
    if (sig == SIGFPE)
        snprintf(msg, sizeof msg, "arithmetic exception (integer division by zero?) in device "
                                  "code; a GPU would not trap here, but the result is garbage");
    else if (known)
        snprintf(msg, sizeof msg, "%s (address %p)", what, (void *)addr);
    else
        snprintf(msg, sizeof msg, "invalid memory access at address %p (a null, host, freed or "
                                  "wild pointer; a GPU reports cudaErrorIllegalAddress)",
                 (void *)addr);
    if (!w.in_kernel) {
        char full[1400] = "cuemu: error: host code: ";
        append(full, sizeof full, msg);
        append(full, sizeof full, "\n");
        diag_exit_raw(full);
    }
    diag_exit_raw(msg);
}

void install_handlers()
{
    install_altstack();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fault_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
    sigaction(SIGFPE, &sa, nullptr);
}

std::once_flag g_init_once;

} // namespace

void install_altstack()
{
    static thread_local char *stack;
    if (stack)
        return;
    size_t len = 64 * 1024;
    stack = (char *)mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    stack_t ss;
    ss.ss_sp = stack;
    ss.ss_size = len;
    ss.ss_flags = 0;
    sigaltstack(&ss, nullptr);
}

void init_runtime()
{
    std::call_once(g_init_once, [] {
        settings();
        install_handlers();
    });
}

void set_last_error(cudaError_t e) { g_last_error = e; }

/* Builds the context lines every diagnostic ends with. */
static void context_text(char *buf, size_t len)
{
    Where w = where_now();
    if (w.in_kernel) {
        if (w.thread.x == ~0u)
            snprintf(buf, len, "in kernel '%s' (launched at %s:%d), block (%u,%u,%u)", w.kernel,
                     w.file, w.line, w.block.x, w.block.y, w.block.z);
        else
            snprintf(buf, len, "in kernel '%s' (launched at %s:%d), block (%u,%u,%u), thread "
                               "(%u,%u,%u)",
                     w.kernel, w.file, w.line, w.block.x, w.block.y, w.block.z, w.thread.x,
                     w.thread.y, w.thread.z);
    } else {
        snprintf(buf, len, "in host code");
    }
}

void diag_exit_raw(const char *msg)
{
    /* Called from the fault handler: only write(2) and _exit(2). */
    char buf[2048] = "";
    if (strncmp(msg, "cuemu: ", 7) != 0) {
        char ctx[512];
        context_text(ctx, sizeof ctx);
        snprintf(buf, sizeof buf, "cuemu: error: %s: %s\ncuemu:   (%s)\n", ctx, msg,
                 settings_text());
    } else {
        snprintf(buf, sizeof buf, "%scuemu:   (%s)\n", msg, settings_text());
    }
    ssize_t r = write(2, buf, strlen(buf));
    (void)r;
    _exit(DIAG_EXIT);
}

void diag_exit(const char *fmt, ...)
{
    char msg[1500];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    diag_exit_raw(msg);
}

bool is_device_range(const void *p, size_t n)
{
    std::lock_guard<std::mutex> lk(g_mem_mu);
    int i = find_live(p);
    if (i < 0)
        return false;
    Region &r = g_regions[i];
    return (uintptr_t)p + n <= r.user + r.size;
}

/* The counters and the recorder ask this of every access: the last
 * answer is kept per OS thread and trusted until an allocation is made or
 * freed (the generation changes), so the lock is taken about once per
 * allocation and thread, not once per access. */
bool device_region_of(uintptr_t a, uintptr_t *base, size_t *size)
{
    static thread_local unsigned gen = ~0u;
    static thread_local uintptr_t lo, hi;
    unsigned now = g_region_gen.load(std::memory_order_acquire);
    if (gen == now && a >= lo && a < hi) {
        *base = lo;
        *size = hi - lo;
        return true;
    }
    std::lock_guard<std::mutex> lk(g_mem_mu);
    int i = find_live((const void *)a);
    if (i < 0)
        return false;
    gen = now;
    lo = g_regions[i].user;
    hi = lo + (g_regions[i].size ? g_regions[i].size : 1);
    *base = lo;
    *size = hi - lo;
    return true;
}

bool describe_device_address(uintptr_t a, char *buf, size_t len)
{
    int n = g_nregions;
    for (int i = 0; i < n; i++) {
        const Region &r = g_regions[i];
        if (r.state != 1 && r.state != 2)
            continue;
        if (a < r.map || a >= r.map + r.map_len)
            continue;
        if (r.state == 2)
            snprintf(buf, len, "access to device memory after cudaFree (an allocation of %zu "
                               "bytes at %p)", r.size, (void *)r.user);
        else if (a >= r.user + r.size)
            snprintf(buf, len, "out-of-bounds access at byte offset %zu of a %zu-byte device "
                               "allocation at %p (valid offsets are 0..%zu)",
                     (size_t)(a - r.user), r.size, (void *)r.user, r.size - 1);
        else if (a < r.user)
            snprintf(buf, len, "out-of-bounds access at byte offset -%zu of a %zu-byte device "
                               "allocation at %p (before its start)",
                     (size_t)(r.user - a), r.size, (void *)r.user);
        else
            continue;
        return true;
    }
    return false;
}

} // namespace cuemu

using namespace cuemu;

/* ---- the API ------------------------------------------------------------ */

extern "C" {

cudaError_t cudaMalloc(void **ptr, size_t size)
{
    return alloc_device(ptr, size, (uintptr_t)__builtin_return_address(0), false);
}

extern "C++" {
namespace cuemu {
cudaError_t alloc_device(void **ptr, size_t size, uintptr_t site, bool managed)
{
    init_runtime();
    if (!ptr)
        return g_last_error = cudaErrorInvalidValue;
    size_t ps = page();
    size_t data = (size + ps - 1) / ps * ps;
    if (data == 0)
        data = ps;
    size_t len = data + 2 * ps;
    void *m = mmap(nullptr, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        *ptr = nullptr;
        return g_last_error = cudaErrorMemoryAllocation;
    }
    uintptr_t map = (uintptr_t)m;
    mprotect((void *)map, ps, PROT_NONE);
    mprotect((void *)(map + ps + data), ps, PROT_NONE);
    size_t al = alignment_for(size);
    uintptr_t end = map + ps + data;
    uintptr_t user = (end - size) & ~(uintptr_t)(al - 1);
    std::lock_guard<std::mutex> lk(g_mem_mu);
    int slot = new_region_slot();
    if (slot < 0) {
        munmap(m, len);
        *ptr = nullptr;
        return g_last_error = cudaErrorMemoryAllocation;
    }
    /* Filled as CUEMU_FRESH says, and tracked for reads nothing wrote. */
    ic_alloc(user, size, site, managed);
    g_regions[slot] = Region{map, len, user, size, 1};
    g_live[user] = slot;
    g_region_gen.fetch_add(1, std::memory_order_release);
    *ptr = (void *)user;
    return cudaSuccess;
}
} // namespace cuemu
} // extern "C++"

cudaError_t cudaFree(void *ptr)
{
    init_runtime();
    if (!ptr)
        return cudaSuccess;
    std::lock_guard<std::mutex> lk(g_mem_mu);
    auto it = g_live.find((uintptr_t)ptr);
    if (it == g_live.end() || g_regions[it->second].state != 1)
        return g_last_error = cudaErrorInvalidValue;
    Region &r = g_regions[it->second];
    g_live.erase(it);
    g_region_gen.fetch_add(1, std::memory_order_release);
    ic_free(r.user);
    if (g_freed_kept < MAX_FREED_KEPT) {
        /* Keep the addresses reserved, inaccessible, so use-after-free faults. */
        mmap((void *)r.map, r.map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
        r.state = 2;
        g_freed_kept++;
    } else {
        munmap((void *)r.map, r.map_len);
        r.state = 0;
    }
    return cudaSuccess;
}


cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    init_runtime();
    if (!ptr)
        return g_last_error = cudaErrorInvalidValue;
    *ptr = aligned_alloc(256, (size + 255) / 256 * 256 + 256);
    return *ptr ? cudaSuccess : (g_last_error = cudaErrorMemoryAllocation);
}
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    return cudaMallocHost(ptr, size);
}
cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind)
{
    init_runtime();
    if (count == 0)
        return cudaSuccess;
    if (!dst || !src)
        return g_last_error = cudaErrorInvalidValue;
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if ((int)kind < 0 || (int)kind > 4)
        return g_last_error = cudaErrorInvalidMemcpyDirection;
    if (kind == cudaMemcpyDefault) {
        /* Unified addressing: either side may be device memory; a range that
         * starts in an allocation must end in it. */
        std::lock_guard<std::mutex> lk(g_mem_mu);
        int d = find_live(dst), s = find_live(src);
        if ((d >= 0 && (uintptr_t)dst + count > g_regions[d].user + g_regions[d].size) ||
            (s >= 0 && (uintptr_t)src + count > g_regions[s].user + g_regions[s].size))
            return g_last_error = cudaErrorInvalidValue;
    } else {
        if (dst_dev && !is_device_range(dst, count))
            return g_last_error = cudaErrorInvalidValue;
        if (src_dev && !is_device_range(src, count))
            return g_last_error = cudaErrorInvalidValue;
    }
    memmove(dst, src, count);
    ic_copied_from(dst, src, count); /* never-written bytes copy as CUEMU_FRESH says */
    ic_written(dst, count);
    return watch_host_copy(dst, count); /* cudaSuccess, once the output watch knows */
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemset(void *ptr, int value, size_t count)
{
    init_runtime();
    if (count == 0)
        return cudaSuccess;
    if (!is_device_range(ptr, count))
        return g_last_error = cudaErrorInvalidValue;
    memset(ptr, value, count);
    ic_written(ptr, count);
    return watch_host_copy(ptr, count); /* cudaSuccess, once the output watch knows */
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t count, cudaStream_t stream)
{
    (void)stream;
    return cudaMemset(ptr, value, count);
}

cudaError_t cuemu_memcpy_symbol(void *dst, const void *src, size_t count, int mode)
{
    if (mode == 2)
        return g_last_error = cudaErrorInvalidValue;
    if (count)
        memmove(dst, src, count);
    return watch_host_copy(dst, count); /* (a symbol is never watched) */
}

cudaError_t cuemu_register_symbol(void *addr, size_t size)
{
    std::lock_guard<std::mutex> lk(g_mem_mu);
    if (find_live(addr) >= 0)
        return cudaSuccess;
    int slot = new_region_slot();
    if (slot < 0)
        return g_last_error = cudaErrorMemoryAllocation;
    g_regions[slot] = Region{0, 0, (uintptr_t)addr, size, 3};
    g_live[(uintptr_t)addr] = slot;
    g_region_gen.fetch_add(1, std::memory_order_release);
    return cudaSuccess;
}

cudaError_t cuemu_set_max_dynamic_shared(int bytes)
{
    if (bytes < 0 || bytes > (int)h100::SHARED_OPTIN)
        return g_last_error = cudaErrorInvalidValue;
    if ((size_t)bytes > max_dynamic_shared())
        set_max_dynamic_shared((size_t)bytes);
    return cudaSuccess;
}

/* Kernels run to completion inside the launch, so there is never anything
 * to wait for. */
cudaError_t cudaDeviceSynchronize(void)
{
    init_runtime();
    return cudaSuccess;
}

cudaError_t cudaDeviceReset(void)
{
    std::lock_guard<std::mutex> lk(g_mem_mu);
    for (auto &kv : g_live) {
        Region &r = g_regions[kv.second];
        if (r.state == 1) {
            munmap((void *)r.map, r.map_len);
            r.state = 0;
        } else if (r.state == 3) {
            r.state = 0;
        }
    }
    g_live.clear();
    ic_reset();
    g_last_error = cudaSuccess;
    return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = g_last_error;
    g_last_error = cudaSuccess;
    return e;
}
cudaError_t cudaPeekAtLastError(void) { return g_last_error; }

cudaError_t cudaGetDeviceCount(int *count)
{
    init_runtime();
    if (!count)
        return g_last_error = cudaErrorInvalidValue;
    *count = 1;
    return cudaSuccess;
}
cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return g_last_error = cudaErrorInvalidValue;
    *device = 0;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device)
{
    init_runtime();
    return device == 0 ? cudaSuccess : (g_last_error = cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int device)
{
    init_runtime();
    if (!p)
        return g_last_error = cudaErrorInvalidValue;
    if (device != 0)
        return g_last_error = cudaErrorInvalidDevice;
    memset(p, 0, sizeof *p);
    using namespace h100;
    snprintf(p->name, sizeof p->name, "cuemu CPU emulator (an H100 SXM's properties, %d worker threads)",
             worker_count());
    long pages = sysconf(_SC_PHYS_PAGES);
    p->totalGlobalMem = pages > 0 ? (size_t)pages * page() : (size_t)8 << 30;
    p->sharedMemPerBlock = SHARED_PER_BLOCK;
    p->sharedMemPerBlockOptin = SHARED_OPTIN;
    p->sharedMemPerMultiprocessor = SHARED_PER_SM;
    p->reservedSharedMemPerBlock = SHARED_RESERVED;
    p->regsPerBlock = REGS_PER_BLOCK;
    p->regsPerMultiprocessor = REGS_PER_SM;
    p->warpSize = WARP;
    p->memPitch = MEM_PITCH;
    p->maxThreadsPerBlock = THREADS_PER_BLOCK;
    p->maxThreadsDim[0] = BLOCK_DIM_XY;
    p->maxThreadsDim[1] = BLOCK_DIM_XY;
    p->maxThreadsDim[2] = BLOCK_DIM_Z;
    p->maxGridSize[0] = GRID_X;
    p->maxGridSize[1] = GRID_YZ;
    p->maxGridSize[2] = GRID_YZ;
    p->clockRate = CLOCK_KHZ;
    p->totalConstMem = CONST_MEM;
    p->major = CC_MAJOR;
    p->minor = CC_MINOR;
    p->textureAlignment = TEXTURE_ALIGN;
    p->texturePitchAlignment = TEXTURE_PITCH_ALIGN;
    p->deviceOverlap = 1;
    p->multiProcessorCount = SMS; /* not worker_count(): README, "Compared with a GPU" */
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->asyncEngineCount = COPY_ENGINES;
    p->unifiedAddressing = 1;
    p->memoryClockRate = MEM_CLOCK_KHZ;
    p->memoryBusWidth = MEM_BUS_BITS;
    p->l2CacheSize = L2_BYTES;
    p->persistingL2CacheMaxSize = L2_PERSIST;
    p->accessPolicyMaxWindowSize = ACCESS_WINDOW;
    p->maxThreadsPerMultiProcessor = THREADS_PER_SM;
    p->maxBlocksPerMultiProcessor = BLOCKS_PER_SM;
    p->managedMemory = 1;          /* cudaMallocManaged (device_api.cpp) */
    p->cooperativeLaunch = 1;      /* cudaLaunchCooperativeKernel, grid.sync() */
    p->concurrentManagedAccess = 1;
    p->pageableMemoryAccess = 1;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *v) { *v = CUDART_VERSION; return cudaSuccess; }
cudaError_t cudaRuntimeGetVersion(int *v) { *v = CUDART_VERSION; return cudaSuccess; }

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES);
    if (total_bytes)
        *total_bytes = (size_t)pages * page();
    if (free_bytes)
        *free_bytes = (size_t)avail * page();
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    init_runtime();
    if (!event)
        return g_last_error = cudaErrorInvalidValue;
    *event = (cudaEvent_t) new CUevent_impl{0, false};
    return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    (void)flags;
    return cudaEventCreate(event);
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    (void)stream;
    if (!event)
        return g_last_error = cudaErrorInvalidResourceHandle;
    CUevent_impl *e = (CUevent_impl *)event;
    e->ns = now_ns();
    e->recorded = true;
    return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event ? cudaSuccess : (g_last_error = cudaErrorInvalidResourceHandle);
}
/* All work recorded before an event has finished by the time the record
 * call returns (launches are synchronous), so a query always succeeds. */
cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event ? cudaSuccess : (g_last_error = cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    if (!ms || !start || !end)
        return g_last_error = cudaErrorInvalidValue;
    CUevent_impl *a = (CUevent_impl *)start, *b = (CUevent_impl *)end;
    if (!a->recorded || !b->recorded)
        return g_last_error = cudaErrorInvalidResourceHandle;
    *ms = (float)((double)(b->ns - a->ns) / 1e6);
    return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    delete (CUevent_impl *)event;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    if (!stream)
        return g_last_error = cudaErrorInvalidValue;
    *stream = (cudaStream_t) new char[1];
    return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    (void)flags;
    return cudaStreamCreate(stream);
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) { (void)stream; return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t stream) { (void)stream; return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    delete[] (char *)stream;
    return cudaSuccess;
}

/* A failed assert() in device code stops the program with the CUDA thread
 * named; in host code it behaves as glibc's does. */
void __assert_fail(const char *expr, const char *file, unsigned int line, const char *func) noexcept
{
    Where w = where_now();
    if (w.in_kernel)
        diag_exit("device assertion `%s' failed at %s:%u in %s (a GPU would report "
                  "cudaErrorAssert)", expr, file, line, func);
    fflush(stdout);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, func, expr);
    abort();
}

} /* extern "C" */
