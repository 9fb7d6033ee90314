/*
 * rawout.h - a case's raw output file (the harness's PREFIX.bin) read into
 * the grader's own memory, to be judged there.
 *
 * Why a copy and not a mapping: the file is in the student's folder, and
 * the student's programs may still be running while it is judged (the
 * rest of its unit, whose cases are judged as they end: unit.c; the other
 * correctness lanes).  A program that cuts a mapped file short makes the
 * reader's next access to it SIGBUS, which ends the grader; a copy cannot
 * change under it.  A copy of 256 MB took 0.02 s into pages already
 * touched and 0.1 s into fresh ones (against 0.02 s for a populated
 * mapping), so the buffer is kept for the next case.
 */
#ifndef RAWOUT_H
#define RAWOUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t *words; /* the file's words */
    int copies;      /* how many outputs it holds: 1 or 2 */
    int kept;        /* (the buffer kept between cases: raw_release gives it back) */
} raw_out;

/* Read the raw output at path (safefile.h: no link followed, a regular
 * file only), which must hold one or two outputs of `words` words each.
 * 0 with *out filled; -1 otherwise, with *size the bytes found (-1: no
 * file; a file cut short while it was read counts what was read). */
int raw_read(const char *path, size_t words, raw_out *out, long *size);

/* Give back what raw_read took. */
void raw_release(raw_out *out);

#endif /* RAWOUT_H */
