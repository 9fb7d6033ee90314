/*
 * lookback.cuh - the layer that labs 6 and 7 share for a single-pass scan:
 * tile descriptors (a status and 32 bits of value in one 64-bit word),
 * their publication, the pause between two polls, and the device memory
 * that holds them from one launch to the next.  Lab 6 builds its
 * look-back on these words (its TODOs); lab 7's look-back of states
 * (sam_lookback.cuh) is made of several of them per tile.
 */
#ifndef LOOKBACK_CUH
#define LOOKBACK_CUH

#include <string.h>

#include "cuda_check.h"

/* X: nothing published yet; A: the tile's aggregate; P: its inclusive
 * prefix (everything up to and including the tile). */
enum { STATUS_X = 0, STATUS_A = 1, STATUS_P = 2 };

typedef unsigned long long descriptor;

/* One word, so a reader can never see a new status with an old value: a
 * 64-bit aligned store is a single memory transaction.  The value is
 * carried as raw bits, so any 32-bit type travels unchanged. */
template <typename T> __device__ __forceinline__ descriptor pack(unsigned int status, T value)
{
    unsigned int bits;
    memcpy(&bits, &value, sizeof bits);
    return ((descriptor)status << 32) | bits;
}
__device__ __forceinline__ unsigned int status_of(descriptor d) { return (unsigned int)(d >> 32); }
template <typename T> __device__ __forceinline__ T value_of(descriptor d)
{
    unsigned int bits = (unsigned int)d;
    T value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/*
 * Publish a descriptor with one atomic exchange.  An atomic is performed in
 * the L2 cache, where every poll of every SM is served, so pollers see the
 * new status as soon as it is there.  A volatile store of the same word
 * gives the same answers but is much slower (handouts/lab6.md section
 * 4.5): the pollers see it late, and every tile after it waits that much
 * longer.
 */
__device__ __forceinline__ void publish(volatile descriptor *slot, descriptor d)
{
    atomicExch((descriptor *)slot, d);
}

/* Longest pause between two polls, in nanoseconds (0: spin without pausing,
 * the fastest on the GPUs measured: a sleeping poller sees a publication
 * late, and every tile after it waits that much longer). */
#ifndef MAX_BACKOFF_NS
#define MAX_BACKOFF_NS 0
#endif

/* Wait a little between polls: fewer memory requests from spinning blocks,
 * more bandwidth for the blocks doing work.  On the CPU emulator a poll
 * always yields, so the block being waited for gets the CPU sooner. */
__device__ __forceinline__ void back_off(unsigned int *ns)
{
#if MAX_BACKOFF_NS > 0
    __nanosleep(*ns);
    if (*ns < MAX_BACKOFF_NS)
        *ns *= 2;
#elif defined(__CUEMU__)
    __nanosleep(*ns);
#else
    (void)ns;
#endif
}

/*
 * Device scratch (the tile state, a lab's other buffers) kept from one
 * launch to the next and grown when a launch needs more, in one of
 * SCRATCH_SLOTS slots.  A launch then pays for clearing it, not for
 * allocating and freeing it as well, a fixed cost that dominated small
 * scans.  Process exit returns it to the driver.
 */
#define SCRATCH_SLOTS 2
static inline cudaError_t kept_memory(int slot, size_t bytes, char **out)
{
    static char *memory[SCRATCH_SLOTS];
    static size_t capacity[SCRATCH_SLOTS];
    if (bytes > capacity[slot]) {
        if (memory[slot])
            CUDA_TRY(cudaFree(memory[slot])); /* waits for the launches still using it */
        memory[slot] = NULL; /* not left dangling if the allocation below fails */
        capacity[slot] = 0;
        CUDA_TRY(cudaMalloc((void **)&memory[slot], bytes));
        capacity[slot] = bytes;
    }
    *out = memory[slot];
    return cudaSuccess;
}

#endif
