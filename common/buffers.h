/*
 * buffers.h - a case's device buffers (buffers.cu).  Every buffer is
 * followed on the device by a guard band of GUARD_ELEMS words of
 * GUARD_WORD, and an output starts poisoned (POISON_WORD, check.h): a stray
 * write lands in the band and an element never stored keeps the poison, so
 * the checker can name both.  With --exact (sanitizer runs) there is no
 * band and no poison, so that compute-sanitizer sees the stray access
 * itself; what comes back to the host has the band filled in either way.
 * All sizes are in 32-bit words.
 */
#ifndef BUFFERS_H
#define BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "cli.h"
#include "kinds/kinds.h"

/* --exact on (1) or off (0) for the buffers made after it, and which. */
void buffers_exact(int on);
int buffers_are_exact(void);
/* The guard band's length on the device: GUARD_ELEMS, or 0 with --exact. */
size_t device_guard(void);

/* `bytes` of host memory; a run without them ends with EXIT_HOST_ERROR
 * (graded HOST-ERROR, not CUDA-ERROR) and a message that says it is not
 * the GPU's fault.  Every host allocation of the harness goes through it. */
void *host_alloc(size_t bytes);
/* The same in words. */
uint32_t *host_words(size_t words);

/* The case's input (fenced; encoded for a decode: the input a decode is
 * given) into *in_dev and its poisoned, fenced output of out_words into
 * *out_dev.  in_host is the host's copy of the input (the emulator copies
 * it over; on a GPU the input is made there from o's seed). */
void buffers_make(const cli_opts *o, kind_t kind, const kind_params *k, size_t out_words,
                  const void *in_host, void **in_dev, void **out_dev);

/* A device buffer of n words on the host, n + GUARD_ELEMS words. */
void *copy_back(const void *dev, size_t n);
/* The output of one launch of a `kind` case of n elements (words words
 * without the band) on the host, as copy_back gives it. */
void *copy_back_output(kind_t kind, const void *out, size_t n, dtype_t dtype, size_t words);
/* 1 when two device buffers of `words` words hold the same words. */
int device_same(const void *a, const void *b, size_t words);

/* Is the device input (copied back to `after`, guard band included) what
 * the kernel was given: the data, or for a decode the data encoded? */
int input_unchanged(kind_t kind, const kind_params *k, const cli_opts *o, const void *data,
                    const void *after, size_t words);

/* Before timed call `call` of `calls` (1-based): the previous call's
 * changes of the device input undone, this call's written (perturb.h; a
 * decode's encoded words, the input its kernel reads; keep is a
 * compaction's pred_t, else -1). */
void buffers_perturb(void *in_dev, const cli_opts *o, int keep, int call, int calls);

#endif /* BUFFERS_H */
