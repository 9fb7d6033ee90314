/*
 * boxfs.h - the student's box (work/box, the only folder its code may
 * write) capped as a whole: as root, a tmpfs of a size computed from the
 * suite is mounted on it before it is handed over, so a build or a run
 * that writes many files fills the box and fails, never the machine's disk
 * or memory.  The mount lives in a private mount namespace of the grader's
 * own (boxfs_private), entered for its whole run: the host's mount table
 * never holds it, and it is gone when the grader ends, however it ends.
 *
 * Not root (no mount without a user namespace, and then the grader would
 * not see its own box): only the limit per file (RLIMIT_FSIZE, sandbox.h)
 * applies; docs/design.md section 11 says so.
 */
#ifndef BOXFS_H
#define BOXFS_H

#include <stddef.h>

#include "suite.h"

/* As root: a private mount namespace for this process and its children
 * (unshare(CLONE_NEWNS), every mount made private).  0 when entered; 1 when
 * not root (nothing done); -1 with the reason in why. */
int boxfs_private(char *why, size_t len);

/* The box's size for suite s: BOX_BUILD_BYTES for the builds, plus what
 * the runs may write at once: every correctness case's largest files
 * (case_max_file, judge.h), two of the largest speed test's, or one of
 * every speed test's (the witness runs them in one process), whichever
 * is most. */
unsigned long long boxfs_bytes(const suite *s);

/* Mount a tmpfs of `bytes` on box (mode 0700, no devices, no set-id).
 * Call only after boxfs_private returned 0.  0, or -1 with why. */
int boxfs_mount(const char *box, unsigned long long bytes, char *why, size_t len);

/* Before the scratch folder is removed or kept: with keep, copy what the
 * box holds into the folder beneath the mount (which outlives the
 * grader's namespace), then unmount it.  Nothing when no tmpfs is there. */
void boxfs_release(const char *box, int keep);

#endif /* BOXFS_H */
