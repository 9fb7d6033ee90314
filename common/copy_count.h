/*
 * copy_count.h - on a GPU, the host copies a graded submission makes while
 * run() executes: bytes copied from the host into the output, fills of the
 * output, bytes of the input copied to the host.  The emulator sees every
 * store (its output watch); a GPU does not, so in a graded GPU binary the
 * submission's own calls of cudaMemcpy* / cudaMemset* are renamed
 * (objcopy --redefine-syms, the Makefile's bin target) to counting
 * versions in common/graded/copy_count.cu.  Elsewhere (the emulator, a
 * student's own build) copy_count_none.c's weak versions count nothing.
 */
#ifndef COPY_COUNT_H
#define COPY_COUNT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most any one call of run() did (-1 each when nothing is counted). */
typedef struct {
    long long to_out;   /* bytes copied from host memory into `out` */
    long long fills;    /* memset calls that touched `out` */
    long long from_in;  /* bytes of `in` copied to host memory */
} copy_counts;

/* Watch these regions (in == NULL: stop watching), from this thread. */
void copy_count_watch(const void *in, size_t in_bytes, const void *out, size_t out_bytes);
/* run() starts: this call's counts from zero. */
void copy_count_begin(void);
/* run() ended: its counts folded into *most (maxima); -1 when not counted. */
int copy_count_end(copy_counts *most);

#ifdef __cplusplus
}
#endif
#endif /* COPY_COUNT_H */
