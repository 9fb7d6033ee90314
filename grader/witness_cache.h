/*
 * witness_cache.h - the reference's witnessed clock ratio, kept between
 * gradings.
 *
 * A witnessed speed test needs, besides the submission's run under ncu,
 * the reference's: the ratio of the reference's median on the CUDA events'
 * clock to its kernels' time seen by ncu turns the submission's ncu time
 * into the events' clock (speed_witness.c).  That ratio depends only on the
 * reference binary, the GPU model, ncu and the case, not on the
 * submission, so it is measured once and kept, as the reference build is:
 * every later grading on that GPU starts ncu for the submission alone.  A ratio, not a time, is kept, so a GPU that runs warmer or cooler
 * today moves both of its terms and leaves it where it was.
 *
 * Trust: the entries are written by the grader from the reference's own
 * runs, in the kit's build folder, which students' code never sees (the
 * sandbox's view masks the kit) and whose key names no value a submission
 * reports (the GPU's name comes from the reference's process).  An entry
 * is read back only when its first line is the whole key, so a hash
 * collision or a truncated file is a miss, never a wrong ratio.
 * GRADE_WITNESS_CACHE=off measures the reference every time (for
 * measuring the cache itself).
 */
#ifndef WITNESS_CACHE_H
#define WITNESS_CACHE_H
#include <stddef.h>

#include "judge.h"

/* The pieces of a kept value's key, appended to key (used bytes so far):
 * the binary at path as it is on disk ("path|size|inode|mtime|": a
 * rebuild is another key), and case c's command as plan runs it (its
 * words, blank-separated).  The new length, or -1 when path cannot be
 * looked at or the key would not fit. */
int cache_key_binary(char *key, size_t len, int used, const char *path);
int cache_key_case(char *key, size_t len, int used, const run_plan *plan, const suite_case *c);

/* The key of case c for the reference binary ref (identified by its size,
 * inode and modification time, so a rebuild starts afresh), on the GPU the
 * reference reported (device), witnessed by ncu (its real path) with
 * reps and warmup calls.  0, or -1 when ref or ncu cannot be looked at. */
int witness_cache_key(char *key, size_t len, const char *ref, const char *device, const char *ncu,
                      const suite_case *c, int reps, int warmup);

/* The kept ratio for key, from the folder dir: 0 with *ratio set, or -1
 * (no entry, a damaged one, or the cache switched off). */
int witness_cache_get(const char *dir, const char *key, double *ratio);

/* Keep ratio for key in dir (made if missing), written whole or not at
 * all (a temporary file renamed into place: gradings running at once see
 * one or the other).  Silent on failure: the next grading measures again. */
void witness_cache_put(const char *dir, const char *key, double ratio);

#endif /* WITNESS_CACHE_H */
