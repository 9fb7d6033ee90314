/*
 * raw_out.h - a case's result files for the grader: the raw output
 * (PREFIX.bin), now or after the last case of a witnessed list, and the
 * opening of each (PREFIX.json too: harness.cu).
 *
 * Why later: a witnessed list (--witness --witness-mark, grader/witness.h)
 * is the one run of a grading that holds the GPU while other graders of
 * it wait, from the program's start to its last case's timed launches
 * (witness_window.h).  Writing a case's 2^26-element output took 0.3 s of
 * that on an H200, once for each case but the last; kept in memory and
 * written after the last case, it costs no one else's time.
 */
#ifndef RAW_OUT_H
#define RAW_OUT_H
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Open PREFIX.SUFFIX (its name into path) for writing; a result file that
 * cannot be opened ends the run (EXIT_USAGE). */
FILE *result_open(const char *prefix, const char *suffix, const char *mode, char *path,
                  size_t len);
/* Write PREFIX.bin: count copies of words 32-bit words each.  A file that
 * cannot be written ends the run (the grader then sees no result). */
void raw_write(const char *prefix, void *const *copies, int count, size_t words);
/* The same, kept until raw_flush: the copies become the module's (freed
 * there); the caller's pointers are set to NULL. */
void raw_write_later(const char *prefix, void **copies, int count, size_t words);
/* Write and free every output kept by raw_write_later, in order. */
void raw_flush(void);
#ifdef __cplusplus
}
#endif

#endif /* RAW_OUT_H */
