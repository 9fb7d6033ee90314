/* Message passing between two blocks, the question of lab 6 stage 1: block 0
 * hands ROUNDS values to block 1, each with a flag.  Modes:
 *   fence    value, __threadfence(), flag; the reader: flag, fence, value
 *   nofence  the same without either fence (the bug)
 *   atomic   value, __threadfence(), flag by atomicExch; reader polls with
 *            atomicAdd(flag, 0), fence, value
 *   packed   value and flag in one 64-bit word, one volatile store: needs
 *            no fence (the word is indivisible)
 * Needs two blocks running at once (CUEMU_THREADS >= 2 on the emulator).
 * Prints "MODE: stale=K of ROUNDS" (K reads saw the flag but an old value)
 * and "MODE: ok" when K is 0.  Under CUEMU_MEMORY=weak the nofence mode
 * must see stale values; every other mode never may.  Also built with nvcc
 * by tests/gpu/device-message-passing.sh. */
#include "check.h"

#include <string.h>

#define ROUNDS 64
enum { FENCE, NOFENCE, ATOMIC, PACKED };

__global__ void pass(int mode, volatile unsigned int *value, volatile unsigned int *flag,
                     volatile unsigned long long *word, volatile unsigned int *started,
                     unsigned int *stale)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        /* Both blocks must run at once (on the emulator: on two workers). */
        while (*started == 0)
            __nanosleep(32);
        for (unsigned int r = 0; r < ROUNDS; r++) {
            if (mode == PACKED) {
                word[r] = (1ull << 32) | (r + 1000);
                continue;
            }
            value[r] = r + 1000;
            if (mode != NOFENCE)
                __threadfence();
            if (mode == ATOMIC)
                atomicExch((unsigned int *)&flag[r], 1u);
            else
                flag[r] = 1;
        }
        return;
    }
    *started = 1;
    __threadfence();
    unsigned int bad = 0;
    for (unsigned int r = 0; r < ROUNDS; r++) {
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
            if (mode != NOFENCE)
                __threadfence();
            got = value[r];
        }
        bad += got != r + 1000;
    }
    *stale = bad;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"fence", "nofence", "atomic", "packed"};
    int mode = -1;
    for (int m = 0; m < 4; m++)
        if (argc > 1 && !strcmp(argv[1], names[m]))
            mode = m;
    if (mode < 0) {
        fprintf(stderr, "usage: %s fence|nofence|atomic|packed\n", argv[0]);
        return 2;
    }
    unsigned int *value, *flag, *started, *stale, h;
    unsigned long long *word;
    CUDA_OK(cudaMalloc(&value, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&flag, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&word, ROUNDS * sizeof(unsigned long long)));
    CUDA_OK(cudaMalloc(&started, sizeof(unsigned int)));
    CUDA_OK(cudaMalloc(&stale, sizeof(unsigned int)));
    CUDA_OK(cudaMemset(started, 0, sizeof(unsigned int)));
    CUDA_OK(cudaMemset(value, 0, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMemset(flag, 0, ROUNDS * sizeof(unsigned int)));
    CUDA_OK(cudaMemset(word, 0, ROUNDS * sizeof(unsigned long long)));
    pass<<<2, 32>>>(mode, value, flag, word, started, stale);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaMemcpy(&h, stale, sizeof h, cudaMemcpyDeviceToHost));
    printf("%s: stale=%u of %d\n", names[mode], h, ROUNDS);
    EXPECT(h == 0);
    return finish(names[mode]);
}
