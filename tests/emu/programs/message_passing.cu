/* Message passing between two blocks, the question of lab 6 stage 1: in
 * each of ROUNDS launches block 0 hands a value to block 1 with a flag.
 * Modes:
 *   fence    value, __threadfence(), flag; the reader: flag, fence, value
 *   nofence  the same without either fence (the bug)
 *   atomic   value, __threadfence(), flag by atomicExch; reader polls with
 *            atomicAdd(flag, 0), fence, value
 *   relaxed  value, then flag by atomicExch, no fence: a relaxed atomic does
 *            not order the store before it (the bug, in atomic dress)
 *   packed   value and flag in one 64-bit word, one volatile store: needs
 *            no fence (the word is indivisible)
 *   reader   the writer fences, the reader does not: its load of the value
 *            may be served before its load of the flag (the bug, reader's side)
 *   warp     each lane of a warp stores its own value and fences, then
 *            __syncwarp() and lane 0 publishes the flag with atomicExch;
 *            the reader checks all WARP values (lab 7's publication)
 *   warpnofence  the same without the lanes' fence: __syncwarp orders the
 *            lanes' stores only inside the block, and atomicExch is relaxed
 * Needs two blocks running at once (CUEMU_THREADS >= 2 on the emulator).
 * Prints "MODE: stale=K of ROUNDS" (K rounds saw the flag but an old value)
 * and "MODE: ok" when K is 0.  Under CUEMU_MEMORY=weak the nofence,
 * relaxed, reader and warpnofence modes must see stale values; the others
 * never may.  Also built with nvcc by tests/gpu/device-message-passing.sh. */
#include "check.h"

#include <string.h>

#define ROUNDS 16
#define WARP 32
enum { FENCE, NOFENCE, ATOMIC, RELAXED, PACKED, READER, WARPED, WARPNOFENCE, MODES };

/* The warp modes' writer: every lane stores its own value of round r, then
 * (warp) fences, then lane 0 publishes the flag once the warp has stored. */
__device__ void warp_writer(int mode, unsigned int r, volatile unsigned int *value,
                            volatile unsigned int *flag)
{
    const unsigned int lane = threadIdx.x % WARP;
    value[r * WARP + lane] = 1000 * (r + 1) + lane;
    if (mode == WARPED)
        __threadfence();
    __syncwarp();
    if (lane == 0)
        atomicExch((unsigned int *)&flag[r], 1u);
}

/* The warp modes' reader (thread 0): flag, fence, then every lane's value;
 * true if any is old. */
__device__ bool warp_reader(unsigned int r, volatile unsigned int *value,
                            volatile unsigned int *flag)
{
    while (flag[r] == 0)
        __nanosleep(32);
    __threadfence();
    bool old = false;
    for (unsigned int lane = 0; lane < WARP; lane++)
        old |= value[r * WARP + lane] != 1000 * (r + 1) + lane;
    return old;
}

/* Launch r: block 0 hands value r to block 1 through slot r.  Both blocks
 * must run at once (on the emulator: on two workers), so block 1 announces
 * itself first and block 0 waits for it. */
__global__ void pass(int mode, unsigned int r, volatile unsigned int *value,
                     volatile unsigned int *flag, volatile unsigned long long *word,
                     volatile unsigned int *started, unsigned int *stale)
{
    const bool warped = mode == WARPED || mode == WARPNOFENCE;
    if (blockIdx.x == 0 && warped) {
        while (started[r] == 0)
            __nanosleep(32);
        warp_writer(mode, r, value, flag);
        return;
    }
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        while (started[r] == 0)
            __nanosleep(32);
        if (mode == PACKED) {
            word[r] = (1ull << 32) | (r + 1000);
            return;
        }
        value[r] = r + 1000;
        if (mode == FENCE || mode == ATOMIC || mode == READER)
            __threadfence();
        if (mode == ATOMIC || mode == RELAXED)
            atomicExch((unsigned int *)&flag[r], 1u);
        else
            flag[r] = 1;
        return;
    }
    started[r] = 1;
    __threadfence();
    if (warped) {
        if (warp_reader(r, value, flag))
            atomicAdd(stale, 1u);
        return;
    }
    unsigned int got;
    if (mode == PACKED) {
        unsigned long long w;
        while (((w = word[r]) >> 32) == 0)
            __nanosleep(32);
        got = (unsigned int)w;
    } else {
        if (mode == ATOMIC)
            while (atomicAdd((unsigned int *)&flag[r], 0u) == 0)
                __nanosleep(32);
        else
            while (flag[r] == 0)
                __nanosleep(32);
        if (mode == FENCE || mode == ATOMIC)
            __threadfence();
        got = value[r];
    }
    if (got != r + 1000)
        atomicAdd(stale, 1u);
}

int main(int argc, char **argv)
{
    static const char *const names[MODES] = {"fence",  "nofence", "atomic", "relaxed",
                                             "packed", "reader",  "warp",   "warpnofence"};
    int mode = -1;
    for (int m = 0; m < MODES; m++)
        if (argc > 1 && !strcmp(argv[1], names[m]))
            mode = m;
    if (mode < 0) {
        fprintf(stderr, "usage: %s fence|nofence|atomic|relaxed|packed|reader|warp|"
                        "warpnofence\n", argv[0]);
        return 2;
    }
    unsigned int *value, *flag, *started, *stale, h;
    unsigned long long *word;
    CUDA_OK(cudaMalloc(&value, ROUNDS * WARP * sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&flag, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&word, ROUNDS * sizeof(unsigned long long)));
    CUDA_OK(cudaMalloc(&started, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&stale, sizeof(unsigned int)));
    CUDA_OK(cudaMemset(started, 0, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMemset(stale, 0, sizeof(unsigned int)));
    CUDA_OK(cudaMemset(value, 0, ROUNDS * WARP * sizeof(unsigned int)));
    CUDA_OK(cudaMemset(flag, 0, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMemset(word, 0, ROUNDS * sizeof(unsigned long long)));
    for (unsigned int r = 0; r < ROUNDS; r++) {
        pass<<<2, 32>>>(mode, r, value, flag, word, started, stale);
        CUDA_OK(cudaGetLastError());
    }
    CUDA_OK(cudaMemcpy(&h, stale, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s: stale=%u of %d\n", names[mode], h, ROUNDS);
    EXPECT(h == 0);
    return finish(names[mode]);
}
